import BinaryCoding
import Foundation
import Testing

// The example byte sequences of the BinaryCodable format document (seed 001, versions up to
// 2.0.3), each checked by hand against the document's bit layouts, and the format's rules.

private struct StringKeyed: Codable, Equatable {
    let xyz: UInt8
}

private struct IntKeyed: Codable, Equatable {
    let xyz: UInt8
    enum CodingKeys: Int, CodingKey { case xyz = 2 }
}

private enum StringKeyedEnum: Codable, Equatable {
    case one(String)
    case two(Bool, Data)
}

private enum IntKeyedEnum: Codable, Equatable {
    case one(String)
    case two(Bool, UInt8)
    enum CodingKeys: Int, CodingKey {
        case one = 1
        case two = 2
    }
}

private struct ABC: Codable, Equatable {
    let a: Int
    let b: Int
    let c: Int
}

private struct Widths: Codable, Equatable {
    var i8: Int8
    var u16: UInt16
    var i32: Int32
    var u64: UInt64
    var f: Float
    var d: Double
    var b: Bool
}

private struct WithOptionals: Codable, Equatable {
    var name: String?
    var count: Int?
    var flag: Bool??
}

private struct Fixed: Codable, Equatable {
    @FixedSize var big: Int64
    @FixedSize var small: UInt32
}

private struct Nested: Codable, Equatable {
    var label: String
    var inner: [Nested]
}

private func hex(_ text: String) -> [UInt8] {
    text.split(separator: " ").compactMap { UInt8($0, radix: 16) }
}

private func encode<T: Encodable>(_ value: T, sortKeys: Bool = true) throws -> [UInt8] {
    var options = BinaryCodableOptions()
    options.sortKeys = sortKeys
    return try BinaryCodableEncoder(options: options).encode(value)
}

private func decode<T: Decodable>(_ type: T.Type, _ bytes: [UInt8]) throws -> T {
    try BinaryCodableDecoder().decode(type, from: bytes)
}

/// The `BinaryCodingError` under a decoding error, and its path.
private func failure<T: Decodable>(_ type: T.Type, _ bytes: [UInt8]) -> (error: BinaryCodingError?, path: String)? {
    do {
        _ = try decode(type, bytes)
        return nil
    } catch let DecodingError.dataCorrupted(context) {
        return (context.underlyingError as? BinaryCodingError, context.codingPath.map(\.stringValue).joined(separator: "."))
    } catch {
        return (nil, "\(error)")
    }
}

@Suite struct BinaryCodableFormatTests {
    // MARK: The document's examples

    @Test func stringKeyIsLengthFlagAndDataType() throws {
        // 0 011 1 110: length 3, string key, data type byte (6); "xyz"; 123.
        #expect(try encode(StringKeyed(xyz: 123)) == [0x3E, 0x78, 0x79, 0x7A, 0x7B])
        #expect(try decode(StringKeyed.self, [0x3E, 0x78, 0x79, 0x7A, 0x7B]) == StringKeyed(xyz: 123))
    }

    @Test func integerKeyIsKeyAndDataType() throws {
        // 0 010 0 110: integer key 2, int key, data type byte.
        #expect(try encode(IntKeyed(xyz: 123)) == [0x26, 0x7B])
        #expect(try decode(IntKeyed.self, [0x26, 0x7B]) == IntKeyed(xyz: 123))
    }

    @Test func enumCaseWithStringKeys() throws {
        // The document's table shows "Some" as 0x53 0x6E 0x64 0x08, which is not "Some" (nor
        // 4 bytes of anything in the example): its UTF-8 is 0x53 0x6F 0x6D 0x65. The rest of
        // the table is right: 0x3A = "one" (3 << 4 | string | variableLength), length 8,
        // 0x2A = "_0" (2 << 4 | string | variableLength), length 4.
        let bytes = hex("3A 6F 6E 65 08 2A 5F 30 04 53 6F 6D 65")
        #expect(try encode(StringKeyedEnum.one("Some")) == bytes)
        #expect(try decode(StringKeyedEnum.self, bytes) == .one("Some"))
    }

    @Test func enumCaseWithIntegerKeys() throws {
        // 0x22: integer key 2, variableLength; length 8; 0x2E "_0" (byte) true; 0x2E "_1" (byte) 123.
        let bytes = hex("22 08 2E 5F 30 01 2E 5F 31 7B")
        #expect(try encode(IntKeyedEnum.two(true, 123)) == bytes)
        #expect(try decode(IntKeyedEnum.self, bytes) == .two(true, 123))
    }

