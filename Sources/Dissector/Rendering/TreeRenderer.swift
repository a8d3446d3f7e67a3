import BinarySchema

/// One line per field, indented by nesting, like `tshark -V`: each protocol layer starts a
/// line with its summary, bit fields show their bits, enums their names and numbers.
///
/// ```
/// IPv4 (ip), 20 bytes: 127.0.0.1 > 127.0.0.1 ttl 64
///     0100 .... = version: 4
///     .... 0101 = ihl: 5 (20 bytes)
/// ```
public struct TreeRenderer {
    /// Colour and width.
    public var options: RenderOptions

    /// A renderer with `options`.
    public init(options: RenderOptions = RenderOptions()) {
        self.options = options
    }

    /// The dissection as text.
    public func render(_ dissection: Dissection, frame: FrameInfo = FrameInfo()) -> String {
        var sink = TextSink(capacity: dissection.nodes.count * 48)
        render(dissection, frame: frame, into: &sink)
        return sink.text
    }

    /// Appends the lines, the last one without a newline.
    public func render(_ dissection: Dissection, frame: FrameInfo = FrameInfo(), into sink: inout TextSink) {
        render(dissection, frame: frame, into: &sink, scratch: RenderScratch())
    }

    func render(_ dissection: Dissection, frame: FrameInfo, into sink: inout TextSink, scratch: RenderScratch) {
        let layout = Layout(dissection, showsHidden: options.showsHidden, scratch: scratch)
        defer { scratch.keep(layout) }
        let style = Style(options)
        let names = dissection.schema.names
        frame.writeHeading(layout, style: style, into: &sink)
        var line = scratch.line
        var checksums = ValueWriter.ChecksumCursor(dissection)
        // With -O, a layer not named shows its heading line only; an error or a cut shows wherever it is.
        let detailed = options.layers?.selectedNodes(of: dissection)
        for index in dissection.nodes.indices where layout.shown.isShown(index) {
            let node = dissection.nodes[index]
            let isError = dissection.errorNode == index
            let isCut = dissection.cutNode == index
            if let detailed, !detailed[index], !layout.isLayer[index], !isError, !isCut, index != 0 { continue }
            line.removeAll()
            if layout.isLayer[index], !isError, !isCut {
                guard case .structure(let structID) = node.kind else { continue }
                let name = names.layerLabel(Int(structID))
                let header = layout.headerLength(of: index)
                line.append(contentsOf: name)
                line.append(" (" as StaticString)
                if let abbreviation = names.protocolAbbreviation(Int(structID)) { line.append(contentsOf: abbreviation) }
                line.append("), " as StaticString)
                line.appendDecimal(header)
                line.append(header == 1 ? " byte" as StaticString : " bytes")
                if !names.summary(ofStruct: Int(structID)).isEmpty {
                    line.append(": " as StaticString)
                    // The summary without the layer's name, which the line already starts with.
                    var summary = scratch.value
                    summary.removeAll()
                    layout.writeSummary(of: index, into: &summary)
                    let skip = min(summary.count, name.count + 1)
                    line.append(contentsOf: UnsafeBufferPointer(rebasing: summary.bytes[skip...]))
                }
                emit(line, indent: 0, tone: .heading, style: style, into: &sink)
                continue
            }
            if index == 0 {
                if case .structure(let structID) = node.kind { line.append(contentsOf: names.structName(Int(structID))) }
                line.append(", " as StaticString)
                line.appendDecimal(node.byteLength)
                line.append(" bytes" as StaticString)
                emit(line, indent: 0, tone: .heading, style: style, into: &sink)
                continue
            }
            let isLeaf = layout.isLeaf(index)
            let indent = max(1, layout.depths[index])
            if isError, let error = dissection.error {
                line.append("✗ " as StaticString)
                line.append(layout.label(index))
                line.append(": " as StaticString)
                line.append(error.description)
                emit(line, indent: indent, tone: .error, style: style, into: &sink)
                continue
            }
            if isCut, let cut = dissection.cut {
                line.append(cut.mark)
                line.append(byte: UInt8(ascii: " "))
                line.append(layout.label(index))
                line.append(": " as StaticString)
                line.append(cut.description)
                emit(line, indent: indent, tone: .cut, style: style, into: &sink)
                continue
            }
            // Most lines fit: written in place, and laid out again only when one is too long.
            sink.append(byte: UInt8(ascii: "\n"))
            sink.spaces(indent * 4)
            let lineStart = sink.count
            if isLeaf, ValueWriter.writeBitPattern(dissection, index, into: &sink) {
                sink.append(" = " as StaticString)
            }
            // A computed value is in brackets, as Wireshark shows the fields it derives.
            let isDerived = ValueWriter.isDerived(node)
            if isDerived { sink.append(byte: UInt8(ascii: "[")) }
            PathTable.appendName(of: node, names, into: &sink)
            sink.append(": " as StaticString)
            ValueWriter.writeDisplay(dissection, index, into: &sink)
            if isDerived { sink.append(byte: UInt8(ascii: "]")) }
            if index >= checksums.upcoming { ValueWriter.writeChecksum(&checksums, dissection, index, into: &sink) }
            if !isLeaf, case .structure = node.kind {
                if layout.isBitLevel(index) {
                    sink.append(" (" as StaticString)
                    sink.appendDecimal(node.bitWidth)
                    sink.append(" bits)" as StaticString)
                } else {
                    sink.append(" (" as StaticString)
                    sink.appendDecimal(node.byteLength)
                    sink.append(" bytes)" as StaticString)
                }
            }
            if sink.count - lineStart > options.width - indent * 4 {
                line.append(contentsOf: UnsafeBufferPointer(rebasing: sink.bytes[lineStart...]))
                sink.truncate(to: lineStart - indent * 4 - 1)
                emit(line, indent: indent, tone: nil, style: style, into: &sink)
            }
        }
        for gap in layout.gaps {
            line.removeAll()
            line.append(gap.unparsed ? (dissection.cutNode < 0 ? "unparsed (after the error): " as StaticString
                                                              : "unparsed (after the cut): ")
                                     : "unclaimed (no field): ")
            line.appendDecimal(gap.range.count)
            line.append(gap.range.count == 1 ? " byte at offset " as StaticString : " bytes at offset ")
            line.appendDecimal(gap.range.lowerBound)
            line.append(": " as StaticString)
            let shown = gap.range.prefix(16)
            line.appendHex(dissection.bytes[shown], separator: UInt8(ascii: " "))
            if gap.range.count > shown.count { line.append(" …" as StaticString) }
            emit(line, indent: 0, tone: .dim, style: style, into: &sink)
        }
        if let error = dissection.error {
            // Wrapped like every other line: an error's description can be longer than the width.
            line.removeAll()
            line.append("[Malformed: " as StaticString)
            line.append(error.description)
            line.append(byte: UInt8(ascii: "]"))
            emit(line, indent: 0, tone: .error, style: style, into: &sink)
        }
        // Wireshark's words for a frame a snapshot length cut short, as tcpdump marks it.
        if let cut = dissection.cut {
            // Wrapped like the [Malformed] line.
            line.removeAll()
            line.append("[Packet size limited during capture: \(cut.mark) \(cut.description)]")
            emit(line, indent: 0, tone: .cut, style: style, into: &sink)
        }
    }

