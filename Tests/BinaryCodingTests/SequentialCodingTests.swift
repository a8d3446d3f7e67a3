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
        do {
            _ = try BinaryEncoder(options: options).encode(String(repeating: "x", count: 256))
            Issue.record("256 bytes cannot have a one-byte count")
        } catch EncodingError.invalidValue(let value, let context) {
            #expect(value as? String == "String")
            #expect(context.underlyingError as? BinaryCodingError
                    == .valueOutOfRange(offset: 0, value: "count 256", type: "the 1-byte length encoding"))
        }
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

    static func random<T: FixedWidthInteger>(_ type: T.Type, _ generator: inout SplitMix64) -> T {
        // Bias toward the extremes, where width and sign bugs live.
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: return T.min
        case 1: return T.max
        default: return T.random(in: T.min...T.max, using: &generator)
        }
    }

    static func randomString(_ generator: inout SplitMix64) -> String {
        let alphabet = Array("aé世🌍\n\"x0 ")
        return String((0..<Int.random(in: 0..<12, using: &generator)).map { _ in alphabet.randomElement(using: &generator) ?? "a" })
    }

    static func randomEverything(_ g: inout SplitMix64) -> Everything {
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
        for run in 0..<300 {
            // One seed per value, printed with any failure: SplitMix64(seed:) remakes the value.
            var generator = SplitMix64(seed: 0x5EED_0000 + UInt64(optionIndex) << 16 + UInt64(run))
            let seed = generator.seed
            let value = Self.randomEverything(&generator)
            let bytes = try BinaryEncoder(options: options).encode(value)
            let decoded = try BinaryDecoder(options: options).decode(Everything.self, from: bytes)
            #expect(decoded == value, "seed \(seed)")
            // Dictionaries and sets are written in one order, so this holds for every value.
            #expect(try BinaryEncoder(options: options).encode(decoded) == bytes, "re-encoding gives the same bytes; seed \(seed)")
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
            Issue.record("5 bytes hold no header")
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
        do {
            _ = try BinaryEncoder(options: options).encode(value)
            Issue.record("two levels must not encode within a limit of one")
        } catch EncodingError.invalidValue(_, let context) {
            #expect(context.underlyingError as? BinaryCodingError == .nestingTooDeep(offset: 0, limit: 1))
            #expect(context.codingPath.map(\.stringValue) == ["inner"])
        }
        let failure = try #require(decodingError(Outer.self, bytes, options: options), "two levels must not decode within a limit of one")
        #expect(failure.error == .nestingTooDeep(offset: 0, limit: 1))
        #expect(failure.path == ["inner"])
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
        let limit = BinaryCodingOptions().nestingLimit
        #expect(limit == BinaryCodingOptions.maximumNestingLimit, "the default is the bound")
        do {
            _ = try BinaryEncoder().encode(Chain.nested(levels: 200))
            Issue.record("200 levels must exceed the default limit of \(limit)")
        } catch EncodingError.invalidValue(_, let context) {
            guard case .nestingTooDeep(_, let found)? = context.underlyingError as? BinaryCodingError else {
                Issue.record("expected nestingTooDeep, got \(String(describing: context.underlyingError))")
                return
            }
            #expect(found == limit)
        }
        var bytes = try BinaryEncoder().encode(Chain.nested(levels: limit))
        for _ in limit..<200 { bytes = Chain.wrap(bytes, BinaryCodingOptions()) }
        let failure = try #require(decodingError(Chain.self, bytes))
        guard case .nestingTooDeep(let offset, let found)? = failure.error else {
            Issue.record("expected nestingTooDeep, got \(String(describing: failure.error))")
            return
        }
        #expect(found == limit)
        #expect(offset == limit * 5, "level \(limit + 1) starts after \(limit) case names of 5 bytes")
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
        do {
            _ = try BinaryDecoder().decode(Twice.self, from: [1, 2])
            Issue.record("a second read must fail")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription.contains("it was already read (at offset 1)"), "\(context.debugDescription)")
        }
    }

    @Test func unknownEnumCaseIsAnError() throws {
        let bytes: [UInt8] = [7] + Array("hexagon".utf8)
        do {
            let shape = try BinaryDecoder().decode(Shape.self, from: bytes)
            Issue.record("no case is named hexagon, got \(shape)")
        } catch DecodingError.typeMismatch(_, let context) {
            // The case name is read whole (no byte is left over) and matches no key.
            #expect(context.codingPath.isEmpty)
        }
    }
}

