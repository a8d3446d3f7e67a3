import BinarySchema

/// Writes paths and values straight into a ``TextSink``: the fast path of every view, with
/// ``ValueFormatter`` as the reference for what the text is.
enum ValueWriter {
    /// The node's path, `ip.flags.df`, `tcp.options[2].kind`.
    static func writePath(_ dissection: Dissection, _ index: Int, into sink: inout TextSink) {
        let node = dissection.nodes[index]
        if case .structure(let structID) = node.kind,
           let abbreviation = dissection.schema.structs[Int(structID)].protocolAbbreviation {
            sink.append(abbreviation)
            return
        }
        let parent = Int(node.parent)
        if parent < 0 {
            sink.append(dissection.name(of: index))
            return
        }
        writePath(dissection, parent, into: &sink)
        if node.arrayIndex >= 0 {
            sink.append(byte: UInt8(ascii: "["))
            sink.appendDecimal(node.arrayIndex)
            sink.append(byte: UInt8(ascii: "]"))
        } else {
            sink.append(byte: UInt8(ascii: "."))
            sink.append(dissection.field(of: index)?.name ?? "?")
        }
    }

    /// The node's display text, as ``ValueFormatter/displayText(_:_:)`` gives it.
    static func writeDisplay(_ dissection: Dissection, _ index: Int, into sink: inout TextSink) {
        let node = dissection.nodes[index]
        let field = dissection.field(of: index)
        if field?.displayFormat != nil {
            sink.append(ValueFormatter.displayText(dissection, index))
            return
        }
        let fieldHint = field?.display ?? .automatic
        let hint = fieldHint == .automatic ? node.impliedDisplay : fieldHint
        switch (node.kind, node.value) {
        case (.integer, .unsigned(let value)):
            switch hint {
            case .automatic, .decimal: sink.appendDecimal(value)
            case .hex: writeHex(value, bits: node.bitWidth, into: &sink)
            case .flag where value <= 1: sink.append(value == 1 ? "Set" as StaticString : "Not set")
            default: sink.append(ValueFormatter.valueText(dissection, index))
            }
        case (.integer, .signed(let value)) where hint == .automatic || hint == .decimal:
            sink.appendDecimal(value)
        case (.enumeration(let enumID), .unsigned(let value)):
            if let name = dissection.schema.enums[Int(enumID)].caseName(for: Int64(bitPattern: value)) {
                sink.append(name)
            } else {
                sink.append("unknown" as StaticString)
            }
            sink.append(" (" as StaticString)
            if hint == .hex { writeHex(value, bits: node.bitWidth, into: &sink) } else { sink.appendDecimal(value) }
            sink.append(byte: UInt8(ascii: ")"))
        case (.bytes, _) where hint == .automatic || hint == .hex:
            let raw = dissection.rawBytes(of: index)
            if raw.isEmpty { sink.append("(empty)" as StaticString) } else { sink.appendHex(raw) }
        case (.bytes, _) where hint == .mac:
            sink.appendHex(dissection.rawBytes(of: index), separator: UInt8(ascii: ":"))
        case (.bytes, _) where hint == .ipv4 && node.byteLength == 4:
            var first = true
            for byte in dissection.rawBytes(of: index) {
                if !first { sink.append(byte: UInt8(ascii: ".")) }
                sink.appendDecimal(byte)
                first = false
            }
        case (.dnsName, _):
            sink.append(dissection.text(of: index) ?? "")
        default:
            sink.append(ValueFormatter.valueText(dissection, index))
        }
    }

    private static func writeHex(_ value: UInt64, bits: Int, into sink: inout TextSink) {
        sink.append("0x" as StaticString)
        let digits = max(1, (min(64, max(1, bits)) + 3) / 4)
        for position in stride(from: digits - 1, through: 0, by: -1) {
            sink.append(byte: TextSink.hexDigits[Int((value >> UInt64(position * 4)) & 0xF)])
        }
    }

    /// ``ValueFormatter/bitPattern(_:_:)`` written into the sink; false for byte-aligned fields.
    @discardableResult
    static func writeBitPattern(_ dissection: Dissection, _ index: Int, into sink: inout TextSink) -> Bool {
        let node = dissection.nodes[index]
        guard node.bitStart & 7 != 0 || node.bitEnd & 7 != 0 || node.isBitField else { return false }
        let firstByte = node.bitStart >> 3
        let lastByte = (node.bitEnd - 1) >> 3
        guard lastByte >= firstByte, lastByte < dissection.bytes.count else { return false }
        for byteIndex in firstByte...lastByte {
            if byteIndex > firstByte { sink.append(byte: UInt8(ascii: " ")) }
            let byte = dissection.bytes[byteIndex]
            for bit in 0..<8 {
                if bit == 4 { sink.append(byte: UInt8(ascii: " ")) }
                let position = byteIndex * 8 + bit
                if position >= node.bitStart, position < node.bitEnd {
                    sink.append(byte: (byte >> UInt8(7 - bit)) & 1 == 1 ? UInt8(ascii: "1") : UInt8(ascii: "0"))
                } else {
                    sink.append(byte: UInt8(ascii: "."))
                }
            }
        }
        return true
    }
}
