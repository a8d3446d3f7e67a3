import BinarySchema

/// A frame as one line of the HTML view's data: a JSON object the page's script reads on
/// demand. The page is ``HTMLPage/head(title:)``, then a line per frame, then ``HTMLPage/tail``.
///
/// The line carries what the JSON view's object does, packed for pages of 100,000 frames (the
/// JSON view's object is about 8 KB for a TCP frame; this one a fifth of that): the frame's
/// bytes once as hex (fields give offsets into them, not their raw bytes), each field as an
/// array, its path built by the page from its parent's (as `PathTable` builds it):
///
/// `{"frame":1,"time":"…","summary":"1 IPv4 … · TCP …","bytes":"0000…","length":74,
///   "layers":["eth","ip","tcp"],"fields":[[name,parent,flags,offset,length,"display"(,bit_offset,bit_width)],…],
///   "gaps":[[offset,length,unparsed]],"error":{"message":…,"path":…,"offset":…,"field":i}|null,
///   "cut":{…}|null}`
///
/// `flags`: the kind (0 struct, 1 array, 2 integer, 3 enum, 4 float, 5 bool, 6 bytes, 7 string,
/// 8 DNS name) plus 16 for a protocol layer (its name is then the abbreviation, which starts a
/// path), 32 derived, 64 the failing field, 128 the cut field, 256 a bad checksum. A reassembled
/// unit adds `"reassembled"`, `"reassembled_in"`, `"frames"`, `"provenance"` (`[frame,
/// frame_offset, offset, length]` runs) and `"missing"`. Every `<` is written `\u003c`, so the
/// data never closes the script element that holds it.
public struct HTMLRenderer {
    /// Time style and link layer, for the summary line (never colored).
    public var options: RenderOptions

    /// A renderer with `options`.
    public init(options: RenderOptions = RenderOptions()) {
        self.options = options
        self.options.color = false
    }

    /// The frame's line.
    public func render(_ dissection: Dissection, frame: FrameInfo = FrameInfo()) -> String {
        var sink = TextSink(capacity: dissection.nodes.count * 40 + dissection.bytes.count * 2 + 512)
        render(dissection, frame: frame, into: &sink)
        return sink.text
    }

    /// Appends the frame's line, without a newline.
    public func render(_ dissection: Dissection, frame: FrameInfo = FrameInfo(), into sink: inout TextSink) {
        render(dissection, frame: frame, into: &sink, scratch: RenderScratch())
    }

