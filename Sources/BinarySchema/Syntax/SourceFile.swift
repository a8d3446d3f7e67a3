/// The text of one schema file and a way to map offsets to lines.
package final class SourceFile: Sendable {
    /// Path as given by the caller (used in messages).
    package let path: String
    /// Full text of the file.
    package let text: String
    let utf8: [UInt8]
    let lineStarts: [Int]

    /// Wraps `text` read from `path`.
    package init(path: String, text: String) {
        self.path = path
        self.text = text
        let utf8 = Array(text.utf8)
        self.utf8 = utf8
        var starts = [0]
        for (index, byte) in utf8.enumerated() where byte == UInt8(ascii: "\n") {
            starts.append(index + 1)
        }
        self.lineStarts = starts
    }

    /// The text of line `line` (1-based) without its newline.
    package func lineText(_ line: Int) -> String {
        guard line >= 1, line <= lineStarts.count else { return "" }
        let start = lineStarts[line - 1]
        var end = line < lineStarts.count ? lineStarts[line] : utf8.count
        while end > start, utf8[end - 1] == UInt8(ascii: "\n") || utf8[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return String(decoding: utf8[start..<end], as: UTF8.self)
    }
}

/// A position in a schema file: 1-based line and column (column counts UTF-8 bytes).
public struct SchemaLocation: Sendable, Hashable, CustomStringConvertible {
    /// Path of the file.
    public let path: String
    /// 1-based line; 0 for the file as a whole.
    public let line: Int
    /// 1-based column; 0 for the file as a whole.
    public let column: Int

    package init(path: String, line: Int, column: Int) {
        self.path = path
        self.line = line
        self.column = column
    }

    /// A problem with the file as a whole (it cannot be read): no line or column (both 0).
    package init(wholeFile path: String) {
        self.init(path: path, line: 0, column: 0)
    }

    /// `path:line:column`, or `path` alone for the whole file (line 0).
    public var description: String { line == 0 ? path : "\(path):\(line):\(column)" }
}
