// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "Sightless",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Sightless", targets: ["Sightless"]),
        .executable(name: "SightlessSample", targets: ["SightlessSample"]),
        // `swift package verify-graph`: builds and runs an app's graph checks, and fails with
        // the problems of a broken graph.
        .plugin(name: "VerifyGraph", targets: ["VerifyGraph"]),
    ],
    targets: [
        .target(name: "Sightless", dependencies: ["CSightlessStack"],
                swiftSettings: [.strictMemorySafety()]),
        // What the stack guard needs of the C library that its Swift module does not export.
        .target(name: "CSightlessStack"),
        // The sample: its app in a library, the command line that runs it, and the graph check
        // that `swift package verify-graph` runs.
        .target(name: "SightlessSampleApp", dependencies: ["Sightless"]),
        .executableTarget(name: "SightlessSample", dependencies: ["SightlessSampleApp"]),
        .executableTarget(name: "SightlessSampleGraphCheck", dependencies: ["Sightless", "SightlessSampleApp"]),
        // A graph check over a graph broken on purpose: `verify-graph --target BrokenGraphFixture`
        // must fail with its problems (`.ci/run`).
        .executableTarget(name: "BrokenGraphFixture", dependencies: ["Sightless"], path: "Tests/BrokenGraphFixture"),
        .testTarget(name: "SightlessTests", dependencies: ["Sightless"]),
        .testTarget(name: "SightlessSampleTests", dependencies: ["SightlessSample", "SightlessSampleApp"]),
        // The library against an executable reference model of its documented meaning.
        .testTarget(name: "SightlessModelTests", dependencies: ["Sightless"]),
        // An app's code, isolated to the main actor unless it says otherwise.
        .testTarget(name: "SightlessMainActorTests", dependencies: ["Sightless"],
                    swiftSettings: [.defaultIsolation(MainActor.self)]),
        .plugin(name: "VerifyGraph", capability: .command(intent: .custom(
            verb: "verify-graph",
            description: "Builds and runs the package's graph checks (executable targets named …GraphCheck) and fails on a broken graph."))),
    ],
    swiftLanguageModes: [.v6]
)
