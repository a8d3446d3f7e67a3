import BinarySchema

/// The classic dump, 16 bytes a line with offset, hex and ASCII, each field's bytes in its own
/// color, and under each line the fields that start on it with their values (in the same color).
///
/// ```
/// 0000  00 00 00 00 00 00 00 00  00 00 00 00 08 00 45 00  |..............E.|
///       0000   eth.dst             00:00:00:00:00:00
///       000c   eth.type            ipv4 (0x0800)
/// ```
public struct HexDumpRenderer {
    /// Colour and width.
    public var options: RenderOptions

    /// A renderer with `options`.
    public init(options: RenderOptions = RenderOptions()) {
        self.options = options
    }

    /// The dissection as text.
    public func render(_ dissection: Dissection, frame: FrameInfo = FrameInfo()) -> String {
        var sink = TextSink(capacity: dissection.bytes.count * 8 + dissection.nodes.count * 60)
        render(dissection, frame: frame, into: &sink)
        return sink.text
    }

    /// Appends the dump, the last line without a newline.
    public func render(_ dissection: Dissection, frame: FrameInfo = FrameInfo(), into sink: inout TextSink) {
        render(dissection, frame: frame, into: &sink, scratch: RenderScratch())
    }

    func render(_ dissection: Dissection, frame: FrameInfo, into sink: inout TextSink, scratch: RenderScratch) {
        let layout = Layout(dissection, byteOwners: options.color, showsHidden: options.showsHidden, scratch: scratch)
        let paths = PathTable(dissection, scratch: scratch)
        defer {
            scratch.keep(layout)
            scratch.keep(paths)
        }
        let style = Style(options)
        let bytes = dissection.bytes
        let errorNode = dissection.errorNode
        let cutNode = dissection.cutNode
        // At least as wide as the gap labels; a path longer than the column gets one space.
        var longestPath = 11
        for leaf in layout.leaves { longestPath = max(longestPath, paths.length(of: leaf)) }
        let pathWidth = min(36, longestPath + 2)
        let valueColumn = 6 + 7 + pathWidth
        let valueWidth = max(20, options.width - valueColumn)
        frame.writeHeading(layout, style: style, into: &sink)
        var leaves = layout.leaves[...]
        // Leaves come in byte order, which need not be node order.
        let checksums = ValueWriter.ChecksumCursor(dissection)
        var gaps = layout.gaps[...]
        var value = scratch.value
        var lineStart = 0
        repeat {
            let lineEnd = min(lineStart + 16, bytes.count)
            sink.append(byte: UInt8(ascii: "\n"))
            sink.appendOffset(lineStart)
            sink.spaces(2)
            if !style.enabled {
                writePlainLine(bytes[lineStart..<lineEnd], into: &sink)
                writeAnnotations()
                lineStart += 16
                continue
            }
            // The hex column, then the ASCII column, each byte in its owner's color.
            for pass in 0..<2 {
                if pass == 1 { sink.append(" |" as StaticString) }
                var painted = -2
                for offset in lineStart..<lineEnd {
                    if pass == 0, offset == lineStart + 8 { sink.append(byte: UInt8(ascii: " ")) }
                    let owner = layout.owners[offset]
                    let paint = owner < 0 ? -1 : owner == errorNode ? Int.max : owner == cutNode ? Int.max - 1
                        : layout.leafOrdinals[owner]
                    if style.enabled, paint != painted {
                        if painted != -2 { style.end(into: &sink) }
                        if paint == -1 { style.beginDim(into: &sink) } else if paint == Int.max { style.beginError(into: &sink) }
                        else if paint == Int.max - 1 { style.beginCut(into: &sink) } else { style.beginField(paint, into: &sink) }
                        painted = paint
                    }
                    let byte = bytes[offset]
                    if pass == 0 {
                        sink.appendHex(byte: byte)
                        sink.append(byte: UInt8(ascii: " "))
                    } else {
                        sink.append(byte: byte >= 0x20 && byte < 0x7F ? byte : UInt8(ascii: "."))
                    }
                }
                if style.enabled, painted != -2 { style.end(into: &sink) }
                if pass == 0 {
                    let missing = lineStart + 16 - lineEnd
                    sink.spaces(missing * 3 + (lineEnd <= lineStart + 8 ? 1 : 0))
                }
            }
            sink.append(byte: UInt8(ascii: "|"))
            writeAnnotations()
            lineStart += 16
        } while lineStart < bytes.count

        /// What starts on the current line: fields, then runs of bytes no field claims.
        func writeAnnotations() {
            // The last line also takes what starts at the end of the data: a failing field with no bytes.
            let annotatedEnd = lineStart + 16 >= bytes.count ? Int.max : lineStart + 16
            while let leaf = leaves.first, dissection.nodes[leaf].byteOffset < annotatedEnd {
                leaves = leaves.dropFirst()
                let node = dissection.nodes[leaf]
                let isError = leaf == errorNode
                let isCut = leaf == cutNode
                sink.append("\n      " as StaticString)
                let ordinal = layout.leafOrdinals[leaf]
                if style.enabled {
                    if isError { style.beginError(into: &sink) } else if isCut { style.beginCut(into: &sink) }
                    else { style.beginField(ordinal, into: &sink) }
                }
                sink.appendOffset(node.byteOffset)
                if node.isBitLevel {
                    sink.append(byte: UInt8(ascii: "."))
                    sink.appendDecimal(node.bitStart & 7)
                    sink.append(byte: UInt8(ascii: " "))
                } else {
                    sink.spaces(3)
                }
                paths.write(leaf, into: &sink)
                sink.spaces(max(1, pathWidth - paths.length(of: leaf)))
                // The value is written in place, and laid out again only when it is too long.
                let valueStart = sink.count
                if isError, let error = dissection.error {
                    sink.append("✗ " as StaticString)
                    sink.append(error.description)
                } else if isCut, let cut = dissection.cut {
                    sink.append(cut.mark)
                    sink.append(byte: UInt8(ascii: " "))
                    sink.append(cut.description)
                } else {
                    if ValueWriter.writeBitPattern(dissection, leaf, into: &sink) { sink.append(" = " as StaticString) }
                    let isDerived = ValueWriter.isDerived(dissection.nodes[leaf])
                    if isDerived { sink.append(byte: UInt8(ascii: "[")) }
                    ValueWriter.writeDisplay(dissection, leaf, into: &sink)
                    if isDerived { sink.append(byte: UInt8(ascii: "]")) }
                    if leaf >= checksums.upcoming, let checksum = checksums.find(leaf, in: dissection) {
                        ValueWriter.writeChecksum(checksum, dissection, leaf, into: &sink)
                    }
                }
                if sink.count - valueStart > valueWidth {
                    value.removeAll()
                    value.append(contentsOf: UnsafeBufferPointer(rebasing: sink.bytes[valueStart...]))
                    sink.truncate(to: valueStart)
                    for (position, part) in Text.wrap(value.bytes, width: valueWidth).enumerated() {
                        if position > 0 {
                            sink.append(byte: UInt8(ascii: "\n"))
                            sink.spaces(valueColumn)
                        }
                        sink.append(contentsOf: UnsafeBufferPointer(rebasing: value.bytes[part]))
                    }
                }
                if style.enabled { style.end(into: &sink) }
            }
            while let gap = gaps.first, gap.range.lowerBound < annotatedEnd {
                gaps = gaps.dropFirst()
                sink.append("\n      " as StaticString)
                if style.enabled { style.beginDim(into: &sink) }
                sink.appendOffset(gap.range.lowerBound)
                sink.spaces(3)
                sink.append(gap.unparsed ? "(unparsed)" as StaticString : "(unclaimed)")
                sink.spaces(pathWidth - (gap.unparsed ? 10 : 11))
                sink.appendDecimal(gap.range.count)
                sink.append(gap.range.count == 1 ? " byte" as StaticString : " bytes")
                sink.append(gap.unparsed ? (dissection.cutNode < 0 ? " after the error" as StaticString : " after the cut")
                                         : " no field claims")
                if style.enabled { style.end(into: &sink) }
            }
        }
    }

    /// `45 00 00 3c 74 38 40 00  40 06 c8 81 7f 00 00 01  |E..<t8@.@.......|` without color:
    /// 16 bytes (fewer on the last line) written straight into the buffer.
    private func writePlainLine(_ line: ArraySlice<UInt8>, into sink: inout TextSink) {
        // 16 hex columns of 3, the gap of 1 after the eighth, " |", 16 characters, "|".
        sink.withUnreservedBytes(16 * 3 + 1 + 2 + line.count + 1) { output in
            var hex = 0
            var text = 16 * 3 + 1 + 2
            output.update(repeating: UInt8(ascii: " "), count: text)
            output[text - 1] = UInt8(ascii: "|")
            for (position, byte) in line.enumerated() {
                if position == 8 { hex += 1 }
                output[hex] = TextSink.hexDigit(byte >> 4)
                output[hex + 1] = TextSink.hexDigit(byte)
                hex += 3
                output[text] = byte >= 0x20 && byte < 0x7F ? byte : UInt8(ascii: ".")
                text += 1
            }
            output[text] = UInt8(ascii: "|")
        }
    }

}
