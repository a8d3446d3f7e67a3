/// Byte order of a multi-byte integer or float on the wire.
public enum Endianness: Sendable, Hashable {
    case big
    case little
}

/// Order in which the bits of a byte are consumed by bit-field reads.
public enum BitOrder: Sendable, Hashable {
    /// Most significant bit first, as network protocols lay out `version:4 ihl:4`.
    case msbFirst
    /// Least significant bit first, as many little-endian device formats do.
    case lsbFirst
}

/// Why a read from a ``ByteReader`` failed. Every case says where, in bytes from
/// the start of the buffer.
public enum ByteReadError: Error, Sendable, Hashable {
    /// The read needed `needed` bytes at `offset` but only `available` remain in scope.
    case prematureEnd(offset: Int, needed: Int, available: Int)
    /// A byte-granular read was attempted `bitOffset` bits into a byte.
    case misaligned(offset: Int, bitOffset: Int)
    /// A LEB128 varint ran past 10 bytes or does not fit 64 bits.
    case varintOverflow(offset: Int)
    /// The bytes at `offset` are not valid UTF-8.
    case invalidUTF8(offset: Int)
    /// A NUL-terminated string reached the end of its scope without a NUL.
    case missingTerminator(offset: Int, scanned: Int)
    /// A seek or scope change named `position` (bytes or bits, as the call took it), which is
    /// negative or before the cursor at `offset`.
    case outOfRange(offset: Int, position: Int)
}

/// A bounds-checked cursor over a byte buffer.
///
/// Every read checks the bytes are there before touching them and throws a
/// ``ByteReadError`` naming the offset otherwise; nothing here can trap on
/// hostile input. Reads never go past ``limit``, the end of the current scope,
/// which callers narrow to bound a substructure.
///
/// The cursor and the scope move only through reads and the checked ``seek(toBit:)``,
/// ``seek(toByte:)``, ``narrow(toByteCount:)`` and ``restoreLimit(toByte:)``, which keep
/// `0 <= bitPosition <= limit * 8 <= bytes.count * 8`: the reads rely on it.
public struct ByteReader: Sendable {
    /// The whole buffer being read.
    public let bytes: [UInt8]
    /// The cursor, in bits; set only by the reads and the checked moves.
    @usableFromInline var cursorBit: Int
    /// The end of the scope, in bytes; set only by the checked scope changes.
    @usableFromInline var scopeEnd: Int

    /// Absolute position in bits from the start of ``bytes``.
    @inlinable public var bitPosition: Int { cursorBit }
    /// End of the current scope, in bytes; reads beyond it fail.
    @inlinable public var limit: Int { scopeEnd }

