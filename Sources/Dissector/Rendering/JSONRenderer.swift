import BinarySchema

/// A dissection as one JSON object on one line (JSON Lines for streams). The format is
/// documented in docs/JSON.md and kept stable:
///
/// `{"frame":1,"length":74,"layers":["eth","ip","tcp"],"fields":[{"path":"eth.dst", ...}],
///   "gaps":[...],"error":null}`
public struct JSONRenderer {
    public init() {}

    public func render(_ dissection: Dissection, frame: FrameInfo = FrameInfo()) -> String {
        let layout = Layout(dissection)
        var json = JSONWriter()
        json.open("{")
        if let number = frame.number { json.key("frame"); json.number(number) }
        if let timestamp = frame.timestamp { json.key("time"); json.string(timestamp) }
        json.key("length"); json.number(dissection.bytes.count)
        if let original = frame.originalLength { json.key("original_length"); json.number(original) }
        json.key("layers")
        json.open("[")
        for layer in layout.layers { json.string(dissection.structType(of: layer)?.protocolAbbreviation ?? "") }
        json.close("]")
        json.key("fields")
        json.open("[")
        for index in dissection.nodes.indices { field(index, dissection, layout, &json) }
        json.close("]")
        json.key("gaps")
        json.open("[")
        for gap in layout.gaps {
            json.open("{")
            json.key("offset"); json.number(gap.range.lowerBound)
            json.key("length"); json.number(gap.range.count)
            json.key("kind"); json.string(gap.unparsed ? "unparsed" : "unclaimed")
            json.key("raw"); json.string(hex(dissection.bytes[gap.range]))
            json.close("}")
        }
        json.close("]")
        json.key("error")
        if let error = dissection.error {
            json.open("{")
            json.key("code"); json.string(error.code)
            json.key("message"); json.string(error.description)
            json.key("path"); json.string(error.path)
            json.key("offset"); json.number(error.offset)
            json.key("bit_offset"); json.number(error.bitOffset)
            json.key("field"); json.number(error.node)
            json.close("}")
        } else {
            json.raw("null")
        }
        json.close("}")
        return json.text
    }

    private func field(_ index: Int, _ dissection: Dissection, _ layout: Layout, _ json: inout JSONWriter) {
        let node = dissection.nodes[index]
        json.open("{")
        json.key("path"); json.string(dissection.path(of: index))
        json.key("name"); json.string(dissection.name(of: index))
        json.key("parent"); json.number(Int(node.parent))
        json.key("kind"); json.string(kind(node.kind))
        json.key("offset"); json.number(node.byteOffset)
        json.key("length"); json.number(node.byteLength)
        if layout.isBitLevel(index) {
            json.key("bit_offset"); json.number(node.bitStart & 7)
            json.key("bit_width"); json.number(node.bitWidth)
        }
        let isContainer: Bool
        switch node.kind {
        case .structure, .array: isContainer = true
        default: isContainer = false
        }
        if !isContainer { json.key("raw"); json.string(hex(dissection.rawBytes(of: index))) }
        json.key("value")
        switch node.value {
        case .unsigned(let value): json.raw(String(value))
        case .signed(let value): json.raw(String(value))
        case .float(let value): value.isFinite ? json.raw(String(value)) : json.string(String(value))
        case .boolean(let value): json.raw(value ? "true" : "false")
        case .bytes: json.string(hex(dissection.rawBytes(of: index)))
        case .string, .text: json.string(dissection.text(of: index) ?? "")
        case .none: json.raw("null")
        }
        if case .enumeration(let enumID) = node.kind {
            json.key("enum")
            if let raw = dissection.integer(of: index), let name = dissection.schema.enums[Int(enumID)].caseName(for: raw) {
                json.string(name)
            } else {
                json.raw("null")
            }
        }
        json.key("display"); json.string(dissection.error?.node == index ? "" : ValueFormatter.displayText(dissection, index))
        if dissection.error?.node == index { json.key("error"); json.raw("true") }
        json.close("}")
    }

    private func kind(_ kind: NodeKind) -> String {
        switch kind {
        case .structure: return "struct"
        case .array: return "array"
        case .integer: return "integer"
        case .enumeration: return "enum"
        case .float: return "float"
        case .boolean: return "bool"
        case .bytes: return "bytes"
        case .string: return "string"
        case .dnsName: return "dns_name"
        }
    }

    private func hex(_ bytes: ArraySlice<UInt8>) -> String {
        var text = ""
        text.reserveCapacity(bytes.count * 2)
        let digits = Array("0123456789abcdef")
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return text
    }
}

/// Builds compact JSON text, commas included.
struct JSONWriter {
    private(set) var text = ""
    private var needsComma = false

    mutating func open(_ bracket: Character) {
        separate()
        text.append(bracket)
        needsComma = false
    }

    mutating func close(_ bracket: Character) {
        text.append(bracket)
        needsComma = true
    }

    mutating func key(_ name: String) {
        separate()
        appendQuoted(name)
        text.append(":")
        needsComma = false
    }

    mutating func number(_ value: Int) { raw(String(value)) }

    mutating func string(_ value: String) {
        separate()
        appendQuoted(value)
        needsComma = true
    }

    mutating func raw(_ value: String) {
        separate()
        text += value
        needsComma = true
    }

    private mutating func separate() {
        if needsComma { text.append(",") }
    }

    private mutating func appendQuoted(_ value: String) {
        text.append("\"")
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hexDigits = String(scalar.value, radix: 16)
                    text += "\\u" + String(repeating: "0", count: 4 - hexDigits.count) + hexDigits
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        text.append("\"")
    }
}
