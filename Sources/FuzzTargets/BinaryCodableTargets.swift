import BinaryCoding

/// BinaryCodable's format under the `codable` and `roundtrip` targets.
enum BinaryCodableTargets {
    /// Arbitrary bytes decode to a value or a typed error, never a trap.
    static func decode(_ bytes: [UInt8]) throws(InvariantViolation) {
        do {
            _ = try BinaryCodableDecoder().decode(TaggedTelemetry.self, from: bytes)
        } catch {
            try CodableTarget.requireDecodingError(error, "the BinaryCodable decoder")
        }
        do {
            _ = try BinaryCodableDecoder().decodeStreamElements(Telemetry?.self, fromPrefixOf: bytes)
        } catch {
            try CodableTarget.requireDecodingError(error, "the BinaryCodable stream decoder")
        }
    }

    /// What decodes re-encodes to bytes that are a fixed point: they decode to the same value,
    /// which encodes to the same bytes again. (Not the input bytes themselves: the format lets
    /// keys come in any order and keys a type does not read are skipped, so several inputs
    /// decode to one value; the decoder does reject the other sources of ambiguity, needless
    /// varint bytes and a key twice.)
    static func roundTrip(_ bytes: [UInt8]) throws(InvariantViolation) {
        guard let value = try? BinaryCodableDecoder().decode(TaggedTelemetry.self, from: bytes) else { return }
        let encoded: [UInt8]
        do {
            encoded = try BinaryCodableEncoder().encode(value)
        } catch {
            throw InvariantViolation("BinaryCodable: a decoded value does not encode: \(error)")
        }
        let again: TaggedTelemetry
        do {
            again = try BinaryCodableDecoder().decode(TaggedTelemetry.self, from: encoded)
        } catch {
            throw InvariantViolation("BinaryCodable: re-encoded bytes \(RoundTripTarget.hex(encoded)) do not decode: \(error)")
        }
        try require(again == value, "BinaryCodable: \(RoundTripTarget.hex(bytes)) → \(RoundTripTarget.hex(encoded)) decodes to another value")
        let twice = try? BinaryCodableEncoder().encode(again)
        try require(twice == encoded, "BinaryCodable: encoding is not a fixed point for \(RoundTripTarget.hex(encoded))")
    }
}
