import BinaryCoding
import BinarySchema
import Foundation
import Testing

let repositoryRoot: URL = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url
}()

let bundled: Schema = {
    do {
        return try SchemaLoader.load(paths: [repositoryRoot.appendingPathComponent("Schemas").path])
    } catch {
        fatalError("\(error)")
    }
}()

/// Frames of a little-endian pcap file from the corpus.
func captureFrames(_ name: String) throws -> [[UInt8]] {
    let data = [UInt8](try Data(contentsOf: repositoryRoot.appendingPathComponent("Corpus/captures/\(name).pcap")))
    func u32(_ offset: Int) -> Int {
        Int(data[offset]) | Int(data[offset + 1]) << 8 | Int(data[offset + 2]) << 16 | Int(data[offset + 3]) << 24
    }
    var frames: [[UInt8]] = []
    var offset = 24
    while offset + 16 <= data.count {
        let length = u32(offset + 8)
        frames.append(Array(data[(offset + 16)..<(offset + 16 + length)]))
        offset += 16 + length
    }
    return frames
}

enum IPProtocol: UInt8, Codable {
    case icmp = 1, tcp = 6, udp = 17
}

struct IPv4Header: Codable, Equatable {
    struct Flags: Codable, Equatable {
        var reserved: Bool
        var df: Bool
        var mf: Bool
    }

    var version: UInt8
    var ihl: UInt8
    var dscp: UInt8
    var ecn: UInt8
    var totalLength: UInt16
    var identification: UInt16
    var flags: Flags
    var fragmentOffset: UInt16
    var ttl: UInt8
    var `protocol`: IPProtocol
    var checksum: UInt16
    var src: [UInt8]
    var dst: [UInt8]
    var options: [[UInt8]]
}

struct TCPOption: Codable, Equatable {
    var kind: UInt8
    var length: UInt8?
}

struct TCPSegment: Codable, Equatable {
    var srcPort: UInt16
    var dstPort: UInt16
    var seq: UInt32
    var options: [TCPOption]
    var payload: Data
}

struct EthernetFrame: Codable, Equatable {
    struct IPv4Packet: Codable, Equatable {
        var ttl: UInt8
        var payload: TCPSegment
    }

    var dst: [UInt8]
    var type: UInt16
    var payload: IPv4Packet
}

struct DNSHeader: Codable, Equatable {
    struct Flags: Codable, Equatable {
        var response: Bool
        var opcode: UInt8
        var authoritative: Bool
        var truncated: Bool
        var recursionDesired: Bool
        var recursionAvailable: Bool
        var z: UInt8
        var authenticated: Bool
        var checkingDisabled: Bool
        var rcode: UInt8
    }

    var id: UInt16
    var flags: Flags
    var qdcount: UInt16
    var ancount: UInt16
    var nscount: UInt16
    var arcount: UInt16
}

struct DNSMessage: Decodable {
    struct Question: Decodable {
        var name: String
        var type: UInt16
    }

    struct Record: Decodable {
        var name: String
        var type: UInt16
        var ttl: UInt32
        var rdlength: UInt16
    }

    var id: UInt16
    var questions: [Question]
    var answers: [Record]
}

@Suite struct SchemaDecodingTests {
    @Test func decodesAnIPv4HeaderFromACapturedPacket() throws {
        let frame = try #require(try captureFrames("tcp").first)
        let decoder = try SchemaDecoder(schema: bundled, root: "IPv4")
        let header = try decoder.decode(IPv4Header.self, from: Array(frame[14...]))
        #expect(header.version == 4 && header.ihl == 5 && header.totalLength == 60)
        #expect(header.flags == .init(reserved: false, df: true, mf: false))
        #expect(header.protocol == .tcp && header.ttl == 64)
        #expect(header.src == [127, 0, 0, 1] && header.options.isEmpty)
    }

    @Test func decodesNestedLayersOptionalsAndArrays() throws {
        let frame = try #require(try captureFrames("tcp").first)
        let decoded = try SchemaDecoder(schema: bundled, root: "Ethernet").decode(EthernetFrame.self, from: frame)
        #expect(decoded.type == 0x0800 && decoded.payload.ttl == 64)
        let tcp = decoded.payload.payload
        #expect(tcp.dstPort == 8765)
        #expect(tcp.options.map(\.kind) == [2, 4, 8, 1, 3])
        #expect(tcp.options.map(\.length) == [4, 2, 10, nil, 3], "the NOP's absent length is nil")
        #expect(tcp.payload.isEmpty)
    }

