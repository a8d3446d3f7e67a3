import BinarySchema

/// One row per field: offset, the field's bytes in hex, its path indented by nesting, and its
/// value. Reads well without color: bit fields show their bits (`.... 0101 = 5`), a failing
/// field shows ✗ and the reason, a field the capture cut shows `[|tcp]` and what was captured,
/// bytes no field claims and bytes after an error have rows of their own.
///
/// ```
/// offset  bytes                    field                      value
/// 000e    45                         ip.version               0100 .... = 4
///                                    ip.ihl                   .... 0101 = 5 (20 bytes)
/// ```
public struct FieldRowsRenderer {
    /// Colour and width.
    public var options: RenderOptions
    /// Bytes shown per row; a longer field continues on further rows.
    static let bytesPerRow = 8
    /// Rows of bytes shown for one field before the rest is counted instead (not for the failing field).
    static let maximumByteRows = 4
    private static let bytesWidth = bytesPerRow * 3 + 1

    /// A renderer with `options`.
    public init(options: RenderOptions = RenderOptions()) {
        self.options = options
    }

    /// The dissection as text.
    public func render(_ dissection: Dissection, frame: FrameInfo = FrameInfo()) -> String {
        var sink = TextSink(capacity: dissection.nodes.count * 96)
        render(dissection, frame: frame, into: &sink)
        return sink.text
    }

    /// Appends the rows, the last one without a newline.
    public func render(_ dissection: Dissection, frame: FrameInfo = FrameInfo(), into sink: inout TextSink) {
        render(dissection, frame: frame, into: &sink, scratch: RenderScratch())
    }

