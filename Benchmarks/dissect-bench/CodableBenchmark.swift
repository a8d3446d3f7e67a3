import BinaryCoding
import BinarySchema
import Foundation

/// A 20-field header, as a Swift user would model it.
struct TelemetryHeader: Codable, Equatable {
    var version: UInt8
    var kind: UInt8
    var flags: UInt16
    var length: UInt32
    var sequence: UInt32
    var timestamp: UInt64
    var source: UInt32
    var destination: UInt32
    var sourcePort: UInt16
    var destinationPort: UInt16
    var ttl: UInt8
    var priority: UInt8
    var window: UInt16
    var checksum: UInt16
    var identifier: UInt64
    var offset: UInt32
    var count: UInt16
    var reserved: UInt16
    var crc: UInt32
    var trailer: UInt8
}

extension TelemetryHeader {
    static let sample = TelemetryHeader(
        version: 2, kind: 7, flags: 0x8001, length: 1500, sequence: 123_456, timestamp: 1_763_700_000_000_000,
        source: 0x0A00_0001, destination: 0x0A00_0002, sourcePort: 44321, destinationPort: 443, ttl: 64, priority: 3,
        window: 65535, checksum: 0xBEEF, identifier: 0x0123_4567_89AB_CDEF, offset: 20, count: 4, reserved: 0,
        crc: 0xDEAD_BEEF, trailer: 0xFF)
}

/// The same layout as a schema: big-endian fixed-width fields, as BinaryEncoder writes them by default.
let telemetrySchema = """
    endian big
    struct TelemetryHeader {
      version: u8
      kind: u8
      flags: u16
      length: u32
      sequence: u32
      timestamp: u64
      source: u32
      destination: u32
      source_port: u16
      destination_port: u16
      ttl: u8
      priority: u8
      window: u16
      checksum: u16
      identifier: u64
      offset: u32
      count: u16
      reserved: u16
      crc: u32
      trailer: u8
    }
    """

enum TelemetryParseError: Error { case truncated }

/// The hand-written peer: bounds-checked big-endian reads into the struct.
@inline(never)
func parseTelemetry(_ bytes: [UInt8]) throws(TelemetryParseError) -> TelemetryHeader {
    guard bytes.count >= 59 else { throw .truncated }
    return bytes.withUnsafeBufferPointer { buffer in
        var offset = 0
        func read<T: FixedWidthInteger>(_ type: T.Type) -> T {
            var value: T = 0
            for _ in 0..<(T.bitWidth / 8) {
                value = value << 8 | T(buffer[offset])
                offset += 1
            }
            return value
        }
        return TelemetryHeader(
            version: read(UInt8.self), kind: read(UInt8.self), flags: read(UInt16.self), length: read(UInt32.self),
            sequence: read(UInt32.self), timestamp: read(UInt64.self), source: read(UInt32.self),
            destination: read(UInt32.self), sourcePort: read(UInt16.self), destinationPort: read(UInt16.self),
            ttl: read(UInt8.self), priority: read(UInt8.self), window: read(UInt16.self), checksum: read(UInt16.self),
            identifier: read(UInt64.self), offset: read(UInt32.self), count: read(UInt16.self),
            reserved: read(UInt16.self), crc: read(UInt32.self), trailer: read(UInt8.self))
    }
}