    @Test func decodesADNSResponseWithCompressedNames() throws {
        let frame = try #require(try captureFrames("dns").dropFirst(5).first)
        let message = try SchemaDecoder(schema: bundled, root: "DNS").decode(DNSMessage.self, from: Array(frame[42...]))
        #expect(message.questions.map(\.name) == ["alias.example.test"])
        #expect(message.answers.map(\.name) == ["alias.example.test", "www.example.test"])
        #expect(message.answers.map(\.type) == [5, 1])
    }

    @Test func aPropertyTheSchemaLacksIsKeyNotFound() throws {
        struct Wrong: Decodable { var version: UInt8; var colour: UInt8 }
        let frame = try #require(try captureFrames("tcp").first)
        do {
            _ = try SchemaDecoder(schema: bundled, root: "IPv4").decode(Wrong.self, from: Array(frame[14...]))
            Issue.record("colour is not an IPv4 field")
        } catch DecodingError.keyNotFound(let key, let context) {
            #expect(key.stringValue == "colour")
            #expect(context.debugDescription.contains("has no field"))
        }
    }

    @Test func aValueThatDoesNotFitIsValueOutOfRange() throws {
        struct Narrow: Decodable { var totalLength: Int8 }
        let frame = try #require(try captureFrames("tcp").dropFirst(3).first)
        do {
            _ = try SchemaDecoder(schema: bundled, root: "IPv4").decode(Narrow.self, from: Array(frame[14...]))
            Issue.record("a total length of 140 does not fit Int8")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.codingPath.map(\.stringValue) == ["totalLength"])
            #expect(context.underlyingError as? BinaryCodingError == .valueOutOfRange(offset: 2, value: "140", type: "Int8"))
        }
    }

    @Test func aSwiftTypeThatDoesNotMatchTheFieldIsUnsupported() throws {
        struct Mistyped: Decodable { var src: String }
        let frame = try #require(try captureFrames("tcp").first)
        do {
            _ = try SchemaDecoder(schema: bundled, root: "IPv4").decode(Mistyped.self, from: Array(frame[14...]))
            Issue.record("an address is not a String")
        } catch DecodingError.dataCorrupted(let context) {
            guard case .unsupportedType(let offset, let type, let reason)? = context.underlyingError as? BinaryCodingError else {
                Issue.record("expected unsupportedType")
                return
            }
            #expect(offset == 12 && type == "String" && reason == "schema field ip.src is bytes")
        }
    }

    @Test func aTruncatedPacketFailsAtTheFirstPropertyPastTheDamage() throws {
        let frame = try #require(try captureFrames("tcp").first)
        let truncated = Array(frame[14..<(14 + 17)])
        do {
            _ = try SchemaDecoder(schema: bundled, root: "IPv4").decode(IPv4Header.self, from: truncated)
            Issue.record("17 bytes hold no IPv4 header")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.codingPath.map(\.stringValue) == ["dst"])
            #expect(context.underlyingError as? BinaryCodingError == .prematureEnd(offset: 16, needed: 4, available: 1))
        }
        // Fields before the damage still decode.
        struct Start: Decodable, Equatable { var version: UInt8; var ttl: UInt8 }
        #expect(try SchemaDecoder(schema: bundled, root: "IPv4").decode(Start.self, from: truncated) == Start(version: 4, ttl: 64))
    }

    @Test func aBrokenConstraintIsConstraintViolated() throws {
        var bytes = Array(try #require(try captureFrames("tcp").first)[14...])
        bytes[0] = 0x65
        do {
            _ = try SchemaDecoder(schema: bundled, root: "IPv4").decode(IPv4Header.self, from: bytes)
            Issue.record("version 6 breaks version == 4")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.codingPath.map(\.stringValue) == ["version"])
            guard case .constraintViolated(0, let reason)? = context.underlyingError as? BinaryCodingError else {
                Issue.record("expected constraintViolated at 0")
                return
            }
            #expect(reason.contains("version == 4"))
        }
    }

    @Test func keyStrategyCanRequireSchemaNames() throws {
        struct Raw: Decodable { var total_length: UInt16 }
        let frame = try #require(try captureFrames("tcp").first)
        var decoder = try SchemaDecoder(schema: bundled, root: "IPv4")
        decoder.keyStrategy = .useSchemaNames
        #expect(try decoder.decode(Raw.self, from: Array(frame[14...])).total_length == 60)
    }
}

