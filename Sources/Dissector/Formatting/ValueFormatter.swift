import BinarySchema

/// Turns node values into the text a person reads: names for enums, the usual notation for
/// addresses, hex where the schema asks for it. The text comes from `ValueWriter`, which the
/// views use to write it straight into their output.
public enum ValueFormatter {
    /// The value as the schema's display hint shows it, without `@display` formatting.
    public static func valueText(_ dissection: Dissection, _ index: Int) -> String {
        var sink = TextSink(capacity: 64)
        ValueWriter.writeValue(dissection, index, into: &sink)
        return sink.text
    }

    /// The text to show for a node: its `@display` format filled in when it has one, else ``valueText(_:_:)``.
    public static func displayText(_ dissection: Dissection, _ index: Int) -> String {
        var sink = TextSink(capacity: 64)
        ValueWriter.writeDisplay(dissection, index, into: &sink)
        return sink.text
    }

    /// The bits of the bytes a bit field touches, the field's own as 0/1 and the rest as dots,
    /// in groups of four: `.... 0101` for the low nibble of 0x45. Nil for byte-aligned fields.
    public static func bitPattern(_ dissection: Dissection, _ index: Int) -> String? {
        var sink = TextSink(capacity: 32)
        return ValueWriter.writeBitPattern(dissection, index, into: &sink) ? sink.text : nil
    }
}