    /// How a whole line is styled.
    private enum Tone {
        case heading, error, cut, dim
    }

    /// Writes one line at `indent` levels, wrapped to the width when it is too long.
    private func emit(_ line: TextSink, indent: Int, tone: Tone?, style: Style, into sink: inout TextSink) {
        sink.append(byte: UInt8(ascii: "\n"))
        let prefix = indent * 4
        let width = options.width - prefix
        if line.count <= width, tone == nil || !options.color {
            sink.spaces(prefix)
            sink.append(contentsOf: line.bytes)
            return
        }
        // Continuation lines hang 4 columns further in, so they get 4 columns less.
        for (position, part) in Text.wrap(line.bytes, width: width, continuationWidth: width - 4).enumerated() {
            if position > 0 { sink.append(byte: UInt8(ascii: "\n")) }
            sink.spaces(prefix + (position == 0 ? 0 : 4))
            let text = UnsafeBufferPointer(rebasing: line.bytes[part])
            if let tone, options.color {
                let part = String(decoding: text, as: UTF8.self)
                switch tone {
                case .heading: sink.append(style.heading(part))
                case .error: sink.append(style.error(part))
                case .cut: sink.append(style.cut(part))
                case .dim: sink.append(style.dim(part))
                }
            } else {
                sink.append(contentsOf: text)
            }
        }
    }
}