@Suite struct SchemaEncodingTests {
    @Test func decodedIPv4HeaderReencodesToTheOriginalBytes() throws {
        let frames = try captureFrames("tcp")
        #expect(frames.count >= 4, "the loop below must check something")
        for frame in frames {
            let packet = Array(frame[14...])
            let header = try SchemaDecoder(schema: bundled, root: "IPv4").decode(IPv4Header.self, from: packet)
            let encoded = try SchemaEncoder(schema: bundled, root: "IPv4").encode(header)
            #expect(encoded == Array(packet.prefix(20)))
        }
    }

    @Test func decodedDNSHeaderReencodesToTheOriginalBytes() throws {
        let frames = try captureFrames("dns")
        #expect(frames.count >= 6, "the loop below must check something")
        for frame in frames {
            let message = Array(frame[42...])
            let header = try SchemaDecoder(schema: bundled, root: "DNS").decode(DNSHeader.self, from: message)
            #expect(try SchemaEncoder(schema: bundled, root: "DNS").encode(header) == Array(message.prefix(12)))
        }
    }

    /// The README's decoding example models some of IPv4's fields: encoding it names the first
    /// field it skips, rather than writing the byte before it and stopping.
    @Test func aTypeThatSkipsAFieldInTheMiddleIsAnErrorNamingIt() throws {
        struct Partial: Codable {
            var version: UInt8
            var ihl: UInt8
            var totalLength: UInt16
        }
        do {
            let bytes = try SchemaEncoder(schema: bundled, root: "IPv4").encode(Partial(version: 4, ihl: 5, totalLength: 20))
            Issue.record("encoded \(bytes.count) bytes")
        } catch {
            #expect("\(error)".contains("ip.dscp: the value has no property 'dscp'"), "\(error)")
        }
    }

    @Test func encodingChecksConstraintsAndRanges() throws {
        let frame = try #require(try captureFrames("tcp").first)
        var header = try SchemaDecoder(schema: bundled, root: "IPv4").decode(IPv4Header.self, from: Array(frame[14...]))
        header.version = 5
        do {
            _ = try SchemaEncoder(schema: bundled, root: "IPv4").encode(header)
            Issue.record("version 5 breaks version == 4")
        } catch EncodingError.invalidValue(let value, let context) {
            #expect(value as? String == "IPv4Header", "the type's name stands in for the value")
            #expect(context.codingPath.map(\.stringValue) == ["version"])
            guard case .constraintViolated(0, let reason)? = context.underlyingError as? BinaryCodingError else {
                Issue.record("expected constraintViolated at 0, got \(String(describing: context.underlyingError))")
                return
            }
            #expect(reason.contains("version == 4"), "\(reason)")
        }
        header.version = 20
        do {
            _ = try SchemaEncoder(schema: bundled, root: "IPv4").encode(header)
            Issue.record("20 does not fit 4 bits")
        } catch EncodingError.invalidValue(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["version"])
            guard case .valueOutOfRange? = context.underlyingError as? BinaryCodingError else {
                Issue.record("expected valueOutOfRange")
                return
            }
        }
    }
}

/// A struct field whose `@size` comes from a length the value being encoded gives.
let sizedSchema = """
    endian big
    struct Inner { a: u8 }
    struct Sized {
      length: i64
      body: Inner @size(length)
      after: u8
    }
    """

struct Sized: Codable, Equatable {
    struct Inner: Codable, Equatable { var a: UInt8 }
    var length: Int64
    var body: Inner
    var after: UInt8
}

@Suite struct SchemaEncodingSizeTests {
    /// The `BinaryCodingError` under the `EncodingError` that encoding `value` throws, with its coding path.
    private func encodingFailure(_ value: Sized) throws -> (path: [String], error: BinaryCodingError?, described: String)? {
        let encoder = try SchemaEncoder(schema: try SchemaLoader.load(text: sizedSchema), root: "Sized")
        do {
            _ = try encoder.encode(value)
            return nil
        } catch EncodingError.invalidValue(_, let context) {
            return (context.codingPath.map(\.stringValue), context.underlyingError as? BinaryCodingError, context.debugDescription)
        }
    }

