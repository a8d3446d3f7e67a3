import BinaryCoding
import Foundation

/// Whatever decodes must encode back to the bytes it was decoded from and decode again to an
/// equal value. Dictionaries are left out of the byte comparison's type: their encoding order
/// is not the order of the input.
enum RoundTripTarget {
    struct Record: Codable, Equatable {
        var version: UInt8
        var kind: Telemetry.Kind
        var active: Bool
        var sequence: UInt32
        var offset: Int64
        var small: Int8
        var temperature: Float
        var ratio: Double?
        var name: String
        var readings: [Telemetry.Reading]
        var payload: Data

        init(_ telemetry: Telemetry) {
            version = telemetry.version
            kind = telemetry.kind
            active = telemetry.active
            sequence = telemetry.sequence
            offset = telemetry.offset
            small = telemetry.small
            temperature = telemetry.temperature
            ratio = telemetry.ratio
            name = telemetry.name
            readings = telemetry.readings
            payload = telemetry.payload
        }

        static func == (left: Record, right: Record) -> Bool {
            left.version == right.version && left.kind == right.kind && left.active == right.active
                && left.sequence == right.sequence && left.offset == right.offset && left.small == right.small
                && left.temperature.bitPattern == right.temperature.bitPattern
                && left.ratio?.bitPattern == right.ratio?.bitPattern && left.name == right.name
                && left.readings == right.readings && left.payload == right.payload
        }
    }

    static func run(_ bytes: [UInt8]) throws(InvariantViolation) {
        if let (options, body) = CodableFormats.split(bytes),
           let (value, used) = try? BinaryDecoder(options: options).decode(Record.self, fromPrefixOf: body) {
            let encoded: [UInt8]
            do {
                encoded = try BinaryEncoder(options: options).encode(value)
            } catch {
                throw InvariantViolation("a decoded value does not encode: \(error)")
            }
            try require(encoded == Array(body.prefix(used)),
                        "re-encoding gives \(hex(encoded)), decoded from \(hex(body.prefix(used)))")
            let again = try? BinaryDecoder(options: options).decode(Record.self, from: encoded)
            try require(again == value, "the re-encoded bytes decode to a different value")
        }
        if let heartRate = CodableFormats.heartRate,
           let value = try? heartRate.decoder.decode(HeartRateMeasurement.self, from: bytes) {
            let encoded: [UInt8]
            do {
                encoded = try heartRate.encoder.encode(value)
            } catch {
                throw InvariantViolation("a decoded heart-rate measurement does not encode: \(error)")
            }
            let again = try? heartRate.decoder.decode(HeartRateMeasurement.self, from: encoded)
            try require(again == value, "heart rate: \(hex(bytes[...])) → \(value) → \(hex(encoded[...])) → \(String(describing: again))")
        }
    }

    static func hex(_ bytes: some Collection<UInt8>) -> String {
        bytes.map { String($0, radix: 16) }.joined(separator: " ")
    }
}
