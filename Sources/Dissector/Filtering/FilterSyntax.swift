/// A display filter as written, before its names are looked up: Wireshark's display-filter
/// language (`tcp.port == 443 and not ip.src == 10.0.0.0/8`).
indirect enum FilterSyntax {
    case and(FilterSyntax, FilterSyntax)
    case or(FilterSyntax, FilterSyntax)
    case not(FilterSyntax)
    /// A field or protocol alone: whether the frame has it.
    case exists(FilterOperand)
    case compare(FilterOperand, FilterRelation, FilterWord)
    /// `field in {80 443 8000..8080}`.
    case member(FilterOperand, [FilterSetItem])
}

/// A field name, with a slice of its bytes (`eth.src[0:3]`).
struct FilterOperand {
    let name: String
    let column: Int
    /// Byte range start and length (`[i:n]`, `[i-j]`, `[i]`), or nil.
    var slice: (start: Int, length: Int?)?
}

enum FilterRelation: String {
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    case contains, matches
}

/// A value as written: a quoted string, or a word read by the type of the field it meets.
struct FilterWord {
    let text: String
    let isQuoted: Bool
    let column: Int
}

enum FilterSetItem {
    case single(FilterWord)
    case range(FilterWord, FilterWord)
}

/// Why a display filter was refused: what, and where (a 1-based column).
public struct DisplayFilterError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, with a suggestion where there is one.
    public let message: String
    /// The column of the filter text it is about, from 1.
    public let column: Int

    /// The message with its column.
    public var description: String { "display filter, column \(column): \(message)" }
}

/// Reads filter text into ``FilterSyntax``.
struct FilterParser {
    private enum Token: Equatable {
        case word(String)
        case quoted(String)
        case symbol(String)
        case end
    }

    private var tokens: [(token: Token, column: Int)] = []
    private var position = 0

    static func parse(_ text: String) throws(DisplayFilterError) -> FilterSyntax {
        var parser = FilterParser()
        parser.tokens = try tokenize(Array(text.unicodeScalars))
        let syntax = try parser.parseOr()
        guard case .end = parser.current else {
            throw DisplayFilterError(message: "unexpected \(parser.describe(parser.current)) after a complete filter",
                                     column: parser.column)
        }
        return syntax
    }

    private var current: Token { tokens[position].token }
    private var column: Int { tokens[position].column }

    private mutating func advance() { if position < tokens.count - 1 { position += 1 } }

    private func describe(_ token: Token) -> String {
        switch token {
        case .word(let text): return "'\(text)'"
        case .quoted(let text): return "\"\(text)\""
        case .symbol(let text): return "'\(text)'"
        case .end: return "end of filter"
        }
    }

    private func isKeyword(_ token: Token, _ names: String...) -> Bool {
        if case .word(let text) = token { return names.contains(text.lowercased()) }
        if case .symbol(let text) = token { return names.contains(text) }
        return false
    }

    private mutating func parseOr() throws(DisplayFilterError) -> FilterSyntax {
        var left = try parseAnd()
        while isKeyword(current, "or", "||") {
            advance()
            left = .or(left, try parseAnd())
        }
        return left
    }

    private mutating func parseAnd() throws(DisplayFilterError) -> FilterSyntax {
        var left = try parseNot()
        while isKeyword(current, "and", "&&") {
            advance()
            left = .and(left, try parseNot())
        }
        return left
    }

    private mutating func parseNot() throws(DisplayFilterError) -> FilterSyntax {
        if isKeyword(current, "not", "!") {
            advance()
            return .not(try parseNot())
        }
        if current == .symbol("(") {
            let open = column
            advance()
            let inner = try parseOr()
            guard current == .symbol(")") else {
                throw DisplayFilterError(message: "'(' at column \(open) has no ')'", column: column)
            }
            advance()
            return inner
        }
        return try parseTest()
    }

    private static let relations: [String: FilterRelation] = [
        "==": .equal, "eq": .equal, "=": .equal, "!=": .notEqual, "ne": .notEqual, "<": .less, "lt": .less,
        "<=": .lessOrEqual, "le": .lessOrEqual, ">": .greater, "gt": .greater, ">=": .greaterOrEqual,
        "ge": .greaterOrEqual, "contains": .contains, "matches": .matches, "~": .matches,
    ]

    private mutating func parseTest() throws(DisplayFilterError) -> FilterSyntax {
        guard case .word(let name) = current else {
            throw DisplayFilterError(message: "expected a field or protocol name, found \(describe(current))", column: column)
        }
        var operand = FilterOperand(name: name, column: column)
        advance()
        if current == .symbol("[") { operand.slice = try parseSlice() }
        let relationText: String?
        switch current {
        case .symbol(let text): relationText = text
        case .word(let text): relationText = text.lowercased()
        default: relationText = nil
        }
        if let relationText, relationText == "in" {
            advance()
            return .member(operand, try parseSet())
        }
        guard let relationText, let relation = Self.relations[relationText] else { return .exists(operand) }
        advance()
        return .compare(operand, relation, try parseWord())
    }

