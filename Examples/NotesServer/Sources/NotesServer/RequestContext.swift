/// Who is asking: the value each request's child injector is made with.
public struct Author: Sendable {
    public let name: String

    public init(name: String) {
        self.name = name
    }
}
