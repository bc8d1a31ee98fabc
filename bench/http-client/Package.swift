// swift-tools-version:6.0
import PackageDescription

// Measures the two HTTP clients cardbake could use for its remote cache against the same server:
// bench/http-client/run builds each executable from clean and times GETs with it.
let package = Package(
    name: "http-client-bench",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        .target(name: "BenchShared"),
        .executableTarget(name: "BenchURLSession", dependencies: ["BenchShared"]),
        .executableTarget(
            name: "BenchAsyncHTTPClient",
            dependencies: ["BenchShared", .product(name: "AsyncHTTPClient", package: "async-http-client")]
        ),
    ]
)
