/// A place in the source: the file (as `#fileID` writes it) and the line.
///
/// Sightless records where every binding, initializer and property was declared, so that an
/// error can point at the line to change.
///
/// ```swift
/// let here = SourceLocation(fileID: #fileID, line: #line)
/// print(here)   // MyApp/AppModule.swift:12
/// ```
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The file, as `#fileID` writes it: `Module/File.swift`.
    public let fileID: String
    /// The line in that file.
    public let line: Int

    /// Creates a location; the defaults capture the caller's own location.
    public init(fileID: String = #fileID, line: Int = #line) {
        self.fileID = fileID
        self.line = line
    }

    public var description: String { "\(fileID):\(line)" }
}
