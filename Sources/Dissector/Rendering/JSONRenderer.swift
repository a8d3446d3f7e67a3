import BinarySchema

/// A dissection as one JSON object on one line (JSON Lines for streams). The format is
/// documented in docs/JSON.md and kept stable:
///
/// `{"frame":1,"length":74,"layers":["eth","ip","tcp"],"fields":[{"path":"eth.dst", ...}],
///   "gaps":[...],"error":null,"cut":null}`
public struct JSONRenderer {
    /// Whether the schema's own working values (`hidden let`) are written too.
    public var showsHidden: Bool
    /// Only these layers' fields are written (tshark's `-j`, `-J`); nil for every layer. The frame's
    /// members, its `layers` list and its gaps stay whole.
    public var layers: LayerSelection?

    /// A renderer; with `showsHidden`, the schema's `hidden let` values are written too; with
    /// `layers`, only the fields of those layers.
    public init(showsHidden: Bool = false, layers: LayerSelection? = nil) {
        self.showsHidden = showsHidden
        self.layers = layers
    }

    /// A renderer with the `options`' hidden values and layers.
    init(options: RenderOptions) {
        self.init(showsHidden: options.showsHidden, layers: options.layers)
    }

    /// The dissection as JSON text.
    public func render(_ dissection: Dissection, frame: FrameInfo = FrameInfo()) -> String {
        var sink = TextSink(capacity: dissection.nodes.count * 160)
        render(dissection, frame: frame, into: &sink)
        return sink.text
    }

    /// Appends the object, without a newline.
    public func render(_ dissection: Dissection, frame: FrameInfo = FrameInfo(), into sink: inout TextSink) {
        render(dissection, frame: frame, into: &sink, scratch: RenderScratch())
    }

    /// `"reassembled":"TCP PDU","reassembled_in":5,"frames":[3,4,5],"provenance":[{"frame":3,
    /// "frame_offset":66,"offset":0,"length":1448},…],"missing":[[a,b]],"overlap_conflict":false,`
    /// (`missing` ranges are half-open, in unit offsets). `packedRuns` writes each provenance run
    /// as `[frame,frame_offset,offset,length]`, as the HTML view's compact lines do.
    static func writeOrigin(_ reassembly: ReassemblyOrigin, packedRuns: Bool = false, into sink: inout TextSink) {
        sink.append("\"reassembled\":" as StaticString)
        sink.appendJSONString(reassembly.unit)
        sink.append(",\"reassembled_in\":" as StaticString)
        sink.appendDecimal(reassembly.completingFrame)
        sink.append(",\"frames\":[" as StaticString)
        for (position, frame) in reassembly.frames.enumerated() {
            if position > 0 { sink.append(byte: UInt8(ascii: ",")) }
            sink.appendDecimal(frame)
        }
        sink.append("],\"provenance\":[" as StaticString)
        for (position, run) in reassembly.runs.enumerated() {
            if position > 0 { sink.append(byte: UInt8(ascii: ",")) }
            if packedRuns {
                for (index, number) in [run.frame, run.frameOffset, run.offset, run.length].enumerated() {
                    sink.append(byte: UInt8(ascii: index == 0 ? "[" : ","))
                    sink.appendDecimal(number)
                }
                sink.append(byte: UInt8(ascii: "]"))
                continue
            }
            sink.append("{\"frame\":" as StaticString)
            sink.appendDecimal(run.frame)
            sink.append(",\"frame_offset\":" as StaticString)
            sink.appendDecimal(run.frameOffset)
            sink.append(",\"offset\":" as StaticString)
            sink.appendDecimal(run.offset)
            sink.append(",\"length\":" as StaticString)
            sink.appendDecimal(run.length)
            sink.append(byte: UInt8(ascii: "}"))
        }
        sink.append("],\"missing\":[" as StaticString)
        for (position, range) in reassembly.missing.enumerated() {
            if position > 0 { sink.append(byte: UInt8(ascii: ",")) }
            sink.append(byte: UInt8(ascii: "["))
            sink.appendDecimal(range.lowerBound)
            sink.append(byte: UInt8(ascii: ","))
            sink.appendDecimal(range.upperBound)
            sink.append(byte: UInt8(ascii: "]"))
        }
        sink.append("],\"overlap_conflict\":" as StaticString)
        sink.append(reassembly.overlapConflict ? "true," as StaticString : "false,")
        if let declared = reassembly.declaredLength {
            sink.append("\"declared_length\":" as StaticString)
            sink.appendDecimal(declared)
            sink.append(byte: UInt8(ascii: ","))
        }
        sink.append("\"unit_length\":" as StaticString)
        sink.appendDecimal(reassembly.length)
        sink.append(byte: UInt8(ascii: ","))
    }

