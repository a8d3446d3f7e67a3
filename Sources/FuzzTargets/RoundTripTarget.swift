import BinaryCoding
import Foundation

/// Whatever decodes must encode back to the bytes it was decoded from and decode again to an
/// equal value: ``Telemetry`` through every sequential format, and the heart-rate schema.
enum RoundTripTarget {
    static func run(_ bytes: [UInt8]) throws(InvariantViolation) {
        if let (options, body) = CodableFormats.split(bytes),
           let prefix = try? BinaryDecoder(options: options).decode(Telemetry.self, fromPrefixOf: body) {
            let (value, used) = (prefix.value, prefix.bytesUsed)
            let encoded: [UInt8]
            do {
                encoded = try BinaryEncoder(options: options).encode(value)
            } catch {
                throw InvariantViolation("a decoded value does not encode: \(error)")
            }
            try require(encoded == Array(body.prefix(used)),
                        "re-encoding gives \(hex(encoded)), decoded from \(hex(body.prefix(used)))")
            let again = try? BinaryDecoder(options: options).decode(Telemetry.self, from: encoded)
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
        try KeyedArchiveFuzz.roundTrip(bytes)
        try BinaryCodableTargets.roundTrip(bytes)
    }

    static func hex(_ bytes: some Collection<UInt8>) -> String {
        bytes.map { String($0, radix: 16) }.joined(separator: " ")
    }
}
