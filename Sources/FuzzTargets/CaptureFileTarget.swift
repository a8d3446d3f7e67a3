import BinarySchema
import Dissector
import Foundation
import PacketCapture

/// Capture file bytes through libpcap (pcap or pcapng) or, for the pcapng files libpcap refuses,
/// our own reader, every packet through the dissector, and
/// the TCP segments and IP fragments through reassembly.
enum CaptureFileTarget {
    /// Reassembly with small caps, so hostile files reach them.
    private static let options: CaptureReassembler.Options = {
        var options = CaptureReassembler.Options()
        options.maxFlows = 8
        options.maxBufferedBytes = 1 << 16
        options.streamLimits = .init(maxBufferedBytes: 1 << 14, maxPDULength: 1 << 12, maxWindowAhead: 1 << 16,
                                     maxHeldSegments: 16)
        return options
    }()
    // Made once: they depend on the schema alone, and making them costs more than a small input.
    private static let tapper = ReassemblyStage.tapper(for: BundledSchema.schema, options: options)
    private static let framings = BundledSchema.schema.structs.map { PDUFramings.framing(of: $0, in: BundledSchema.schema) }

    static func run(_ bytes: [UInt8]) throws(InvariantViolation) {
        guard let capture = try? Capture.open(bytes: bytes) else { return }
        let schema = BundledSchema.schema
        guard let root = schema.rootStruct(forLinkType: capture.linkType) ?? schema.structType(named: "Unrecognized") else {
            throw InvariantViolation("no root for link type \(capture.linkType) and no Unrecognized struct")
        }
        var interpreter = Interpreter(schema: schema, options: DissectionInvariants.walkOptions)
        interpreter.noteStructs(tapper.structIDs)
        let reassembler = CaptureReassembler(schema: schema, options: options, framings: framings)
        var frames: [[UInt8]] = []
        var units: [ReassembledUnit] = []
        var packets = 0
        while packets < 10_000, case .packet(let packet)? = try? capture.next() {
            packets += 1
            try require(packet.bytes.count <= bytes.count, "a packet of \(packet.bytes.count) bytes from a \(bytes.count)-byte file")
            // A pcapng file's interfaces may differ in link type (our own reader reads those).
            var root = root
            if let linkType = packet.linkType, linkType != capture.linkType {
                root = schema.rootStruct(forLinkType: linkType) ?? schema.structType(named: "Unrecognized") ?? root
            }
            let dissection = interpreter.dissect(packet.bytes, root: root, originalLength: packet.originalLength)
            try DissectionInvariants.check(dissection, root: root.name)
            // The file's timestamps are arbitrary too: the views must format any of them.
            let frame = FrameInfo(number: packets, time: CaptureTime(seconds: packet.seconds, nanoseconds: packet.nanoseconds),
                                  originalLength: packet.originalLength)
            _ = View.summary.render(dissection, frame: frame)
            let json = View.json.render(dissection, frame: frame)
            try require((try? JSONSerialization.jsonObject(with: Data(json.utf8))) is [String: Any],
                        "packet \(packets): the json view does not parse: \(json.prefix(200))")
            frames.append(packet.bytes)
            if let tap = tapper.tap(dissection) {
                reassembler.process(tap, frame: packets, frameBytes: packet.bytes[...], into: &units)
            }
            try checkUnits(&units, frames: frames, interpreter: &interpreter, schema: schema)
        }
        reassembler.finish(into: &units)
        try checkUnits(&units, frames: frames, interpreter: &interpreter, schema: schema)
    }

    /// Every byte of a unit is the byte its provenance names in an earlier frame, the runs and
    /// missing ranges cover the unit once, and the unit dissects and renders as valid JSON.
    private static func checkUnits(_ units: inout [ReassembledUnit], frames: [[UInt8]], interpreter: inout Interpreter,
                                   schema: Schema) throws(InvariantViolation) {
        defer { units.removeAll() }
        for unit in units {
            let origin = unit.origin
            let covered = origin.runs.reduce(0) { $0 + $1.length } + origin.missing.reduce(0) { $0 + $1.count }
            try require(covered == origin.length && unit.bytes.count == origin.runs.reduce(0) { $0 + $1.length },
                        "a unit of \(origin.length) bytes covered \(covered) times, holding \(unit.bytes.count)")
            var received = 0
            for run in origin.runs {
                try require(run.frame >= 1 && run.frame <= frames.count, "a run from frame \(run.frame) of \(frames.count)")
                let frame = frames[run.frame - 1]
                try require(run.frameOffset >= 0 && run.frameOffset + run.length <= frame.count,
                            "a run past the end of frame \(run.frame)")
                try require(Array(frame[run.frameOffset..<(run.frameOffset + run.length)])
                                == Array(unit.bytes[received..<(received + run.length)]),
                            "unit bytes differ from frame \(run.frame) at \(run.frameOffset)")
                received += run.length
            }
            guard unit.structID >= 0, schema.structs.indices.contains(unit.structID) else { continue }
            let root = schema.structs[unit.structID]
            let dissection = interpreter.dissect(unit.bytes, root: root)
            try DissectionInvariants.check(dissection, root: root.name)
            var frame = FrameInfo(label: "reassembled")
            frame.reassembly = origin
            let json = View.json.render(dissection, frame: frame)
            try require((try? JSONSerialization.jsonObject(with: Data(json.utf8))) is [String: Any],
                        "a reassembled unit's json does not parse: \(json.prefix(200))")
            _ = View.hex.render(dissection, frame: frame)
        }
    }
}