    @Test func aSizeLeavingRoomIsPaddedWithZeros() throws {
        let encoder = try SchemaEncoder(schema: try SchemaLoader.load(text: sizedSchema), root: "Sized")
        let bytes = try encoder.encode(Sized(length: 3, body: .init(a: 7), after: 9))
        #expect(bytes == [0, 0, 0, 0, 0, 0, 0, 3, 7, 0, 0, 9])
    }

    @Test(arguments: [Int64(1) << 61, Int64(1) << 62, .max, Int64(1) << 40, -1, -(Int64(1) << 61), .min])
    func aHugeOrNegativeSizeIsAnErrorNamingTheField(length: Int64) throws {
        // 2^61 bytes is 2^64 bits: the extent arithmetic overflowed (a trap); 2^40 asked for a
        // terabyte of padding; a negative size was reported as contents too long for it.
        let failure = try #require(try encodingFailure(Sized(length: length, body: .init(a: 7), after: 9)),
                                   "a @size of \(length) must not encode")
        #expect(failure.path == ["body"])
        guard case .constraintViolated(let offset, let reason)? = failure.error else {
            Issue.record("expected constraintViolated, got \(String(describing: failure.error))")
            return
        }
        #expect(offset == 8, "the field starts after the 8-byte length")
        #expect(reason.contains("body"), "\(reason)")
        #expect(reason.contains(length < 0 ? "negative" : "exceeds"), "\(reason)")
    }
}

/// A layout exercising widths, bit fields, byte orders, conditional fields, strings and arrays.
let mixedSchema = """
    endian big
    enum Kind: u8 { small = 1, large = 2 }
    struct Mixed {
      magic: u16 == 0xCAFE
      kind: Kind
      a: u4
      b: i4
      c: u24le
      d: i48
      flag: bool
      big: u64 if kind == .large
      count: u8
      values: u16le[count]
      name_length: u8
      name: string[name_length]
      label: cstring
      tail: bytes[..]
    }
    """

struct Mixed: Codable, Equatable {
    enum Kind: UInt8, Codable { case small = 1, large = 2 }
    var magic: UInt16 = 0xCAFE
    var kind: Kind
    var a: UInt8
    var b: Int8
    var c: UInt32
    var d: Int64
    var flag: Bool
    var big: UInt64?
    var count: UInt8
    var values: [UInt16]
    var nameLength: UInt8
    var name: String
    var label: String
    var tail: [UInt8]
}

@Suite struct SchemaRoundTripTests {
    @Test func randomValuesSurviveEncodeThenDecodeAndBytesSurviveDecodeThenEncode() throws {
        let schema = try SchemaLoader.load(text: mixedSchema)
        let encoder = try SchemaEncoder(schema: schema, root: "Mixed")
        let decoder = try SchemaDecoder(schema: schema, root: "Mixed")
        for run in 0..<500 {
            // One seed per value, printed with any failure: SplitMix64(seed:) remakes the value.
            var g = SplitMix64(seed: 0x5C4E_0000 + UInt64(run))
            let values = (0..<Int.random(in: 0..<6, using: &g)).map { _ in UInt16.random(in: 0...UInt16.max, using: &g) }
            let name = String((0..<Int.random(in: 0..<8, using: &g)).map { _ in "aé😀z".randomElement(using: &g) ?? "a" })
            let kind: Mixed.Kind = Bool.random(using: &g) ? .small : .large
            let value = Mixed(kind: kind, a: UInt8.random(in: 0...15, using: &g), b: Int8.random(in: -8...7, using: &g),
                              c: UInt32.random(in: 0...0xFF_FFFF, using: &g),
                              d: Int64.random(in: -(1 << 47)...((1 << 47) - 1), using: &g), flag: Bool.random(using: &g),
                              big: kind == .large ? UInt64.random(in: 0...UInt64.max, using: &g) : nil,
                              count: UInt8(values.count), values: values, nameLength: UInt8(name.utf8.count), name: name,
                              label: Bool.random(using: &g) ? "" : "label",
                              tail: (0..<Int.random(in: 0..<5, using: &g)).map { _ in UInt8.random(in: 0...255, using: &g) })
            let bytes = try encoder.encode(value)
            let decoded = try decoder.decode(Mixed.self, from: bytes)
            #expect(decoded == value, "seed \(g.seed)")
            #expect(try encoder.encode(decoded) == bytes, "seed \(g.seed)")
        }
    }

