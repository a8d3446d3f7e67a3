import Testing
import BinaryIO

@Suite struct ByteReaderTests {
    @Test func readsIntegersOfEveryWidthInBothByteOrders() throws {
        var reader = ByteReader([0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08])
        #expect(try reader.readUInt(byteCount: 3, endianness: .big) == 0x010203)
        #expect(try reader.readUInt(byteCount: 3, endianness: .little) == 0x060504)
        #expect(try reader.readUInt(byteCount: 2, endianness: .big) == 0x0708)
        var wide = ByteReader([0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88])
        #expect(try wide.readUInt(byteCount: 8, endianness: .little) == 0x8877_6655_4433_2211)
        var six = ByteReader([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE])
        #expect(try six.readInt(byteCount: 6, endianness: .big) == -2)
    }

    @Test func readsBitFieldsAcrossByteBoundariesMostSignificantFirst() throws {
        // IPv4: version 4, ihl 5, then flags 010 and a 13-bit fragment offset of 0x1234 & 0x1FFF.
        var reader = ByteReader([0x45, 0x52, 0x34])
        #expect(try reader.readBits(4, order: .msbFirst) == 4)
        #expect(try reader.readBits(4, order: .msbFirst) == 5)
        #expect(try reader.readBits(3, order: .msbFirst) == 0b010)
        #expect(try reader.readBits(13, order: .msbFirst) == 0x1234)
        #expect(reader.isAligned)
    }

    @Test func readsBitFieldsLeastSignificantFirst() throws {
        var reader = ByteReader([0b1010_0110, 0b0000_0011])
        #expect(try reader.readBits(3, order: .lsbFirst) == 0b110)
        #expect(try reader.readBits(7, order: .lsbFirst) == 0b11_10100)
        #expect(try reader.readBits(6, order: .lsbFirst) == 0)
    }

