import BinaryIO
import BinarySchema

/// UTF-8 output built as bytes: views append to one buffer instead of concatenating strings,
/// and a stream can write the buffer out as it is. Appending copies bytes into manually grown
/// memory; copies of a sink share that memory, so keep one sink per writer.
public struct TextSink {
    private let storage: Storage
    /// Where the current line starts, for padding to a column.
    private var lineStart = 0

    final class Storage {
        private let leadingPadding = CacheLinePadding()
        @exclusivity(unchecked) var base: UnsafeMutablePointer<UInt8>
        @exclusivity(unchecked) var count = 0
        @exclusivity(unchecked) var capacity: Int
        private let trailingPadding = CacheLinePadding()

        init(capacity: Int) {
            self.capacity = max(64, capacity)
            base = .allocate(capacity: self.capacity)
        }

        deinit { base.deallocate() }

        @inline(__always)
        func reserve(_ extra: Int) {
            guard count + extra > capacity else { return }
            var larger = capacity * 2
            while larger < count + extra { larger *= 2 }
            let replacement = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
            replacement.update(from: base, count: count)
            base.deallocate()
            base = replacement
            capacity = larger
        }

        @inline(__always)
        func append(_ source: UnsafeRawBufferPointer) {
            guard let address = source.baseAddress, !source.isEmpty else { return }
            let length = source.count
            reserve(length)
            let from = address.assumingMemoryBound(to: UInt8.self)
            // Most appends are a key, a name or a few digits: two overlapping word copies beat a
            // call to memmove for those.
            let target = UnsafeMutableRawPointer(base + count)
            if length >= 8, length <= 16 {
                let head = address.loadUnaligned(as: UInt64.self)
                let tail = address.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
                target.storeBytes(of: head, as: UInt64.self)
                target.storeBytes(of: tail, toByteOffset: length - 8, as: UInt64.self)
            } else if length >= 4, length < 8 {
                let head = address.loadUnaligned(as: UInt32.self)
                let tail = address.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self)
                target.storeBytes(of: head, as: UInt32.self)
                target.storeBytes(of: tail, toByteOffset: length - 4, as: UInt32.self)
            } else if length < 4 {
                for position in 0..<length { base[count + position] = from[position] }
            } else {
                (base + count).update(from: from, count: length)
            }
            count += length
        }