// MARK: - Deep nesting

/// A value the coders count as some number of levels deep (the top value is level 1), through
/// one container path, with a ``StackMark`` at the deepest level.
protocol NestedShape: Codable, Equatable, Sendable {
    /// A value exactly `levels` deep (at least 2).
    static func nested(levels: Int) -> Self
    /// The bytes of one level more around `inner`, the bytes of a value of this type.
    static func wrap(_ inner: [UInt8], _ options: BinaryCodingOptions) -> [UInt8]
}

/// The bytes of a count of one in `options`' length encoding.
func countOfOne(_ options: BinaryCodingOptions) -> [UInt8] {
    let width: Int
    switch options.lengthEncoding {
    case .varint, .u8: return [1]
    case .u16: width = 2
    case .u32: width = 4
    case .u64: width = 8
    }
    let bigEndian = [UInt8](repeating: 0, count: width - 1) + [1]
    return options.byteOrder == .big ? bigEndian : bigEndian.reversed()
}

/// An enum with an associated value: a keyed container nested by case name, per level.
indirect enum Chain: NestedShape {
    case link(Chain), end(StackMark)

    static func nested(levels: Int) -> Chain {
        var chain = Chain.end(StackMark())
        for _ in 0..<max(0, levels - 2) { chain = .link(chain) }
        return chain
    }

    static func wrap(_ inner: [UInt8], _ options: BinaryCodingOptions) -> [UInt8] { [4] + Array("link".utf8) + inner }
}

/// A class with an optional child: keyed containers and `encodeIfPresent`, one level per node.
final class Node: NestedShape {
    let child: Node?
    let mark: StackMark?

    init(child: Node?, mark: StackMark?) {
        self.child = child
        self.mark = mark
    }

    static func == (left: Node, right: Node) -> Bool {
        // Iterative: a recursive == would nest as deep as the value.
        var pair: (Node?, Node?) = (left, right)
        while let (a, b) = pair as? (Node, Node) {
            guard a.mark == b.mark else { return false }
            pair = (a.child, b.child)
        }
        return pair.0 == nil && pair.1 == nil
    }

    static func nested(levels: Int) -> Node {
        var node = Node(child: nil, mark: StackMark())
        for _ in 0..<max(0, levels - 2) { node = Node(child: node, mark: nil) }
        return node
    }

    static func wrap(_ inner: [UInt8], _ options: BinaryCodingOptions) -> [UInt8] { [1] + inner + [0] }
}

/// Arrays of structs: two levels (the struct, its array) per step.
struct Tree: NestedShape {
    var children: [Tree]?
    var mark: StackMark?

    static func nested(levels: Int) -> Tree {
        // Trees sit at odd levels, their arrays at even ones; a mark makes the deepest level even.
        var tree = Tree(children: nil, mark: levels % 2 == 0 ? StackMark() : nil)
        for _ in 0..<((max(2, levels) - 1) / 2) { tree = Tree(children: [tree], mark: nil) }
        return tree
    }

    static func wrap(_ inner: [UInt8], _ options: BinaryCodingOptions) -> [UInt8] {
        [1] + countOfOne(options) + inner + [0]
    }
}

/// Dictionaries of structs: two levels (the struct, its dictionary) per step.
struct Table: NestedShape {
    var entries: [String: Table]?
    var mark: StackMark?

    static func nested(levels: Int) -> Table {
        var table = Table(entries: nil, mark: levels % 2 == 0 ? StackMark() : nil)
        for _ in 0..<((max(2, levels) - 1) / 2) { table = Table(entries: ["": table], mark: nil) }
        return table
    }

