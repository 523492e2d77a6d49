import Sightless

/// `explain TYPE`: prints what building one type of the graph takes.
struct ExplainCommand: Command, Injectable {
    let injector: Injector
    let console: Console
    let typeName: String

    static let initializer = Initializer(ExplainCommand.init(injector:console:typeName:), .inject, .inject, .dynamic)

    func run() throws(SampleFailure) {
        let keys = injector.graphKeys
        let key = keys.first { $0.description == typeName || $0.typeName == typeName }
            ?? keys.first { $0.typeName.lowercased() == typeName.lowercased() }
        guard let key else {
            let known = keys.map(\.description).joined(separator: ", ")
            throw .usage("the graph has no type \(typeName). Its types: \(known).")
        }
        do {
            console.write(String(try injector.explain(key).dropLast()))
        } catch {
            throw .software("\(error)")
        }
    }
}
