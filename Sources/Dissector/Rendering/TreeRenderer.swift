import BinarySchema

/// One line per field, indented by nesting, like `tshark -V`: each protocol layer starts a
/// line with its summary, bit fields show their bits, enums their names and numbers.
///
/// ```
/// IPv4 (ip), 60 bytes: 127.0.0.1 > 127.0.0.1 ttl 64
///     0100 .... = version: 4
///     .... 0101 = ihl: 5 (20 bytes)
/// ```
public struct TreeRenderer {
    public var options: RenderOptions

    public init(options: RenderOptions = RenderOptions()) {
        self.options = options
    }

    public func render(_ dissection: Dissection, frame: FrameInfo = FrameInfo()) -> String {
        let layout = Layout(dissection)
        let style = Style(enabled: options.color)
        var lines = [style.heading(frame.heading(layout))]
        for index in dissection.nodes.indices {
            let node = dissection.nodes[index]
            let isError = dissection.error?.node == index
            if layout.isLayer[index], !isError {
                let name = dissection.structType(of: index)?.protocolAbbreviation ?? ""
                let summary = layout.summary(of: index)
                let header = layout.headerLength(of: index)
                let title = (dissection.structType(of: index)?.name ?? "") + " (\(name)), \(header) byte\(header == 1 ? "" : "s")"
                let rest = summary.split(separator: " ", maxSplits: 1).dropFirst().first.map { ": " + $0 } ?? ""
                lines.append(style.heading(title + rest))
                continue
            }
            if index == 0 {
                lines.append(style.heading((dissection.structType(of: index)?.name ?? "") + ", \(node.byteLength) bytes"))
                continue
            }
            let indent = String(repeating: "    ", count: max(1, layout.depths[index]))
            let label = layout.label(index)
            var line: String
            if isError, let error = dissection.error {
                line = style.error("✗ \(label): \(error.description)")
            } else {
                let value = ValueFormatter.displayText(dissection, index)
                if let bits = ValueFormatter.bitPattern(dissection, index), layout.isLeaf(index) {
                    line = "\(bits) = \(label): \(value)"
                } else if layout.isLeaf(index) || !value.isEmpty {
                    line = "\(label): \(value)"
                } else {
                    line = label
                }
                if !layout.isLeaf(index), case .structure = node.kind {
                    line += layout.isBitLevel(index) ? " (\(node.bitWidth) bits)" : " (\(node.byteLength) bytes)"
                }
            }
            for (position, part) in Text.wrap(line, width: options.width - indent.count).enumerated() {
                lines.append(indent + (position == 0 ? part : "    " + part))
            }
        }
        for gap in layout.gaps {
            let what = gap.unparsed ? "unparsed (after the error)" : "unclaimed (no field)"
            let shown = gap.range.prefix(16)
            let more = gap.range.count > shown.count ? " …" : ""
            lines.append(style.dim("\(what): \(gap.range.count) byte\(gap.range.count == 1 ? "" : "s") at offset \(gap.range.lowerBound): "
                                   + Text.bytes(dissection.bytes[shown]) + more))
        }
        if let error = dissection.error {
            lines.append(style.error("[Malformed: \(error.description)]"))
        }
        return lines.joined(separator: "\n")
    }
}
