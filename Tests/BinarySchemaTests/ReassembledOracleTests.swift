import BinarySchema
import Dissector
import Foundation
import Testing

/// Field by field against tshark with its reassembly on, on the captures of Corpus/reassembly:
/// each frame's fields, and the fields of the PDUs and datagrams the frame completes. tshark gives
/// a reassembled PDU's fields offsets in the reassembled buffer, as our units have theirs; a field
/// is matched when the frame's own dissection or one of its units holds it there, with its bytes
/// and value.
@Suite struct ReassembledOracleTests {
    /// tshark fields that are its guesses, not the bytes' meaning: `capture frame field`.
    /// tls-midstream's frame 2 starts inside a certificate; tshark reads its first bytes as an
    /// SSLv2 record ("SSLv2 Encrypted Data"), dissect as continuation bytes.
    static let tsharkArtifacts: Set<String> = [
        "tls-midstream 2 tls.record", "tls-midstream 2 tls.record.length", "tls-midstream 2 tls.record.content_type",
        "tls-midstream 2 tls.record.version", "tls-midstream 2 tls.app_data",
    ]

    @Test(arguments: [
        ("tls-multisegment", "tls-multisegment"), ("tls-midstream", "tls-midstream"), ("http-large", "http-large"),
        ("dns-tcp-large", "dns-tcp-large"),
        ("ip-fragments", "ip-fragments"), ("tcp-tricky", "tcp-tricky.out-of-order"),
    ])
    func matchesTsharkWithReassembly(capture: String, oracle: String) throws {
        let folder = repositoryRoot.appendingPathComponent("Corpus/reassembly")
        let pcap = try PcapFile(contentsOf: folder.appendingPathComponent("\(capture).pcap"))
        let packets = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: folder.appendingPathComponent("\(oracle).json"))) as? [[String: Any]])
        try #require(packets.count == pcap.frames.count)
        let root = try #require(bundledSchema.rootStruct(forLinkType: pcap.linkType))
        var interpreter = Interpreter(schema: bundledSchema)
        let tapper = ReassemblyStage.tapper(for: bundledSchema)
        interpreter.noteStructs(tapper.structIDs)
        let reassembler = CaptureReassembler(schema: bundledSchema) { PDUFramings.framing(of: $0, in: bundledSchema) }
        var compared = 0
        var matchedInUnits = 0
        for (index, frame) in pcap.frames.enumerated() {
            let number = index + 1
            let dissection = interpreter.dissect(frame, root: root, originalLength: pcap.originalLengths[index])
            var units: [ReassembledUnit] = []
            if let tap = tapper.tap(dissection) {
                reassembler.process(tap, frame: number, frameBytes: frame[...], into: &units)
            }
            // Each unit, and where its offset 0 is in this frame when all its bytes are this frame's
            // (tshark reads such a PDU in the frame's own bytes).
            let unitDissections = units.compactMap { unit -> (Dissection, Int?)? in
                guard unit.structID >= 0, unit.origin.missing.isEmpty else { return nil }
                let runs = unit.origin.runs
                let inFrame = runs.count == 1 && runs[0].frame == number ? runs[0].frameOffset : nil
                return (interpreter.dissect(unit.bytes, root: bundledSchema.structs[unit.structID]), inFrame)
            }
            for (unit, _) in unitDissections {
                #expect(unit.error == nil, "frame \(number): a unit fails: \(unit.error.map(String.init(describing:)) ?? "")")
            }
            let candidates = [(dissection, 0)] + unitDissections.flatMap { unit, inFrame in
                [(unit, 0)] + (inFrame.map { [(unit, $0)] } ?? [])
            }
            let paths = candidates.map { candidate, _ in candidate.nodes.indices.map { candidate.path(of: $0) } }
            let layers = try #require((packets[index]["_source"] as? [String: Any])?["layers"] as? [String: Any])
            var fields: [BundledSchemaOracleTests.OracleField] = []
            BundledSchemaOracleTests.collect(layers, into: &fields)
            for field in fields where !Self.tsharkArtifacts.contains("\(capture) \(number) \(field.name)") {
                guard let mapping = BundledSchemaOracleTests.mappingsByName[field.name] else { continue }
                compared += 1
                let mismatches = zip(candidates, paths).enumerated().map { position, pair in
                    let ((candidate, shift), paths) = pair
                    let shifted = BundledSchemaOracleTests.OracleField(
                        name: field.name, hex: field.hex, offset: field.offset - shift, length: field.length,
                        mask: field.mask, shown: field.shown)
                    // A unit's root is what a segment's payload was: `tcp.payload.length` in a
                    // frame is `DNSOverTCP.length` in a unit read from that struct.
                    let root = candidate.structType(of: 0)?.name ?? ""
                    let unitMapping = BundledSchemaOracleTests.Mapping(
                        tshark: mapping.tshark,
                        patterns: mapping.patterns.map { $0.hasPrefix("tcp.payload.") ? root + "." + $0.dropFirst(12) : $0 },
                        comparison: mapping.comparison)
                    return BundledSchemaOracleTests.mismatch(shifted, position == 0 ? mapping : unitMapping, candidate, paths)
                }
                if let position = mismatches.firstIndex(where: { $0 == nil }) {
                    if position > 0 { matchedInUnits += 1 }
                } else {
                    Issue.record("frame \(number), \(field.name) at \(field.offset): \(mismatches.compactMap { $0 })")
                }
            }
        }
        #expect(compared > 0)
        // The reassembled PDUs and datagrams themselves were compared, not only the frames.
        #expect(matchedInUnits >= 4, "\(capture): \(matchedInUnits) fields matched in reassembled units")
    }
}
