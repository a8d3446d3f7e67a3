/// Appends integers of any width and byte order, bit fields, varints and bytes to a buffer:
/// the mirror of ``ByteReader``.
public struct ByteWriter: Sendable {
    /// What has been written; a partial last byte holds the bits written so far.
    public private(set) var bytes: [UInt8] = []
    /// Bits written in total.
    public private(set) var bitCount = 0

    /// An empty writer.
    public init() {}

    /// Whether the next write starts on a byte boundary.
    @inlinable public var isAligned: Bool { bitCount & 7 == 0 }

    /// Appends the low `byteCount` (1...8) bytes of `value` in `endianness`. A count below 1
    /// writes nothing, one above 8 writes 8: a bad width never traps or runs away.
    public mutating func writeUInt(_ value: UInt64, byteCount: Int, endianness: Endianness) {
        guard byteCount > 0 else { return }
        let byteCount = min(byteCount, 8)
        switch endianness {
        case .big:
            var shift = (byteCount - 1) * 8
            while shift >= 0 {
                appendByte(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
                shift -= 8
            }
        case .little:
            for index in 0..<byteCount { appendByte(UInt8(truncatingIfNeeded: value >> UInt64(index * 8))) }
        }
    }

    /// Appends one byte, as eight bits when the writer is inside a byte.
    private mutating func appendByte(_ byte: UInt8) {
        if isAligned {
            bytes.append(byte)
            bitCount += 8
        } else {
            writeBits(UInt64(byte), width: 8, order: .msbFirst)
        }
    }

    /// Appends the low `width` (1...64) bits of `value`, most or least significant bit first.
    /// A width below 1 writes nothing, one above 64 writes 64.
    public mutating func writeBits(_ value: UInt64, width: Int, order: BitOrder) {
        guard width > 0 else { return }
        let width = min(width, 64)
        for index in 0..<width {
            let bit: UInt64
            switch order {
            case .msbFirst: bit = (value >> UInt64(width - 1 - index)) & 1
            case .lsbFirst: bit = (value >> UInt64(index)) & 1
            }
            let bitInByte = bitCount & 7
            if bitInByte == 0 { bytes.append(0) }
            if bit == 1 {
                let shift = order == .msbFirst ? 7 - bitInByte : bitInByte
                bytes[bytes.count - 1] |= UInt8(1) << UInt8(shift)
            }
            bitCount += 1
        }
    }

    /// Appends an integer `width` bits wide the way ``ByteReader/readInteger(width:endianness:order:)`` reads it:
    /// whole bytes in `endianness` when aligned and a multiple of 8 bits, else bits in `order`.
    public mutating func writeInteger(_ value: UInt64, width: Int, endianness: Endianness, order: BitOrder) {
        if width & 7 == 0, isAligned {
            writeUInt(value, byteCount: width >> 3, endianness: endianness)
        } else {
            writeBits(value, width: width, order: order)
        }
    }

    /// Appends an unsigned LEB128 varint.
    public mutating func writeVarint(_ value: UInt64) {
        var remaining = value
        repeat {
            var byte = UInt8(remaining & 0x7F)
            remaining >>= 7
            if remaining != 0 { byte |= 0x80 }
            appendByte(byte)
        } while remaining != 0
    }

    /// Appends a zigzag-encoded signed LEB128 varint.
    public mutating func writeZigZag(_ value: Int64) {
        writeVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    /// Appends bytes.
    public mutating func writeBytes<Bytes: Collection>(_ data: Bytes) where Bytes.Element == UInt8 {
        if isAligned {
            bytes.append(contentsOf: data)
            bitCount += data.count * 8
        } else {
            for byte in data { appendByte(byte) }
        }
    }

    /// Inserts whole bytes at byte `offset` (both the writer and the offset must be on byte
    /// boundaries), shifting what follows: how a count is placed before elements written first.
    package mutating func insert(_ data: [UInt8], atByte offset: Int) {
        precondition(isAligned && offset >= 0 && offset <= bytes.count, "insert inside a byte or past the end")
        bytes.insert(contentsOf: data, at: offset)
        bitCount += data.count * 8
    }
}
