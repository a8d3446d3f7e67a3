import BinaryCoding
import Foundation
import Testing

struct Header: Codable, Equatable {
    var version: UInt8
    var flags: UInt16
    var length: UInt32
    var identifier: UInt64
    var offset: Int16
    var name: String
    var valid: Bool
    var ratio: Double
    var scale: Float
}

enum Color: UInt8, Codable, CaseIterable {
    case red = 1, green, blue
}

enum Shape: Codable, Equatable {
    case circle(radius: Double)
    case rectangle(width: Int, height: Int)
    case point
}

struct Everything: Codable, Equatable {
    var header: Header
    var color: Color
    var shapes: [Shape]
    var tags: Set<String>
    var scores: [String: Int]
    var names: [Int: String]
    var maybe: Int?
    var missing: String?
    var data: Data
    var bytes: [UInt8]
    var nested: [[Int8]]
    var optionals: [Int32?]
    var int: Int
    var uint: UInt
    var wide: Int64
}

/// Hand-written Codable through unkeyed and single-value containers.
struct Point3: Codable, Equatable {
    var x: Int32, y: Int32, z: Int32

    init(x: Int32, y: Int32, z: Int32) {
        (self.x, self.y, self.z) = (x, y, z)
    }

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        x = try container.decode(Int32.self)
        y = try container.decode(Int32.self)
        z = try container.decode(Int32.self)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(x)
        try container.encode(y)
        try container.encode(z)
    }
}

struct Celsius: Codable, Equatable {
    var degrees: Double

    init(_ degrees: Double) { self.degrees = degrees }

    init(from decoder: any Decoder) throws {
        degrees = try decoder.singleValueContainer().decode(Double.self)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(degrees)
    }
}

let sampleHeader = Header(version: 4, flags: 0x4000, length: 60, identifier: 0x0102_0304_0506_0708, offset: -2,
                          name: "é", valid: true, ratio: 1.5, scale: -2)

@Suite struct SequentialFormatTests {
    @Test func classicPresetIsByteForByteTheClassicFormat() throws {
        struct Classic: Codable { var a: UInt16; var b: Int; var s: String; var flag: Bool; var d: Double; var list: [Int32]; var o: UInt8? }
        let bytes = try BinaryEncoder(options: .classic).encode(
            Classic(a: 0x0102, b: -1, s: "hi", flag: true, d: 1.0, list: [7], o: 9))
        #expect(bytes == [0x01, 0x02,
                          0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                          0, 0, 0, 0, 0, 0, 0, 2, 0x68, 0x69,
                          1,
                          0x3F, 0xF0, 0, 0, 0, 0, 0, 0,
                          0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 7,
                          1, 9])
    }

    @Test func defaultsAreBigEndianFixedWidthWithVarintLengths() throws {
        struct Sample: Codable { var a: UInt32; var s: String; var list: [UInt8]; var missing: Int8? }
        let bytes = try BinaryEncoder().encode(Sample(a: 0x0A0B0C0D, s: "abc", list: Array(repeating: 1, count: 200), missing: nil))
        #expect(Array(bytes.prefix(8)) == [0x0A, 0x0B, 0x0C, 0x0D, 3, 0x61, 0x62, 0x63])
        #expect(Array(bytes[8..<10]) == [0xC8, 0x01], "200 as a LEB128 varint")
        #expect(bytes.count == 10 + 200 + 1)
        #expect(bytes.last == 0, "an absent optional is a zero flag")
    }

    @Test func littleEndianVarintsAndFixedLengthCounts() throws {
        var options = BinaryCodingOptions()
        options.byteOrder = .little
        options.lengthEncoding = .u16
        #expect(try BinaryEncoder(options: options).encode([UInt16(0x0102)]) == [1, 0, 0x02, 0x01])
        options.integerEncoding = .varint
        #expect(try BinaryEncoder(options: options).encode([Int32(-2), 300]) == [2, 0, 0x03, 0xD8, 0x04])
        #expect(try BinaryDecoder(options: options).decode([Int32].self, from: [2, 0, 0x03, 0xD8, 0x04]) == [-2, 300])
        options.lengthEncoding = .u8
        #expect(throws: EncodingError.self) { try BinaryEncoder(options: options).encode(String(repeating: "x", count: 256)) }
    }

    @Test func intAndUIntAreAlwaysEightBytes() throws {
        #expect(try BinaryEncoder().encode(Int(1)).count == 8)
        #expect(try BinaryEncoder().encode(UInt(1)).count == 8)
    }

    @Test func enumsWithAssociatedValuesCarryTheirCaseName() throws {
        let bytes = try BinaryEncoder().encode(Shape.rectangle(width: 2, height: 3))
        #expect(Array(bytes.prefix(10)) == [9] + Array("rectangle".utf8))
        #expect(try BinaryDecoder().decode(Shape.self, from: bytes) == .rectangle(width: 2, height: 3))
        #expect(try BinaryDecoder().decode(Shape.self, from: try BinaryEncoder().encode(Shape.point)) == .point)
    }
}