    static func wrap(_ inner: [UInt8], _ options: BinaryCodingOptions) -> [UInt8] {
        // The one entry's key is the empty string: a count of zero.
        var emptyKey = countOfOne(options)
        emptyKey[emptyKey.count - 1 - (options.byteOrder == .big || options.lengthEncoding == .varint ? 0 : emptyKey.count - 1)] = 0
        return [1] + countOfOne(options) + emptyKey + inner + [0]
    }
}

enum ShapeKind: String, CaseIterable, Sendable {
    case chain, node, tree, table

    var type: any NestedShape.Type {
        switch self {
        case .chain: return Chain.self
        case .node: return Node.self
        case .tree: return Tree.self
        case .table: return Table.self
        }
    }
}

@Suite struct NestingMeasurementTests {
    /// Stack bytes used per nesting level, encoding and decoding each shape as deep as the bound
    /// on a big stack: how the bound was chosen (see BinaryCodingOptions.maximumNestingLimit).
    @Test(arguments: ShapeKind.allCases)
    func stackUsedPerLevel(shape: ShapeKind) throws {
        func measure<Shape: NestedShape>(_ type: Shape.Type) throws -> (encode: UInt, decode: UInt) {
            try onThread(stackSize: 16 << 20) {
                let levels = BinaryCodingOptions.maximumNestingLimit
                var options = BinaryCodingOptions()
                options.nestingLimit = levels
                let encodeProbe = StackProbe()
                var encoder = BinaryEncoder(options: options)
                encoder.userInfo[StackProbe.key] = encodeProbe
                let start = StackProbe.here()
                let bytes = try encoder.encode(Shape.nested(levels: levels))
                let decodeProbe = StackProbe()
                var decoder = BinaryDecoder(options: options)
                decoder.userInfo[StackProbe.key] = decodeProbe
                _ = try decoder.decode(Shape.self, from: bytes)
                // A probe that recorded nothing reads as zero, which the expectation below rejects.
                func perLevel(_ probe: StackProbe) -> UInt { start >= probe.deepest ? (start - probe.deepest) / UInt(levels) : 0 }
                return (perLevel(encodeProbe), perLevel(decodeProbe))
            }
        }
        let perLevel = try measure(shape.type)
        print("nesting: \(shape) uses \(perLevel.encode) stack bytes per level encoding, \(perLevel.decode) decoding")
        if stackAddressesAreMeaningful {
            #expect(perLevel.encode > 0 && perLevel.decode > 0, "the deepest level was reached and recorded")
        }
    }
}

extension BinaryCodingError {
    func isNestingTooDeep(limit expected: Int) -> Bool {
        if case .nestingTooDeep(_, let limit) = self { return limit == expected }
        return false
    }
}

@Suite struct NestingBoundTests {
    static let bound = BinaryCodingOptions.maximumNestingLimit
    static let smallStack = 512 * 1024

    static let optionSets: [BinaryCodingOptions] = {
        var little = BinaryCodingOptions()
        little.byteOrder = .little
        little.integerEncoding = .varint
        little.lengthEncoding = .u32
        return [BinaryCodingOptions(), .classic, little]
    }()

    /// The `BinaryCodingError` under a coder's error.
    static func underlying(_ error: any Error) -> BinaryCodingError? {
        switch error {
        case EncodingError.invalidValue(_, let context): return context.underlyingError as? BinaryCodingError
        case DecodingError.dataCorrupted(let context): return context.underlyingError as? BinaryCodingError
        default: return nil
        }
    }

    /// What coding a shape at the bound and one level past it gave, on a 512 KiB stack.
    struct AtTheBound: Sendable {
        var clampedLimit = 0
        var roundTrips = false
        var stackUsed: UInt = 0
        var deeperEncodeError: BinaryCodingError?
        var deeperDecodeError: BinaryCodingError?
    }

