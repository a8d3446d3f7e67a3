import BinaryCoding
import Foundation

/// What a fuzz target found wrong beyond a crash: a broken invariant, with what and where.
package struct InvariantViolation: Error, CustomStringConvertible {
    package let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// Throws an ``InvariantViolation`` unless `condition` holds.
@inline(__always)
func require(_ condition: Bool, _ message: @autoclosure () -> String) throws(InvariantViolation) {
    if !condition { throw InvariantViolation(message()) }
}

/// The fuzz targets: each takes arbitrary bytes, exercises one part of dissect, and checks its
/// invariants. The libFuzzer executables in `Fuzz/` call ``run(_:)`` and crash on a
/// violation; `swift test` replays every corpus and regression file through it.
package enum FuzzTarget: String, CaseIterable, Sendable {
    /// A frame dissected from the link-layer root its first byte picks: spans and errors.
    case dissector
    /// The same input, dissected and rendered in every view.
    case views
    /// Schema text through the lexer, parser and checker; a schema that checks then dissects bytes.
    case schema
    /// The sequential and schema-driven Codable decoders over representative types.
    case codable
    /// Whatever decodes encodes back to the same bytes and decodes to an equal value.
    case roundtrip
    /// pcap and pcapng file bytes through libpcap and the dissector.
    case pcap
    /// Bytes dissected from a struct of the example schemas (`Schemas/examples`) the first byte
    /// picks: the language's reads at an offset, parameters, computed values, run-time byte order.
    case formats
    /// IP fragments or TCP segments the input describes, through the reassemblers: caps hold, and
    /// every byte out is a byte a frame put in, where its provenance says.
    case reassembly

    /// Runs one input; throws when an invariant breaks.
    package func run(_ bytes: [UInt8]) throws(InvariantViolation) {
        switch self {
        case .dissector: try DissectorTarget.run(bytes)
        case .views: try ViewsTarget.run(bytes)
        case .schema: try SchemaTarget.run(bytes)
        case .codable: try CodableTarget.run(bytes)
        case .roundtrip: try RoundTripTarget.run(bytes)
        case .pcap: try CaptureFileTarget.run(bytes)
        case .formats: try FormatsTarget.run(bytes)
        case .reassembly: try ReassemblyTarget.run(bytes)
        }
    }

    /// The libFuzzer entry: runs the input and stops the process on a violation, so libFuzzer
    /// keeps the input as a crash artifact.
    package func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        do {
            try run(bytes)
        } catch {
            fatalError("\(rawValue): invariant violated: \(error.description)")
        }
        return 0
    }
}

extension FuzzTarget {
    /// Seeds made by encoding representative values, for the targets whose inputs are encoder
    /// output: file name → bytes. `dissect-fuzz seeds` writes them to `Corpus/fuzz/`.
    package var encodedSeeds: [String: [UInt8]] {
        if self == .formats { return FormatsTarget.seeds }
        guard self == .codable || self == .roundtrip else { return [:] }
        var seeds: [String: [UInt8]] = [:]
        for (index, options) in CodableFormats.sequential.enumerated() {
            let encoder = BinaryEncoder(options: options)
            if self == .codable, let bytes = try? encoder.encode(TaggedTelemetry.example) {
                seeds["telemetry-format\(index)"] = [UInt8(index)] + bytes
            }
            if self == .roundtrip, let bytes = try? encoder.encode(Telemetry.example) {
                seeds["record-format\(index)"] = [UInt8(index)] + bytes
            }
        }
        let heartRates = [
            HeartRateMeasurement(flags: .init(rateIs16Bit: 0, sensorContact: 3, energyExpendedPresent: 0, rrIntervalsPresent: 0, reserved: 0),
                                 heartRate: 72, energyExpended: nil, rrIntervals: nil),
            HeartRateMeasurement(flags: .init(rateIs16Bit: 1, sensorContact: 2, energyExpendedPresent: 1, rrIntervalsPresent: 1, reserved: 0),
                                 heartRate: 310, energyExpended: 1200, rrIntervals: [800, 790, 1024]),
        ]
        for (index, value) in heartRates.enumerated() {
            if let encoder = CodableFormats.heartRate?.encoder, let bytes = try? encoder.encode(value) {
                seeds["heart-rate-\(index)"] = bytes
            }
        }
        if let archive = KeyedArchiveFuzz.seed { seeds["keyed-archive"] = archive }
        return seeds
    }
}