    @Test func optionalsInArraysHaveAPresenceByte() throws {
        let value: [Bool?] = [true, nil, false]
        #expect(try encode(value) == [1, 1, 0, 1, 0])
        #expect(try decode([Bool?].self, [1, 1, 0, 1, 0]) == value)
    }

    @Test func topLevelSequencesConcatenate() throws {
        let ab = try encode(["a", "bc"])
        let cd = try encode(["def"])
        #expect(ab == hex("01 61 02 62 63"))
        #expect(try decode([String].self, ab + cd) == ["a", "bc", "def"])
        #expect(try encode([1, -1, 300] as [Int]) == hex("02 01 D8 04"))
    }

    @Test func dictionaryWithStringKeysAndStructInterchange() throws {
        let dictionary: [String: Int] = ["a": 123, "b": 0, "c": -123456]
        let structure = ABC(a: 123, b: 0, c: -123456)
        // "a" = 0x18 (1 << 4 | string | varint), 123 zig-zag = 246 = F6 01; -123456 zig-zag = 246911 = FF 88 0F.
        let bytes = hex("18 61 F6 01 18 62 00 18 63 FF 88 0F")
        #expect(try encode(dictionary) == bytes)
        #expect(try encode(structure) == bytes)
        #expect(try decode(ABC.self, try encode(dictionary)) == structure)
        #expect(try decode([String: Int].self, try encode(structure)) == dictionary)
    }

    @Test func dictionaryWithIntKeysIsKeyedByIntegers() throws {
        let value: [Int: String] = [1: "x", 3: "yz"]
        // 0x12: key 1, variableLength; 0x32: key 3.
        #expect(try encode(value) == hex("12 01 78 32 02 79 7A"))
        #expect(try decode([Int: String].self, hex("32 02 79 7A 12 01 78")) == value)
    }

    @Test func stringKeysThatAreIntegersAreWrittenAsIntegerKeys() throws {
        let value: [String: UInt8] = ["7": 1, "seven": 2]
        // "7" is an integer key (0x76 = 7 << 4 | byte); "seven" a string key (0x5E).
        #expect(try encode(value) == hex("76 01 5E 73 65 76 65 6E 02"))
        #expect(try decode([String: UInt8].self, try encode(value)) == value)
        // "1" and "01" are both the integer key 1: an error, not a silently lost entry.
        #expect(throws: EncodingError.self) { try encode(["1": 1, "01": 2] as [String: Int]) }
    }

    // MARK: Integers, floats, bools

    @Test func widthsAndDataTypes() throws {
        let value = Widths(i8: -2, u16: 0x1234, i32: -1, u64: 300, f: 1, d: -2, b: true)
        let bytes = try encode(value, sortKeys: false)
        let expected = hex("2E 69 38 FE  3F 75 31 36 34 12  38 69 33 32 01  38 75 36 34 AC 02  1D 66 00 00 80 3F  19 64 00 00 00 00 00 00 00 C0  1E 62 01")
        #expect(bytes == expected)
        #expect(try decode(Widths.self, bytes) == value)
    }

    @Test func varintsUseTheNinthByteWhole() throws {
        #expect(try encode(UInt64.max) == [UInt8](repeating: 0xFF, count: 9))
        #expect(try encode(Int.max) == hex("FE FF FF FF FF FF FF FF FF"))
        #expect(try encode(Int.min) == [UInt8](repeating: 0xFF, count: 9))
        #expect(try decode(UInt64.self, [UInt8](repeating: 0xFF, count: 9)) == .max)
        #expect(try decode(Int64.self, [UInt8](repeating: 0xFF, count: 9)) == .min)
        #expect(try encode(Int32(-64)) == [0x7F])
        #expect(try encode(UInt32(128)) == [0x80, 0x01])
    }

    @Test func fixedSizeIsLittleEndianWithItsDataType() throws {
        let value = Fixed(big: -2, small: 0x0102_0304)
        // "big" 0x39 (3 << 4 | string | eightBytes), "small" 0x5D (5 << 4 | string | fourBytes).
        let bytes = hex("39 62 69 67 FE FF FF FF FF FF FF FF 5D 73 6D 61 6C 6C 04 03 02 01")
        #expect(try encode(value) == bytes)
        #expect(try decode(Fixed.self, bytes) == value)
        #expect(try encode([FixedSize(wrappedValue: UInt32(1))]) == hex("01 00 00 00"))
    }

    // MARK: Optionals, nesting

