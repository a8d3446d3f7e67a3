/// One error (or warning) found in a schema, with where it is.
public struct Diagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    /// An error stops the schema from loading; a warning does not.
    public enum Severity: String, Sendable, Hashable {
        case error, warning
    }

    /// What kind of mistake this is; tests and tools match on it.
    public enum Kind: String, Sendable, Hashable {
        case syntax
        case unknownType
        case unknownField
        case useBeforeDefinition
        case duplicateName
        case typeMismatch
        case importCycle
        case importNotFound
        case infiniteRecursion
        case invalidValue
        case misaligned
        /// A warning: an expression read one way here and another in C (`a - 1 & mask`).
        case precedence
    }

    /// What kind of problem.
    public let kind: Kind
    /// The problem, in words.
    public let message: String
    /// Where in the schema.
    public let location: SchemaLocation
    /// The source line the error is on, for the caret display.
    public let sourceLine: String
    /// Error or warning.
    public let severity: Severity

    package init(kind: Kind, message: String, location: SchemaLocation, sourceLine: String, severity: Severity = .error) {
        self.severity = severity
        self.kind = kind
        self.message = message
        self.location = location
        self.sourceLine = sourceLine
    }

    /// `file:line:column: error: message`, then the source line and a caret under the column;
    /// `file: error: message` alone for a problem with no position (a file that cannot be read).
    public var description: String {
        if location.line == 0 { return "\(location): \(severity.rawValue): \(message)" }
        var caretPadding = ""
        for (index, character) in sourceLine.utf8.enumerated() where index < location.column - 1 {
            caretPadding.append(character == UInt8(ascii: "\t") ? "\t" : " ")
        }
        return "\(location): \(severity.rawValue): \(message)\n\(sourceLine)\n\(caretPadding)^"
    }
}

/// Every diagnostic found while loading schemas; thrown when any exist.
public struct SchemaErrors: Error, Sendable, CustomStringConvertible {
    /// All errors, in file order.
    public let diagnostics: [Diagnostic]

    package init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }

    /// Every diagnostic, one after the other, as a compiler prints them.
    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
            + "\n\(diagnostics.count) error\(diagnostics.count == 1 ? "" : "s")"
    }
}
