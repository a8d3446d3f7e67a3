import BinarySchema

/// One row per field: offset, the field's bytes in hex, its path indented by nesting, and its
/// value. Reads well without color: bit fields show their bits (`.... 0101 = 5`), a failing
/// field shows ✗ and the reason, bytes no field claims and bytes after an error have rows of
/// their own.
///
/// ```
/// offset  bytes                    field                      value
/// 000e    45                       ip.version                 0100 .... = 4
///                                  ip.ihl                     .... 0101 = 5 (20 bytes)
/// ```
public struct FieldRowsRenderer {
    public var options: RenderOptions
    /// Bytes shown per row; a longer field continues on further rows.
    static let bytesPerRow = 8
    /// Rows of bytes shown for one field before the rest is counted instead.
    static let maximumByteRows = 4

    public init(options: RenderOptions = RenderOptions()) {
        self.options = options
    }

    public func render(_ dissection: Dissection, frame: FrameInfo = FrameInfo()) -> String {
        let layout = Layout(dissection)
        let style = Style(enabled: options.color)
        let pathWidth = min(40, max(12, dissection.nodes.indices.map { dissection.path(of: $0).count + 2 * layout.depths[$0] }.max() ?? 12) + 2)
        let bytesWidth = Self.bytesPerRow * 3 + 1
        let valueColumn = 8 + bytesWidth + pathWidth
        var lines = [style.heading(frame.heading(layout))]
        lines.append(Text.pad("offset", 8) + Text.pad("bytes", bytesWidth) + Text.pad("field", pathWidth) + "value")
        var shownBytes = -1..<(-1)
        var gaps = layout.gaps[...]
        var ordinal = 0
        for index in dissection.nodes.indices {
            let node = dissection.nodes[index]
            // Unclaimed bytes before this node get their rows first.
            while let gap = gaps.first, gap.range.lowerBound < node.byteOffset || (gap.range.lowerBound == node.byteOffset && node.byteLength == 0 && gap.unparsed) {
                lines += gapRows(gap, dissection, style, bytesWidth: bytesWidth, pathWidth: pathWidth)
                gaps = gaps.dropFirst()
            }
            let isError = dissection.error?.node == index
            let path = String(repeating: "  ", count: layout.depths[index]) + dissection.path(of: index)
            let isLeaf = layout.isLeaf(index)
            var value: String
            if isError, let error = dissection.error {
                value = "✗ " + error.description
            } else if layout.isLayer[index] {
                value = layout.summary(of: index)
            } else if let bits = ValueFormatter.bitPattern(dissection, index), isLeaf {
                value = bits + " = " + ValueFormatter.displayText(dissection, index)
            } else {
                value = ValueFormatter.displayText(dissection, index)
            }
            if !isLeaf, !layout.isLayer[index], case .structure = node.kind, !isError {
                if layout.isBitLevel(index) { value += value.isEmpty ? "\(node.bitWidth) bits" : "  (\(node.bitWidth) bits)" }
            }
            // Bytes: shown for leaves, once per byte run (bit fields sharing bytes show them on the first row).
            let byteRange = node.byteOffset..<(node.byteOffset + node.byteLength)
            var byteRows: [(offset: Int, text: String)] = []
            if isLeaf, !byteRange.isEmpty, !(shownBytes.contains(byteRange.lowerBound) && shownBytes.contains(byteRange.upperBound - 1)) {
                // The failing field's bytes are all shown: the reader needs to see what broke.
                byteRows = rows(of: byteRange, in: dissection.bytes, limit: isError ? nil : Self.maximumByteRows)
                shownBytes = byteRange
            } else if isLeaf, byteRange.isEmpty {
                byteRows = []
            }
            let offsetText = byteRows.isEmpty ? (isLeaf && !byteRange.isEmpty ? "" : (layout.isLayer[index] ? Text.hex(node.byteOffset) : "")) : Text.hex(byteRows[0].offset)
            let colored: (String) -> String = { text in
                if isError { return style.error(text) }
                if layout.isLayer[index] { return style.heading(text) }
                return isLeaf ? style.field(text, ordinal) : text
            }
            let valueLines = Text.wrap(value, width: max(20, options.width - valueColumn))
            let first = Text.pad(offsetText, 8) + colored(Text.pad(byteRows.first?.text ?? "", bytesWidth))
                + Text.pad(path, pathWidth) + colored(valueLines[0])
            lines.append(first)
            let extra = max(byteRows.count, valueLines.count) - 1
            if extra > 0 {
                for row in 1...extra {
                    let bytes = row < byteRows.count ? byteRows[row] : nil
                    let text = row < valueLines.count ? valueLines[row] : ""
                    lines.append(Text.pad(bytes.map { Text.hex($0.offset) } ?? "", 8) + colored(Text.pad(bytes?.text ?? "", bytesWidth))
                                 + Text.pad("", pathWidth) + colored(text))
                }
            }
            if isLeaf { ordinal += 1 }
        }
        for gap in gaps { lines += gapRows(gap, dissection, style, bytesWidth: bytesWidth, pathWidth: pathWidth) }
        return lines.map { $0.trailingSpacesRemoved }.joined(separator: "\n")
    }

    /// Rows of at most eight bytes for a range; past `limit` rows, the last one counts what is not shown.
    private func rows(of range: Range<Int>, in bytes: [UInt8], limit: Int?) -> [(offset: Int, text: String)] {
        var result: [(offset: Int, text: String)] = []
        var start = range.lowerBound
        while start < range.upperBound {
            if let limit, result.count == limit {
                result.append((start, "… +\(range.upperBound - start) bytes"))
                break
            }
            let end = min(start + Self.bytesPerRow, range.upperBound, bytes.count)
            guard end > start else { break }
            result.append((start, Text.bytes(bytes[start..<end])))
            start = end
        }
        return result
    }

    private func gapRows(_ gap: Layout.Gap, _ dissection: Dissection, _ style: Style, bytesWidth: Int,
                         pathWidth: Int) -> [String] {
        let label = gap.unparsed ? "(unparsed)" : "(unclaimed)"
        let description = "\(gap.range.count) byte\(gap.range.count == 1 ? "" : "s")"
            + (gap.unparsed ? " after the error" : " no field claims")
        // Unclaimed bytes are shown in full, unparsed ones too: nothing is hidden.
        return rows(of: gap.range, in: dissection.bytes, limit: nil).enumerated().map { position, row in
            let text = Text.pad(Text.hex(row.offset), 8) + style.dim(Text.pad(row.text, bytesWidth))
            return position == 0 ? text + Text.pad(label, pathWidth) + style.dim(description) : text
        }
    }
}

extension String {
    var trailingSpacesRemoved: String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}