    /// Encodes and decodes a `Shape` nested exactly at the bound on a 512 KiB stack, then one
    /// level more both ways. (Issues are recorded on the test's own task, so the thread only reports.)
    static func codeAtTheBound<Shape: NestedShape>(_ type: Shape.Type, _ optionSet: BinaryCodingOptions) throws -> AtTheBound {
        try onThread(stackSize: smallStack) {
            var report = AtTheBound()
            var options = optionSet
            options.nestingLimit = .max
            report.clampedLimit = options.nestingLimit
            let probe = StackProbe()
            var encoder = BinaryEncoder(options: options)
            var decoder = BinaryDecoder(options: options)
            encoder.userInfo[StackProbe.key] = probe
            decoder.userInfo[StackProbe.key] = probe
            let start = StackProbe.here()
            let value = Shape.nested(levels: bound)
            let bytes = try encoder.encode(value)
            report.roundTrips = try decoder.decode(Shape.self, from: bytes) == value
            report.stackUsed = start >= probe.deepest ? start - probe.deepest : 0
            do {
                _ = try encoder.encode(Shape.nested(levels: bound + 1))
            } catch {
                report.deeperEncodeError = underlying(error)
            }
            do {
                _ = try decoder.decode(Shape.self, from: Shape.wrap(bytes, options))
            } catch {
                report.deeperDecodeError = underlying(error)
            }
            return report
        }
    }

    @Test(arguments: ShapeKind.allCases, 0..<optionSets.count)
    func aValueAtTheBoundCodesOnA512KiBStackAndOneLevelMoreIsTooDeep(shape: ShapeKind, optionIndex: Int) throws {
        let report = try Self.codeAtTheBound(shape.type, Self.optionSets[optionIndex])
        #expect(report.clampedLimit == Self.bound, "a nesting limit above the bound is clamped to it")
        #expect(report.roundTrips)
        if stackAddressesAreMeaningful {
            #expect(report.stackUsed > 0, "the deepest level was reached and recorded")
            // Half the stack is left for the caller's frames and the types' own encode(to:)/init(from:).
            #expect(report.stackUsed < UInt(Self.smallStack / 2), "\(shape): \(report.stackUsed) stack bytes at \(Self.bound) levels")
        }
        #expect(report.deeperEncodeError?.isNestingTooDeep(limit: Self.bound) == true,
                "encoding one level more: \(String(describing: report.deeperEncodeError))")
        #expect(report.deeperDecodeError?.isNestingTooDeep(limit: Self.bound) == true,
                "decoding one level more: \(String(describing: report.deeperDecodeError))")
    }

    @Test func anEncodingErrorNamesTheValueTypeInsteadOfHoldingTheValue() throws {
        // Found by review: with the limit raised to 10,000, the error held the value nested
        // thousands of levels deep, and printing it overflowed the stack (SIGSEGV).
        let (standIn, described) = try onThread(stackSize: 8 << 20) { () -> (String?, String) in
            var options = BinaryCodingOptions()
            options.nestingLimit = 10_000
            let chain = Chain.nested(levels: 10_000)
            do {
                _ = try BinaryEncoder(options: options).encode(chain)
                return (nil, "encoded")
            } catch EncodingError.invalidValue(let value, let context) {
                return (value as? String, "\(EncodingError.invalidValue(value, context))")
            }
        }
        #expect(standIn == "Chain", "the value's type name stands in for it")
        #expect(described.contains("nesting too deep"), "\(described.prefix(300))")
    }
}

// MARK: - Dictionaries and sets

@Suite struct CanonicalCollectionTests {
    /// Equal dictionaries with different histories: built in another order, with room for
    /// more, after removals. They iterate in different orders.
    static func equalDictionaries() -> (built: [String: Int], reworked: [String: Int]) {
        var built: [String: Int] = [:]
        for index in 0..<60 { built["key\(index)"] = index }
        var reworked: [String: Int] = [:]
        reworked.reserveCapacity(1000)
        for index in (0..<90).reversed() { reworked["key\(index)"] = index }
        for index in 60..<90 { reworked.removeValue(forKey: "key\(index)") }
        return (built, reworked)
    }

