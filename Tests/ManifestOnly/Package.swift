// swift-tools-version:6.0
import PackageDescription

// Builds and tests the app's side alone, as an app that depends on cardbake's CardBakeKit product
// would: `make test-manifest-alone` runs it with pkg-config unable to find libvips, Pango or
// fontconfig, so any dependency on them fails the build.
let package = Package(
    name: "ManifestOnly",
    dependencies: [.package(name: "cardbake", path: "../..")],
    targets: [
        .testTarget(
            name: "CardBakeManifestTests",
            dependencies: [.product(name: "CardBakeKit", package: "cardbake")]
        ),
        .testTarget(
            name: "CardBakeKitTests",
            dependencies: [.product(name: "CardBakeKit", package: "cardbake")]
        ),
    ]
)