@Suite struct SequentialRoundTripTests {
    static let optionSets: [BinaryCodingOptions] = {
        var sets: [BinaryCodingOptions] = [BinaryCodingOptions(), .classic]
        var little = BinaryCodingOptions()
        little.byteOrder = .little
        little.integerEncoding = .varint
        little.lengthEncoding = .u32
        sets.append(little)
        var small = BinaryCodingOptions()
        small.lengthEncoding = .u16
        sets.append(small)
        return sets
    }()

    static func random<T: FixedWidthInteger>(_ type: T.Type, _ generator: inout SystemRandomNumberGenerator) -> T {
        // Bias toward the extremes, where width and sign bugs live.
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: return T.min
        case 1: return T.max
        default: return T.random(in: T.min...T.max, using: &generator)
        }
    }

    static func randomString(_ generator: inout SystemRandomNumberGenerator) -> String {
        let alphabet = Array("aé世🌍\n\"x0 ")
        return String((0..<Int.random(in: 0..<12, using: &generator)).map { _ in alphabet.randomElement(using: &generator) ?? "a" })
    }

    static func randomEverything(_ g: inout SystemRandomNumberGenerator) -> Everything {
        let header = Header(version: random(UInt8.self, &g), flags: random(UInt16.self, &g), length: random(UInt32.self, &g),
                            identifier: random(UInt64.self, &g), offset: random(Int16.self, &g), name: randomString(&g),
                            valid: Bool.random(using: &g), ratio: Double.random(in: -1e300...1e300, using: &g),
                            scale: Float.random(in: -1e30...1e30, using: &g))
        let shapes: [Shape] = (0..<Int.random(in: 0..<5, using: &g)).map { _ in
            switch Int.random(in: 0..<3, using: &g) {
            case 0: return .circle(radius: Double.random(in: 0...10, using: &g))
            case 1: return .rectangle(width: random(Int.self, &g), height: random(Int.self, &g))
            default: return .point
            }
        }
        return Everything(
            header: header, color: Color.allCases.randomElement(using: &g) ?? .red, shapes: shapes,
            tags: Set((0..<Int.random(in: 0..<4, using: &g)).map { _ in randomString(&g) }),
            scores: Dictionary(uniqueKeysWithValues: (0..<Int.random(in: 0..<4, using: &g)).map { ("k\($0)", random(Int.self, &g)) }),
            names: Dictionary(uniqueKeysWithValues: (0..<Int.random(in: 0..<4, using: &g)).map { ($0, randomString(&g)) }),
            maybe: Bool.random(using: &g) ? random(Int.self, &g) : nil,
            missing: Bool.random(using: &g) ? randomString(&g) : nil,
            data: Data((0..<Int.random(in: 0..<20, using: &g)).map { _ in UInt8.random(in: 0...255, using: &g) }),
            bytes: (0..<Int.random(in: 0..<20, using: &g)).map { _ in UInt8.random(in: 0...255, using: &g) },
            nested: (0..<Int.random(in: 0..<3, using: &g)).map { _ in (0..<Int.random(in: 0..<3, using: &g)).map { _ in random(Int8.self, &g) } },
            optionals: (0..<Int.random(in: 0..<4, using: &g)).map { _ in Bool.random(using: &g) ? random(Int32.self, &g) : nil },
            int: random(Int.self, &g), uint: random(UInt.self, &g), wide: random(Int64.self, &g))
    }

    @Test(arguments: 0..<optionSets.count)
    func randomValuesSurviveTheRoundTrip(optionIndex: Int) throws {
        let options = Self.optionSets[optionIndex]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let value = Self.randomEverything(&generator)
            let bytes = try BinaryEncoder(options: options).encode(value)
            let decoded = try BinaryDecoder(options: options).decode(Everything.self, from: bytes)
            #expect(decoded == value)
            #expect(try BinaryEncoder(options: options).encode(decoded) == bytes || !value.scores.isEmpty || !value.names.isEmpty || !value.tags.isEmpty,
                    "re-encoding gives the same bytes (up to dictionary and set order)")
        }
    }

    @Test func handWrittenUnkeyedAndSingleValueContainers() throws {
        let points = [Point3(x: 1, y: -2, z: 3), Point3(x: .max, y: .min, z: 0)]
        let bytes = try BinaryEncoder().encode(points)
        #expect(bytes.count == 1 + 2 * (1 + 12))
        #expect(try BinaryDecoder().decode([Point3].self, from: bytes) == points)
        let temperature = Celsius(21.5)
        #expect(try BinaryEncoder().encode(temperature).count == 8)
        #expect(try BinaryDecoder().decode(Celsius.self, from: try BinaryEncoder().encode(temperature)) == temperature)
    }

    @Test func extremesOfEveryPrimitive() throws {
        struct Extremes: Codable, Equatable {
            var a = Int8.min, b = Int16.min, c = Int32.min, d = Int64.min, e = UInt64.max, f = Float.infinity
            var g = -Double.greatestFiniteMagnitude, h = "", i = false
        }
        for options in Self.optionSets {
            let bytes = try BinaryEncoder(options: options).encode(Extremes())
            #expect(try BinaryDecoder(options: options).decode(Extremes.self, from: bytes) == Extremes())
        }
    }
}

