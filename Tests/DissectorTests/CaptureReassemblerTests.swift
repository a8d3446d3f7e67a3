import BinarySchema
import Dissector
import Testing

/// The reassembly stage's caps, with taps made by hand: a hostile capture of many flows that each
/// start a TLS record and never finish it cannot make it hold more than its caps, and what it
/// evicts is counted.
@Suite struct CaptureReassemblerTests {
    let tls = bundled.structType(named: "TLS")

    /// The first 1000 bytes of a TLS record that claims 16,000, from `port` to 443.
    func segment(port: UInt16, sequence: UInt32 = 1) -> (TransportTap, [UInt8]) {
        var frame = [UInt8](repeating: 0, count: 54)
        frame += [22, 3, 3, 0x3E, 0x80] + [UInt8](repeating: 0xAB, count: 995)
        let tap = TCPSegmentTap(
            isIPv6: false, source: Endpoint(high: 0, low: 0x0A00_0001, port: port),
            destination: Endpoint(high: 0, low: 0x0A00_0002, port: 443), sequenceNumber: sequence,
            syn: false, fin: false, rst: false, payload: 54..<frame.count, framedStructID: tls?.id ?? -1, portFramed: true)
        return (.tcp(tap), frame)
    }

    func reassembler(maxFlows: Int, maxBufferedBytes: Int) -> CaptureReassembler {
        var options = CaptureReassembler.Options()
        options.maxFlows = maxFlows
        options.maxBufferedBytes = maxBufferedBytes
        return CaptureReassembler(schema: bundled, options: options) { PDUFramings.framing(of: $0, in: bundled) }
    }

    @Test func theFlowCapEvictsTheFlowsIdleLongestAndCountsThem() throws {
        try #require(tls != nil)
        let stage = reassembler(maxFlows: 64, maxBufferedBytes: 1 << 30)
        var units: [ReassembledUnit] = []
        for (frame, port) in (1000..<1500).enumerated() {
            let (tap, bytes) = segment(port: UInt16(port))
            stage.process(tap, frame: frame + 1, frameBytes: bytes[...], into: &units)
            #expect(stage.flowCount <= 64)
        }
        #expect(units.isEmpty, "no record completed")
        #expect(stage.statistics.flows == 500)
        #expect(stage.statistics.evictedFlows == 500 - stage.flowCount)
        #expect(stage.statistics.evictedBytes == stage.statistics.evictedFlows * 1000)
        // The flow fed last is still followed: its next segment completes nothing yet, but it is
        // taken (not a new flow).
        let (tap, bytes) = segment(port: 1499, sequence: 1001)
        stage.process(tap, frame: 501, frameBytes: bytes[...], into: &units)
        #expect(stage.statistics.flows == 500)
    }

    @Test func theByteCapHoldsWhateverTheFlowCount() throws {
        try #require(tls != nil)
        let stage = reassembler(maxFlows: 100_000, maxBufferedBytes: 50_000)
        var units: [ReassembledUnit] = []
        for (frame, port) in (1000..<1400).enumerated() {
            let (tap, bytes) = segment(port: UInt16(port))
            stage.process(tap, frame: frame + 1, frameBytes: bytes[...], into: &units)
            #expect(stage.bufferedBytes <= 50_000)
        }
        #expect(stage.statistics.evictedFlows > 300)
        var finished: [ReassembledUnit] = []
        stage.finish(into: &finished)
        // What was still held comes out at the end as incomplete records, never invented bytes.
        #expect(!finished.isEmpty && finished.allSatisfy { !$0.origin.missing.isEmpty && $0.bytes.count == 1000 })
        #expect(stage.bufferedBytes == 0 && stage.flowCount == 0)
    }
}