    func render(_ dissection: Dissection, frame: FrameInfo, into sink: inout TextSink, scratch: RenderScratch) {
        let layout = Layout(dissection, showsHidden: options.showsHidden, scratch: scratch)
        let paths = PathTable(dissection, scratch: scratch)
        let filters = FilterNameTable(dissection, scratch: scratch)
        defer {
            scratch.keep(layout)
            scratch.keep(paths)
            scratch.keep(filters)
        }
        let style = Style(options)
        let errorNode = dissection.errorNode
        let cutNode = dissection.cutNode
        var widest = 12
        for index in dissection.nodes.indices {
            widest = max(widest, paths.length(of: index) + 2 * layout.depths[index])
        }
        let pathWidth = min(40, widest + 2)
        let valueColumn = 8 + Self.bytesWidth + pathWidth
        let valueWidth = max(20, options.width - valueColumn)
        frame.writeHeading(layout, style: style, into: &sink)
        sink.append("\noffset  bytes" as StaticString)
        sink.spaces(Self.bytesWidth - 5)
        sink.append("field" as StaticString)
        sink.spaces(pathWidth - 5)
        sink.append("value" as StaticString)
        var shownBytes = -1..<(-1)
        var gaps = layout.gaps[...]
        var value = scratch.value
        var checksums = ValueWriter.ChecksumCursor(dissection)
        for index in dissection.nodes.indices where layout.shown.isShown(index) {
            let node = dissection.nodes[index]
            // Bytes no field claims before this node get their rows first.
            while let gap = gaps.first, gap.range.lowerBound < node.byteOffset {
                writeGap(gap, dissection, style, pathWidth: pathWidth, into: &sink)
                gaps = gaps.dropFirst()
            }
            let isError = index == errorNode
            let isCut = index == cutNode
            let isLeaf = layout.isLeaf(index)
            let isLayer = layout.isLayer[index]
            value.removeAll()
            if isError, let error = dissection.error {
                value.append("✗ " as StaticString)
                value.append(error.description)
            } else if isCut, let cut = dissection.cut {
                value.append(cut.mark)
                value.append(byte: UInt8(ascii: " "))
                value.append(cut.description)
            } else if isLayer {
                layout.writeSummary(of: index, into: &value)
            } else {
                if isLeaf, ValueWriter.writeBitPattern(dissection, index, into: &value) { value.append(" = " as StaticString) }
                // A computed value has no bytes: its value is in brackets, as Wireshark shows derived fields.
                let isDerived = ValueWriter.isDerived(node)
                if isDerived { value.append(byte: UInt8(ascii: "[")) }
                ValueWriter.writeDisplay(dissection, index, into: &value)
                if isDerived { value.append(byte: UInt8(ascii: "]")) }
                if index >= checksums.upcoming { ValueWriter.writeChecksum(&checksums, dissection, index, into: &value) }
                if !isLeaf, case .structure = node.kind, layout.isBitLevel(index) {
                    value.append(value.count == 0 ? "" as StaticString : "  (")
                    value.appendDecimal(node.bitWidth)
                    value.append(value.count == 0 ? " bits" as StaticString : " bits)")
                }
            }
            // Bytes: shown for leaves, once per run (bit fields sharing bytes show them on the first row).
            let byteRange = node.byteOffset..<(node.byteOffset + node.byteLength)
            var rows: [Range<Int>] = []
            var more = 0
            if isLeaf, !byteRange.isEmpty,
               !(shownBytes.contains(byteRange.lowerBound) && shownBytes.contains(byteRange.upperBound - 1)) {
                (rows, more) = Self.rows(of: byteRange, limit: isError || isCut ? nil : Self.maximumByteRows,
                                         count: dissection.bytes.count)
                shownBytes = byteRange
            }
            // A layer's summary is a heading: it follows its short path instead of waiting for the value column.
            let headingIndent = 8 + Self.bytesWidth + paths.length(of: index) + 2
            let isHeading = isLayer && !isError && !isCut
            let width = isHeading ? max(20, options.width - headingIndent) : valueWidth
            let valueLines: [Range<Int>] = value.count <= width ? [] : Text.wrap(value.bytes, width: width)
            // The name a filter takes, where it is not the path without its indices: after the value,
            // or on a line of its own when it does not fit there (never broken).
            let showsFilter = isLeaf && !isError && !isCut && !filters.isPath(paths, at: index)
            let lastLength = valueLines.last.map(\.count) ?? value.count
            let filterOwnLine = showsFilter && lastLength + 3 + filters.length(of: index) > width
            let valueLineCount = max(1, valueLines.count) + (filterOwnLine ? 1 : 0)
            let lineCount = max(1, rows.count + (more > 0 ? 1 : 0), valueLineCount)
            for line in 0..<lineCount {
                sink.append(byte: UInt8(ascii: "\n"))
                // Offset column.
                if line < rows.count {
                    sink.appendOffset(rows[line].lowerBound)
                    sink.spaces(8 - Self.offsetWidth(rows[line].lowerBound))
                } else if line == rows.count, more > 0 {
                    sink.appendOffset(rows[line - 1].upperBound)
                    sink.spaces(8 - Self.offsetWidth(rows[line - 1].upperBound))
                } else if line == 0, isLayer {
                    sink.appendOffset(node.byteOffset)
                    sink.spaces(8 - Self.offsetWidth(node.byteOffset))
                } else {
                    sink.spaces(8)
                }
                // Bytes column.
                begin(style, isError: isError, isCut: isCut, isLayer: isLayer, isLeaf: isLeaf, layout.leafOrdinals[index],
                      into: &sink)
                var written = 0
                if line < rows.count {
                    sink.appendHex(dissection.bytes[rows[line]], separator: UInt8(ascii: " "))
                    written = rows[line].count * 3 - 1
                } else if line == rows.count, more > 0 {
                    let before = sink.count
                    sink.append("… +" as StaticString)
                    sink.appendDecimal(more)
                    sink.append(" bytes" as StaticString)
                    written = sink.count - before - 2
                }
                end(style, isError: isError || isCut, isLayer: isLayer, isLeaf: isLeaf, into: &sink)
                sink.spaces(Self.bytesWidth - written)
                // Path column, then the value.
                if line == 0 {
                    sink.spaces(2 * layout.depths[index])
                    paths.write(index, into: &sink)
                    sink.spaces(isHeading ? 2 : max(1, pathWidth - 2 * layout.depths[index] - paths.length(of: index)))
                } else {
                    sink.spaces(isHeading ? headingIndent - 8 - Self.bytesWidth : pathWidth)
                }
                var valueText = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
                if valueLines.isEmpty {
                    if line == 0 { valueText = value.bytes }
                } else if line < valueLines.count {
                    valueText = UnsafeBufferPointer(rebasing: value.bytes[valueLines[line]])
                }
                // A line with no value ends at its bytes: no color codes after them to keep its padding.
                if !valueText.isEmpty {
                    begin(style, isError: isError, isCut: isCut, isLayer: isLayer, isLeaf: isLeaf,
                          layout.leafOrdinals[index], into: &sink)
                    sink.append(contentsOf: valueText)
                    end(style, isError: isError || isCut, isLayer: isLayer, isLeaf: isLeaf, into: &sink)
                }
                if showsFilter, line == valueLineCount - 1 {
                    sink.append(filterOwnLine ? "· " as StaticString : " · ")
                    if style.enabled { style.beginDim(into: &sink) }
                    filters.write(index, into: &sink)
                    if style.enabled { style.end(into: &sink) }
                }
                sink.trimTrailingSpaces()
            }
        }
        for gap in gaps { writeGap(gap, dissection, style, pathWidth: pathWidth, into: &sink) }
    }