func runCodableBenchmark(secondsPerRound: Double) {
    let header = TelemetryHeader.sample
    do {
        let bytes = try BinaryEncoder().encode(header)
        let plist = try PropertyListEncoder.binary.encode(header)
        let schema = try SchemaLoader.load(text: telemetrySchema)
        let schemaDecoder = try SchemaDecoder(schema: schema, root: "TelemetryHeader")
        let sequential = BinaryDecoder()
        let plistDecoder = PropertyListDecoder()
        // All four must agree before anything is timed.
        let agreed = [try parseTelemetry(bytes), try sequential.decode(TelemetryHeader.self, from: bytes),
                      try schemaDecoder.decode(TelemetryHeader.self, from: bytes),
                      try plistDecoder.decode(TelemetryHeader.self, from: plist)]
        precondition(agreed.allSatisfy { $0 == header }, "the decoders disagree")
        let peers: [(String, () -> Int)] = [
            ("hand-written parser", { (try? parseTelemetry(bytes))?.length == 1500 ? 1 : 0 }),
            ("Codable floor (reads nothing)", { (try? TelemetryHeader(from: FloorDecoder()))?.length == 1500 ? 1 : 0 }),
            ("BinaryDecoder (sequential)", { (try? sequential.decode(TelemetryHeader.self, from: bytes))?.length == 1500 ? 1 : 0 }),
            ("SchemaDecoder (schema-driven)", { (try? schemaDecoder.decode(TelemetryHeader.self, from: bytes))?.length == 1500 ? 1 : 0 }),
            ("PropertyListDecoder (binary plist)", { (try? plistDecoder.decode(TelemetryHeader.self, from: plist))?.length == 1500 ? 1 : 0 }),
        ]
        print("dissect-bench codable: decode a 20-field header (\(bytes.count) bytes; \(plist.count) as a binary plist), \(secondsPerRound) s per round")
        var times = Array(repeating: [Double](), count: peers.count)
        for _ in 0..<5 {
            for (index, peer) in peers.enumerated() {
                times[index].append(timePerCall(seconds: secondsPerRound / Double(peers.count), peer.1))
            }
        }
        let medians = times.map { $0.sorted()[2] }
        for (index, peer) in peers.enumerated() {
            print(String(format: "%-36@ %9.1f ns/decode  %6.2fx hand-written", peer.0 as NSString, medians[index],
                         medians[index] / medians[0]))
        }
        print(String(format: "sequential / hand-written:        %.2fx (target: within 3x)", medians[2] / medians[0]))
        print(String(format: "schema-driven / hand-written:     %.2fx (target: within 5x)", medians[3] / medians[0]))
        print(String(format: "sequential / Codable floor:       %.2fx", medians[2] / medians[1]))
        print(String(format: "schema-driven / Codable floor:    %.2fx", medians[3] / medians[1]))
        print(String(format: "PropertyListDecoder / sequential:    %.1fx (target: at least 10x)", medians[4] / medians[2]))
        print(String(format: "PropertyListDecoder / schema-driven: %.1fx (target: at least 10x)", medians[4] / medians[3]))
    } catch {
        fatalError("codable benchmark setup failed: \(error)")
    }
}

func timePerCall(seconds: Double, _ body: () -> Int) -> Double {
    let clock = ContinuousClock()
    var calls = 0
    var sink = 0
    let start = clock.now
    let deadline = start + .milliseconds(Int(seconds * 1000))
    while clock.now < deadline {
        for _ in 0..<256 { sink &+= body() }
        calls += 256
    }
    let elapsed = clock.now - start
    if sink == -1 { print("") }
    return (Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9) / Double(calls)
}

extension PropertyListEncoder {
    static var binary: PropertyListEncoder {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        return encoder
    }
}

/// `dissect-bench codable-profile sequential|schema N`: one decoder only, N times, for perf or callgrind.
func runCodableProfile(_ which: String, _ count: Int) {
    let header = TelemetryHeader.sample
    do {
        let bytes = try BinaryEncoder().encode(header)
        let schemaDecoder = try SchemaDecoder(schema: try SchemaLoader.load(text: telemetrySchema), root: "TelemetryHeader")
        var sink = 0
        for _ in 0..<count {
            let decoded = which == "schema" ? try schemaDecoder.decode(TelemetryHeader.self, from: bytes)
                : try BinaryDecoder().decode(TelemetryHeader.self, from: bytes)
            sink &+= Int(decoded.length)
        }
        print("decoded \(count) headers (\(sink))")
    } catch {
        fatalError("\(error)")
    }
}

/// A decoder that reads nothing and returns zeros: what any `Decoder` pays for going through
/// Codable's containers (the synthesized `init(from:)`, the standard library's boxes), the floor
/// under BinaryDecoder and SchemaDecoder.
struct FloorDecoder: Decoder {
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(FloorKeyedContainer<Key>())
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw FloorError.unsupported }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw FloorError.unsupported }

    enum FloorError: Error { case unsupported }

    final class FloorKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { [] }
        func contains(_ key: Key) -> Bool { true }
        func decodeNil(forKey key: Key) throws -> Bool { false }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { throw FloorError.unsupported }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { 0 }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { 0 }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { 1500 }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { 0 }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            throw FloorError.unsupported
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw FloorError.unsupported }
        func superDecoder() throws -> any Decoder { FloorDecoder() }
        func superDecoder(forKey key: Key) throws -> any Decoder { FloorDecoder() }
    }
}
