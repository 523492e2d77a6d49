import Hummingbird

/// One note, as the server stores and returns it.
public struct Note: Codable, Equatable, Sendable, ResponseCodable {
    public let id: Int
    public let author: String
    public let text: String

    public init(id: Int, author: String, text: String) {
        self.id = id
        self.author = author
        self.text = text
    }
}