    private func begin(_ style: Style, isError: Bool, isCut: Bool, isLayer: Bool, isLeaf: Bool, _ ordinal: Int,
                       into sink: inout TextSink) {
        guard style.enabled else { return }
        if isError { style.beginError(into: &sink) } else if isCut { style.beginCut(into: &sink) }
        else if isLayer { style.beginHeading(into: &sink) } else if isLeaf { style.beginField(ordinal, into: &sink) }
    }

    private func end(_ style: Style, isError: Bool, isLayer: Bool, isLeaf: Bool, into sink: inout TextSink) {
        if style.enabled, isError || isLayer || isLeaf { style.end(into: &sink) }
    }

    /// Runs of at most eight bytes; past `limit` rows, how many bytes are left unshown.
    private static func rows(of range: Range<Int>, limit: Int?, count: Int) -> (rows: [Range<Int>], more: Int) {
        var rows: [Range<Int>] = []
        var start = range.lowerBound
        let end = min(range.upperBound, count)
        while start < end {
            if let limit, rows.count == limit { return (rows, end - start) }
            let stop = min(start + bytesPerRow, end)
            rows.append(start..<stop)
            start = stop
        }
        return (rows, 0)
    }

    private static func offsetWidth(_ offset: Int) -> Int {
        var digits = 4
        while digits < 16, offset >> (digits * 4) != 0 { digits += 1 }
        return digits
    }


    /// Unclaimed bytes are shown in full, unparsed ones too: nothing is hidden.
    private func writeGap(_ gap: Layout.Gap, _ dissection: Dissection, _ style: Style, pathWidth: Int,
                          into sink: inout TextSink) {
        let (rows, _) = Self.rows(of: gap.range, limit: nil, count: dissection.bytes.count)
        for (position, row) in rows.enumerated() {
            sink.append(byte: UInt8(ascii: "\n"))
            sink.appendOffset(row.lowerBound)
            sink.spaces(8 - Self.offsetWidth(row.lowerBound))
            if style.enabled { style.beginDim(into: &sink) }
            sink.appendHex(dissection.bytes[row], separator: UInt8(ascii: " "))
            if style.enabled { style.end(into: &sink) }
            if position == 0 {
                sink.spaces(Self.bytesWidth - (row.count * 3 - 1))
                sink.append(gap.unparsed ? "(unparsed)" as StaticString : "(unclaimed)")
                sink.spaces(pathWidth - (gap.unparsed ? 10 : 11))
                if style.enabled { style.beginDim(into: &sink) }
                sink.appendDecimal(gap.range.count)
                sink.append(gap.range.count == 1 ? " byte" as StaticString : " bytes")
                sink.append(gap.unparsed ? (dissection.cutNode < 0 ? " after the error" as StaticString : " after the cut")
                                         : " no field claims")
                if style.enabled { style.end(into: &sink) }
            }
        }
    }
}