    func render(_ dissection: Dissection, frame: FrameInfo, into sink: inout TextSink, scratch: RenderScratch) {
        let start = sink.count
        var text = scratch.value
        text.removeAll()
        SummaryRenderer(options: options).render(dissection, frame: frame, into: &text, scratch: scratch)
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
        if let reassembly = frame.reassembly { JSONRenderer.writeOrigin(reassembly, packedRuns: true, into: &sink) }
        sink.append("\"summary\":" as StaticString)
        sink.appendJSONString(text.bytes)
        sink.append(",\"bytes\":\"" as StaticString)
        sink.appendHex(dissection.bytes)
        sink.append("\",\"length\":" as StaticString)
        sink.appendDecimal(dissection.bytes.count)
        sink.append(",\"original_length\":" as StaticString)
        sink.appendDecimal(frame.originalLength(of: dissection))
        let layout = Layout(dissection, showsHidden: options.showsHidden, scratch: scratch)
        defer { scratch.keep(layout) }
        let names = dissection.schema.names
        sink.append(",\"layers\":[" as StaticString)
        for (position, layer) in layout.layers.enumerated() {
            if position > 0 { sink.append(byte: UInt8(ascii: ",")) }
            if case .structure(let structID) = dissection.nodes[layer].kind,
               let abbreviation = names.protocolAbbreviation(Int(structID)) {
                sink.appendJSONString(abbreviation)
            } else {
                sink.append("\"\"" as StaticString)
            }
        }
        sink.append("],\"fields\":[" as StaticString)
        var checksums = ValueWriter.ChecksumCursor(dissection)
        let filters = FilterNameTable(dissection, scratch: scratch)
        defer { scratch.keep(filters) }
        let shown = layout.shown
        var first = true
        for index in dissection.nodes.indices where shown.isShown(index) {
            if !first { sink.append(byte: UInt8(ascii: ",")) }
            first = false
            let node = dissection.nodes[index]
            var flags = Self.kindCode(node.kind)
            sink.append("[\"" as StaticString)
            // Names and abbreviations are identifiers: nothing in them needs escaping.
            if case .structure(let structID) = node.kind, let abbreviation = names.protocolAbbreviation(Int(structID)) {
                sink.append(contentsOf: abbreviation)
                flags |= 16
            } else {
                PathTable.appendName(of: node, names, into: &sink)
            }
            if ValueWriter.isDerived(node) { flags |= 32 }
            if dissection.errorNode == index { flags |= 64 }
            if dissection.cutNode == index { flags |= 128 }
            if index >= checksums.upcoming, let checksum = checksums.take(index, in: dissection), !checksum.isCorrect {
                flags |= 256
            }
            sink.append("\"," as StaticString)
            sink.appendDecimal(shown.position(of: Int(node.parent)))
            sink.append(byte: UInt8(ascii: ","))
            sink.appendDecimal(flags)
            sink.append(byte: UInt8(ascii: ","))
            sink.appendDecimal(node.byteOffset)
            sink.append(byte: UInt8(ascii: ","))
            sink.appendDecimal(node.byteLength)
            sink.append(byte: UInt8(ascii: ","))
            if flags & (64 | 128) != 0 {
                sink.append("\"\"" as StaticString)
            } else {
                text.removeAll()
                ValueWriter.writeDisplay(dissection, index, into: &text)
                sink.appendJSONString(text.bytes)
            }
            // Filter names are identifiers: nothing in them needs escaping.
            sink.append(",\"" as StaticString)
            filters.write(index, into: &sink)
            sink.append(byte: UInt8(ascii: "\""))
            if node.isBitLevel {
                sink.append(byte: UInt8(ascii: ","))
                sink.appendDecimal(node.bitStart & 7)
                sink.append(byte: UInt8(ascii: ","))
                sink.appendDecimal(node.bitWidth)
            }
            sink.append(byte: UInt8(ascii: "]"))
        }
        sink.append("],\"gaps\":[" as StaticString)
        for (position, gap) in layout.gaps.enumerated() {
            if position > 0 { sink.append(byte: UInt8(ascii: ",")) }
            sink.append(byte: UInt8(ascii: "["))
            sink.appendDecimal(gap.range.lowerBound)
            sink.append(byte: UInt8(ascii: ","))
            sink.appendDecimal(gap.range.count)
            sink.append(gap.unparsed ? ",1]" as StaticString : ",0]")
        }
        sink.append("],\"error\":" as StaticString)
        if let error = dissection.error {
            Self.writeWhere(message: error.description, path: error.path, offset: error.offset, field: shown.position(of: error.node),
                            into: &sink)
        } else {
            sink.append("null" as StaticString)
        }
        sink.append(",\"cut\":" as StaticString)
        if let cut = dissection.cut {
            Self.writeWhere(message: cut.description, path: cut.path, offset: cut.offset, field: shown.position(of: cut.node), into: &sink)
        } else {
            sink.append("null" as StaticString)
        }
        sink.append(byte: UInt8(ascii: "}"))
        Self.escapeLessThan(from: start, in: &sink, scratch: &text)
    }

    private static func writeWhere(message: String, path: String, offset: Int, field: Int, into sink: inout TextSink) {
        sink.append("{\"message\":" as StaticString)
        sink.appendJSONString(message)
        sink.append(",\"path\":" as StaticString)
        sink.appendJSONString(path)
        sink.append(",\"offset\":" as StaticString)
        sink.appendDecimal(offset)
        sink.append(",\"field\":" as StaticString)
        sink.appendDecimal(field)
        sink.append(byte: UInt8(ascii: "}"))
    }

    /// Rewrites every `<` from `start` on as `\u003c`: in this JSON a `<` is only ever inside a
    /// string, where the escape reads the same, and `</script>` or `<!--` can no longer end or
    /// confuse the element holding the data.
    private static func escapeLessThan(from start: Int, in sink: inout TextSink, scratch: inout TextSink) {
        let bytes = sink.bytes
        guard let first = bytes[start...].firstIndex(of: UInt8(ascii: "<")) else { return }
        scratch.removeAll()
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[first...]))
        sink.truncate(to: first)
        var clean = 0
        let copy = scratch.bytes
        for index in copy.indices where copy[index] == UInt8(ascii: "<") {
            sink.append(contentsOf: UnsafeBufferPointer(rebasing: copy[clean..<index]))
            sink.append("\\u003c" as StaticString)
            clean = index + 1
        }
        sink.append(contentsOf: UnsafeBufferPointer(rebasing: copy[clean...]))
    }

    private static func kindCode(_ kind: NodeKind) -> Int {
        switch kind {
        case .structure: return 0
        case .array: return 1
        case .integer: return 2
        case .enumeration: return 3
        case .float: return 4
        case .boolean: return 5
        case .bytes: return 6
        case .string: return 7
        case .dnsName: return 8
        }
    }
}
