/// The type of a value as expressions see it.
indirect enum ValueType: Equatable, CustomStringConvertible {
    case integer
    case boolean
    case enumeration(Int, name: String)
    case bytes
    case string
    case structure(Int, name: String)
    case array(ValueType)
    case float
    /// A switch field: its type depends on the bytes, so expressions cannot look inside.
    case varying
    /// The type of an expression that already produced an error; matches anything to avoid cascades.
    case invalid

    var description: String {
        switch self {
        case .integer: return "integer"
        case .boolean: return "bool"
        case .enumeration(_, let name): return "enum \(name)"
        case .bytes: return "bytes"
        case .string: return "string"
        case .structure(_, let name): return "struct \(name)"
        case .array(let element): return "array of \(element)"
        case .float: return "float"
        case .varying: return "switch (varying type)"
        case .invalid: return "invalid"
        }
    }

    /// Whether a value of this type can be loaded as an integer (integers, bools, enums).
    var isScalar: Bool {
        switch self {
        case .integer, .boolean, .enumeration, .invalid: return true
        default: return false
        }
    }

    /// Whether `len(x)` applies.
    var hasLength: Bool {
        switch self {
        case .bytes, .string, .array, .invalid: return true
        default: return false
        }
    }
}
