import BinarySchema

/// One line per packet, like tcpdump: each layer's `@summary`, then the error if any.
///
/// `Ethernet … > … ipv4 (0x0800) · IPv4 127.0.0.1 > 127.0.0.1 ttl 64 · TCP 48684 > 8765 [syn] …`
public struct SummaryRenderer {
    public var options: RenderOptions

    public init(options: RenderOptions = RenderOptions()) {
        self.options = options
    }

    public func render(_ dissection: Dissection, frame: FrameInfo = FrameInfo()) -> String {
        let layout = Layout(dissection)
        let style = Style(enabled: options.color)
        var parts: [String] = []
        var prefix: [String] = []
        if let number = frame.number { prefix.append(String(number)) }
        if let timestamp = frame.timestamp { prefix.append(timestamp) }
        for layer in layout.layers where dissection.error?.node != layer {
            let summary = layout.summary(of: layer)
            // The layer's name stands out; its values follow.
            let name = dissection.structType(of: layer)?.name ?? ""
            parts.append(style.heading(name) + summary.dropFirst(name.count))
        }
        if parts.isEmpty, let root = dissection.structType(of: 0) { parts.append(style.heading(root.name)) }
        var line = (prefix + [parts.joined(separator: " · ")]).joined(separator: " ")
        line += " · \(dissection.bytes.count) bytes"
        if let error = dissection.error { line += " " + style.error("✗ " + error.description) }
        return line
    }
}
