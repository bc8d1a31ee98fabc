// swift-tools-version:6.0
import PackageDescription

// Builds and tests the manifest module alone, as an app that depends on cardbake's
// CardBakeManifest product would: `make test` runs it with pkg-config unable to find libvips,
// Pango or fontconfig, so any dependency on them fails the build.
let package = Package(
    name: "ManifestOnly",
    dependencies: [.package(name: "cardbake", path: "../..")],
    targets: [
        .testTarget(
            name: "CardBakeManifestTests",
            dependencies: [.product(name: "CardBakeManifest", package: "cardbake")]
        ),
    ]
)
