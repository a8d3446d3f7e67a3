import BinaryIO

/// The syntax tree of one schema file, as parsed and before any checking.
struct FileSyntax {
    let source: SourceFile
    var imports: [ImportSyntax] = []
    var endian: (Endianness, SchemaLocation)?
    var bitOrder: (BitOrder, SchemaLocation)?
    var structs: [StructSyntax] = []
    var enums: [EnumSyntax] = []
    var aliases: [AliasSyntax] = []
    var tables: [TableSyntax] = []
    var registrations: [RegistrationSyntax] = []
}

/// `table udp.port: u16`: a dispatch table that any file can register structs on.
struct TableSyntax {
    let name: String
    let keyType: TypeSyntax
    let location: SchemaLocation
}

/// `register udp.port { 53, 5353 => DNS  heuristic TLS }`: entries added to a table declared anywhere.
struct RegistrationSyntax {
    struct Key {
        let low: ExpressionSyntax
        /// `low...high`; nil for one value.
        let high: ExpressionSyntax?
    }

    struct Entry {
        /// Empty for a heuristic entry.
        let keys: [Key]
        let isHeuristic: Bool
        /// `override`: replaces an earlier registration of the same keys instead of being an error.
        let isOverride: Bool
        let target: String
        let targetLocation: SchemaLocation
        let location: SchemaLocation
    }

    let table: String
    let tableLocation: SchemaLocation
    let entries: [Entry]
}

/// `typealias Name = Type`: expanded where used, so names in its expressions resolve in the using struct.
struct AliasSyntax {
    let name: String
    let type: TypeSyntax
    let location: SchemaLocation
}

struct ImportSyntax {
    let path: String
    let location: SchemaLocation
}

struct AttributeSyntax {
    enum Argument {
        case expression(ExpressionSyntax)
        case string(String, SchemaLocation)
        /// `first...last` (only in `@checksum`).
        case span(ExpressionSyntax, ExpressionSyntax)
        /// `label: expression` (`@pdu(BGP, length: ...)`); the location is the label's.
        case labeled(String, ExpressionSyntax, SchemaLocation)
    }

    let name: String
    let arguments: [Argument]
    let location: SchemaLocation
}

struct StructSyntax {
    /// `struct Option(length: u8)`: a value the user of the struct passes, as in `Option(len)`.
    struct Parameter {
        let name: String
        let type: TypeSyntax
        let location: SchemaLocation
    }

    let name: String
    let location: SchemaLocation
    let attributes: [AttributeSyntax]
    let fields: [FieldSyntax]
    var parameters: [Parameter] = []
}

struct EnumSyntax {
    struct Case {
        let name: String
        let value: ExpressionSyntax
        let location: SchemaLocation
    }

    let name: String
    let location: SchemaLocation
    let baseType: TypeSyntax
    let cases: [Case]
    let attributes: [AttributeSyntax]
}

struct FieldSyntax {
    let name: String
    let location: SchemaLocation
    let type: TypeSyntax
    /// `== expr` written after the type: shorthand for a constraint.
    let expectedValue: ExpressionSyntax?
    /// `if expr`: the field is present only when this holds.
    let condition: ExpressionSyntax?
    let attributes: [AttributeSyntax]
    /// `let name = expr`: a computed value, which reads no bytes (``type`` is `let`, or the enum
    /// of `let name: E = expr`).
    var value: ExpressionSyntax? = nil
    /// `hidden let name = expr`: a working value of the schema's own, left out of every view.
    var isHidden = false
    /// `lazy name: T @at(offset)`: read only when an expression of its struct first needs it, or at
    /// the struct's end, not where it stands.
    var isLazy = false
}

indirect enum TypeSyntax {
    enum Extent {
        case expression(ExpressionSyntax)
        case rest(SchemaLocation)
        case until(ExpressionSyntax)
    }

    struct SwitchCase {
        /// Empty for the default case `_`.
        let patterns: [ExpressionSyntax]
        let type: TypeSyntax
        let location: SchemaLocation
        /// `.mss => u16 @name("mss_val")`: how this case's value is named and shown.
        var attributes: [AttributeSyntax] = []
    }

    /// A name, such as `u16`, `mac`, `IPv4` or `EtherType`.
    case named(String, SchemaLocation)
    /// `NAME[extent]`: bytes/string length, or an array of NAME.
    case subscripted(TypeSyntax, Extent, SchemaLocation)
    /// `switch subject { pattern => Type ... }`; with no subject, patterns are conditions.
    case switchOn(ExpressionSyntax?, [SwitchCase], SchemaLocation)
    /// `Option(length - 2)`: a struct with parameters, and the arguments passed to them.
    case instance(String, [ExpressionSyntax], SchemaLocation)
    /// `dispatch udp.port(src_port, dst_port)`: the struct a table holds for the first key that has one.
    case dispatch(String, [ExpressionSyntax], SchemaLocation)

    var location: SchemaLocation {
        switch self {
        case .named(_, let location), .subscripted(_, _, let location), .switchOn(_, _, let location),
            .dispatch(_, _, let location), .instance(_, _, let location):
            return location
        }
    }
}