@Suite struct SequentialErrorTests {
    private func decodingError<T: Decodable>(_ type: T.Type, _ bytes: [UInt8],
                                             options: BinaryCodingOptions = BinaryCodingOptions()) -> (path: [String], error: BinaryCodingError?)? {
        do {
            _ = try BinaryDecoder(options: options).decode(type, from: bytes)
            return nil
        } catch DecodingError.dataCorrupted(let context) {
            return (context.codingPath.map(\.stringValue), context.underlyingError as? BinaryCodingError)
        } catch {
            return (["unexpected \(error)"], nil)
        }
    }

    @Test func prematureEndNamesThePropertyAndOffset() throws {
        let bytes = try BinaryEncoder().encode(sampleHeader)
        let failure = try #require(decodingError(Header.self, Array(bytes.prefix(5))))
        #expect(failure.path == ["length"])
        #expect(failure.error == .prematureEnd(offset: 3, needed: 4, available: 2))
        do {
            _ = try BinaryDecoder().decode(Header.self, from: Array(bytes.prefix(5)))
        } catch {
            #expect("\(error)".contains("premature end of data: needs 4 bytes at offset 3, 2 available"))
        }
    }

    @Test func boolOutOfRange() throws {
        var bytes = try BinaryEncoder().encode(sampleHeader)
        let boolOffset = 1 + 2 + 4 + 8 + 2 + 1 + 2
        bytes[boolOffset] = 7
        let failure = try #require(decodingError(Header.self, bytes))
        #expect(failure.path == ["valid"])
        #expect(failure.error == .boolOutOfRange(offset: boolOffset, byte: 7))
    }

    @Test func invalidUTF8() throws {
        var bytes = try BinaryEncoder().encode(sampleHeader)
        bytes[18] = 0xFF
        let failure = try #require(decodingError(Header.self, bytes))
        #expect(failure.path == ["name"])
        #expect(failure.error == .invalidUTF8(offset: 18))
    }

    @Test func valueOutOfRange() throws {
        var options = BinaryCodingOptions()
        options.integerEncoding = .varint
        let failure = try #require(decodingError([UInt8].self, [0xAC, 0x02], options: options))
        #expect(failure.error == .prematureEnd(offset: 0, needed: 300, available: 0))
        struct Small: Codable { var value: UInt8 }
        let outOfRange = try #require(decodingError(Small.self, [0xAC, 0x02], options: options))
        #expect(outOfRange.path == ["value"])
        #expect(outOfRange.error == .valueOutOfRange(offset: 0, value: "300", type: "UInt8"))
    }

    @Test func overlongVarintsAreRejected() throws {
        // Found by the roundtrip fuzz target: 0xB3 0x00 decoded as 51, which encodes as 0x33,
        // so the bytes did not survive a round trip. One value, one encoding.
        var options = BinaryCodingOptions()
        options.integerEncoding = .varint
        struct Pair: Codable, Equatable { var first: UInt32, second: Int16 }
        let overlong = try #require(decodingError(Pair.self, [0xB3, 0x00, 0x02], options: options))
        #expect(overlong.path == ["first"])
        #expect(overlong.error == .nonCanonical(offset: 0, reason: "a 2-byte varint for a value that takes 1"))
        let zigzag = try #require(decodingError(Pair.self, [0x33, 0x82, 0x80, 0x00], options: options))
        #expect(zigzag.path == ["second"])
        #expect(zigzag.error == .nonCanonical(offset: 1, reason: "a 3-byte varint for a value that takes 1"))
        let lengths = try #require(decodingError([UInt8].self, [0x81, 0x00, 0x07]))
        #expect(lengths.error == .nonCanonical(offset: 0, reason: "a 2-byte varint for a value that takes 1"))
        // Canonical encodings, including the ones whose last byte is 0x80-free but whose value is 0.
        #expect(try BinaryDecoder(options: options).decode(Pair.self, from: [0x00, 0x00]) == Pair(first: 0, second: 0))
        #expect(try BinaryDecoder(options: options).decode(Pair.self, from: [0xAC, 0x02, 0x03]) == Pair(first: 300, second: -2))
    }