    @Test func lengthsMustAgreeWithTheData() throws {
        let schema = try SchemaLoader.load(text: mixedSchema)
        let value = Mixed(kind: .small, a: 1, b: -1, c: 2, d: -3, flag: true, big: nil, count: 3, values: [1],
                          nameLength: 0, name: "", label: "", tail: [])
        do {
            _ = try SchemaEncoder(schema: schema, root: "Mixed").encode(value)
            Issue.record("a count of 3 with one value must not encode")
        } catch EncodingError.invalidValue(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["values"])
            guard case .constraintViolated(let offset, let reason)? = context.underlyingError as? BinaryCodingError else {
                Issue.record("expected constraintViolated, got \(String(describing: context.underlyingError))")
                return
            }
            #expect(offset == 15, "values start after magic, kind, a/b, c, d, flag and count: 15 bytes")
            #expect(reason.contains("the value has 1 elements but the layout says 3"), "\(reason)")
        }
    }
}

@Suite struct HeartRateExampleTests {
    struct HeartRateMeasurement: Codable, Equatable {
        struct Flags: Codable, Equatable {
            var rateIs16Bit: Bool
            var sensorContact: UInt8
            var energyExpendedPresent: Bool
            var rrIntervalsPresent: Bool
            var reserved: UInt8
        }

        var flags: Flags
        var heartRate: UInt16
        var energyExpended: UInt16?
        var rrIntervals: [UInt16]?
    }

    let schema: Schema

    init() throws {
        schema = try SchemaLoader.load(paths: [repositoryRoot.appendingPathComponent("Schemas/examples/heart-rate.schema").path])
    }

    @Test func eightBitRateWithRRIntervals() throws {
        let measurement = try SchemaDecoder(schema: schema, root: "HeartRateMeasurement")
            .decode(HeartRateMeasurement.self, from: [0x16, 0x48, 0x2C, 0x03])
        #expect(measurement.heartRate == 72)
        #expect(measurement.flags.sensorContact == 3 && !measurement.flags.rateIs16Bit)
        #expect(measurement.energyExpended == nil)
        #expect(measurement.rrIntervals == [812])
    }

    @Test func sixteenBitRateWithEnergyAndRRIntervals() throws {
        let bytes: [UInt8] = [0x19, 0x2C, 0x01, 0x10, 0x00, 0x00, 0x04, 0x00, 0x04]
        let decoder = try SchemaDecoder(schema: schema, root: "HeartRateMeasurement")
        let measurement = try decoder.decode(HeartRateMeasurement.self, from: bytes)
        #expect(measurement.heartRate == 300 && measurement.energyExpended == 16 && measurement.rrIntervals == [1024, 1024])
        #expect(try SchemaEncoder(schema: schema, root: "HeartRateMeasurement").encode(measurement) == bytes)
    }

    @Test func truncatedMeasurementSaysWhere() throws {
        do {
            _ = try SchemaDecoder(schema: schema, root: "HeartRateMeasurement")
                .decode(HeartRateMeasurement.self, from: [0x19, 0x2C])
            Issue.record("a 16-bit rate needs two bytes")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.codingPath.map(\.stringValue) == ["heartRate"])
            #expect(context.underlyingError as? BinaryCodingError == .prematureEnd(offset: 1, needed: 2, available: 1))
        }
    }
}

/// A type that nests without end through single-value containers: one `Onion` and one
/// `Optional` per step, on the same schema node.
final class Onion: Decodable, Sendable {
    let inner: Onion?

    init(from decoder: any Decoder) throws {
        (decoder.userInfo[StackProbe.key] as? StackProbe)?.record()
        inner = try decoder.singleValueContainer().decode(Onion?.self)
    }
}

@Suite struct SchemaNestingTests {
    static let smallStack = 512 * 1024
    static let bound = BinaryCodingOptions.maximumNestingLimit

    /// The `BinaryCodingError` under a coder's error.
    static func underlying(_ error: any Error) -> BinaryCodingError? {
        switch error {
        case EncodingError.invalidValue(_, let context): return context.underlyingError as? BinaryCodingError
        case DecodingError.dataCorrupted(let context): return context.underlyingError as? BinaryCodingError
        default: return nil
        }
    }