    private mutating func parseWord() throws(DisplayFilterError) -> FilterWord {
        switch current {
        case .word(let text):
            defer { advance() }
            return FilterWord(text: text, isQuoted: false, column: column)
        case .quoted(let text):
            defer { advance() }
            return FilterWord(text: text, isQuoted: true, column: column)
        default:
            throw DisplayFilterError(message: "expected a value, found \(describe(current))", column: column)
        }
    }

    /// `[i:n]`, `[i-j]` or `[i]`, the brackets included.
    private mutating func parseSlice() throws(DisplayFilterError) -> (start: Int, length: Int?) {
        let open = column
        advance()
        guard case .word(let text) = current else {
            throw DisplayFilterError(message: "expected a byte range such as [0:3] after '['", column: column)
        }
        advance()
        guard current == .symbol("]") else { throw DisplayFilterError(message: "'[' at column \(open) has no ']'", column: column) }
        advance()
        // Bounded, so that start + length cannot overflow: no field is a mebibyte long.
        func number(_ part: Substring) -> Int? { Int(part).flatMap { $0 <= 1 << 20 ? $0 : nil } }
        if let colon = text.firstIndex(of: ":") {
            if let start = number(text[..<colon]), let length = number(text[text.index(after: colon)...]), start >= 0, length > 0 {
                return (start, length)
            }
        } else if let dash = text.firstIndex(of: "-") {
            if let start = number(text[..<dash]), let end = number(text[text.index(after: dash)...]), start >= 0, end >= start {
                return (start, end - start + 1)
            }
        } else if let start = number(text[...]), start >= 0 {
            return (start, 1)
        }
        throw DisplayFilterError(message: "'[\(text)]' is not a byte range: write [start:length], [first-last] or [index]",
                                 column: open)
    }

    /// `{80 443 8000..8080}` or `{80, 443}`, the braces included.
    private mutating func parseSet() throws(DisplayFilterError) -> [FilterSetItem] {
        guard current == .symbol("{") else {
            throw DisplayFilterError(message: "'in' takes a set in braces: {80 443 8000..8080}", column: column)
        }
        let open = column
        advance()
        var items: [FilterSetItem] = []
        while current != .symbol("}") {
            if case .end = current { throw DisplayFilterError(message: "'{' at column \(open) has no '}'", column: column) }
            if current == .symbol(",") { advance(); continue }
            let first = try parseWord()
            if !first.isQuoted, let dots = first.text.range(of: ".."), !first.text.hasPrefix(".."), !first.text.hasSuffix("..") {
                let low = FilterWord(text: String(first.text[..<dots.lowerBound]), isQuoted: false, column: first.column)
                let high = FilterWord(text: String(first.text[dots.upperBound...]), isQuoted: false,
                                      column: first.column + first.text.distance(from: first.text.startIndex, to: dots.upperBound))
                items.append(.range(low, high))
            } else {
                items.append(.single(first))
            }
        }
        advance()
        guard !items.isEmpty else { throw DisplayFilterError(message: "the set is empty", column: open) }
        return items
    }

    private static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", ".", ":", "-", "/": return true
        default: return false
        }
    }

    private static func tokenize(_ scalars: [Unicode.Scalar]) throws(DisplayFilterError) -> [(token: Token, column: Int)] {
        var tokens: [(token: Token, column: Int)] = []
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            let column = index + 1
            if scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" {
                index += 1
            } else if scalar == "\"" || scalar == "'" {
                let quote = scalar
                var text = ""
                index += 1
                var closed = false
                while index < scalars.count {
                    let next = scalars[index]
                    if next == quote { closed = true; index += 1; break }
                    if next == "\\", index + 1 < scalars.count {
                        index += 1
                        switch scalars[index] {
                        case "n": text.append("\n")
                        case "t": text.append("\t")
                        case "r": text.append("\r")
                        case "x":
                            let digits = String(String.UnicodeScalarView(scalars[(index + 1)..<min(index + 3, scalars.count)]))
                            guard digits.count == 2, let value = UInt8(digits, radix: 16) else {
                                throw DisplayFilterError(message: "'\\x' takes two hex digits", column: index)
                            }
                            text.unicodeScalars.append(Unicode.Scalar(value))
                            index += 2
                        default: text.unicodeScalars.append(scalars[index])
                        }
                    } else {
                        text.unicodeScalars.append(next)
                    }
                    index += 1
                }
                guard closed else { throw DisplayFilterError(message: "the string that starts here has no closing quote", column: column) }
                tokens.append((.quoted(text), column))
            } else if isWordCharacter(scalar) {
                var end = index
                while end < scalars.count, isWordCharacter(scalars[end]) { end += 1 }
                tokens.append((.word(String(String.UnicodeScalarView(scalars[index..<end]))), column))
                index = end
            } else {
                let two = index + 1 < scalars.count ? String(String.UnicodeScalarView([scalar, scalars[index + 1]])) : ""
                if ["==", "!=", "<=", ">=", "&&", "||"].contains(two) {
                    tokens.append((.symbol(two), column))
                    index += 2
                } else if "()[]{},<>!=~".unicodeScalars.contains(scalar) {
                    tokens.append((.symbol(String(scalar)), column))
                    index += 1
                } else {
                    throw DisplayFilterError(message: "unexpected character '\(scalar)'", column: column)
                }
            }
        }
        tokens.append((.end, scalars.count + 1))
        return tokens
    }
}
