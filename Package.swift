// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "cardbake",
    products: [
        .executable(name: "cardbake", targets: ["cardbake"]),
        .library(name: "CardBake", targets: ["CardBake"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        .systemLibrary(
            name: "CVips",
            pkgConfig: "vips",
            providers: [.apt(["libvips-dev"])]
        ),
        .systemLibrary(
            name: "CPangoCairo",
            pkgConfig: "pangocairo",
            providers: [.apt(["libpango1.0-dev", "libfontconfig-dev"])]
        ),
        .systemLibrary(name: "CMalloc"),
        .target(name: "CVipsShim", dependencies: ["CVips"]),
        .target(
            name: "CTextRaster",
            dependencies: ["CPangoCairo"],
            linkerSettings: [.linkedLibrary("fontconfig")]
        ),
        .target(name: "Vips", dependencies: ["CVips", "CVipsShim"]),
        .target(
            name: "CardBake",
            dependencies: [
                "Vips",
                "CTextRaster",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .executableTarget(
            name: "cardbake",
            dependencies: [
                "CardBake",
                "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "CardBakeTests", dependencies: ["CardBake", "Vips"]),
        .testTarget(name: "cardbakeTests", dependencies: ["CardBake", "cardbake"]),
    ]
)
