import BinarySchema

/// Turns node values into the text a person reads: names for enums, the usual
/// notation for addresses, hex where the schema asks for it.
public enum ValueFormatter {
    /// The value as the schema's display hint shows it, without `@display` formatting.
    public static func valueText(_ dissection: Dissection, _ index: Int) -> String {
        let node = dissection.nodes[index]
        let fieldHint = dissection.field(of: index)?.display ?? .automatic
        let hint = fieldHint == .automatic ? node.impliedDisplay : fieldHint
        switch node.kind {
        case .structure:
            return flagsText(dissection, index) ?? dissection.structType(of: index)?.name ?? ""
        case .array:
            if case .unsigned(let count) = node.value { return "\(count) element\(count == 1 ? "" : "s")" }
            return ""
        case .enumeration(let enumID):
            let raw = rawInteger(node.value)
            let number = integerText(node.value, hint: hint == .hex ? .hex : .decimal, bits: node.bitWidth)
            guard let raw else { return number }
            let name = dissection.schema.enums[Int(enumID)].caseName(for: raw) ?? "unknown"
            return "\(name) (\(number))"
        case .integer:
            return integerText(node.value, hint: hint, bits: node.bitWidth)
        case .float:
            if case .float(let value) = node.value { return "\(value)" }
            return ""
        case .boolean:
            if case .boolean(let value) = node.value { return value ? "true" : "false" }
            return ""
        case .bytes:
            return bytesText(Array(dissection.rawBytes(of: index)), hint: hint)
        case .string:
            return quoted(dissection.text(of: index) ?? "")
        case .dnsName:
            return dissection.text(of: index) ?? ""
        }
    }

    /// The text to show for a node: its `@display` format filled in when it has one, else ``valueText(_:_:)``.
    public static func displayText(_ dissection: Dissection, _ index: Int) -> String {
        guard let format = dissection.field(of: index)?.displayFormat?.format,
              let arguments = dissection.displayArguments(of: index) else {
            return valueText(dissection, index)
        }
        var result = ""
        var remaining = arguments[...]
        var pieces = format.components(separatedBy: "{}")[...]
        result += pieces.popFirst() ?? ""
        for piece in pieces {
            result += remaining.popFirst().map(String.init) ?? "{}"
            result += piece
        }
        return result
    }

    /// A struct made only of 1-bit fields, shown as the names of those set: `[ack,syn]`.
    static func flagsText(_ dissection: Dissection, _ index: Int) -> String? {
        let children = dissection.children(of: index)
        guard !children.isEmpty else { return nil }
        var set: [String] = []
        for child in children {
            let node = dissection.nodes[child]
            guard case .integer = node.kind, node.bitWidth == 1 else { return nil }
            if case .unsigned(1) = node.value { set.append(dissection.name(of: child)) }
        }
        return "[" + set.joined(separator: ",") + "]"
    }

    /// The bits of the bytes a bit field touches, the field's own as 0/1 and the rest as dots,
    /// in groups of four: `.... 0101` for the low nibble of 0x45. Nil for byte-aligned fields.
    public static func bitPattern(_ dissection: Dissection, _ index: Int) -> String? {
        let node = dissection.nodes[index]
        guard node.bitStart & 7 != 0 || node.bitEnd & 7 != 0 || node.isBitField else { return nil }
        let firstByte = node.bitStart >> 3
        let lastByte = (node.bitEnd - 1) >> 3
        guard lastByte >= firstByte, lastByte < dissection.bytes.count else { return nil }
        var text = ""
        for byteIndex in firstByte...lastByte {
            if byteIndex > firstByte { text += " " }
            let byte = dissection.bytes[byteIndex]
            for bit in 0..<8 {
                if bit == 4 { text += " " }
                let position = byteIndex * 8 + bit
                if position >= node.bitStart, position < node.bitEnd {
                    text += (byte >> UInt8(7 - bit)) & 1 == 1 ? "1" : "0"
                } else {
                    text += "."
                }
            }
        }
        return text
    }

    static func rawInteger(_ value: FieldValue) -> Int64? {
        switch value {
        case .unsigned(let raw): return Int64(bitPattern: raw)
        case .signed(let raw): return raw
        default: return nil
        }
    }

    /// An integer in the notation a hint asks for; `bits` sets the digits of hex and binary.
    public static func integerText(_ value: FieldValue, hint: DisplayHint, bits: Int) -> String {
        let magnitude: UInt64
        switch value {
        case .unsigned(let raw): magnitude = raw
        case .signed(let raw):
            if hint == .hex || hint == .binary { magnitude = UInt64(bitPattern: raw) } else { return String(raw) }
        case .boolean(let flag): return flag ? "true" : "false"
        default: return ""
        }
        let width = max(1, min(64, bits))
        let masked = width == 64 ? magnitude : magnitude & ((1 << UInt64(width)) - 1)
        switch hint {
        case .hex:
            return "0x" + padded(String(masked, radix: 16), to: (width + 3) / 4)
        case .binary:
            return "0b" + padded(String(masked, radix: 2), to: width)
        case .flag:
            return masked == 0 ? "Not set" : (masked == 1 ? "Set" : String(masked))
        case .ipv4 where width == 32:
            return (0..<4).map { String((masked >> UInt64(24 - $0 * 8)) & 0xFF) }.joined(separator: ".")
        default:
            return String(magnitude)
        }
    }

    /// Bytes as a MAC, IPv4 or IPv6 address, printable text, or hex.
    public static func bytesText(_ bytes: [UInt8], hint: DisplayHint) -> String {
        switch hint {
        case .mac where !bytes.isEmpty:
            return bytes.map { padded(String($0, radix: 16), to: 2) }.joined(separator: ":")
        case .ipv4 where bytes.count == 4:
            return bytes.map(String.init).joined(separator: ".")
        case .ipv6 where bytes.count == 16:
            return ipv6Text(bytes)
        case .ascii:
            return quoted(String(decoding: bytes.map { $0 >= 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: ".") }, as: UTF8.self))
        default:
            return bytes.isEmpty ? "(empty)" : bytes.map { padded(String($0, radix: 16), to: 2) }.joined()
        }
    }

    /// RFC 5952 text: lowercase, leading zeros dropped, the longest run of two or more zero groups as `::`.
    public static func ipv6Text(_ bytes: [UInt8]) -> String {
        guard bytes.count == 16 else { return bytesText(bytes, hint: .hex) }
        let groups = (0..<8).map { UInt16(bytes[$0 * 2]) << 8 | UInt16(bytes[$0 * 2 + 1]) }
        var bestStart = -1
        var bestLength = 0
        var index = 0
        while index < 8 {
            if groups[index] == 0 {
                var end = index
                while end < 8, groups[end] == 0 { end += 1 }
                if end - index > bestLength {
                    bestStart = index
                    bestLength = end - index
                }
                index = end
            } else {
                index += 1
            }
        }
        if bestLength < 2 { return groups.map { String($0, radix: 16) }.joined(separator: ":") }
        let head = groups[..<bestStart].map { String($0, radix: 16) }.joined(separator: ":")
        let tail = groups[(bestStart + bestLength)...].map { String($0, radix: 16) }.joined(separator: ":")
        return head + "::" + tail
    }

    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    static func padded(_ text: String, to width: Int) -> String {
        text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