    @Test(arguments: ShapeKind.allCases)
    func schemaEncoderCapturesAValueAtTheBoundOnA512KiBStackAndStopsOneLevelMore(shape: ShapeKind) throws {
        func run<Shape: NestedShape>(_ type: Shape.Type) throws -> (used: UInt, atBound: BinaryCodingError?, deeper: BinaryCodingError?) {
            let schema = try SchemaLoader.load(text: sizedSchema)
            return try onThread(stackSize: Self.smallStack) {
                let probe = StackProbe()
                var encoder = try SchemaEncoder(schema: schema, root: "Sized")
                encoder.userInfo[StackProbe.key] = probe
                let start = StackProbe.here()
                // The value has none of Sized's fields, so nothing is written once it is captured.
                var atBound: BinaryCodingError?
                do { _ = try encoder.encode(Shape.nested(levels: Self.bound)) } catch { atBound = Self.underlying(error) }
                let used = start >= probe.deepest ? start - probe.deepest : 0
                do {
                    _ = try encoder.encode(Shape.nested(levels: Self.bound + 1))
                    return (used, atBound, nil)
                } catch {
                    return (used, atBound, Self.underlying(error))
                }
            }
        }
        let result = try run(shape.type)
        #expect(result.atBound == nil, "\(shape) at the bound: \(String(describing: result.atBound))")
        #expect(result.used < UInt(Self.smallStack / 2), "\(shape): \(result.used) stack bytes at \(Self.bound) levels")
        #expect(result.deeper?.isNestingTooDeep(limit: Self.bound) == true, "\(String(describing: result.deeper))")
    }

    @Test func schemaEncoderStopsContainersNestedWithoutValuesOnA512KiBStack() throws {
        // Containers nested in a loop never pass through a value's capture, so only the path
        // length stops them; the layout built from them would recurse as deep.
        struct DeepContainers: Encodable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.unkeyedContainer()
                for _ in 0..<20_000 { container = container.nestedUnkeyedContainer() }
                try container.encode(UInt8(1))
            }
        }
        let schema = try SchemaLoader.load(text: sizedSchema)
        let error = try onThread(stackSize: Self.smallStack) { () -> BinaryCodingError? in
            do {
                _ = try SchemaEncoder(schema: schema, root: "Sized").encode(DeepContainers())
                return nil
            } catch {
                return Self.underlying(error)
            }
        }
        #expect(error?.isNestingTooDeep(limit: 2 * Self.bound) == true, "\(String(describing: error))")
    }

    @Test func schemaDecoderStopsATypeThatNestsWithoutEndOnA512KiBStack() throws {
        let schema = try SchemaLoader.load(text: sizedSchema)
        let (used, error) = try onThread(stackSize: Self.smallStack) { () -> (UInt, BinaryCodingError?) in
            let probe = StackProbe()
            var decoder = try SchemaDecoder(schema: schema, root: "Sized")
            decoder.userInfo[StackProbe.key] = probe
            let start = StackProbe.here()
            do {
                _ = try decoder.decode(Onion.self, from: [0, 0, 0, 0, 0, 0, 0, 1, 7, 9])
                return (start >= probe.deepest ? start - probe.deepest : 0, nil)
            } catch {
                return (start >= probe.deepest ? start - probe.deepest : 0, Self.underlying(error))
            }
        }
        print("nesting: SchemaDecoder used \(used) stack bytes")
        #expect(error?.isNestingTooDeep(limit: 128) == true, "\(String(describing: error))")
        #expect(used < UInt(Self.smallStack / 2), "\(used) stack bytes at the limit")
    }
}

@Suite struct SchemaSetTests {
    static let schemaText = """
        endian big
        struct Tags {
          count: u8
          values: u16[count]
        }
        """

    struct Tags: Codable, Equatable {
        var count: UInt8
        var values: Set<UInt16>
    }

