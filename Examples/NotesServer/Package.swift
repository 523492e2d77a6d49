// swift-tools-version: 6.2
import Foundation
import PackageDescription

// Sightless is this repository itself, two folders up; a package at a path is known by the name
// of its folder, whatever the checkout is called.
let sightless = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

// A notes server on Hummingbird 2, wired by Sightless: the app's graph is validated when the
// server starts, each request gets a child injector made from a template, the store is opened
// asynchronously and closed when the server stops.
let package = Package(
    name: "NotesServer",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "notes-server", targets: ["notes-server"]),
    ],
    dependencies: [
        .package(path: sightless.path),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .target(name: "NotesServer", dependencies: [
            .product(name: "Sightless", package: sightless.lastPathComponent),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .executableTarget(name: "notes-server", dependencies: ["NotesServer"]),
        .testTarget(name: "NotesServerTests", dependencies: [
            "NotesServer",
            .product(name: "HummingbirdTesting", package: "hummingbird"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