    func render(_ dissection: Dissection, frame: FrameInfo, into sink: inout TextSink, scratch: RenderScratch) {
        let layout = Layout(dissection, showsHidden: showsHidden, scratch: scratch)
        defer { scratch.keep(layout) }
        sink.append(byte: UInt8(ascii: "{"))
        if let reassembly = frame.reassembly { Self.writeOrigin(reassembly, into: &sink) }
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
        if frame.originalLength != nil || dissection.isTruncated {
            sink.append(",\"original_length\":" as StaticString)
            sink.appendDecimal(frame.originalLength(of: dissection))
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
        var display = scratch.value
        let names = dissection.schema.names
        let nodes = dissection.nodes.buffer
        var checksums = ValueWriter.ChecksumCursor(dissection)
        // Each path is written once, into the output, and the next ones copy their parent's from
        // there.
        var (pathStarts, pathEnds) = scratch.takePathTables()
        pathStarts.append(contentsOf: repeatElement(0, count: nodes.count))
        pathEnds.append(contentsOf: repeatElement(0, count: nodes.count))
        let filters = FilterNameTable(dissection, scratch: scratch)
        defer { scratch.keep(filters) }
        let shown = layers.map { ShownNodes(dissection, showsHidden: showsHidden, selection: $0) } ?? layout.shown
        dissection.bytes.withUnsafeBufferPointer { bytes in
        pathStarts.withUnsafeMutableBufferPointer { pathStarts in
        pathEnds.withUnsafeMutableBufferPointer { pathEnds in
            var first = true
            for index in nodes.indices {
                let node = nodes[index]
                // A hidden node is a leaf: no later path copies its.
                guard shown.isShown(index) else { continue }
                if !first { sink.append(byte: UInt8(ascii: ",")) }
                first = false
                sink.append("{\"path\":\"" as StaticString)
                // Paths and names are identifiers: nothing in them needs escaping.
                let nameStart = PathTable.appendPath(of: index, node, names, to: &sink, starts: pathStarts, ends: pathEnds)
                sink.append("\",\"name\":\"" as StaticString)
                if let nameStart {
                    sink.appendCopy(nameStart..<pathEnds[index])
                } else {
                    PathTable.appendName(of: node, names, into: &sink)
                }
                sink.append("\",\"filter\":\"" as StaticString)
                filters.write(index, into: &sink)
                field(index, node, shown.position(of: Int(node.parent)), dissection, bytes, names,
                      index >= checksums.upcoming ? checksums.take(index, in: dissection) : nil, &sink, &display)
            }
        }
        }
        }
        scratch.keepPathTables(starts: pathStarts, ends: pathEnds)
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
            appendWhere(message: error.description, path: error.path, offset: error.offset, bitOffset: error.bitOffset,
                        into: &sink)
            sink.append(",\"field\":" as StaticString)
            sink.appendDecimal(shown.position(of: error.node))
            sink.append(byte: UInt8(ascii: "}"))
        } else {
            sink.append("null" as StaticString)
        }
        sink.append(",\"cut\":" as StaticString)
        if let cut = dissection.cut {
            sink.append("{\"layer\":" as StaticString)
            sink.appendJSONString(cut.layer)
            appendWhere(message: cut.description, path: cut.path, offset: cut.offset, bitOffset: cut.bitOffset, into: &sink)
            sink.append(",\"needed\":" as StaticString)
            if let needed = cut.needed { sink.appendDecimal(needed) } else { sink.append("null" as StaticString) }
            sink.append(",\"captured_length\":" as StaticString)
            sink.appendDecimal(cut.capturedLength)
            sink.append(",\"original_length\":" as StaticString)
            sink.appendDecimal(cut.originalLength)
            sink.append(",\"field\":" as StaticString)
            sink.appendDecimal(shown.position(of: cut.node))
            sink.append(byte: UInt8(ascii: "}"))
        } else {
            sink.append("null" as StaticString)
        }
        sink.append(byte: UInt8(ascii: "}"))
    }

