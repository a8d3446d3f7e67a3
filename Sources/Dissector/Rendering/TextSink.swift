import BinarySchema

/// UTF-8 output built as bytes: views append to one buffer instead of concatenating strings,
/// and a stream can write the buffer out as it is.
public struct TextSink: Sendable {
    /// The text so far, as UTF-8.
    public private(set) var bytes: [UInt8] = []
    /// Where the current line starts, for padding to a column.
    private var lineStart = 0

    public init(capacity: Int = 4096) {
        bytes.reserveCapacity(capacity)
    }

    /// The text so far.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Empties the buffer, keeping its memory.
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        lineStart = 0
    }

    @inline(__always)
    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    @inline(__always)
    mutating func append(byte: UInt8) { bytes.append(byte) }

    mutating func newline() {
        // Lines end without trailing spaces.
        while bytes.count > lineStart, bytes.last == UInt8(ascii: " ") { bytes.removeLast() }
        bytes.append(UInt8(ascii: "\n"))
        lineStart = bytes.count
    }

    /// Characters on the current line (code points, so `·` and `✗` count once).
    var column: Int {
        var count = 0
        for byte in bytes[lineStart...] where byte & 0xC0 != 0x80 { count += 1 }
        return count
    }

    /// Spaces up to `target` characters into the line (at least one when already past it).
    mutating func pad(to target: Int, visibleColumn: Int? = nil) {
        let current = visibleColumn ?? column
        let spaces = target > current ? target - current : 1
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: spaces))
    }

    mutating func spaces(_ count: Int) {
        if count > 0 { bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: count)) }
    }

    mutating func appendDecimal<T: BinaryInteger>(_ value: T) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            appendDecimal(UInt64(truncatingIfNeeded: 0 - Int64(value)))
            return
        }
        var magnitude = UInt64(value)
        if magnitude < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude))
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            while magnitude > 0 {
                buffer[19 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            }
            bytes.append(contentsOf: buffer[(20 - count)...])
        }
    }

    static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    @inline(__always)
    mutating func appendHex(byte: UInt8) {
        bytes.append(Self.hexDigits[Int(byte >> 4)])
        bytes.append(Self.hexDigits[Int(byte & 0xF)])
    }

    /// An offset as at least four hex digits.
    mutating func appendOffset(_ offset: Int) {
        var digits = 4
        while digits < 16, offset >> (digits * 4) != 0 { digits += 1 }
        for position in stride(from: digits - 1, through: 0, by: -1) {
            bytes.append(Self.hexDigits[(offset >> (position * 4)) & 0xF])
        }
    }

    mutating func appendHex<Bytes: Sequence>(_ data: Bytes, separator: UInt8? = nil) where Bytes.Element == UInt8 {
        var first = true
        for byte in data {
            if let separator, !first { bytes.append(separator) }
            appendHex(byte: byte)
            first = false
        }
    }

    /// A JSON string literal.
    mutating func appendJSONString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var clean = utf8.startIndex
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: utf8[clean..<index])
                switch byte {
                case UInt8(ascii: "\""): append("\\\"" as StaticString)
                case UInt8(ascii: "\\"): append("\\\\" as StaticString)
                case 0x0A: append("\\n" as StaticString)
                case 0x0D: append("\\r" as StaticString)
                case 0x09: append("\\t" as StaticString)
                default:
                    append("\\u00" as StaticString)
                    appendHex(byte: byte)
                }
                clean = index + 1
            }
            bytes.append(contentsOf: utf8[clean...])
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
