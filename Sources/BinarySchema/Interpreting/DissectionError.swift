/// Why the interpreter stopped, with the field path and byte offset where it did.
public struct DissectionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The reason, with the figures that explain it.
    public enum Kind: Sendable, Hashable {
        /// The buffer ends before the field does.
        case prematureEnd(needed: Int, available: Int)
        /// The field does not fit in its enclosing scope (a `@size` or a parent's length), though the buffer goes on.
        case exceedsScope(needed: Int64, available: Int)
        /// A computed length or count is negative.
        case negativeLength(Int64)
        /// A `bool` byte other than 0 or 1.
        case boolOutOfRange(UInt8)
        /// A string with no terminator (a `cstring`'s NUL) before the end of its scope.
        case missingTerminator(terminator: [UInt8])
        /// A constraint (`== value` or `@assert`) does not hold for the value read.
        case constraintViolated(expression: String)
        case arithmeticOverflow(expression: String)
        case divisionByZero(expression: String)
        /// Structs nested deeper than the interpreter's depth budget.
        case depthLimit(Int)
        /// DNS compression pointers that revisit a position or chain too long.
        case pointerLoop
        /// A DNS compression pointer past the end of its message.
        case pointerOutOfRange(Int)
        /// A DNS label length byte with reserved top bits (0x40 or 0x80).
        case invalidLabel(UInt8)
        /// A DNS name longer than 255 bytes.
        case nameTooLong
        case varintOverflow
        /// A byte-granular field reached inside a byte.
        case misaligned(bitOffset: Int)
        /// An expression reads a conditional field that is absent.
        case absentField(String)
        /// `parent.x` used where there is no enclosing struct.
        case noEnclosingStruct(String)
        /// A switch with no `_` case met a value none of its cases match (nil: a switch
        /// without subject, none of whose conditions held).
        case noMatchingCase(Int64?)
        /// An array element consumed no bytes, so the array could not end.
        case emptyElement(index: Int)
        /// The walk reached the interpreter's limit on recorded fields.
        case fieldLimit(Int)
        /// A struct with parameters read where nothing passes them (as the root of a walk).
        case missingArgument(String)
        /// An `@at` offset outside its base (the nearest `@offset_base` struct, or the input).
        case positionOutOfRange(Int64)
        /// More `@at` reads in one walk than the interpreter's budget.
        case positionLimit(Int)
        /// An index past an array's elements or a field's bytes (`pool[i]`, `id[9]`): `count` there
        /// are, or, in an array still being read (an element reading its own array), read so far.
        case indexOutOfRange(reference: String, index: Int64, count: Int64, isBeingRead: Bool)
        /// The walk's aggregates (`sum(a, …)`, `count(a, …)`) visited more elements than their budget.
        case aggregateLimit(Int)
        /// An expression that has no value here: `index()` in a struct that is not an array element,
        /// `first(a, cond)` when no element satisfies `cond`, `min`/`max` of an empty array.
        case noValue(expression: String, reason: String)
    }

    /// What went wrong.
    public let kind: Kind
    /// Path of the failing field (`ip.options`).
    public let path: String
    /// Byte offset from the start of the buffer where the failing field starts.
    public let offset: Int
    /// Bit within that byte, for bit fields (0 for byte-aligned fields).
    public let bitOffset: Int
    /// Index of the failing field's node in ``Dissection/nodes``.
    public let node: Int

    /// A short name of the kind, stable for JSON and tests: `premature_end`, `pointer_loop`, ...
    public var code: String {
        switch kind {
        case .prematureEnd: return "premature_end"
        case .exceedsScope: return "exceeds_scope"
        case .negativeLength: return "negative_length"
        case .boolOutOfRange: return "bool_out_of_range"
        case .missingTerminator: return "missing_terminator"
        case .constraintViolated: return "constraint_violated"
        case .arithmeticOverflow: return "arithmetic_overflow"
        case .divisionByZero: return "division_by_zero"
        case .depthLimit: return "depth_limit"
        case .pointerLoop: return "pointer_loop"
        case .pointerOutOfRange: return "pointer_out_of_range"
        case .invalidLabel: return "invalid_label"
        case .nameTooLong: return "name_too_long"
        case .varintOverflow: return "varint_overflow"
        case .misaligned: return "misaligned"
        case .absentField: return "absent_field"
        case .noEnclosingStruct: return "no_enclosing_struct"
        case .noMatchingCase: return "no_matching_case"
        case .emptyElement: return "empty_element"
        case .fieldLimit: return "field_limit"
        case .missingArgument: return "missing_argument"
        case .positionOutOfRange: return "position_out_of_range"
        case .positionLimit: return "position_limit"
        case .indexOutOfRange: return "index_out_of_range"
        case .aggregateLimit: return "aggregate_limit"
        case .noValue: return "no_value"
        }
    }

    /// One sentence: what went wrong, at which field and offset.
    public var description: String {
        let at = bitOffset == 0 ? "offset \(offset)" : "offset \(offset) bit \(bitOffset)"
        switch kind {
        case .prematureEnd(let needed, let available):
            return "premature end of data: \(path) needs \(needed) byte\(needed == 1 ? "" : "s") at \(at), \(available) available"
        case .exceedsScope(let needed, let available):
            return "length larger than its scope: \(path) needs \(needed) byte\(needed == 1 ? "" : "s") at \(at), its scope has \(available)"
        case .negativeLength(let value):
            return "negative length: \(path) computes a length of \(value) at \(at)"
        case .boolOutOfRange(let byte):
            return "bool out of range: \(path) is \(byte) at \(at); a bool is 0 or 1"
        case .missingTerminator(let terminator):
            let named = terminator.allSatisfy { $0 == 0 } ? "NUL terminator" : "terminator \(Self.literal(terminator))"
            return "premature end of data: \(path) has no \(named) before the end of its scope, starting at \(at)"
        case .constraintViolated(let expression):
            return "constraint violated: \(path) at \(at) fails '\(expression)'"
        case .arithmeticOverflow(let expression):
            return "arithmetic overflow: '\(expression)' for \(path) at \(at)"
        case .divisionByZero(let expression):
            return "division by zero: '\(expression)' for \(path) at \(at)"
        case .depthLimit(let limit):
            return "recursion depth limit: \(path) at \(at) nests deeper than \(limit) structs"
        case .pointerLoop:
            return "pointer loop: \(path) at \(at) follows compression pointers in a loop"
        case .pointerOutOfRange(let pointer):
            return "pointer out of range: \(path) at \(at) points to \(pointer), past the end of its message"
        case .invalidLabel(let byte):
            return "invalid label: \(path) at \(at) has label type 0x\(String(byte, radix: 16))"
        case .nameTooLong:
            return "name too long: \(path) at \(at) exceeds 255 bytes"
        case .varintOverflow:
            return "varint overflow: \(path) at \(at) does not fit 64 bits"
        case .misaligned(let bits):
            return "misaligned: \(path) must start on a byte boundary but starts \(bits) bits into the byte at offset \(offset)"
        case .absentField(let name):
            return "absent field: \(path) at \(at) needs '\(name)', which is not present"
        case .noEnclosingStruct(let name):
            return "no enclosing struct: \(path) at \(at) refers to '\(name)'"
        case .noMatchingCase(let value?):
            return "no matching case: \(path) at \(at) has no case for \(value)"
        case .noMatchingCase(nil):
            return "no matching case: \(path) at \(at): none of the switch's conditions holds"
        case .emptyElement:
            return "empty array element: \(path) at \(at) consumed no bytes, so the array could not end"
        case .fieldLimit(let limit):
            return "field limit: \(path) at \(at) would be field \(limit + 1); the walk records at most \(limit)"
        case .positionOutOfRange(let offset):
            return "position out of range: \(path) at \(at) is to be read at offset \(offset) of its base, which is outside it"
        case .positionLimit(let limit):
            return "position limit: \(path) at \(at) would be the walk's read number \(limit + 1) at an @at offset; it makes at most \(limit)"
        case .indexOutOfRange(let reference, let index, let count, let isBeingRead):
            if isBeingRead {
                return "index out of range: \(path) at \(at) reads '\(reference)' with index \(index), outside the \(count) "
                    + "element\(count == 1 ? "" : "s") read so far of an array still being read (an element sees only the elements before it)"
            }
            return "index out of range: \(path) at \(at) reads '\(reference)' with index \(index), outside 0..<\(count)"
        case .noValue(let expression, let reason):
            return "no value: \(path) at \(at) needs '\(expression)', which has none: \(reason)"
        case .aggregateLimit(let limit):
            return "aggregate limit: \(path) at \(at) needs an aggregate past the walk's budget of \(limit) elements visited"
        case .missingArgument(let name):
            return "missing argument: \(path) at \(at) is parameter '\(name)', which nothing passed (a struct with parameters read as a root)"
        }
    }

    /// Bytes as a schema string literal: `"\r\n"`, `"\x89PNG"`.
    static func literal(_ bytes: [UInt8]) -> String {
        var text = "\""
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""): text += "\\\""
            case UInt8(ascii: "\\"): text += "\\\\"
            case 0x0A: text += "\\n"
            case 0x0D: text += "\\r"
            case 0x09: text += "\\t"
            case 0: text += "\\0"
            case 0x20..<0x7F: text.unicodeScalars.append(Unicode.Scalar(byte))
            default: text += "\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)
            }
        }
        return text + "\""
    }
}
