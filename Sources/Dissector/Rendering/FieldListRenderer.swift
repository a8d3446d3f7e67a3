import BinarySchema

/// One line per field: byte offset, length, path and value; the error, if any, last.
public struct FieldListRenderer {
    public init() {}

    /// Renders every leaf and container field in pre-order.
    public func render(_ dissection: Dissection) -> String {
        var lines = [pad("offset", 8) + pad("length", 8) + pad("field", 32) + "value"]
        let errorNode = dissection.error?.node
        for index in dissection.nodes.indices {
            let node = dissection.nodes[index]
            let inBits = node.isBitField || node.bitStart & 7 != 0 || node.bitEnd & 7 != 0
            let location = pad(inBits ? "\(hex(node.byteOffset)).\(node.bitStart & 7)" : hex(node.byteOffset), 8)
            let length = inBits ? "\(node.bitWidth)b" : String(node.byteLength)
            var value: String
            if index == errorNode, let error = dissection.error {
                value = "✗ \(error)"
            } else if case .structure = node.kind {
                value = ""
            } else {
                value = ValueFormatter.displayText(dissection, index)
            }
            if value.count > 96 { value = String(value.prefix(93)) + "..." }
            lines.append(location + pad(length, 8) + pad(dissection.path(of: index), 32) + value)
        }
        return lines.joined(separator: "\n")
    }

    private func hex(_ offset: Int) -> String { ValueFormatter.padded(String(offset, radix: 16), to: 4) }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
