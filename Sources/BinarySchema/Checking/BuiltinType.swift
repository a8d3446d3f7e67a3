import BinaryIO

/// The built-in type names of the language: `u1`…`u64`, `i1`…`i64` with an
/// optional `le`/`be` suffix, `f32`/`f64`, `bool`, `varint`, `zigzag`,
/// `cstring`, `mac`, `ipv4`, `ipv6` and `dns_name`.
enum BuiltinType {
    case integer(bits: Int, signed: Bool, endianness: Endianness?)
    case float(bits: Int, endianness: Endianness?)
    case boolean
    case varint
    case zigzag
    case cString
    case address(bytes: Int, display: DisplayHint)
    case dnsName
    /// A name of integer shape whose width or suffix is wrong (`u0`, `u65`, `u12le`).
    case invalid(String)

    static func parse(_ name: String) -> BuiltinType? {
        switch name {
        case "bool": return .boolean
        case "varint": return .varint
        case "zigzag": return .zigzag
        case "cstring": return .cString
        case "mac": return .address(bytes: 6, display: .mac)
        case "ipv4": return .address(bytes: 4, display: .ipv4)
        case "ipv6": return .address(bytes: 16, display: .ipv6)
        case "guid": return .address(bytes: 16, display: .guid)
        case "uuid": return .address(bytes: 16, display: .uuid)
        case "dns_name": return .dnsName
        default: break
        }
        // A byte at a time: this runs for every type name a schema writes, builtin or not.
        var body = Array(name.utf8)
        guard let first = body.first, first == UInt8(ascii: "u") || first == UInt8(ascii: "i") || first == UInt8(ascii: "f")
        else { return nil }
        body.removeFirst()
        var endianness: Endianness?
        if body.count >= 2, body[body.count - 1] == UInt8(ascii: "e") {
            if body[body.count - 2] == UInt8(ascii: "l") { endianness = .little }
            if body[body.count - 2] == UInt8(ascii: "b") { endianness = .big }
            if endianness != nil { body.removeLast(2) }
        }
        guard !body.isEmpty, body.count <= 3, body.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        let bits = body.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        if first == UInt8(ascii: "f") {
            return bits == 32 || bits == 64 ? .float(bits: bits, endianness: endianness)
                : .invalid("floats are f32 or f64, not '\(name)'")
        }
        guard bits >= 1, bits <= 64 else { return .invalid("integer widths are 1 to 64 bits, not \(bits) in '\(name)'") }
        if endianness != nil, bits % 8 != 0 || bits == 8 {
            return .invalid("'\(name)': a byte-order suffix applies to whole-byte widths of 16 bits or more")
        }
        return .integer(bits: bits, signed: first == UInt8(ascii: "i"), endianness: endianness)
    }

    var valueType: ValueType {
        switch self {
        case .integer, .varint, .zigzag: return .integer
        case .float: return .float
        case .boolean: return .boolean
        case .cString, .dnsName: return .string
        case .address: return .bytes
        case .invalid: return .invalid
        }
    }

    var problem: String? {
        if case .invalid(let message) = self { return message }
        return nil
    }

    func resolved(defaults: (Endianness, BitOrder)) -> FieldType? {
        switch self {
        case .integer(let bits, let signed, let endianness):
            return .integer(IntegerType(bits: bits, isSigned: signed, endianness: endianness ?? defaults.0, bitOrder: defaults.1,
                                        hasExplicitEndianness: endianness != nil))
        case .float(let bits, let endianness):
            return .float(bits: bits, endianness: endianness ?? defaults.0, hasExplicitEndianness: endianness != nil)
        case .boolean: return .boolean
        case .varint: return .varint(zigzag: false)
        case .zigzag: return .varint(zigzag: true)
        case .cString: return .string(.terminator([0]), encoding: .utf8)
        case .address(let count, let display): return .address(byteCount: count, display: display)
        case .dnsName: return .dnsName
        case .invalid: return nil
        }
    }
}
