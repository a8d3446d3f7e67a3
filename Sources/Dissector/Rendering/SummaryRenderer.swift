import BinarySchema

/// One line per packet, like tcpdump: each layer's `@summary`, then the error if any, or
/// tcpdump's `[|tcp]` where the capture cut the frame short.
///
/// `IPv4 127.0.0.1 > 127.0.0.1 · TCP 48684 > 8765 [S] seq 1719526240 win 65495 len 0 · 74 bytes`; the
/// link-layer headers (`@link`) only with ``RenderOptions/showsLinkLayer`` (tcpdump's `-e`).
public struct SummaryRenderer {
    /// Colour, width, and whether the link layer is shown.
    public var options: RenderOptions

    /// A renderer with `options`.
    public init(options: RenderOptions = RenderOptions()) {
        self.options = options
    }

    /// The dissection as text.
    public func render(_ dissection: Dissection, frame: FrameInfo = FrameInfo()) -> String {
        var sink = TextSink(capacity: 256)
        render(dissection, frame: frame, into: &sink)
        return sink.text
    }

    /// Appends the line, without a newline.
    public func render(_ dissection: Dissection, frame: FrameInfo = FrameInfo(), into sink: inout TextSink) {
        render(dissection, frame: frame, into: &sink, scratch: RenderScratch())
    }

    func render(_ dissection: Dissection, frame: FrameInfo, into sink: inout TextSink, scratch: RenderScratch) {
        let layout = Layout(dissection, layersOnly: true, scratch: scratch)
        defer { scratch.keep(layout) }
        let style = Style(options)
        if let reassembly = frame.reassembly {
            // Under the frame that completed it: `  ↳ reassembled from frames 3, 4 · TLS …`.
            sink.append("  ↳ reassembled " as StaticString)
            sink.append(reassembly.unit)
            sink.append(" from " as StaticString)
            reassembly.writeFrames(separator: ",", into: &sink)
            if !reassembly.missing.isEmpty {
                let missing = reassembly.missing.reduce(0) { $0 + $1.count }
                sink.append(style.error(" [incomplete: \(missing) bytes missing]"))
            }
            if reassembly.overlapConflict { sink.append(style.error(" [overlapping bytes differed]")) }
            sink.append(" · " as StaticString)
        }
        if let number = frame.number {
            sink.appendDecimal(number)
            sink.append(byte: UInt8(ascii: " "))
        }
        if frame.time != nil, style.timeStyle != .none {
            sink.appendTime(of: frame, style: style.timeStyle, digits: style.timeDigits, zone: false)
            sink.append(byte: UInt8(ascii: " "))
        }
        var wroteLayer = false
        // Without -e, the link-layer headers are left out, unless nothing else would be shown.
        let names = dissection.schema.names
        func isLinkLayer(_ layer: Int) -> Bool {
            guard case .structure(let structID) = dissection.nodes[layer].kind else { return false }
            return names.isLinkLayer(Int(structID))
        }
        let hidesLinkLayer = !options.showsLinkLayer
            && layout.layers.contains { $0 != dissection.stopNode && !isLinkLayer($0) }
        for layer in layout.layers where dissection.stopNode != layer {
            if hidesLinkLayer, isLinkLayer(layer) { continue }
            if wroteLayer { sink.append(" · " as StaticString) }
            layout.writeSummary(of: layer, into: &sink, style: style)
            wroteLayer = true
        }
        if !wroteLayer, let root = dissection.structType(of: 0) { sink.append(style.heading(root.name)) }
        // The frame's length, as tcpdump -e shows it; a frame cut short always says so, and a
        // reassembled unit how long it came out.
        if options.showsLinkLayer || frame.reassembly != nil || frame.originalLength(of: dissection) > dissection.bytes.count {
            sink.append(" · " as StaticString)
            frame.writeLengths(of: dissection, into: &sink)
        }
        if dissection.hasBadChecksum {
            let paths = dissection.checksums.filter { !$0.isCorrect }.map { dissection.path(of: $0.node) }
            sink.append(byte: UInt8(ascii: " "))
            sink.append(style.error("[bad checksum: \(paths.joined(separator: ", "))]"))
        }
        if let error = dissection.error {
            sink.append(byte: UInt8(ascii: " "))
            sink.append(style.error("✗ " + error.description))
        } else if let cut = dissection.cut {
            sink.append(byte: UInt8(ascii: " "))
            sink.append(style.cut(cut.mark))
        }
    }
}
