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
    ///
    /// ```swift
    /// print(House.initializer.location.fileID)   // App/House.swift
    /// ```
    public let fileID: String
    /// The line in that file.
    ///
    /// ```swift
    /// print(House.initializer.location.line)   // 9
    /// ```
    public let line: Int

    /// Creates a location; the defaults capture the caller's own location.
    ///
    /// ```swift
    /// let location = SourceLocation(fileID: "App/House.swift", line: 9)
    /// ```
    public init(fileID: String = #fileID, line: Int = #line) {
        self.fileID = fileID
        self.line = line
    }

    /// `File.swift:line`, as errors print it.
    ///
    /// ```swift
    /// print(SourceLocation(fileID: "App/House.swift", line: 9))   // App/House.swift:9
    /// ```
    public var description: String { "\(fileID):\(line)" }
}
