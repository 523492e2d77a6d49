// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "Sightless",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Sightless", targets: ["Sightless"]),
        .executable(name: "SightlessSample", targets: ["SightlessSample"]),
    ],
    targets: [
        .target(name: "Sightless", dependencies: ["CSightlessStack"],
                swiftSettings: [.strictMemorySafety()]),
        // What the stack guard needs of the C library that its Swift module does not export.
        .target(name: "CSightlessStack"),
        .executableTarget(name: "SightlessSample", dependencies: ["Sightless"]),
        .testTarget(name: "SightlessTests", dependencies: ["Sightless"]),
        .testTarget(name: "SightlessSampleTests", dependencies: ["SightlessSample"]),
        // The library against an executable reference model of its documented meaning.
        .testTarget(name: "SightlessModelTests", dependencies: ["Sightless"]),
        // An app's code, isolated to the main actor unless it says otherwise.
        .testTarget(name: "SightlessMainActorTests", dependencies: ["Sightless"],
                    swiftSettings: [.defaultIsolation(MainActor.self)]),
    ],
    swiftLanguageModes: [.v6]
)
