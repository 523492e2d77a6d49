import Foundation
import PackagePlugin

/// `swift package verify-graph`: builds the package's graph checks and runs each, and fails with
/// what a check writes when it exits non-zero.
///
/// A graph check is an executable target of the app's package whose `main` calls
/// `Injector.verify(modules:…)` on the app's modules and templates, and exits non-zero with the
/// problems it throws:
///
/// ```swift
/// // Sources/MyAppGraphCheck/main.swift
/// do {
///     try Injector.verify(modules: AppGraph.modules, templates: [AppGraph.requests(of:)])
/// } catch {
///     FileHandle.standardError.write(Data("\(error)\n".utf8))
///     exit(1)
/// }
/// ```
///
/// Without options, it runs every executable target whose name ends in `GraphCheck`;
/// `--target NAME` (repeatable) names the checks to run instead.
@main
struct VerifyGraph: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let named = extractor.extractOption(named: "target")
        guard extractor.remainingArguments.isEmpty else {
            throw VerifyGraphFailure(
                "unknown arguments \(extractor.remainingArguments); usage: swift package verify-graph [--target NAME]…")
        }
        let executables = context.package.targets.compactMap { target -> String? in
            guard let module = target as? SwiftSourceModuleTarget, module.kind == .executable else { return nil }
            return module.name
        }
        let checks = named.isEmpty ? executables.filter { $0.hasSuffix("GraphCheck") } : named
        if checks.isEmpty {
            throw VerifyGraphFailure(
                "\(context.package.displayName) has no executable target whose name ends in GraphCheck; add one whose "
                    + "main calls Injector.verify(modules:…), or name one with --target NAME.")
        }
        if let unknown = checks.first(where: { !executables.contains($0) }) {
            throw VerifyGraphFailure("\(unknown) is not an executable target of \(context.package.displayName).")
        }
        // What each check that failed wrote, to fail with once every check has run.
        var failed: [String] = []
        for check in checks {
            Diagnostics.progress("Building \(check)")
            let build = try packageManager.build(.product(check), parameters: .init(configuration: .debug, logging: .concise))
            guard build.succeeded, let executable = build.builtArtifacts.first(where: { $0.kind == .executable }) else {
                print(build.logText)
                throw VerifyGraphFailure("\(check) did not build.")
            }
            Diagnostics.progress("Running \(check)")
            let process = Process()
            process.executableURL = executable.url
            // Standard output and error in one pipe, in the order the check wrote them: its
            // problems become the message `swift package` fails with.
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            if process.terminationReason == .exit && process.terminationStatus == 0 {
                if !text.isEmpty { print(text, terminator: text.hasSuffix("\n") ? "" : "\n") }
            } else if process.terminationReason == .exit {
                failed.append("\(check) found problems in the graph:\n\(text)")
            } else {
                failed.append("\(check) stopped on signal \(process.terminationStatus):\n\(text)")
            }
        }
        if !failed.isEmpty {
            throw VerifyGraphFailure(failed.joined(separator: "\n"))
        }
    }
}

/// Why `verify-graph` failed: the message `swift package` prints before it exits non-zero.
struct VerifyGraphFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
