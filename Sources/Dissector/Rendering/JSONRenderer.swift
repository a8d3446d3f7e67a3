import BinarySchema

/// A dissection as one JSON object on one line (JSON Lines for streams). The format is
/// documented in docs/JSON.md and kept stable:
///
/// `{"frame":1,"length":74,"layers":["eth","ip","tcp"],"fields":[{"path":"eth.dst", ...}],
///   "gaps":[...],"error":null}`
public struct JSONRenderer {
    public init() {}

    public func render(_ dissection: Dissection, frame: FrameInfo = FrameInfo()) -> String {
        var sink = TextSink(capacity: dissection.nodes.count * 160)
        render(dissection, frame: frame, into: &sink)
        return sink.text
    }

    /// Appends the object, without a newline.
    public func render(_ dissection: Dissection, frame: FrameInfo = FrameInfo(), into sink: inout TextSink) {
        render(dissection, frame: frame, into: &sink, scratch: RenderScratch())
    }

    func render(_ dissection: Dissection, frame: FrameInfo, into sink: inout TextSink, scratch: RenderScratch) {
        let layout = Layout(dissection, scratch: scratch)
        defer { scratch.keep(layout) }
        sink.append(byte: UInt8(ascii: "{"))
        if let number = frame.number {
            sink.append("\"frame\":" as StaticString)
            sink.appendDecimal(number)
            sink.append(byte: UInt8(ascii: ","))
        }
        if let time = frame.time {
            sink.append("\"time\":\"" as StaticString)
            sink.appendISO8601(time)
            sink.append("\"," as StaticString)
        }
        sink.append("\"length\":" as StaticString)
        sink.appendDecimal(dissection.bytes.count)
        if let original = frame.originalLength {
            sink.append(",\"original_length\":" as StaticString)
            sink.appendDecimal(original)
        }
        sink.append(",\"layers\":[" as StaticString)
        for (position, layer) in layout.layers.enumerated() {
            if position > 0 { sink.append(byte: UInt8(ascii: ",")) }
            if case .structure(let structID) = dissection.nodes[layer].kind,
               let abbreviation = dissection.schema.names.protocolAbbreviation(Int(structID)) {
                sink.appendJSONString(abbreviation)
            } else {
                sink.append("\"\"" as StaticString)
            }
        }
        sink.append("],\"fields\":[" as StaticString)
        var value = scratch.value
        let paths = PathTable(dissection, scratch: scratch)
        defer { scratch.keep(paths) }
        let names = dissection.schema.names
        for index in dissection.nodes.indices {
            if index > 0 { sink.append(byte: UInt8(ascii: ",")) }
            field(index, dissection, layout, paths, names, &sink, &value)
        }
        sink.append("],\"gaps\":[" as StaticString)
        for (position, gap) in layout.gaps.enumerated() {
            if position > 0 { sink.append(byte: UInt8(ascii: ",")) }
            sink.append("{\"offset\":" as StaticString)
            sink.appendDecimal(gap.range.lowerBound)
            sink.append(",\"length\":" as StaticString)
            sink.appendDecimal(gap.range.count)
            sink.append(gap.unparsed ? ",\"kind\":\"unparsed\",\"raw\":\"" as StaticString : ",\"kind\":\"unclaimed\",\"raw\":\"")
            sink.appendHex(dissection.bytes[gap.range])
            sink.append("\"}" as StaticString)
        }
        sink.append("],\"error\":" as StaticString)
        if let error = dissection.error {
            sink.append("{\"code\":" as StaticString)
            sink.appendJSONString(error.code)
            sink.append(",\"message\":" as StaticString)
            sink.appendJSONString(error.description)
            sink.append(",\"path\":" as StaticString)
            sink.appendJSONString(error.path)
            sink.append(",\"offset\":" as StaticString)
            sink.appendDecimal(error.offset)
            sink.append(",\"bit_offset\":" as StaticString)
            sink.appendDecimal(error.bitOffset)
            sink.append(",\"field\":" as StaticString)
            sink.appendDecimal(error.node)
            sink.append(byte: UInt8(ascii: "}"))
        } else {
            sink.append("null" as StaticString)
        }
        sink.append(byte: UInt8(ascii: "}"))
    }

    private func field(_ index: Int, _ dissection: Dissection, _ layout: Layout, _ paths: PathTable, _ names: NameTable,
                       _ sink: inout TextSink, _ scratch: inout TextSink) {
        let node = dissection.nodes[index]
        let isError = dissection.errorNode == index
        sink.append("{\"path\":\"" as StaticString)
        // Paths and names are identifiers: nothing in them needs escaping.
        paths.write(index, into: &sink)
        sink.append("\",\"name\":\"" as StaticString)
        PathTable.appendName(of: node, names, into: &sink)
        sink.append(byte: UInt8(ascii: "\""))
        sink.append(",\"parent\":" as StaticString)
        sink.appendDecimal(node.parent)
        sink.append(",\"kind\":\"" as StaticString)
        sink.append(kind(node.kind))
        sink.append("\",\"offset\":" as StaticString)
        sink.appendDecimal(node.byteOffset)
        sink.append(",\"length\":" as StaticString)
        sink.appendDecimal(node.byteLength)
        if layout.isBitLevel(index) {
            sink.append(",\"bit_offset\":" as StaticString)
            sink.appendDecimal(node.bitStart & 7)
            sink.append(",\"bit_width\":" as StaticString)
            sink.appendDecimal(node.bitWidth)
        }
        var isContainer = false
        switch node.kind {
        case .structure, .array: isContainer = true
        default: break
        }
        if !isContainer {
            sink.append(",\"raw\":\"" as StaticString)
            sink.appendHex(dissection.rawBytes(of: index))
            sink.append(byte: UInt8(ascii: "\""))
        }
        sink.append(",\"value\":" as StaticString)
        switch node.value {
        case .unsigned(let value): sink.appendDecimal(value)
        case .signed(let value): sink.appendDecimal(value)
        case .float(let value):
            if value.isFinite { sink.append(String(value)) } else { sink.appendJSONString(String(value)) }
        case .boolean(let value): sink.append(value ? "true" as StaticString : "false")
        case .bytes:
            sink.append(byte: UInt8(ascii: "\""))
            sink.appendHex(dissection.rawBytes(of: index))
            sink.append(byte: UInt8(ascii: "\""))
        case .string, .text: sink.appendJSONString(dissection.text(of: index) ?? "")
        case .none: sink.append("null" as StaticString)
        }
        if case .enumeration(let enumID) = node.kind {
            sink.append(",\"enum\":" as StaticString)
            if let raw = dissection.integer(of: index), let name = names.caseName(ofEnum: Int(enumID), value: raw) {
                sink.appendJSONString(name)
            } else {
                sink.append("null" as StaticString)
            }
        }
        sink.append(",\"display\":" as StaticString)
        if isError {
            sink.append("\"\",\"error\":true" as StaticString)
        } else {
            scratch.removeAll()
            ValueWriter.writeDisplay(dissection, index, into: &scratch)
            sink.appendJSONString(scratch.bytes)
        }
        sink.append(byte: UInt8(ascii: "}"))
    }

    private func kind(_ kind: NodeKind) -> StaticString {
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
}
