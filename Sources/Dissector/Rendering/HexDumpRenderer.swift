import BinarySchema

/// The classic dump, 16 bytes a line with offset, hex and ASCII, each field's bytes in its own
/// color, and under each line the fields that start on it with their values (in the same color).
///
/// ```
/// 0000  00 00 00 00 00 00 00 00  00 00 00 00 08 00 45 00  |..............E.|
///       0000 eth.dst             00:00:00:00:00:00
///       000c eth.type            ipv4 (0x0800)
/// ```
public struct HexDumpRenderer {
    public var options: RenderOptions

    public init(options: RenderOptions = RenderOptions()) {
        self.options = options
    }

    public func render(_ dissection: Dissection, frame: FrameInfo = FrameInfo()) -> String {
        let layout = Layout(dissection)
        let style = Style(enabled: options.color)
        let bytes = dissection.bytes
        let ordinals = layout.leafOrdinals
        let pathWidth = min(36, (layout.leaves.map { dissection.path(of: $0).count }.max() ?? 8) + 2)
        let annotationIndent = "      "
        let valueWidth = max(20, options.width - annotationIndent.count - 5 - pathWidth)
        var lines = [style.heading(frame.heading(layout))]
        var leaves = layout.leaves[...]
        var gaps = layout.gaps[...]
        var lineStart = 0
        repeat {
            let lineEnd = min(lineStart + 16, bytes.count)
            // The hex and ASCII columns, each byte in its owner's color.
            var hex = ""
            var ascii = ""
            for offset in lineStart..<(lineStart + 16) {
                if offset == lineStart + 8 { hex += " " }
                guard offset < lineEnd else {
                    hex += "   "
                    continue
                }
                let byte = bytes[offset]
                let byteText = (byte < 16 ? "0" : "") + String(byte, radix: 16)
                let character = byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "."
                let owner = layout.owners[offset]
                let paint: (String) -> String
                if owner == dissection.error?.node, owner >= 0 {
                    paint = { style.error($0) }
                } else if owner >= 0 {
                    let ordinal = ordinals[owner]
                    paint = { style.field($0, ordinal) }
                } else {
                    paint = { style.dim($0) }
                }
                hex += paint(byteText) + " "
                ascii += paint(character)
            }
            lines.append((Text.hex(lineStart) + "  " + hex + " |" + ascii + "|").trailingSpacesRemoved)
            // What starts on this line: fields, then runs of bytes no field claims.
            while let leaf = leaves.first, dissection.nodes[leaf].byteOffset < max(lineEnd, lineStart + 1) {
                leaves = leaves.dropFirst()
                let node = dissection.nodes[leaf]
                let ordinal = ordinals[leaf]
                let isError = dissection.error?.node == leaf
                var value: String
                if isError, let error = dissection.error {
                    value = "✗ " + error.description
                } else if let bits = ValueFormatter.bitPattern(dissection, leaf) {
                    value = bits + " = " + ValueFormatter.displayText(dissection, leaf)
                } else {
                    value = ValueFormatter.displayText(dissection, leaf)
                }
                let location = layout.isBitLevel(leaf) ? Text.hex(node.byteOffset) + "." + String(node.bitStart & 7)
                    : Text.hex(node.byteOffset) + "  "
                let paint: (String) -> String = { text in isError ? style.error(text) : style.field(text, ordinal) }
                for (position, part) in Text.wrap(value, width: valueWidth).enumerated() {
                    let head = position == 0 ? location + " " + Text.pad(dissection.path(of: leaf), pathWidth)
                        : String(repeating: " ", count: 7 + pathWidth)
                    lines.append((annotationIndent + paint(head) + paint(part)).trailingSpacesRemoved)
                }
            }
            while let gap = gaps.first, gap.range.lowerBound < max(lineEnd, lineStart + 1) {
                gaps = gaps.dropFirst()
                let what = gap.unparsed ? "(unparsed)" : "(unclaimed)"
                let detail = "\(gap.range.count) byte\(gap.range.count == 1 ? "" : "s")"
                    + (gap.unparsed ? " after the error" : " no field claims")
                lines.append(annotationIndent + style.dim(Text.hex(gap.range.lowerBound) + "   " + Text.pad(what, pathWidth) + detail))
            }
            lineStart += 16
        } while lineStart < bytes.count
        return lines.joined(separator: "\n")
    }
}