    @Test func nilPropertiesAreLeftOutAndDoubleOptionalsAreVariableLength() throws {
        #expect(try encode(WithOptionals(name: nil, count: nil, flag: nil)) == [])
        #expect(try decode(WithOptionals.self, []) == WithOptionals(name: nil, count: nil, flag: nil))
        // "flag" 0x4A (variableLength): .some(nil) is length 1, 00; .some(true) length 2, 01 01.
        #expect(try encode(WithOptionals(name: nil, count: nil, flag: .some(nil))) == hex("4A 66 6C 61 67 01 00"))
        #expect(try encode(WithOptionals(name: nil, count: 5, flag: .some(true)))
            == hex("58 63 6F 75 6E 74 0A 4A 66 6C 61 67 02 01 01"))
        for value in [WithOptionals(name: "n", count: -1, flag: .some(nil)), WithOptionals(name: nil, count: nil, flag: .some(false))] {
            #expect(try decode(WithOptionals.self, try encode(value)) == value)
        }
    }

    @Test func nestedValuesAndSequencesOfStructsRoundTrip() throws {
        let value = Nested(label: "root", inner: [Nested(label: "a", inner: []), Nested(label: "b", inner: [Nested(label: "c", inner: [])])])
        #expect(try decode(Nested.self, try encode(value)) == value)
        let shapes: [IntKeyedEnum?] = [.one("x"), nil, .two(false, 9)]
        #expect(try decode([IntKeyedEnum?].self, try encode(shapes)) == shapes)
        let sets: Set<Int16> = [3, -4, 500]
        #expect(try decode(Set<Int16>.self, try encode(sets)) == sets)
        #expect(try encode(sets) == encode(Set(sets.reversed())))
    }

    @Test func keyOrderIsSortedByDefaultAndEncodeOrderOtherwise() throws {
        struct Backwards: Codable, Equatable { var z: Bool; var a: Bool }
        #expect(try encode(Backwards(z: true, a: false)) == hex("1E 61 00 1E 7A 01"))
        #expect(try encode(Backwards(z: true, a: false), sortKeys: false) == hex("1E 7A 01 1E 61 00"))
        #expect(try decode(Backwards.self, hex("1E 7A 01 1E 61 00")) == Backwards(z: true, a: false))
    }

    @Test func dataStreamElementsAreReadAsTheyComplete() throws {
        let encoder = BinaryCodableEncoder()
        var stream: [UInt8] = []
        for value in [ABC(a: 1, b: 2, c: 3), ABC(a: -1, b: 0, c: 9)] { stream += try encoder.encodeStreamElement(value) }
        let decoder = BinaryCodableDecoder()
        let partial = try decoder.decodeStreamElements(ABC.self, fromPrefixOf: Array(stream.dropLast()))
        #expect(partial.elements == [ABC(a: 1, b: 2, c: 3)])
        let whole = try decoder.decodeStreamElements(ABC.self, fromPrefixOf: stream)
        #expect(whole.elements.count == 2 && whole.bytesUsed == stream.count)
        #expect(try encoder.encodeStreamElement(Int?.none) == [0])
    }

    // MARK: Errors

    @Test func encodeNilInAnUnkeyedContainerIsAnError() {
        struct Holes: Encodable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.unkeyedContainer()
                try container.encodeNil()
            }
        }
        #expect(throws: EncodingError.self) { try encode(Holes()) }
    }

    @Test func hostileInputGivesTypedErrorsWithOffsets() throws {
        // A string key whose length is 2^60 - 1.
        let huge = failure(StringKeyed.self, hex("F8 FF FF FF FF FF FF FF FF"))
        guard case .prematureEnd(let offset, _, _) = huge?.error else { Issue.record("\(String(describing: huge))"); return }
        #expect(offset == 9)
        // A value length of about 2^60 in an array of strings.
        let longString = failure([String].self, hex("FF FF FF FF FF FF FF FF 0F"))
        #expect(longString?.error == .prematureEnd(offset: 9, needed: 0x0FFF_FFFF_FFFF_FFFF, available: 0))
        // Ten varint bytes where an Int is the whole value: the ninth ends it, one byte is left.
        #expect(failure(Int.self, [UInt8](repeating: 0xFF, count: 10))?.error
            == .constraintViolated(offset: 9, reason: "1 bytes after a varint that should fill its value"))
        // A varint with a needless zero byte.
        #expect(failure(Int.self, hex("80 00"))?.error == .nonCanonical(offset: 0, reason: "a varint with a needless zero byte"))
        // Truncated: the key says byte, nothing follows.
        #expect(failure(IntKeyed.self, hex("26"))?.error == .prematureEnd(offset: 1, needed: 1, available: 0))
        // Invalid UTF-8 in a string value, at its first byte.
        let badString = failure(StringKeyedEnum.self, hex("3A 6F 6E 65 05 2A 5F 30 01 FF"))
        #expect(badString?.error == .invalidUTF8(offset: 9))
        #expect(badString?.path == "one._0")
        // A Bool byte that is not 0 or 1.
        let badBool = failure(IntKeyedEnum.self, hex("22 08 2E 5F 30 02 2E 5F 31 7B"))
        #expect(badBool?.error == .boolOutOfRange(offset: 5, byte: 2))
        #expect(badBool?.path == "two._0")
        // Data types 3 and 4 do not exist; a key twice; a value of the wrong data type.
        #expect(failure(IntKeyed.self, hex("23 7B"))?.error == .constraintViolated(offset: 0, reason: "unknown data type 3 in a key"))
        #expect(failure(IntKeyed.self, hex("26 7B 26 7B"))?.error == .duplicateEntry(offset: 2))
        guard case .unsupportedType(1, _, _)? = failure(IntKeyed.self, hex("20 7B"))?.error else { Issue.record("wrong data type accepted"); return }
        // 300 does not fit a UInt8 given as a varint-typed key... nor a UInt32 from 2^40.
        guard case .valueOutOfRange? = failure(UInt32.self, hex("80 80 80 80 80 20"))?.error else { Issue.record("no range check"); return }
        // A missing key is keyNotFound.
        #expect(throws: DecodingError.self) { try decode(IntKeyed.self, []) }
    }

    @Test func deepNestingStopsAtTheLimit() throws {
        var deep = LinkChain(next: [])
        for _ in 0..<120 { deep = LinkChain(next: [deep]) }
        #expect(throws: EncodingError.self) { try encode(deep) }
        var shallow = LinkChain(next: [])
        for _ in 0..<40 { shallow = LinkChain(next: [shallow]) }
        #expect(try decode(LinkChain.self, try encode(shallow)) == shallow)
        // The same chain 5000 deep, written by hand: a typed error at the limit, no stack overflow.
        var bytes: [UInt8] = []
        for _ in 0..<5000 {
            var element = varint(bytes.count)
            element.append(contentsOf: bytes)
            var level: [UInt8] = [0x4A, 0x6E, 0x65, 0x78, 0x74]
            level.append(contentsOf: varint(element.count))
            level.append(contentsOf: element)
            bytes = level
        }
        guard case .nestingTooDeep(_, let limit)? = failure(LinkChain.self, bytes)?.error else {
            Issue.record("no nesting error")
            return
        }
        #expect(limit == BinaryCodingOptions.maximumNestingLimit)
        var options = BinaryCodableOptions()
        options.nestingLimit = 500
        #expect(options.nestingLimit == BinaryCodingOptions.maximumNestingLimit)
    }

    private func varint(_ value: Int) -> [UInt8] {
        var rest = value
        var bytes: [UInt8] = []
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        return bytes + [UInt8(rest)]
    }
}