    @Test func reportsPrematureEndWithOffsetNeededAndAvailable() {
        var reader = ByteReader([1, 2, 3])
        _ = try? reader.readBytes(1)
        #expect(throws: ByteReadError.prematureEnd(offset: 1, needed: 4, available: 2)) {
            try reader.readUInt(byteCount: 4, endianness: .big)
        }
        var bits = ByteReader([0xFF])
        _ = try? bits.readBits(6, order: .msbFirst)
        #expect(throws: ByteReadError.prematureEnd(offset: 0, needed: 2, available: 1)) {
            try bits.readBits(4, order: .msbFirst)
        }
    }

    @Test func respectsTheScopeLimit() throws {
        var reader = ByteReader([1, 2, 3, 4])
        #expect(try reader.narrow(toByteCount: 2) == 4)
        #expect(throws: ByteReadError.prematureEnd(offset: 0, needed: 3, available: 2)) { try reader.readBytes(3) }
        #expect(try reader.readBytes(2) == 0..<2)
        try reader.restoreLimit(toByte: 4)
        #expect(try reader.readBytes(2) == 2..<4)
    }

    @Test func rejectsByteReadsInsideAByte() {
        var reader = ByteReader([0xAB, 0xCD])
        _ = try? reader.readBits(4, order: .msbFirst)
        #expect(throws: ByteReadError.misaligned(offset: 0, bitOffset: 4)) { try reader.readBytes(1) }
    }

    @Test func decodesVarintsAndZigZag() throws {
        var reader = ByteReader([0xAC, 0x02, 0x03, 0x01, 0x7F])
        #expect(try reader.readVarint() == 300)
        #expect(try reader.readZigZag() == -2)
        #expect(try reader.readZigZag() == -1)
        #expect(try reader.readZigZag() == -64)
        var maximum = ByteReader([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01])
        #expect(try maximum.readVarint() == UInt64.max)
    }

    @Test func rejectsVarintsBeyondSixtyFourBits() {
        var tooLong = ByteReader(Array(repeating: 0x80, count: 11) + [0x00])
        #expect(throws: ByteReadError.varintOverflow(offset: 0)) { try tooLong.readVarint() }
        var tooBig = ByteReader([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02])
        #expect(throws: ByteReadError.varintOverflow(offset: 0)) { try tooBig.readVarint() }
        var unterminated = ByteReader([0x80, 0x80])
        #expect(throws: ByteReadError.prematureEnd(offset: 0, needed: 3, available: 2)) { try unterminated.readVarint() }
    }

    @Test(arguments: [
        ([0xC3, 0x28], 0),               // bad continuation
        ([0x41, 0xC0, 0x80], 1),         // overlong two-byte form
        ([0xED, 0xA0, 0x80], 0),         // UTF-16 surrogate
        ([0xF4, 0x90, 0x80, 0x80], 0),   // above U+10FFFF
        ([0x61, 0x62, 0xE2, 0x82], 2),   // truncated sequence
        ([0xFF], 0),
    ] as [([UInt8], Int)])
    func findsTheFirstInvalidUTF8Byte(bytes: [UInt8], offset: Int) {
        #expect(ByteReader.firstInvalidUTF8(bytes, in: 0..<bytes.count) == offset)
        var reader = ByteReader(bytes)
        #expect(throws: ByteReadError.invalidUTF8(offset: offset)) { try reader.readUTF8(bytes.count) }
    }

    @Test func acceptsValidUTF8() throws {
        let text = Array("héllo, 世界 🌍".utf8)
        var reader = ByteReader(text)
        #expect(try reader.readUTF8(text.count) == 0..<text.count)
    }

    @Test func readsNulTerminatedStrings() throws {
        var reader = ByteReader(Array("abc".utf8) + [0, 0x64])
        #expect(try reader.readCString() == 0..<3)
        #expect(reader.offset == 4)
        var unterminated = ByteReader(Array("abc".utf8))
        #expect(throws: ByteReadError.missingTerminator(offset: 0, scanned: 3)) { try unterminated.readCString() }
    }

    @Test func readsUpToATerminatorWithinTheScope() throws {
        var reader = ByteReader(Array("a\r\rb\r\nc\r\n".utf8))
        #expect(try reader.readTerminated(by: Array("\r\n".utf8)) == 0..<4)
        #expect(reader.offset == 6)
        let saved = try reader.narrow(toByteCount: 2)
        #expect(throws: ByteReadError.missingTerminator(offset: 6, scanned: 2)) { try reader.readTerminated(by: Array("\r\n".utf8)) }
        #expect(reader.offset == 6, "a failed search leaves the cursor where it was")
        try reader.restoreLimit(toByte: saved)
        #expect(try reader.readTerminated(by: Array("\r\n".utf8)) == 6..<7)
        #expect(reader.remainingBytes == 0)
    }

    @Test func anAlignedTerminatorStartsAtACodeUnit() throws {
        // 00 00 at offset 1 straddles two UTF-16 code units: only the pair at offset 4 ends the text.
        var reader = ByteReader([0x41, 0x00, 0x00, 0x01, 0x00, 0x00, 0x42])
        #expect(try reader.readTerminated(by: [0, 0], alignment: 2) == 0..<4)
        #expect(reader.offset == 6)
        var bytewise = ByteReader([0x41, 0x00, 0x00, 0x01])
        #expect(try bytewise.readTerminated(by: [0, 0]) == 0..<1)
    }
}

@Suite struct WideBitFieldTests {
    @Test func readsSixtyFourBitsStartingInsideAByte() throws {
        // 4 bits of padding, then 64 bits 0x0123456789ABCDEF, then 4 bits: nine bytes touched.
        let bytes: [UInt8] = [0xA0, 0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xDE, 0xF5]
        var reader = ByteReader(bytes)
        #expect(try reader.readBits(4, order: .msbFirst) == 0xA)
        #expect(try reader.readBits(64, order: .msbFirst) == 0x0123_4567_89AB_CDEF)
        #expect(try reader.readBits(4, order: .msbFirst) == 0x5)
        var little = ByteReader([0x1F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01])
        #expect(try little.readBits(4, order: .lsbFirst) == 0xF)
        #expect(try little.readBits(64, order: .lsbFirst) == 0x1FFF_FFFF_FFFF_FFF1)
    }

