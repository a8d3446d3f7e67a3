import BinaryIO

/// A lexical token of the schema language.
struct Token: Sendable {
    enum Kind: Sendable, Equatable {
        case identifier(String)
        /// The literal's value, unsigned: the checker decides where more than Int64.max is allowed.
        case integer(UInt64)
        case string(String)
        /// `x"89504e47"`, or a quoted literal whose `\xHH` escapes make it no valid UTF-8: bytes,
        /// which only expressions take.
        case byteString([UInt8])
        case symbol(String)
        case endOfFile
    }

    let kind: Kind
    /// UTF-8 byte offset of the token's first character in its file.
    let offset: Int
    let line: Int
    let column: Int

    var identifier: String? {
        if case .identifier(let name) = kind { return name }
        return nil
    }

    func isSymbol(_ text: String) -> Bool {
        if case .symbol(let symbol) = kind { return symbol == text }
        return false
    }

    func isKeyword(_ text: String) -> Bool { identifier == text }

    var describedForError: String {
        switch kind {
        case .identifier(let name): return "'\(name)'"
        case .integer(let value): return "'\(value)'"
        case .string: return "a string literal"
        case .byteString: return "a byte string literal"
        case .symbol(let symbol): return "'\(symbol)'"
        case .endOfFile: return "end of file"
        }
    }
}

/// Splits schema text into tokens; reports malformed literals as diagnostics
/// and keeps going so the parser can report everything else too.
struct Lexer {
    private let source: SourceFile
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private(set) var diagnostics: [Diagnostic] = []

    init(source: SourceFile) {
        self.source = source
        self.bytes = source.utf8
    }

    /// Every symbol; ``matchSymbol()`` spells out the longer ones.
    static let symbols: [String] = [
        "...", "..", "=>", "==", "!=", "<=", ">=", "<<", ">>", "&&", "||",
        "{", "}", "(", ")", "[", "]", ":", ",", ";", ".", "<", ">", "+", "-", "*", "/", "%",
        "&", "|", "^", "~", "!", "?", "@", "=", "_",
    ]

    mutating func tokenize() -> [Token] {
        var tokens: [Token] = []
        while true {
            skipTrivia()
            let start = index
            let column = start - lineStart + 1
            guard index < bytes.count else {
                tokens.append(Token(kind: .endOfFile, offset: start, line: line, column: column))
                return tokens
            }
            let byte = bytes[index]
            if byte == UInt8(ascii: "x"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\"") {
                tokens.append(Token(kind: .byteString(lexHexString(column: column)), offset: start, line: line, column: column))
            } else if Self.isIdentifierStart(byte) {
                while index < bytes.count, Self.isIdentifierContinue(bytes[index]) { index += 1 }
                let text = String(decoding: bytes[start..<index], as: UTF8.self)
                let kind: Token.Kind = text == "_" ? .symbol("_") : .identifier(text)
                tokens.append(Token(kind: kind, offset: start, line: line, column: column))
            } else if Self.isDigit(byte) {
                tokens.append(Token(kind: .integer(lexInteger(column: column)), offset: start, line: line, column: column))
            } else if byte == UInt8(ascii: "\"") {
                let literal = lexString(column: column)
                // Text wherever the bytes are UTF-8, so attribute arguments (`@protocol("ip")`) stay strings.
                let kind: Token.Kind = ByteReader.firstInvalidUTF8(literal, in: 0..<literal.count) == nil
                    ? .string(String(decoding: literal, as: UTF8.self)) : .byteString(literal)
                tokens.append(Token(kind: kind, offset: start, line: line, column: column))
            } else if let symbol = matchSymbol() {
                index += symbol.utf8.count
                tokens.append(Token(kind: .symbol(symbol), offset: start, line: line, column: column))
            } else {
                report("unexpected character '\(String(decoding: [byte], as: UTF8.self))'", column: column)
                index += 1
            }
        }
    }