/// The example type of Schemas/examples/binarycodable.schema.
private struct Sensor: Codable, Equatable {
    struct Location: Codable, Equatable {
        var x: Int16
        var y: Int16
        var floor: Int
    }

    var id: UInt8
    var name: String
    var location: Location
    var samples: [Int32]
    var ratio: Double
    var alarm: Bool?
    @FixedSize var serial: UInt32

    static let example = Sensor(id: 7, name: "pump", location: Location(x: -3, y: 250, floor: -1), samples: [20, -21, 300],
                                ratio: 0.5, alarm: true, serial: 0xDEAD_BEEF)
}

@Suite struct BinaryCodableSchemaBlobTests {
    /// Corpus/examples/binarycodable-sensor.bin is what the encoder writes for Sensor.example
    /// (the blob the example schema is tested on: DissectTests/BinaryCodableSchemaTests).
    @Test func theExampleBlobIsWhatTheEncoderWrites() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Corpus/examples/binarycodable-sensor.bin")
        let bytes = try BinaryCodableEncoder().encode(Sensor.example)
        if ProcessInfo.processInfo.environment["REGENERATE_BINARYCODABLE_BLOB"] != nil { try Data(bytes).write(to: url) }
        #expect([UInt8](try Data(contentsOf: url)) == bytes)
        #expect(try BinaryCodableDecoder().decode(Sensor.self, from: bytes) == Sensor.example)
    }
}

private struct LinkChain: Codable, Equatable {
    var next: [LinkChain]
}