    @Test func bitReadsAgreeWithABitByBitReference() throws {
        let seed: UInt64 = 0xB175_0000_0000_0001
        var generator = SplitMix64(seed: seed)
        for _ in 0..<500 {
            let bytes = (0..<12).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let skip = Int.random(in: 0..<8, using: &generator)
            let width = Int.random(in: 1...64, using: &generator)
            for order in [BitOrder.msbFirst, .lsbFirst] {
                var reader = ByteReader(bytes)
                _ = try reader.readBits(skip, order: order)
                let value = try reader.readBits(width, order: order)
                var expected: UInt64 = 0
                for bit in 0..<width {
                    let position = skip + bit
                    let byte = bytes[position / 8]
                    let set = order == .msbFirst ? (byte >> (7 - position % 8)) & 1 : (byte >> (position % 8)) & 1
                    if order == .msbFirst { expected = expected << 1 | UInt64(set) } else { expected |= UInt64(set) << bit }
                }
                #expect(value == expected, "seed \(seed): skip \(skip) width \(width) \(order)")
            }
        }
    }
}

@Suite struct FastIntegerTests {
    @Test func fastPathAgreesWithTheGeneralRead() throws {
        let seed: UInt64 = 0xFA57_0000_0000_0001
        var generator = SplitMix64(seed: seed)
        // A fast path that always declined would pass the loop unchecked: count what it took.
        var accepted = 0
        for _ in 0..<2000 {
            let bytes = (0..<24).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let skip = Int.random(in: 0..<64, using: &generator)
            let width = Int.random(in: 1...64, using: &generator)
            let littleEndian = Bool.random(using: &generator)
            let lsbFirst = Bool.random(using: &generator)
            var fast = ByteReader(bytes)
            var general = ByteReader(bytes)
            try fast.seek(toBit: skip)
            try general.seek(toBit: skip)
            guard let quick = fast.readIntegerFast(width: width, littleEndian: littleEndian, lsbFirst: lsbFirst) else {
                #expect(fast.bitPosition == skip, "a declined fast read leaves the cursor (seed \(seed))")
                continue
            }
            accepted += 1
            let expected = try general.readInteger(width: width, endianness: littleEndian ? .little : .big,
                                                   order: lsbFirst ? .lsbFirst : .msbFirst)
            #expect(quick.value == expected.value && quick.readAsBits == expected.readAsBits,
                    "seed \(seed): skip \(skip) width \(width) little \(littleEndian) lsb \(lsbFirst)")
            #expect(fast.bitPosition == general.bitPosition, "seed \(seed)")
        }
        #expect(accepted >= 500, "the fast path took only \(accepted) of 2000 reads (seed \(seed))")
    }

    @Test func fastPathDeclinesNearTheEndAndPastTheScope() {
        var nearEnd = ByteReader([1, 2, 3, 4])
        #expect(nearEnd.readIntegerFast(width: 8, littleEndian: false, lsbFirst: false) == nil)
        var scoped = ByteReader(Array(repeating: 0xFF, count: 16))
        _ = try? scoped.narrow(toByteCount: 1)
        #expect(scoped.readIntegerFast(width: 16, littleEndian: false, lsbFirst: false) == nil)
    }
}

@Suite struct ScopeAndSeekTests {
    @Test func seekRejectsPositionsOutsideTheScopeAndNamesTheCursor() throws {
        var reader = ByteReader([1, 2, 3, 4])
        _ = try reader.readBytes(1)
        #expect(throws: ByteReadError.prematureEnd(offset: 1, needed: 4, available: 3)) { try reader.seek(toByte: 5) }
        #expect(throws: ByteReadError.prematureEnd(offset: 1, needed: 4, available: 3)) { try reader.seek(toBit: 33) }
        #expect(throws: ByteReadError.outOfRange(offset: 1, position: -1)) { try reader.seek(toByte: -1) }
        #expect(throws: ByteReadError.outOfRange(offset: 1, position: -8)) { try reader.seek(toBit: -8) }
        #expect(reader.bitPosition == 8, "a rejected seek leaves the cursor")
        try reader.seek(toBit: 12)
        #expect(reader.bitPosition == 12)
        try reader.seek(toBit: 32)
        #expect(reader.remainingBits == 0)
        try reader.seek(toByte: 0)
        #expect(try reader.readUInt(byteCount: 4, endianness: .big) == 0x0102_0304)
    }

