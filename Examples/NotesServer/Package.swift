// swift-tools-version: 6.2
import Foundation
import PackageDescription

// Sightless is this repository itself, two folders up; a package at a path is known by the name
// of its folder, whatever the checkout is called.
let sightless = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

// A notes server on Hummingbird 2, wired by Sightless: the app's graph is validated when the
// server starts, each request gets a child injector made from a template, the store is opened
// asynchronously and closed when the server stops: the injector is a service of the server's
// swift-service-lifecycle group, shut down after the application on graceful shutdown.
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
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        .target(name: "NotesServer", dependencies: [
            .product(name: "Sightless", package: sightless.lastPathComponent),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        .executableTarget(name: "notes-server", dependencies: ["NotesServer"]),
        .testTarget(name: "NotesServerTests", dependencies: [
            "NotesServer",
            .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