    @Test func equalSetsEncodeToTheSameBytes() throws {
        let encoder = try SchemaEncoder(schema: try SchemaLoader.load(text: Self.schemaText), root: "Tags")
        let first = Set<UInt16>(0..<40)
        var second = Set<UInt16>(minimumCapacity: 300)
        for value in (UInt16(0)..<60).reversed() { second.insert(value) }
        for value in UInt16(40)..<60 { second.remove(value) }
        #expect(first == second && Array(first) != Array(second), "equal sets iterating in different orders")
        let bytes = try encoder.encode(Tags(count: 40, values: first))
        #expect(try encoder.encode(Tags(count: 40, values: second)) == bytes)
        #expect(try SchemaDecoder(schema: try SchemaLoader.load(text: Self.schemaText), root: "Tags")
            .decode(Tags.self, from: bytes) == Tags(count: 40, values: first))
    }

    @Test func aDuplicateElementIsAnErrorAtItsOffset() throws {
        let decoder = try SchemaDecoder(schema: try SchemaLoader.load(text: Self.schemaText), root: "Tags")
        do {
            let tags = try decoder.decode(Tags.self, from: [3, 0, 5, 0, 7, 0, 5])
            Issue.record("{5, 7, 5} must not decode, got \(tags)")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.underlyingError as? BinaryCodingError == .duplicateEntry(offset: 5))
            #expect(context.codingPath.map(\.stringValue) == ["values", "Index 2"])
        }
    }
}

/// Computed values and run-time byte orders through the Codable front ends.
@Suite struct SchemaValueCodingTests {
    static let schema: Schema = {
        do {
            return try SchemaLoader.load(text: """
                struct VarInt {
                  prefix: u2
                  v6: u6 if prefix == 0
                  v14: u14 if prefix == 1
                  let value = prefix == 0 ? v6 : v14
                }
                struct Record {
                  little: bool
                  length: u16 @little_endian(little)
                  let words = length / 2
                }
                """)
        } catch {
            fatalError("\(error)")
        }
    }()

    struct Number: Codable, Equatable {
        let prefix: UInt8
        let value: Int64
    }

    struct Record: Codable, Equatable {
        let little: Bool
        let length: UInt16
        let words: Int
    }

    @Test func aDecoderReadsAComputedValueAsAProperty() throws {
        let decoded = try SchemaDecoder(schema: Self.schema, root: "VarInt").decode(Number.self, from: [0x7B, 0xBD])
        #expect(decoded == Number(prefix: 1, value: 15293))
        let record = try SchemaDecoder(schema: Self.schema, root: "Record").decode(Record.self, from: [1, 0x08, 0x00])
        #expect(record == Record(little: true, length: 8, words: 4))
        let bigRecord = try SchemaDecoder(schema: Self.schema, root: "Record").decode(Record.self, from: [0, 0x00, 0x08])
        #expect(bigRecord == Record(little: false, length: 8, words: 4))
    }

    /// The encoder writes the byte order the expression chooses, and no bytes for computed values
    /// (whatever value the property holds: it is derived from the fields before it).
    @Test func anEncoderWritesTheChosenByteOrderAndNothingForComputedValues() throws {
        let encoder = try SchemaEncoder(schema: Self.schema, root: "Record")
        #expect(try encoder.encode(Record(little: true, length: 8, words: 99)) == [1, 0x08, 0x00])
        #expect(try encoder.encode(Record(little: false, length: 8, words: 4)) == [0, 0x00, 0x08])
    }

    struct Aligned: Codable, Equatable {
        let a: UInt8
        let b: UInt16
        let c: UInt32
    }

    /// Alignment is written as zero padding; a field read at an offset has no place to be written.
    @Test func anEncoderPadsToAlignmentAndRefusesPositionedFields() throws {
        let schema = try SchemaLoader.load(text: """
            endian little
            struct Aligned { a: u8  b: u16 @align(2)  c: u32 @align(4) }
            struct Positioned { offset: u8  name: bytes[2] @at(offset) }
            """)
        let bytes = try SchemaEncoder(schema: schema, root: "Aligned").encode(Aligned(a: 1, b: 2, c: 3))
        #expect(bytes == [1, 0, 2, 0, 3, 0, 0, 0])
        #expect(try SchemaDecoder(schema: schema, root: "Aligned").decode(Aligned.self, from: bytes) == Aligned(a: 1, b: 2, c: 3))
        struct Positioned: Codable { let offset: UInt8; let name: [UInt8] }
        #expect(throws: EncodingError.self) { try SchemaEncoder(schema: schema, root: "Positioned").encode(Positioned(offset: 1, name: [1, 2])) }
    }
}

