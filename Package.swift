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
        // What an app links: the manifest's types, scale choice, ThumbHash, file verification.
        // Foundation only; no libvips, Pango, libcrypto, libcurl or any C code. Static, as an app links an
        // automatic product anyway, so that `swift build --product CardBakeKit` builds it alone
        // (SwiftPM builds the whole package for an automatic product).
        .library(name: "CardBakeKit", type: .static, targets: ["CardBakeKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
    ],
    targets: [
        // The manifest: its types, reading and writing, the schema version.
        .target(name: "CardBakeManifest"),
        // The app's side of the manifest: scale choice, the ThumbHash codec, SHA-256 in Swift. Re-exports the manifest.
        .target(name: "CardBakeKit", dependencies: ["CardBakeManifest"]),
        // File-system primitives: atomic writes, locks, the write journal, stat, path normalisation.
        .target(
            name: "CardBakeFiles",
            dependencies: [
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        // SHA-256 from the system's OpenSSL (SHA-NI/AVX2 code), for keys and content digests.
        .systemLibrary(name: "CLibcrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // Keys, the stat cache, and the action cache and content store behind ArtifactStore.
        .target(
            name: "CardBakeCache",
            dependencies: [
                "CardBakeFiles",
                "CardBakeManifest",
                "CLibcrypto",
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        // libcurl's easy interface, with typed wrappers for its variadic curl_easy_setopt and curl_easy_getinfo.
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // HTTP over libcurl: requests on threads of its own, timeouts, bodies to memory or a file under a limit, redirects.
        .target(name: "CardBakeHTTP", dependencies: ["CardBakeFiles", "CCurl"]),
        // The remote cache over HTTP (bazel-remote's layout), a tier behind the local cache.
        .target(name: "CardBakeRemoteCache", dependencies: ["CardBakeCache", "CardBakeFiles", "CardBakeHTTP", "CardBakeManifest"]),
        // The catalog: JSON with positions, schema, validation, styles and their fingerprints.
        .target(name: "CardBakeCatalog", dependencies: ["CardBakeCache", "CardBakeFiles", "CardBakeManifest"]),
        // Rendering: one card's inputs in, its bitmaps out (libvips, Pango).
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        .systemLibrary(
            name: "CPangoCairo",
            pkgConfig: "pangocairo",
            providers: [.apt(["libpango1.0-dev", "libfontconfig-dev"])]
        ),
        // libjpeg (libjpeg-turbo, which libvips-dev brings): the fidelity check's decode (Sources/Vips/JPEGSamples.swift).
        .target(name: "CVipsShim", dependencies: ["CVips"], linkerSettings: [.linkedLibrary("jpeg")]),
        .target(name: "CTextRaster", dependencies: ["CPangoCairo"],
                linkerSettings: [.linkedLibrary("fontconfig"), .linkedLibrary("pangoft2-1.0")]),
        // libdeflate: PNG output's compression and CRCs (Sources/Vips/PNGWriter.swift).
        .systemLibrary(name: "CLibdeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        .target(name: "Vips", dependencies: ["CVips", "CVipsShim", "CLibdeflate"]),
        // Photos from URLs: fetched into the content store with a record per URL, revalidated, under limits.
        .target(name: "CardBakeFetch",
                dependencies: ["CardBakeCache", "CardBakeCatalog", "CardBakeFiles", "CardBakeHTTP", "CardBakeManifest", "Vips"]),
        .target(
            name: "CardBakeRender",
            dependencies: ["CardBakeCatalog", "CardBakeCache", "CardBakeFiles", "CardBakeKit", "CardBakeManifest", "Vips",
                           "CTextRaster"]
        ),
        // The pipeline: plan → look up → render → store → write.
        .target(
            name: "CardBake",
            dependencies: ["CardBakeRender", "CardBakeFetch", "CardBakeCatalog", "CardBakeCache", "CardBakeFiles", "CardBakeManifest", "Vips",
                           "CMalloc",
                           .product(name: "DequeModule", package: "swift-collections")]
        ),
        // The command line.
        .systemLibrary(name: "CMalloc"),
        .executableTarget(
            name: "cardbake",
            dependencies: [
                "CardBake",
                "CardBakeCache",
                "CardBakeCatalog",
                "CardBakeFetch",
                "CardBakeFiles",
                "CardBakeRemoteCache",
                "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // What an app pays to open a manifest, through CardBakeKit alone (bench/scale.py runs it).
        .executableTarget(name: "manifest-open", dependencies: ["CardBakeKit"], path: "bench/manifest-open"),
        // Loopback sockets for the tests of a remote cache that is down, shared by the two test targets below.
        .target(name: "LoopbackSockets", path: "Tests/LoopbackSockets"),
        .testTarget(name: "CardBakeManifestTests", dependencies: ["CardBakeManifest"]),
        .testTarget(name: "CardBakeKitTests", dependencies: ["CardBakeKit"]),
        .testTarget(
            name: "CardBakeTests",
            dependencies: ["CardBake", "CardBakeRender", "CardBakeCatalog", "CardBakeCache", "CardBakeFiles",
                           "CardBakeKit", "CardBakeManifest", "CardBakeFetch", "CardBakeHTTP", "CardBakeRemoteCache",
                           "LoopbackSockets", "Vips"]
        ),
        .testTarget(
            name: "cardbakeTests",
            dependencies: ["CardBake", "CardBakeCatalog", "CardBakeCache", "CardBakeFetch", "CardBakeFiles", "CardBakeManifest",
                           "CardBakeRemoteCache", "LoopbackSockets", "cardbake"]
        ),
    ]
)
