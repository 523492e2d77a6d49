// swift-tools-version: 6.2
// A package that depends on Sightless exactly as the README's Installation section says. CI
// resolves the URL to this checkout (Tests/Installation/check), tagged with the version the
// CHANGELOG names, so that the lines a new user copies are the lines that are built.
import PackageDescription

let package = Package(
    name: "InstallationCheck",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/sightless-swift/Sightless.git", from: "0.1.0"),
    ],
    targets: [
        .executableTarget(name: "InstallationCheck", dependencies: [.product(name: "Sightless", package: "Sightless")]),
    ],
    swiftLanguageModes: [.v6]
)