    /// Creates a reader positioned at the start of `bytes`, scoped to all of it.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.cursorBit = 0
        self.scopeEnd = bytes.count
    }

    /// Byte offset of the cursor (the byte holding the next bit).
    @inlinable public var offset: Int { bitPosition >> 3 }

    /// Whether the cursor sits on a byte boundary.
    @inlinable public var isAligned: Bool { bitPosition & 7 == 0 }

    /// Whole bytes left before ``limit`` (partial byte not counted).
    @inlinable public var remainingBytes: Int { max(0, limit - ((bitPosition + 7) >> 3)) }

    /// Bits left before ``limit``.
    @inlinable public var remainingBits: Int { max(0, limit &* 8 &- bitPosition) }

    /// Moves the cursor to byte `offset`, which must lie within the scope (its end included).
    /// Throws ``ByteReadError/outOfRange(offset:position:)`` for a negative offset and
    /// ``ByteReadError/prematureEnd(offset:needed:available:)`` for one past the scope; the
    /// cursor then stays where it was.
    public mutating func seek(toByte offset: Int) throws(ByteReadError) {
        guard offset >= 0 else { throw .outOfRange(offset: self.offset, position: offset) }
        guard offset <= limit else {
            throw .prematureEnd(offset: self.offset, needed: offset - self.offset, available: remainingBytes)
        }
        cursorBit = offset << 3
    }

    /// Moves the cursor to bit `position` (from the start of ``bytes``), which must lie within
    /// the scope (its end included). Throws as ``seek(toByte:)`` does, with `position` in bits.
    public mutating func seek(toBit position: Int) throws(ByteReadError) {
        guard position >= 0 else { throw .outOfRange(offset: offset, position: position) }
        guard position <= limit << 3 else {
            throw .prematureEnd(offset: offset, needed: ((position + 7) >> 3) - offset, available: remainingBytes)
        }
        cursorBit = position
    }

    /// Ends the scope `count` bytes after the start of the cursor's byte, within the current
    /// scope and not before the cursor; returns the previous end, for ``restoreLimit(toByte:)`` once the substructure is read.
    /// Throws ``ByteReadError/outOfRange(offset:position:)`` for a negative count and
    /// ``ByteReadError/prematureEnd(offset:needed:available:)`` for one past the scope; the
    /// scope then stays as it was.
    @discardableResult
    public mutating func narrow(toByteCount count: Int) throws(ByteReadError) -> Int {
        let start = offset
        // Inside a byte, the scope must still hold the cursor: at least that byte.
        guard count >= 0, (start + count) << 3 >= cursorBit else { throw .outOfRange(offset: start, position: count) }
        guard count <= limit - start else {
            throw .prematureEnd(offset: start, needed: count, available: max(0, limit - start))
        }
        let previous = limit
        scopeEnd = start + count
        return previous
    }

    /// Sets the end of the scope to byte `end`, wider or narrower: it must lie within ``bytes``
    /// and not before the cursor. How a scope narrowed by ``narrow(toByteCount:)`` is given back.
    /// Throws as ``narrow(toByteCount:)`` does; the scope then stays as it was.
    public mutating func restoreLimit(toByte end: Int) throws(ByteReadError) {
        guard end >= 0, end << 3 >= bitPosition else { throw .outOfRange(offset: offset, position: end) }
        guard end <= bytes.count else {
            throw .prematureEnd(offset: offset, needed: end - offset, available: bytes.count - offset)
        }
        scopeEnd = end
    }

    @inlinable
    @inline(__always)
    func requireAligned() throws(ByteReadError) {
        guard isAligned else { throw .misaligned(offset: offset, bitOffset: bitPosition & 7) }
    }

    @inlinable
    @inline(__always)
    func require(_ count: Int) throws(ByteReadError) {
        let start = offset
        guard count >= 0, count <= limit - start else {
            throw .prematureEnd(offset: start, needed: count, available: max(0, limit - start))
        }
    }

    /// Reads an unsigned integer `byteCount` (1...8) bytes wide.
    @inlinable
    public mutating func readUInt(byteCount: Int, endianness: Endianness) throws(ByteReadError) -> UInt64 {
        try requireAligned()
        try require(byteCount)
        let start = offset
        var value: UInt64 = 0
        switch endianness {
        case .big:
            for index in start..<(start + byteCount) {
                value = value << 8 | UInt64(bytes[index])
            }
        case .little:
            var index = start + byteCount
            while index > start {
                index -= 1
                value = value << 8 | UInt64(bytes[index])
            }
        }
        cursorBit += byteCount << 3
        return value
    }

    /// Reads a signed two's-complement integer `byteCount` (1...8) bytes wide.
    @inlinable
    public mutating func readInt(byteCount: Int, endianness: Endianness) throws(ByteReadError) -> Int64 {
        let raw = try readUInt(byteCount: byteCount, endianness: endianness)
        return Self.signExtend(raw, width: byteCount * 8)
    }

    /// Reads `width` (1...64) bits starting at the cursor, which need not be aligned.
    @inlinable
    public mutating func readBits(_ width: Int, order: BitOrder) throws(ByteReadError) -> UInt64 {
        guard width > 0, width <= 64 else { return 0 }
        guard width <= remainingBits else {
            let start = offset
            throw .prematureEnd(offset: start, needed: ((bitPosition + width + 7) >> 3) - start, available: max(0, limit - start))
        }
        let start = bitPosition >> 3
        let bitInByte = bitPosition & 7
        let byteCount = (bitInByte + width + 7) >> 3
        let mask: UInt64 = width == 64 ? .max : (1 &<< UInt64(width)) &- 1
        var value: UInt64
        if byteCount <= 8 {
            // The bits lie in at most eight bytes (checked above to be in scope): gather them
            // into one word, then shift and mask.
            value = unsafe bytes.withUnsafeBufferPointer { buffer in
                var raw: UInt64 = 0
                switch order {
                case .msbFirst:
                    for index in 0..<byteCount { raw = raw &<< 8 | UInt64(unsafe buffer[start &+ index]) }
                    return (raw &>> UInt64(byteCount &* 8 &- bitInByte &- width)) & mask
                case .lsbFirst:
                    for index in 0..<byteCount { raw |= UInt64(unsafe buffer[start &+ index]) &<< UInt64(index &* 8) }
                    return (raw &>> UInt64(bitInByte)) & mask
                }
            }
        } else {
            // Nine bytes: more than 56 bits starting inside a byte.
            value = order == .msbFirst ? Self.gatherMSB(bytes, start: start, bitInByte: bitInByte, width: width)
                : Self.gatherLSB(bytes, start: start, bitInByte: bitInByte, width: width)
        }
        cursorBit += width
        return value
    }

    @usableFromInline
    static func gatherMSB(_ bytes: [UInt8], start: Int, bitInByte: Int, width: Int) -> UInt64 {
        var value: UInt64 = 0
        var position = start * 8 + bitInByte
        var left = width
        while left > 0 {
            let byte = UInt64(bytes[position >> 3])
            let offsetInByte = position & 7
            let take = min(left, 8 - offsetInByte)
            let bits = (byte >> UInt64(8 - offsetInByte - take)) & ((1 << UInt64(take)) - 1)
            value = value << UInt64(take) | bits
            left -= take
            position += take
        }
        return value
    }

    @usableFromInline
    static func gatherLSB(_ bytes: [UInt8], start: Int, bitInByte: Int, width: Int) -> UInt64 {
        var value: UInt64 = 0
        var position = start * 8 + bitInByte
        var filled = 0
        while filled < width {
            let byte = UInt64(bytes[position >> 3])
            let offsetInByte = position & 7
            let take = min(width - filled, 8 - offsetInByte)
            value |= ((byte >> UInt64(offsetInByte)) & ((1 << UInt64(take)) - 1)) << UInt64(filled)
            filled += take
            position += take
        }
        return value
    }

    /// An integer read by ``readInteger(width:endianness:order:)``.
    public struct IntegerRead: Sendable, Hashable {
        /// The value, zero-extended.
        public let value: UInt64
        /// Whether it was read as bits (unaligned or not a whole number of bytes) rather than as bytes.
        public let readAsBits: Bool

        @inlinable
        init(value: UInt64, readAsBits: Bool) {
            self.value = value
            self.readAsBits = readAsBits
        }
    }

    /// Reads a `width`-bit (1...64) unsigned integer: as whole bytes in `endianness` when the
    /// cursor is aligned and `width` is a multiple of 8, else as bits in `order`.
    @inlinable
    @inline(__always)
    public mutating func readInteger(width: Int, endianness: Endianness,
                                     order: BitOrder) throws(ByteReadError) -> IntegerRead {
        if width & 7 == 0, isAligned, endianness == .little {
            return IntegerRead(value: try readUInt(byteCount: width >> 3, endianness: .little), readAsBits: false)
        }
        // Big-endian whole bytes read the same as most-significant-first bits.
        let asBits = width & 7 != 0 || !isAligned
        return IntegerRead(value: try readBits(width, order: asBits ? order : .msbFirst), readAsBits: asBits)
    }

    /// The common case of ``readInteger(width:endianness:order:)`` in one unaligned 8-byte
    /// load and two shifts, with no loop: nil when it does not apply (within 8 bytes of the
    /// buffer's end, `lsbFirst` bits, or more bits than the scope holds), and the cursor is
    /// then unchanged.
    @inlinable
    @inline(__always)
    package mutating func readIntegerFast(width: Int, littleEndian: Bool, lsbFirst: Bool) -> IntegerRead? {
        let position = bitPosition
        let byte = position >> 3
        let shift = position & 7
        let asBits = shift != 0 || width & 7 != 0
        guard width > 0, width + shift <= 64, position + width <= limit &* 8, byte >= 0, byte + 8 <= bytes.count,
              !(asBits && lsbFirst) else { return nil }
        // In bounds: `byte + 8 <= bytes.count` was checked above.
        let window = unsafe bytes.withUnsafeBytes { unsafe UInt64(bigEndian: $0.loadUnaligned(fromByteOffset: byte, as: UInt64.self)) }
        let mostSignificantFirst = (window &<< UInt64(shift)) &>> UInt64(64 - width)
        cursorBit = position + width
        if littleEndian, !asBits {
            // Swapped, the first bytes are the low ones: keep the low `width` bits.
            let mask: UInt64 = width == 64 ? .max : (1 &<< UInt64(width)) &- 1
            return IntegerRead(value: window.byteSwapped & mask, readAsBits: false)
        }
        return IntegerRead(value: mostSignificantFirst, readAsBits: asBits)
    }

    /// Reads an unsigned LEB128 varint (at most 10 bytes, value must fit 64 bits).
    public mutating func readVarint() throws(ByteReadError) -> UInt64 {
        try requireAligned()
        let start = offset
        var value: UInt64 = 0
        var shift: UInt64 = 0
        var index = start
        while true {
            guard index < limit else {
                throw .prematureEnd(offset: start, needed: index - start + 1, available: index - start)
            }
            let byte = bytes[index]
            let payload = UInt64(byte & 0x7F)
            if shift == 63, payload > 1 { throw .varintOverflow(offset: start) }
            value |= payload << shift
            index += 1
            if byte & 0x80 == 0 { break }
            shift += 7
            if shift > 63 { throw .varintOverflow(offset: start) }
        }
        cursorBit = index << 3
        return value
    }

    /// Reads a zigzag-encoded signed LEB128 varint (as protobuf's `sint64`).
    public mutating func readZigZag() throws(ByteReadError) -> Int64 {
        let raw = try readVarint()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    /// Consumes `count` bytes and returns their range in ``bytes``.
    @inlinable
    public mutating func readBytes(_ count: Int) throws(ByteReadError) -> Range<Int> {
        try requireAligned()
        try require(count)
        let start = offset
        cursorBit += count << 3
        return start..<(start + count)
    }

    /// Consumes `count` bytes that must be valid UTF-8 and returns their range.
    public mutating func readUTF8(_ count: Int) throws(ByteReadError) -> Range<Int> {
        let range = try readBytes(count)
        if let bad = Self.firstInvalidUTF8(bytes, in: range) {
            cursorBit = range.lowerBound << 3
            throw .invalidUTF8(offset: bad)
        }
        return range
    }

    /// Consumes a NUL-terminated UTF-8 string; returns the range without the NUL.
    public mutating func readCString() throws(ByteReadError) -> Range<Int> {
        try requireAligned()
        let start = offset
        var index = start
        while index < limit, bytes[index] != 0 { index += 1 }
        guard index < limit else { throw .missingTerminator(offset: start, scanned: index - start) }
        if let bad = Self.firstInvalidUTF8(bytes, in: start..<index) { throw .invalidUTF8(offset: bad) }
        cursorBit = (index + 1) << 3
        return start..<index
    }

    /// Consumes bytes up to and including the first `terminator` within the scope that starts
    /// a multiple of `alignment` bytes after the cursor (2 for UTF-16 code units); returns the
    /// range before the terminator. The scan never goes back: each position costs at most one
    /// comparison per terminator byte. Throws
    /// ``ByteReadError/missingTerminator(offset:scanned:)`` (cursor unmoved) when the scope ends first.
    public mutating func readTerminated<Terminator: RandomAccessCollection<UInt8>>(
        by terminator: Terminator, alignment: Int = 1
    ) throws(ByteReadError) -> Range<Int> {
        try requireAligned()
        let start = offset
        let step = max(1, alignment)
        let length = terminator.count
        guard let first = terminator.first else { return start..<start }
        var candidate = start
        while length <= limit - candidate {
            if bytes[candidate] == first {
                var matched = 1
                var expected = terminator.index(after: terminator.startIndex)
                while matched < length, bytes[candidate + matched] == terminator[expected] {
                    matched += 1
                    expected = terminator.index(after: expected)
                }
                if matched == length {
                    cursorBit = (candidate + length) << 3
                    return start..<candidate
                }
            }
            candidate += step
        }
        throw .missingTerminator(offset: start, scanned: limit - start)
    }

    /// Sign-extends the low `width` bits of `raw`.
    @inlinable
    package static func signExtend(_ raw: UInt64, width: Int) -> Int64 {
        guard width > 0, width < 64 else { return Int64(bitPattern: raw) }
        let shift = UInt64(64 - width)
        return Int64(bitPattern: raw << shift) >> Int64(shift)
    }

    /// Offset of the first byte in `range` where UTF-8 decoding fails, or nil.
    package static func firstInvalidUTF8(_ bytes: [UInt8], in range: Range<Int>) -> Int? {
        var index = range.lowerBound
        let end = range.upperBound
        while index < end {
            let lead = bytes[index]
            if lead < 0x80 { index += 1; continue }
            let length: Int
            var minimum: UInt32
            var scalar: UInt32
            switch lead {
            case 0xC2...0xDF: length = 2; minimum = 0x80; scalar = UInt32(lead & 0x1F)
            case 0xE0...0xEF: length = 3; minimum = 0x800; scalar = UInt32(lead & 0x0F)
            case 0xF0...0xF4: length = 4; minimum = 0x10000; scalar = UInt32(lead & 0x07)
            default: return index
            }
            guard end - index >= length else { return index }
            for continuation in 1..<length {
                let byte = bytes[index + continuation]
                guard byte & 0xC0 == 0x80 else { return index }
                scalar = scalar << 6 | UInt32(byte & 0x3F)
            }
            if scalar < minimum || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) { return index }
            index += length
        }
        return nil
    }
}