    @Test(arguments: 0..<SequentialRoundTripTests.optionSets.count)
    func equalDictionariesAndSetsEncodeToTheSameBytes(optionIndex: Int) throws {
        let encoder = BinaryEncoder(options: SequentialRoundTripTests.optionSets[optionIndex])
        let (built, reworked) = Self.equalDictionaries()
        #expect(built == reworked)
        #expect(Array(built.keys) != Array(reworked.keys), "the test needs two iteration orders")
        #expect(try encoder.encode(built) == encoder.encode(reworked))

        let numbers = Set(built.values)
        var shuffled = Set<Int>(minimumCapacity: 500)
        for number in (-40..<60).reversed() { shuffled.insert(number) }
        for number in -40..<0 { shuffled.remove(number) }
        #expect(numbers == shuffled)
        #expect(Array(numbers) != Array(shuffled), "the test needs two iteration orders")
        #expect(try encoder.encode(numbers) == encoder.encode(shuffled))

        // Nested: sets inside dictionaries inside a struct.
        struct Index: Codable, Equatable { var groups: [String: Set<String>] }
        let first = Index(groups: Dictionary(uniqueKeysWithValues: built.keys.map { ($0, Set(built.keys.prefix(5))) }))
        var second = Index(groups: [:])
        second.groups.reserveCapacity(300)
        for key in reworked.keys.reversed() {
            var members = Set<String>(minimumCapacity: 64)
            for member in built.keys.prefix(5).reversed() { members.insert(member) }
            second.groups[key] = members
        }
        #expect(first == second)
        #expect(try encoder.encode(first) == encoder.encode(second))
    }

    @Test func entriesAreInTheOrderOfTheirKeysBytes() throws {
        // Keys by their encoding: "b" (1, 0x62) before "aa" (2, ...): the count comes first.
        let bytes = try BinaryEncoder().encode(["aa": UInt8(1), "b": 2, "a": 3])
        #expect(bytes == [3, 1, 0x61, 3, 1, 0x62, 2, 2, 0x61, 0x61, 1])
        #expect(try BinaryEncoder().encode(Set<UInt16>([0x0201, 0x0102, 7])) == [3, 0, 7, 0x01, 0x02, 0x02, 0x01])
    }

    private func decodingFailure<T: Decodable>(_ type: T.Type, _ bytes: [UInt8]) -> (path: [String], error: BinaryCodingError?)? {
        do {
            _ = try BinaryDecoder().decode(type, from: bytes)
            return nil
        } catch DecodingError.dataCorrupted(let context) {
            return (context.codingPath.map(\.stringValue), context.underlyingError as? BinaryCodingError)
        } catch {
            return (["unexpected \(error)"], nil)
        }
    }

    @Test func aDuplicateKeyOrElementIsAnErrorAtItsOffset() throws {
        // {"a": 1, "a": 2}: the second "a" starts at offset 4.
        let dictionary = try #require(decodingFailure([String: UInt8].self, [2, 1, 0x61, 1, 1, 0x61, 2]),
                                      "a duplicate key must not decode")
        #expect(dictionary.error == .duplicateEntry(offset: 4))
        #expect(dictionary.path == ["Index 1"])
        // {5, 7, 5}: the second 5 is at offset 3.
        let set = try #require(decodingFailure(Set<UInt8>.self, [3, 5, 7, 5]), "a duplicate element must not decode")
        #expect(set.error == .duplicateEntry(offset: 3))
        #expect(set.path == ["Index 2"])
        struct Holder: Codable { var tags: Set<String> }
        let nested = try #require(decodingFailure(Holder.self, [2, 1, 0x78, 1, 0x78]))
        #expect(nested.error == .duplicateEntry(offset: 3))
        #expect(nested.path == ["tags", "Index 1"])
        #expect("\(BinaryCodingError.duplicateEntry(offset: 3))".contains("offset 3"))
    }
}