/// Text fields through the Codable coders: every encoding and terminators both ways, and
/// invalid text a typed error for a `String` (the dissector shows it; a decoder must not).
@Suite struct SchemaTextCodingTests {
    static let schema = """
        struct Record {
          method: string[until " "] @encoding("ascii")
          units: u8
          name: string[units * 2] @encoding("utf-16le")
          note: cstring @encoding("latin1")
          tail: u8
        }
        """

    struct Record: Codable, Equatable {
        var method: String
        var units: UInt8
        var name: String
        var note: String
        var tail: UInt8
    }

    struct RawRecord: Codable, Equatable {
        var method: [UInt8]
        var tail: UInt8
    }

    static let bytes: [UInt8] = Array("GET ".utf8) + [3, 0x68, 0x00, 0x3D, 0xD8, 0x00, 0xDE] + [0x63, 0x61, 0x66, 0xE9, 0x00] + [9]

    @Test func decodesEveryEncodingAndEncodesTheSameBytes() throws {
        let schema = try SchemaLoader.load(text: Self.schema)
        let record = try SchemaDecoder(schema: schema, root: "Record").decode(Record.self, from: Self.bytes)
        #expect(record == Record(method: "GET", units: 3, name: "h😀", note: "café", tail: 9))
        #expect(try SchemaEncoder(schema: schema, root: "Record").encode(record) == Self.bytes)
    }

    @Test func invalidUTF8IsATypedErrorAtTheFirstBadByte() throws {
        let schema = try SchemaLoader.load(text: "struct Main { a: u8  name: string[3]  b: u8 }")
        struct Main: Codable { var a: UInt8; var name: String; var b: UInt8 }
        do {
            _ = try SchemaDecoder(schema: schema, root: "Main").decode(Main.self, from: [1, 0x61, 0xC3, 0x28, 2])
            Issue.record("invalid UTF-8 must not decode as a String")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.codingPath.map(\.stringValue) == ["name"])
            #expect(context.underlyingError as? BinaryCodingError == .invalidUTF8(offset: 2))
        }
        struct Around: Codable, Equatable { var a: UInt8; var b: UInt8 }
        #expect(try SchemaDecoder(schema: schema, root: "Main").decode(Around.self, from: [1, 0x61, 0xC3, 0x28, 2]) == Around(a: 1, b: 2),
                "fields around invalid text still decode")
    }

    @Test func textThatIsNotASCIIIsATypedErrorNamingTheEncoding() throws {
        let schema = try SchemaLoader.load(text: Self.schema)
        var bytes = Self.bytes
        bytes[1] = 0xC5
        do {
            _ = try SchemaDecoder(schema: schema, root: "Record").decode(Record.self, from: bytes)
            Issue.record("a byte above 0x7F is not ASCII")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.codingPath.map(\.stringValue) == ["method"])
            #expect(context.underlyingError as? BinaryCodingError == .invalidText(offset: 1, encoding: "ascii"))
        }
        let raw = try SchemaDecoder(schema: schema, root: "Record").decode(RawRecord.self, from: bytes)
        #expect(raw.method == [0x47, 0xC5, 0x54, 0x20], "as bytes the field is what is there, terminator included")
    }

    @Test func encodingRefusesTextItsFieldCannotHold() throws {
        let schema = try SchemaLoader.load(text: Self.schema)
        let encoder = try SchemaEncoder(schema: schema, root: "Record")
        let cases: [(Record, String, String)] = [
            (Record(method: "GE T", units: 0, name: "", note: "", tail: 0), "method", #"the text holds its terminator " ", which would end it early"#),
            (Record(method: "GÉT", units: 0, name: "", note: "", tail: 0), "method", "the text has characters ASCII cannot write"),
            (Record(method: "GET", units: 0, name: "", note: "€", tail: 0), "note", "the text has characters Latin-1 cannot write"),
            (Record(method: "GET", units: 2, name: "x", note: "", tail: 0), "name", "the value has 2 bytes but the layout says 4"),
        ]
        for (value, property, reason) in cases {
            do {
                _ = try encoder.encode(value)
                Issue.record("\(value) must not encode")
            } catch EncodingError.invalidValue(_, let context) {
                #expect(context.codingPath.map(\.stringValue) == [property])
                #expect(context.debugDescription.contains(reason), "\(context.debugDescription)")
            }
        }
    }
}
