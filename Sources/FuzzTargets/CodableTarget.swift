import BinaryCoding
import BinarySchema
import Foundation

/// A value with most kinds of field the coders handle: integers of each width and sign,
/// Bool, floats, String, Optional, arrays, nested structs, an enum and Data.
struct Telemetry: Codable, Equatable {
    enum Kind: UInt8, Codable { case idle = 0, running = 1, failed = 2 }

    struct Reading: Codable, Equatable {
        var sensor: UInt16
        var value: Int32
        var label: String?
    }

    var version: UInt8
    var kind: Kind
    var active: Bool
    var sequence: UInt32
    var offset: Int64
    var small: Int8
    var temperature: Float
    var ratio: Double?
    var name: String
    var readings: [Reading]
    var payload: Data

    static func == (left: Telemetry, right: Telemetry) -> Bool {
        // Floats compare by bits: a decoded NaN must survive the round trip too.
        left.version == right.version && left.kind == right.kind && left.active == right.active
            && left.sequence == right.sequence && left.offset == right.offset && left.small == right.small
            && left.temperature.bitPattern == right.temperature.bitPattern
            && left.ratio?.bitPattern == right.ratio?.bitPattern && left.name == right.name
            && left.readings == right.readings && left.payload == right.payload
    }

    static let example = Telemetry(
        version: 2, kind: .running, active: true, sequence: 77, offset: -5, small: -1, temperature: 21.5, ratio: 0.25,
        name: "pump-7", readings: [Reading(sensor: 1, value: -40, label: "inlet"), Reading(sensor: 2, value: 90, label: nil)],
        payload: Data([0xCA, 0xFE]))
}

/// Telemetry and a Dictionary, which the codable target decodes. (Not the roundtrip target:
/// a dictionary's encoding order is not the order it was read in.)
struct TaggedTelemetry: Codable, Equatable {
    var telemetry: Telemetry
    var attributes: [String: UInt16]

    static let example = TaggedTelemetry(telemetry: .example, attributes: ["zone": 3])
}

/// The heart-rate measurement of Schemas/examples/heart-rate.schema as a Swift type.
struct HeartRateMeasurement: Codable, Equatable {
    struct Flags: Codable, Equatable {
        var rateIs16Bit: UInt8
        var sensorContact: UInt8
        var energyExpendedPresent: UInt8
        var rrIntervalsPresent: UInt8
        var reserved: UInt8
    }

    var flags: Flags
    var heartRate: UInt16
    var energyExpended: UInt16?
    var rrIntervals: [UInt16]?
}

/// The Codable formats fuzzed: the first input byte picks one, the rest is the encoding.
enum CodableFormats {
    static let sequential: [BinaryCodingOptions] = {
        var little = BinaryCodingOptions()
        little.byteOrder = .little
        var varint = BinaryCodingOptions()
        varint.integerEncoding = .varint
        var narrow = BinaryCodingOptions()
        narrow.lengthEncoding = .u8
        narrow.nestingLimit = 4
        return [BinaryCodingOptions(), .classic, little, varint, narrow]
    }()

    static let heartRateSchema: Schema? = try? SchemaLoader.load(paths: [SchemaLoader.bundledDirectory + "/examples/heart-rate.schema"])

    /// Coders for Schemas/examples/heart-rate.schema (made per input: they keep working state).
    static var heartRate: (decoder: SchemaDecoder, encoder: SchemaEncoder)? {
        guard let schema = heartRateSchema,
              let decoder = try? SchemaDecoder(schema: schema, root: "HeartRateMeasurement"),
              let encoder = try? SchemaEncoder(schema: schema, root: "HeartRateMeasurement") else { return nil }
        return (decoder, encoder)
    }

    /// The options the first byte picks, and the bytes after it.
    static func split(_ bytes: [UInt8]) -> (options: BinaryCodingOptions, body: [UInt8])? {
        guard let first = bytes.first else { return nil }
        return (sequential[Int(first) % sequential.count], Array(bytes.dropFirst()))
    }
}

/// The decoders over arbitrary bytes: a value or a ``BinaryCodingError`` naming where, never a trap.
enum CodableTarget {
    static func run(_ bytes: [UInt8]) throws(InvariantViolation) {
        if let (options, body) = CodableFormats.split(bytes) {
            do {
                let used = try BinaryDecoder(options: options).decode(TaggedTelemetry.self, fromPrefixOf: body).bytesUsed
                try require(used >= 0 && used <= body.count, "the decoder used \(used) of \(body.count) bytes")
            } catch {
                try requireDecodingError(error, "the sequential decoder")
            }
        }
        if let heartRate = CodableFormats.heartRate {
            do {
                _ = try heartRate.decoder.decode(HeartRateMeasurement.self, from: bytes)
            } catch {
                try requireDecodingError(error, "the schema decoder")
            }
        }
        try KeyedArchiveFuzz.decode(bytes)
        try BinaryCodableTargets.decode(bytes)
    }

    /// Decoders report bad bytes as `DecodingError` (with a ``BinaryCodingError`` underneath
    /// when the bytes, not the type, were at fault) or as ``BinaryCodingError``; nothing else.
    static func requireDecodingError(_ error: any Error, _ decoder: String) throws(InvariantViolation) {
        switch error {
        case let error as BinaryCodingError:
            try require(!error.description.isEmpty, "\(decoder): an error without a message")
        case let error as DecodingError:
            let context: DecodingError.Context?
            switch error {
            case .dataCorrupted(let found), .keyNotFound(_, let found), .typeMismatch(_, let found), .valueNotFound(_, let found):
                context = found
            @unknown default:
                context = nil
            }
            try require(context.map { !$0.debugDescription.isEmpty } ?? true, "\(decoder): a DecodingError without a description")
        default:
            throw InvariantViolation("\(decoder) threw \(type(of: error)): \(error)")
        }
    }
}
