// swift-tools-version: 6.2
import PackageDescription

// Sightless against hand-wired code and Swinject (and, for dependencies read where they stand,
// swift-dependencies), in one process:
//     swift run -c release --package-path Benchmarks
// A package of its own, so that the library itself stays free of dependencies.
let package = Package(
    name: "SightlessBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Sightless", path: ".."),
        .package(url: "https://github.com/Swinject/Swinject", from: "2.10.0"),
        // For reading a dependency where it stands, beside `@Dependency`.
        .package(url: "https://github.com/pointfreeco/swift-dependencies", from: "1.17.1"),
    ],
    targets: [
        .executableTarget(
            name: "SightlessBenchmarks",
            dependencies: [
                .product(name: "Sightless", package: "Sightless"),
                .product(name: "Swinject", package: "Swinject"),
                .product(name: "Dependencies", package: "swift-dependencies"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