        @inline(__always)
        func append(_ byte: UInt8) {
            reserve(1)
            base[count] = byte
            count += 1
        }
    }

    /// An empty sink with room for `capacity` bytes before it grows.
    public init(capacity: Int = 4096) {
        storage = Storage(capacity: capacity)
    }

    /// The text so far, as UTF-8.
    package var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: storage.base, count: storage.count) }

    /// Bytes written so far.
    public var count: Int { storage.count }

    /// The text so far.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Empties the buffer, keeping its memory.
    public mutating func removeAll() {
        storage.count = 0
        lineStart = 0
    }

    @inline(__always)
    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { storage.append(UnsafeRawBufferPointer($0)) }
    }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { storage.append(UnsafeRawBufferPointer($0)) }
    }

    @inline(__always)
    mutating func append(byte: UInt8) { storage.append(byte) }

    @inline(__always)
    mutating func append(contentsOf data: UnsafeBufferPointer<UInt8>) {
        storage.append(UnsafeRawBufferPointer(data))
    }

    /// Makes room for `count` more bytes, lets `fill` write exactly that many past the end, then keeps them.
    @inline(__always)
    mutating func withUnreservedBytes(_ count: Int, _ fill: (UnsafeMutablePointer<UInt8>) -> Void) {
        storage.reserve(count)
        fill(storage.base + storage.count)
        storage.count += count
    }

    /// Appends a copy of bytes already in this sink.
    mutating func appendCopy(_ range: Range<Int>) {
        guard range.lowerBound >= 0, range.upperBound <= storage.count, !range.isEmpty else { return }
        // Reserve first: growing moves the buffer the bytes are copied from. The copy is one of
        // a path or a name, which the small-copy path of `append` handles without a call.
        storage.reserve(range.count)
        storage.append(UnsafeRawBufferPointer(start: storage.base + range.lowerBound, count: range.count))
    }

    /// Drops every byte from `count` on (a line written ahead and then laid out again).
    mutating func truncate(to count: Int) {
        guard count >= 0, count < storage.count else { return }
        storage.count = count
        lineStart = min(lineStart, count)
    }

    /// Removes spaces at the end of the text (not inside color codes).
    mutating func trimTrailingSpaces() {
        while storage.count > 0, storage.base[storage.count - 1] == UInt8(ascii: " ") { storage.count -= 1 }
    }

    /// Ends the current line (dropping spaces at its end).
    public mutating func newline() {
        // Lines end without trailing spaces.
        while storage.count > lineStart, storage.base[storage.count - 1] == UInt8(ascii: " ") { storage.count -= 1 }
        storage.append(UInt8(ascii: "\n"))
        lineStart = storage.count
    }

    /// Characters on the current line (code points, so `·` and `✗` count once).
    var column: Int {
        var characters = 0
        for index in lineStart..<storage.count where storage.base[index] & 0xC0 != 0x80 { characters += 1 }
        return characters
    }

    /// Spaces up to `target` characters into the line (at least one when already past it).
    mutating func pad(to target: Int, visibleColumn: Int? = nil) {
        let current = visibleColumn ?? column
        spaces(target > current ? target - current : 1)
    }

    mutating func spaces(_ count: Int) {
        guard count > 0 else { return }
        if count <= 16 {
            // Indents and column padding: two word stores (past the end, within the room
            // reserved) instead of a call to memset.
            storage.reserve(16)
            let target = UnsafeMutableRawPointer(storage.base + storage.count)
            let eightSpaces: UInt64 = 0x2020_2020_2020_2020
            target.storeBytes(of: eightSpaces, as: UInt64.self)
            target.storeBytes(of: eightSpaces, toByteOffset: 8, as: UInt64.self)
        } else {
            storage.reserve(count)
            (storage.base + storage.count).update(repeating: UInt8(ascii: " "), count: count)
        }
        storage.count += count
    }

    @inline(__always)
    mutating func appendDecimal<T: BinaryInteger>(_ value: T) {
        if value < 0 {
            storage.append(UInt8(ascii: "-"))
            appendDecimal(magnitude: UInt64(truncatingIfNeeded: 0 &- Int64(truncatingIfNeeded: value)))
        } else {
            appendDecimal(magnitude: UInt64(value))
        }
    }

    /// Two decimal digits for each value 0...99, as a literal (a stored table would be
    /// guarded by a once-check on every use).
    private static var digitPairs: StaticString {
        """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        4041424344454647484950515253545556575859606162636465666768697071727374757677787980\
        81828384858687888990919293949596979899
        """
    }

    mutating func appendDecimal(magnitude value: UInt64) {
        let pairs = Self.digitPairs.utf8Start
        if value < 100 {
            if value < 10 {
                storage.append(UInt8(ascii: "0") + UInt8(value))
            } else {
                storage.reserve(2)
                storage.base[storage.count] = pairs[Int(value) &* 2]
                storage.base[storage.count + 1] = pairs[Int(value) &* 2 + 1]
                storage.count += 2
            }
            return
        }
        var digits = 3
        var bound: UInt64 = 1000
        while digits < 20, value >= bound {
            digits += 1
            bound = bound &* 10
        }
        storage.reserve(digits)
        let output = storage.base + storage.count
        var rest = value
        var end = digits
        while rest >= 10 {
            let pair = Int(rest % 100) &* 2
            rest /= 100
            output[end - 1] = pairs[pair + 1]
            output[end - 2] = pairs[pair]
            end -= 2
        }
        if end > 0 { output[0] = UInt8(ascii: "0") + UInt8(rest) }
        storage.count += digits
    }

    /// The hex digit for a nibble; arithmetic rather than a table, which as a global would be
    /// guarded by a once-check on every use.
    @inline(__always)
    static func hexDigit<T: BinaryInteger>(_ nibble: T) -> UInt8 {
        let value = UInt8(truncatingIfNeeded: nibble) & 0xF
        return value < 10 ? value + 0x30 : value + 0x57
    }

    @inline(__always)
    mutating func appendHex(byte: UInt8) {
        storage.reserve(2)
        storage.base[storage.count] = Self.hexDigit(byte >> 4)
        storage.base[storage.count + 1] = Self.hexDigit(byte)
        storage.count += 2
    }

    /// An offset as at least four hex digits.
    mutating func appendOffset(_ offset: Int) {
        if offset >= 0, offset < 0x10000 {
            // Every offset in a frame of up to 64 KiB: four digits, no loop.
            storage.reserve(4)
            let output = storage.base + storage.count
            output[0] = Self.hexDigit(offset >> 12)
            output[1] = Self.hexDigit(offset >> 8)
            output[2] = Self.hexDigit(offset >> 4)
            output[3] = Self.hexDigit(offset)
            storage.count += 4
            return
        }
        var digits = 4
        while digits < 16, offset >> (digits * 4) != 0 { digits += 1 }
        withUnreservedBytes(digits) { output in
            for position in 0..<digits {
                output[position] = Self.hexDigit(offset >> ((digits - 1 - position) * 4))
            }
        }
    }

    mutating func appendHex<Bytes: Collection>(_ data: Bytes, separator: UInt8? = nil) where Bytes.Element == UInt8 {
        guard !data.isEmpty else { return }
        let perByte = separator == nil ? 2 : 3
        storage.reserve(data.count * perByte)
        var output = storage.base + storage.count
        var first = true
        for byte in data {
            if let separator, !first {
                output.pointee = separator
                output += 1
            }
            output[0] = Self.hexDigit(byte >> 4)
            output[1] = Self.hexDigit(byte)
            output += 2
            first = false
        }
        storage.count = output - storage.base
    }

    /// Control characters, the quote and the backslash.
    @inline(__always)
    private static func mustEscapeInJSON(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// Whether the text from `start` on holds a byte a JSON string must escape.
    func needsJSONEscaping(from start: Int) -> Bool {
        var index = max(0, start)
        while index < storage.count {
            let byte = storage.base[index]
            if Self.mustEscapeInJSON(byte) { return true }
            index += 1
        }
        return false
    }

    /// A JSON string literal (without its quotes when `quoted` is false).
    mutating func appendJSONString(_ text: String, quoted: Bool = true) {
        var text = text
        text.withUTF8 { appendJSONString($0, quoted: quoted) }
    }

    /// UTF-8 bytes as a JSON string literal.
    mutating func appendJSONString(_ utf8: UnsafeBufferPointer<UInt8>, quoted: Bool = true) {
        if quoted { storage.append(UInt8(ascii: "\"")) }
        var clean = utf8.startIndex
        for index in utf8.indices {
            let byte = utf8[index]
            guard Self.mustEscapeInJSON(byte) else { continue }
            storage.append(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: utf8[clean..<index])))
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
        storage.append(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: utf8[clean...])))
        if quoted { storage.append(UInt8(ascii: "\"")) }
    }
}
