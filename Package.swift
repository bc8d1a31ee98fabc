// swift-tools-version:6.0
import PackageDescription

// The targets follow the data's path; each depends only on the ones above it in this list.
// docs/ARCHITECTURE.md draws the graph and says where each concern lives.
let package = Package(
    name: "cardbake",
    products: [
        .executable(name: "cardbake", targets: ["cardbake"]),
        // The pipeline, for tools that build cards from Swift.
        .library(name: "CardBake", targets: ["CardBake"]),
        // What an app reads: the manifest's types. Foundation only; no libvips, Pango or C code.
        .library(name: "CardBakeManifest", targets: ["CardBakeManifest"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
    ],
    targets: [
        // The manifest: its types, reading and writing, the schema version.
        .target(name: "CardBakeManifest"),
        // File-system primitives: atomic writes, locks, the write journal, stat, path normalisation.
        .target(name: "CardBakeFiles", dependencies: [.product(name: "SystemPackage", package: "swift-system")]),
        // Keys, the stat cache, and the action cache and content store behind ArtifactStore.
        .target(
            name: "CardBakeCache",
            dependencies: [
                "CardBakeFiles",
                "CardBakeManifest",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The remote cache over HTTP (bazel-remote's layout), a tier behind the local cache.
        .target(
            name: "CardBakeRemoteCache",
            dependencies: [
                "CardBakeCache",
                "CardBakeFiles",
                "CardBakeManifest",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // The catalog: JSON with positions, schema, validation, styles and their fingerprints.
        .target(name: "CardBakeCatalog", dependencies: ["CardBakeCache", "CardBakeFiles", "CardBakeManifest"]),
        // Rendering: one card's inputs in, its bitmaps out (libvips, Pango).
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        .systemLibrary(
            name: "CPangoCairo",
            pkgConfig: "pangocairo",
            providers: [.apt(["libpango1.0-dev", "libfontconfig-dev"])]
        ),
        .target(name: "CVipsShim", dependencies: ["CVips"]),
        .target(name: "CTextRaster", dependencies: ["CPangoCairo"], linkerSettings: [.linkedLibrary("fontconfig")]),
        .target(name: "Vips", dependencies: ["CVips", "CVipsShim"]),
        .target(
            name: "CardBakeRender",
            dependencies: ["CardBakeCatalog", "CardBakeCache", "CardBakeFiles", "CardBakeManifest", "Vips", "CTextRaster"]
        ),
        // The pipeline: plan → look up → render → store → write.
        .target(
            name: "CardBake",
            dependencies: ["CardBakeRender", "CardBakeCatalog", "CardBakeCache", "CardBakeFiles", "CardBakeManifest", "Vips"]
        ),
        // The command line.
        .systemLibrary(name: "CMalloc"),
        .executableTarget(
            name: "cardbake",
            dependencies: [
                "CardBake",
                "CardBakeCache",
                "CardBakeCatalog",
                "CardBakeFiles",
                "CardBakeRemoteCache",
                "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "CardBakeManifestTests", dependencies: ["CardBakeManifest"]),
        .testTarget(
            name: "CardBakeTests",
            dependencies: ["CardBake", "CardBakeRender", "CardBakeCatalog", "CardBakeCache", "CardBakeFiles",
                           "CardBakeManifest", "CardBakeRemoteCache", "Vips"]
        ),
        .testTarget(
            name: "cardbakeTests",
            dependencies: ["CardBake", "CardBakeCatalog", "CardBakeCache", "CardBakeFiles", "CardBakeManifest", "CardBakeRemoteCache",
                           "cardbake"]
        ),
    ]
)