    @Test func narrowingPastTheScopeOrBufferIsRejected() throws {
        var reader = ByteReader([1, 2])
        #expect(throws: ByteReadError.prematureEnd(offset: 0, needed: 40, available: 2)) { try reader.narrow(toByteCount: 40) }
        #expect(throws: ByteReadError.outOfRange(offset: 0, position: -1)) { try reader.narrow(toByteCount: -1) }
        #expect(reader.limit == 2, "a rejected narrowing leaves the scope")
        _ = try reader.narrow(toByteCount: 1)
        // Widening back is bounded by the buffer, not by the narrowed scope.
        #expect(throws: ByteReadError.prematureEnd(offset: 0, needed: 40, available: 2)) { try reader.restoreLimit(toByte: 40) }
        #expect(reader.limit == 1)
        _ = try reader.readBytes(1)
        // Nor may the scope end before the cursor.
        #expect(throws: ByteReadError.outOfRange(offset: 1, position: 0)) { try reader.restoreLimit(toByte: 0) }
        try reader.restoreLimit(toByte: 2)
        #expect(reader.limit == 2)
    }

    @Test func readsNeverGoBeyondTheBytesWhateverTheCursorAndScope() {
        let seed: UInt64 = 0x5C0E_0000_0000_0001
        var generator = SplitMix64(seed: seed)
        for _ in 0..<2000 {
            let count = Int.random(in: 0...12, using: &generator)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var reader = ByteReader(bytes)
            // Positions and scopes both in and out of range: the out-of-range ones must be refused.
            _ = try? reader.seek(toBit: Int.random(in: -16...(count * 8 + 16), using: &generator))
            _ = try? reader.narrow(toByteCount: Int.random(in: -4...(count + 40), using: &generator))
            #expect(reader.bitPosition >= 0 && reader.bitPosition <= reader.limit * 8 && reader.limit <= bytes.count,
                    "seed \(seed): position \(reader.bitPosition) limit \(reader.limit) of \(bytes.count)")
            let width = Int.random(in: 1...64, using: &generator)
            let start = reader.bitPosition
            if let range = try? reader.readBytes(width / 8) {
                #expect(range.upperBound <= bytes.count, "seed \(seed)")
            }
            _ = try? reader.seek(toBit: start)
            _ = try? reader.readBits(width, order: .lsbFirst)
            _ = reader.readIntegerFast(width: width, littleEndian: true, lsbFirst: false)
            _ = try? reader.readVarint()
            _ = try? reader.readCString()
            #expect(reader.bitPosition <= bytes.count * 8, "seed \(seed)")
        }
    }
}

/// A small seeded generator (SplitMix64): randomized tests replay the same inputs every run,
/// and a failure names the seed that made it.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

@Suite struct ByteWriterTests {
    @Test func widthsOutsideTheirRangeWriteNothingOrAtMostSixtyFourBits() {
        var writer = ByteWriter()
        writer.writeBits(0xFF, width: -3, order: .msbFirst)
        writer.writeUInt(0xFF, byteCount: -2, endianness: .little)
        writer.writeUInt(0xFF, byteCount: 0, endianness: .big)
        writer.writeInteger(0xFF, width: -8, endianness: .little, order: .lsbFirst)
        #expect(writer.bitCount == 0 && writer.bytes.isEmpty)
        writer.writeUInt(0x0102, byteCount: 12, endianness: .big)
        #expect(writer.bytes == [0, 0, 0, 0, 0, 0, 0x01, 0x02], "at most eight bytes of a 64-bit value")
        writer.writeBits(1, width: 70, order: .msbFirst)
        #expect(writer.bitCount == 64 + 64)
    }

    @Test func writtenIntegersReadBack() throws {
        let seed: UInt64 = 0x3217_0000_0000_0001
        var generator = SplitMix64(seed: seed)
        for _ in 0..<500 {
            var writer = ByteWriter()
            var expected: [(UInt64, Int, Endianness, BitOrder)] = []
            // One bit order per buffer: the bits of one byte are consumed in one order.
            let order: BitOrder = Bool.random(using: &generator) ? .msbFirst : .lsbFirst
            for _ in 0..<6 {
                let width = Int.random(in: 1...64, using: &generator)
                let value = UInt64.random(in: 0...UInt64.max, using: &generator) & (width == 64 ? .max : (1 << UInt64(width)) - 1)
                let endianness: Endianness = Bool.random(using: &generator) ? .big : .little
                writer.writeInteger(value, width: width, endianness: endianness, order: order)
                expected.append((value, width, endianness, order))
            }
            var reader = ByteReader(writer.bytes)
            for (value, width, endianness, order) in expected {
                let read = try reader.readInteger(width: width, endianness: endianness, order: order)
                #expect(read.value == value, "seed \(seed): width \(width) \(endianness) \(order)")
            }
        }
    }
}