    private mutating func skipTrivia() {
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                index += 1
                line += 1
                lineStart = index
            } else if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") {
                index += 1
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                let column = index - lineStart + 1
                let startLine = line
                index += 2
                var closed = false
                while index < bytes.count {
                    if bytes[index] == UInt8(ascii: "*"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                        index += 2
                        closed = true
                        break
                    }
                    if bytes[index] == UInt8(ascii: "\n") {
                        line += 1
                        lineStart = index + 1
                    }
                    index += 1
                }
                if !closed { report("unterminated block comment", line: startLine, column: column) }
            } else {
                return
            }
        }
    }

    /// The one-byte symbols by their byte (nil for bytes that are none).
    private static let singleByteSymbols: [String?] = {
        var table = [String?](repeating: nil, count: 256)
        for symbol in symbols where symbol.utf8.count == 1 {
            for byte in symbol.utf8 { table[Int(byte)] = symbol }
        }
        return table
    }()

    /// The longest symbol at `index`, decided on its first two bytes: looping over the symbol
    /// list and building arrays per try was half of a schema's whole load time (the fuzz
    /// target's profile).
    private func matchSymbol() -> String? {
        let first = bytes[index]
        let second: UInt8 = index + 1 < bytes.count ? bytes[index + 1] : 0
        switch (first, second) {
        case (UInt8(ascii: "."), UInt8(ascii: ".")):
            return index + 2 < bytes.count && bytes[index + 2] == UInt8(ascii: ".") ? "..." : ".."
        case (UInt8(ascii: "="), UInt8(ascii: ">")): return "=>"
        case (UInt8(ascii: "="), UInt8(ascii: "=")): return "=="
        case (UInt8(ascii: "!"), UInt8(ascii: "=")): return "!="
        case (UInt8(ascii: "<"), UInt8(ascii: "=")): return "<="
        case (UInt8(ascii: ">"), UInt8(ascii: "=")): return ">="
        case (UInt8(ascii: "<"), UInt8(ascii: "<")): return "<<"
        case (UInt8(ascii: ">"), UInt8(ascii: ">")): return ">>"
        case (UInt8(ascii: "&"), UInt8(ascii: "&")): return "&&"
        case (UInt8(ascii: "|"), UInt8(ascii: "|")): return "||"
        default: return Self.singleByteSymbols[Int(first)]
        }
    }

    private mutating func lexInteger(column: Int) -> UInt64 {
        var radix: UInt64 = 10
        if bytes[index] == UInt8(ascii: "0"), index + 1 < bytes.count {
            switch bytes[index + 1] {
            case UInt8(ascii: "x"), UInt8(ascii: "X"): radix = 16
            case UInt8(ascii: "b"), UInt8(ascii: "B"): radix = 2
            case UInt8(ascii: "o"), UInt8(ascii: "O"): radix = 8
            default: break
            }
            if radix != 10 { index += 2 }
        }
        var value: UInt64 = 0
        var overflow = false
        var digits = 0
        while index < bytes.count, Self.isIdentifierContinue(bytes[index]) {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "_") { continue }
            guard let digit = Self.digitValue(byte), UInt64(digit) < radix else {
                report("invalid digit '\(String(decoding: [byte], as: UTF8.self))' in integer literal", column: column)
                continue
            }
            digits += 1
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: radix)
            let (sum, overflowB) = shifted.addingReportingOverflow(UInt64(digit))
            overflow = overflow || overflowA || overflowB
            value = sum
        }
        if digits == 0 { report("integer literal has no digits", column: column) }
        if overflow { report("integer literal does not fit in 64 bits", column: column) }
        return value
    }

    /// A quoted literal's bytes: the UTF-8 of its characters, with the escapes `\n`, `\r`, `\t`,
    /// `\0`, `\"`, `\\` and `\xHH` (any byte).
    private mutating func lexString(column: Int) -> [UInt8] {
        index += 1
        var result: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return result
            }
            if byte == UInt8(ascii: "\n") { break }
            if byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
                let escaped = bytes[index + 1]
                let escapeColumn = index - lineStart + 1
                index += 2
                switch escaped {
                case UInt8(ascii: "n"): result.append(10)
                case UInt8(ascii: "r"): result.append(13)
                case UInt8(ascii: "t"): result.append(9)
                case UInt8(ascii: "0"): result.append(0)
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): result.append(escaped)
                case UInt8(ascii: "x"):
                    if index + 1 < bytes.count, let high = Self.digitValue(bytes[index]), let low = Self.digitValue(bytes[index + 1]) {
                        result.append(UInt8(high << 4 | low))
                        index += 2
                    } else {
                        report("'\\x' takes two hex digits, as in \\x1b", column: escapeColumn)
                    }
                default: report("unknown escape '\\\(String(decoding: [escaped], as: UTF8.self))'", column: escapeColumn)
                }
                continue
            }
            result.append(byte)
            index += 1
        }
        report("unterminated string literal", column: column)
        return result
    }

    /// `x"89 50 4e 47"`: pairs of hex digits, spaces between them allowed.
    private mutating func lexHexString(column: Int) -> [UInt8] {
        index += 2
        var result: [UInt8] = []
        var pending: Int?
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                if pending != nil { report("a byte string needs two hex digits per byte", column: column) }
                return result
            }
            if byte == UInt8(ascii: "\n") { break }
            index += 1
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "_") { continue }
            guard let digit = Self.digitValue(byte) else {
                report("invalid hex digit '\(String(decoding: [byte], as: UTF8.self))' in a byte string", column: index - lineStart)
                continue
            }
            if let high = pending {
                result.append(UInt8(high << 4 | digit))
                pending = nil
            } else {
                pending = digit
            }
        }
        report("unterminated string literal", column: column)
        return result
    }

    private mutating func report(_ message: String, line reportLine: Int? = nil, column: Int) {
        let atLine = reportLine ?? line
        diagnostics.append(Diagnostic(
            kind: .syntax, message: message,
            location: SchemaLocation(path: source.path, line: atLine, column: column),
            sourceLine: source.lineText(atLine)))
    }

    private static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: "_")
    }

    private static func isIdentifierContinue(_ byte: UInt8) -> Bool { isIdentifierStart(byte) || isDigit(byte) }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func digitValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(byte - UInt8(ascii: "A")) + 10
        default: return nil
        }
    }
}
