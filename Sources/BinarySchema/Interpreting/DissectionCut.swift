/// Where the end of the captured bytes stopped the walk of a frame the capture cut short (a
/// snapshot length: captured length below the original length). Not an error: the bytes the
/// field needed were on the wire, they were not kept. tcpdump prints `[|tcp]` there, Wireshark
/// "Packet size limited during capture".
public struct DissectionCut: Sendable, Hashable, CustomStringConvertible {
    /// Bytes captured: the buffer's length.
    public let capturedLength: Int
    /// The frame's length on the wire.
    public let originalLength: Int
    /// Path of the field the cut stopped (`tcp.options[2].value.echo_reply`).
    public let path: String
    /// Byte offset from the start of the buffer where that field starts.
    public let offset: Int
    /// Bit within that byte, for bit fields (0 for byte-aligned fields).
    public let bitOffset: Int
    /// Bytes the field needs from ``offset`` (at least, for a DNS name); nil when its end is not
    /// known (a `cstring` whose NUL was not captured, a UTF-8 character cut in two, a DNS name
    /// after a compression pointer).
    public let needed: Int?
    /// Index of the field's node in ``Dissection/nodes``; it spans the bytes of it that were captured.
    public let node: Int

    /// The protocol layer the field belongs to, as tcpdump names it in `[|tcp]`: the first
    /// component of ``path``.
    public var layer: String {
        String(path.prefix { $0 != "." && $0 != "[" })
    }

    /// `captured 65 of 66 bytes: tcp.options[2].value.echo_reply needs 4 bytes at offset 61, 3 captured`
    public var description: String {
        let at = bitOffset == 0 ? "offset \(offset)" : "offset \(offset) bit \(bitOffset)"
        let captured = max(0, capturedLength - offset)
        let frame = "captured \(capturedLength) of \(originalLength) bytes: \(path)"
        guard let needed else { return "\(frame) at \(at) ends past the \(captured) captured" }
        return "\(frame) needs \(needed) byte\(needed == 1 ? "" : "s") at \(at), \(captured) captured"
    }
}
