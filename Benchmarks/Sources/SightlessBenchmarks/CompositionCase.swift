import Sightless

// The `composition-*` cases: one request for a `Gateway` that needs a `Transport` protocol,
// with the protocol provided four ways: an alias (`alias`), a contextual binding for
// `Gateway` (`contextual`), the only candidate (`auto-wired`), and an alias with a decorator
// that returns its value (`decorated`; `decorated-resolver` when the decorator takes a
// resolver, which publishes the request's frame as a closure binding does). Measured by instructions only; hand-wired builds the
// same two objects directly.

protocol Transport: AnyObject, Sendable {}

final class SocketTransport: Transport, Injectable {
    static let initializer = Initializer(SocketTransport.init)
}

final class Gateway: Injectable, Sendable {
    let transport: any Transport
    init(transport: any Transport) { self.transport = transport }
    static let initializer = Initializer(Gateway.init(transport:))
}

struct TransportModule: Module {
    let form: String
    func configure(_ binder: Binder) {
        switch form {
        case "contextual":
            binder.bind((any Transport).self).whenInjected(into: Gateway.self).to(SocketTransport.self)
        case "auto-wired":
            binder.candidate(SocketTransport.self, for: (any Transport).self) { $0 }
        case "decorated":
            binder.bind((any Transport).self).to(SocketTransport.self)
            binder.decorate((any Transport).self) { transport in transport }
        case "decorated-resolver":
            binder.bind((any Transport).self).to(SocketTransport.self)
            binder.decorate((any Transport).self) { transport, _ in transport }
        default:
            binder.bind((any Transport).self).to(SocketTransport.self)
        }
        binder.entryPoint(Gateway.self)
    }
}

/// Builds `n` gateways, their transport provided as `form` says.
func compositionRequests(_ form: String, _ contender: Contender, _ n: Int, _ sink: Sink) throws {
    if contender == .handWired {
        for _ in 0..<n { sink.take(Gateway(transport: SocketTransport())) }
        return
    }
    let injector = try Injector(modules: [TransportModule(form: form)])
    for _ in 0..<n { sink.take(try injector.getInstance(Gateway.self)) }
}