/// A binary operator, as written; grouped by precedence as in Swift (``precedence``).
enum BinaryOperator: String, CaseIterable, Sendable {
    case or = "||"
    case and = "&&"
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    case add = "+", subtract = "-", bitwiseOr = "|", bitwiseXor = "^"
    case multiply = "*", divide = "/", remainder = "%", bitwiseAnd = "&"
    case shiftLeft = "<<", shiftRight = ">>"

    /// The operator a symbol token spells, told by its bytes: `init(rawValue:)` compares the
    /// symbol with each case's text in turn, and the parser asks it of every symbol it reads.
    init?(symbol: String) {
        var bytes = symbol.utf8.makeIterator()
        guard let first = bytes.next() else { return nil }
        let second = bytes.next() ?? 0
        guard bytes.next() == nil else { return nil }
        switch (first, second) {
        case (UInt8(ascii: "|"), UInt8(ascii: "|")): self = .or
        case (UInt8(ascii: "&"), UInt8(ascii: "&")): self = .and
        case (UInt8(ascii: "="), UInt8(ascii: "=")): self = .equal
        case (UInt8(ascii: "!"), UInt8(ascii: "=")): self = .notEqual
        case (UInt8(ascii: "<"), 0): self = .less
        case (UInt8(ascii: "<"), UInt8(ascii: "=")): self = .lessOrEqual
        case (UInt8(ascii: ">"), 0): self = .greater
        case (UInt8(ascii: ">"), UInt8(ascii: "=")): self = .greaterOrEqual
        case (UInt8(ascii: "+"), 0): self = .add
        case (UInt8(ascii: "-"), 0): self = .subtract
        case (UInt8(ascii: "|"), 0): self = .bitwiseOr
        case (UInt8(ascii: "^"), 0): self = .bitwiseXor
        case (UInt8(ascii: "*"), 0): self = .multiply
        case (UInt8(ascii: "/"), 0): self = .divide
        case (UInt8(ascii: "%"), 0): self = .remainder
        case (UInt8(ascii: "&"), 0): self = .bitwiseAnd
        case (UInt8(ascii: "<"), UInt8(ascii: "<")): self = .shiftLeft
        case (UInt8(ascii: ">"), UInt8(ascii: ">")): self = .shiftRight
        default: return nil
        }
    }

    /// 0 binds loosest (`||`), 5 tightest (shifts): Swift's order, where `&` multiplies and `|`, `^` add.
    var precedence: Int {
        switch self {
        case .or: return 0
        case .and: return 1
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual: return 2
        case .add, .subtract, .bitwiseOr, .bitwiseXor: return 3
        case .multiply, .divide, .remainder, .bitwiseAnd: return 4
        case .shiftLeft, .shiftRight: return 5
        }
    }

    /// `&&`, `||`: bools in, a bool out, the right side evaluated only when needed.
    var isLogical: Bool { self == .and || self == .or }
    /// `==` … `>=`: a bool out.
    var isComparison: Bool { precedence == 2 }
    /// `&`, `|`, `^`, `<<`, `>>`: where C's precedence differs from Swift's against arithmetic.
    var isBitwise: Bool {
        switch self {
        case .bitwiseAnd, .bitwiseOr, .bitwiseXor, .shiftLeft, .shiftRight: return true
        default: return false
        }
    }
    /// `+`, `-`, `*`, `/`, `%`.
    var isArithmetic: Bool {
        switch self {
        case .add, .subtract, .multiply, .divide, .remainder: return true
        default: return false
        }
    }
}

/// A prefix operator.
enum UnaryOperator: String, CaseIterable, Sendable {
    case negate = "-", not = "!", bitwiseNot = "~"
}

indirect enum ExpressionSyntax {
    /// A literal as written, up to UInt64.max; expressions take at most Int64.max.
    case integer(UInt64, SchemaLocation)
    case boolean(Bool, SchemaLocation)
    /// `"GET"`, `"\x89PNG"`, `x"0d0a"`: bytes to compare a field with, or a string's terminator.
    case bytes([UInt8], SchemaLocation)
    case name(String, SchemaLocation)
    /// `.caseName`, resolved against the enum type expected at that point.
    case enumCase(String, SchemaLocation)
    case member(ExpressionSyntax, String, SchemaLocation)
    /// `options[2]`: an array element.
    case index(ExpressionSyntax, ExpressionSyntax, SchemaLocation)
    case unary(UnaryOperator, ExpressionSyntax, SchemaLocation)
    case binary(BinaryOperator, ExpressionSyntax, ExpressionSyntax, SchemaLocation)
    case conditional(ExpressionSyntax, ExpressionSyntax, ExpressionSyntax, SchemaLocation)
    case call(String, [ExpressionSyntax], SchemaLocation)

    var location: SchemaLocation {
        switch self {
        case .integer(_, let location), .boolean(_, let location), .bytes(_, let location), .name(_, let location),
            .enumCase(_, let location), .member(_, _, let location), .index(_, _, let location), .unary(_, _, let location),
            .binary(_, _, _, let location), .conditional(_, _, _, let location), .call(_, _, let location):
            return location
        }
    }
}
