// swift-tools-version: 6.2
import PackageDescription

// Sightless against hand-wired code and Swinject, in one process:
//     swift run -c release --package-path Benchmarks
// A package of its own, so that the library itself stays free of dependencies.
let package = Package(
    name: "SightlessBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Sightless", path: ".."),
        .package(url: "https://github.com/Swinject/Swinject", from: "2.10.0"),
    ],
    targets: [
        .executableTarget(
            name: "SightlessBenchmarks",
            dependencies: [
                .product(name: "Sightless", package: "Sightless"),
                .product(name: "Swinject", package: "Swinject"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