    /// The members after `name`.
    private func field(_ index: Int, _ node: FieldNode, _ parent: Int, _ dissection: Dissection, _ bytes: UnsafeBufferPointer<UInt8>,
                       _ names: NameTable, _ checksum: ChecksumResult?, _ sink: inout TextSink, _ display: inout TextSink) {
        sink.append("\",\"parent\":" as StaticString)
        sink.appendDecimal(parent)
        sink.append(kindKey(node.kind))
        sink.appendDecimal(node.byteOffset)
        sink.append(",\"length\":" as StaticString)
        sink.appendDecimal(node.byteLength)
        if node.isBitLevel {
            sink.append(",\"bit_offset\":" as StaticString)
            sink.appendDecimal(node.bitStart & 7)
            sink.append(",\"bit_width\":" as StaticString)
            sink.appendDecimal(node.bitWidth)
        }
        let raw = UnsafeBufferPointer(rebasing: bytes[dissection.rawByteRange(of: node)])
        if ValueWriter.isDerived(node) {
            // A computed value: no bytes of its own, so no "raw".
            sink.append(",\"derived\":true" as StaticString)
        }
        switch node.kind {
        case .structure, .array: break
        case _ where ValueWriter.isDerived(node): break
        default:
            sink.append(",\"raw\":\"" as StaticString)
            sink.appendHex(raw)
            sink.append(byte: UInt8(ascii: "\""))
        }
        sink.append(",\"value\":" as StaticString)
        switch node.value {
        case .unsigned(let value):
            if case .array = node.kind, let listed = ValueWriter.elementCount(dissection, index) {
                sink.appendDecimal(listed)
            } else {
                sink.appendDecimal(value)
            }
        case .signed(let value): sink.appendDecimal(value)
        case .float(let value):
            if value.isFinite { sink.append(String(value)) } else { sink.appendJSONString(String(value)) }
        case .boolean(let value): sink.append(value ? "true" as StaticString : "false")
        case .bytes:
            // An address as a user reads it ("192.0.2.167", "00:1b:21:aa:bb:cc"); other bytes in hex.
            sink.append(byte: UInt8(ascii: "\""))
            if !ValueWriter.writeAddress(dissection, index, into: &sink) { sink.appendHex(raw) }
            sink.append(byte: UInt8(ascii: "\""))
        case .string, .text: sink.appendJSONString(dissection.text(of: index) ?? "")
        case .none: sink.append("null" as StaticString)
        }
        if node.isInvalidText { sink.append(",\"invalid_text\":true" as StaticString) }
        if case .enumeration(let enumID) = node.kind {
            sink.append(",\"enum\":" as StaticString)
            if let raw = dissection.integer(of: index), let name = names.caseName(ofEnum: Int(enumID), value: raw) {
                sink.appendJSONString(name)
            } else {
                sink.append("null" as StaticString)
            }
        }
        if dissection.errorNode == index {
            sink.append(",\"display\":\"\",\"error\":true}" as StaticString)
            return
        }
        if dissection.cutNode == index {
            sink.append(",\"display\":\"\",\"cut\":true}" as StaticString)
            return
        }
        sink.append(",\"display\":\"" as StaticString)
        // Display text rarely needs escaping: write it in place, and only when it does, again
        // from a copy.
        let displayStart = sink.count
        ValueWriter.writeDisplay(dissection, index, into: &sink)
        if sink.needsJSONEscaping(from: displayStart) {
            display.removeAll()
            display.append(contentsOf: UnsafeBufferPointer(rebasing: sink.bytes[displayStart...]))
            sink.truncate(to: displayStart)
            sink.appendJSONString(display.bytes, quoted: false)
        }
        if let checksum {
            sink.append(checksum.isCorrect ? "\",\"checksum\":{\"status\":\"good\",\"expected\":" as StaticString
                        : "\",\"checksum\":{\"status\":\"bad\",\"expected\":")
            sink.appendDecimal(checksum.expected)
            sink.append("}}" as StaticString)
        } else {
            sink.append("\"}" as StaticString)
        }
    }

    /// The `kind` member and the key after it, in one piece.
    /// The members an error and a cut share: what happened, and at which field and offset.
    private func appendWhere(message: String, path: String, offset: Int, bitOffset: Int, into sink: inout TextSink) {
        sink.append(",\"message\":" as StaticString)
        sink.appendJSONString(message)
        sink.append(",\"path\":" as StaticString)
        sink.appendJSONString(path)
        sink.append(",\"offset\":" as StaticString)
        sink.appendDecimal(offset)
        sink.append(",\"bit_offset\":" as StaticString)
        sink.appendDecimal(bitOffset)
    }

    private func kindKey(_ kind: NodeKind) -> StaticString {
        switch kind {
        case .structure: return ",\"kind\":\"struct\",\"offset\":"
        case .array: return ",\"kind\":\"array\",\"offset\":"
        case .integer: return ",\"kind\":\"integer\",\"offset\":"
        case .enumeration: return ",\"kind\":\"enum\",\"offset\":"
        case .float: return ",\"kind\":\"float\",\"offset\":"
        case .boolean: return ",\"kind\":\"bool\",\"offset\":"
        case .bytes: return ",\"kind\":\"bytes\",\"offset\":"
        case .string: return ",\"kind\":\"string\",\"offset\":"
        case .dnsName: return ",\"kind\":\"dns_name\",\"offset\":"
        }
    }
}