    @Test func optionalPropertiesCountOneNestingLevelBothWays() throws {
        // Found by the roundtrip fuzz target: with a nesting limit of 4, a Reading's optional
        // label decoded (the decoder counted its presence flag as no level) but would not
        // encode (the encoder counted the Optional and its String as two).
        struct Inner: Codable, Equatable { var label: String?, count: UInt8?, child: [UInt8]? }
        struct Outer: Codable, Equatable { var inner: Inner }
        var options = BinaryCodingOptions()
        options.nestingLimit = 2
        let value = Outer(inner: Inner(label: "x", count: 3, child: [1]))
        let bytes = try BinaryEncoder(options: options).encode(value)
        #expect(try BinaryDecoder(options: options).decode(Outer.self, from: bytes) == value)
        options.nestingLimit = 1
        #expect(throws: EncodingError.self) { try BinaryEncoder(options: options).encode(value) }
        #expect(throws: DecodingError.self) { try BinaryDecoder(options: options).decode(Outer.self, from: bytes) }
    }

    @Test func unsupportedBareNil() throws {
        struct BareNil: Encodable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encodeNil()
            }
        }
        do {
            _ = try BinaryEncoder().encode(BareNil())
            Issue.record("a bare nil must not encode")
        } catch EncodingError.invalidValue(_, let context) {
            guard case .unsupportedType(_, let type, _)? = context.underlyingError as? BinaryCodingError else {
                Issue.record("expected unsupportedType, got \(String(describing: context.underlyingError))")
                return
            }
            #expect(type == "nil")
        }
    }

    @Test func trailingBytesViolateTheLayout() throws {
        let failure = try #require(decodingError(UInt8.self, [1, 2]))
        #expect(failure.error == .constraintViolated(offset: 1, reason: "1 byte left after the value"))
        let prefix = try BinaryDecoder().decode(UInt8.self, fromPrefixOf: [1, 2])
        let (value, used) = (prefix.value, prefix.bytesUsed)
        #expect(value == 1 && used == 1)
    }

    @Test func nestingTooDeep() throws {
        indirect enum Chain: Codable { case link(Chain), end }
        var chain = Chain.end
        for _ in 0..<200 { chain = .link(chain) }
        do {
            _ = try BinaryEncoder().encode(chain)
            Issue.record("200 levels must exceed the default limit of 128")
        } catch EncodingError.invalidValue(_, let context) {
            guard case .nestingTooDeep(_, let limit)? = context.underlyingError as? BinaryCodingError else {
                Issue.record("expected nestingTooDeep, got \(String(describing: context.underlyingError))")
                return
            }
            #expect(limit == 128)
        }
        var options = BinaryCodingOptions()
        options.nestingLimit = 1000
        let bytes = try BinaryEncoder(options: options).encode(chain)
        let failure = try #require(decodingError(Chain.self, bytes))
        guard case .nestingTooDeep(_, let limit)? = failure.error else {
            Issue.record("expected nestingTooDeep, got \(String(describing: failure.error))")
            return
        }
        #expect(limit == 128)
    }

    @Test func hugeCountFailsAtOnceWithoutAllocating() throws {
        // A varint count of 2^60, then a few bytes: rejected before any element is read.
        let bytes: [UInt8] = [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x10, 1]
        let failure = try #require(decodingError([UInt64].self, bytes))
        #expect(failure.error == .prematureEnd(offset: 0, needed: 1 << 60, available: 1))
        var classic = BinaryCodingOptions.classic
        classic.byteOrder = .big
        let fixed = try #require(decodingError([String].self, [0x10, 0, 0, 0, 0, 0, 0, 0, 1, 2], options: classic))
        #expect(fixed.error == .prematureEnd(offset: 0, needed: 1 << 60, available: 2))
    }

    @Test func readingASingleValueContainerTwiceIsAnError() throws {
        struct Twice: Decodable {
            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                _ = try container.decode(UInt8.self)
                _ = try container.decode(UInt8.self)
            }
        }
        #expect(throws: DecodingError.self) { try BinaryDecoder().decode(Twice.self, from: [1, 2]) }
    }

    @Test func unknownEnumCaseIsAnError() throws {
        let bytes: [UInt8] = [7] + Array("hexagon".utf8)
        #expect(throws: DecodingError.self) { try BinaryDecoder().decode(Shape.self, from: bytes) }
    }
}
