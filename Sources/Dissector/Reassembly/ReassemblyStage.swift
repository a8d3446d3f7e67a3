import BinarySchema
import Reassembly

/// The sequential end of a capture's reassembly: takes each frame's tap in capture order, and
/// dissects and renders the units they complete, each under the frame that completed it. Frames
/// are dissected anywhere (``TransportTapper`` runs with each frame's dissection); this stage runs
/// on one thread, so what it shows does not depend on how many threads dissected.
package final class ReassemblyStage {
    package let reassembler: CaptureReassembler
    // One thread drives a stage, through no overlapping access: no run-time exclusivity checks.
    @exclusivity(unchecked) private var interpreter: Interpreter
    private let schema: Schema
    private let renderer: ViewRenderer?
    private let rawStruct: StructType?
    @exclusivity(unchecked) private var units: [ReassembledUnit] = []
    /// What the units rendered since the caller last emptied it.
    @exclusivity(unchecked) package var output = TextSink(capacity: 1 << 12)
    /// Units whose dissection failed.
    package private(set) var unitsWithErrors = 0
    /// `-Y`: only the units it passes are shown (all are reassembled and counted).
    @exclusivity(unchecked) package var displayFilter: DisplayFilter?
    /// Takes each unit the display filter passes, in place of rendering it (a library user's events).
    package var unitHandler: ((Dissection, FrameInfo) -> Void)?

    /// A stage over `schema`, rendering in `view` (nil: dissect and count only, as for `-q`).
    package init(schema: Schema, options: CaptureReassembler.Options, walk: Interpreter.Options,
                 view: View?, renderOptions: RenderOptions) {
        self.schema = schema
        reassembler = CaptureReassembler(schema: schema, options: options) { PDUFramings.framing(of: $0, in: schema) }
        interpreter = Interpreter(schema: schema, options: walk)
        renderer = view.map { ViewRenderer(view: $0, options: renderOptions) }
        rawStruct = schema.structType(named: "Unrecognized")
    }

    /// A tapper for frames dissected with `schema` (each worker its own copy of the same schemas).
    package static func tapper(for schema: Schema, options: CaptureReassembler.Options = .init()) -> TransportTapper {
        TransportTapper(schema: schema, segments: options.tcp) { PDUFramings.framing(of: $0, in: schema) != nil }
    }

    /// Takes frame `frame`'s tap; renders into ``output`` the units it completed (in the one-line
    /// views on the lines after the frame's own, or where it would be when `frameShown` is false).
    package func process(_ tap: TransportTap, frame: Int, frameBytes: ArraySlice<UInt8>, frameShown: Bool = true) {
        reassembler.process(tap, frame: frame, frameBytes: frameBytes, into: &units)
        showUnits(endingFrameLine: frameShown)
    }

    /// The capture ended: renders what the streams still held (incomplete units among them).
    package func finish() {
        reassembler.finish(into: &units)
        showUnits(endingFrameLine: false)
    }

    /// Renders the units. In the one-line views (summary, JSON) each is a line of its own: written
    /// before the newline that ends its frame's line (`endingFrameLine`), else after; in the
    /// others, a block followed by a blank line, as frames are.
    private func showUnits(endingFrameLine: Bool) {
        guard !units.isEmpty else { return }
        defer { units.removeAll(keepingCapacity: true) }
        for unit in units {
            guard let root = unit.structID >= 0 ? schema.structs[unit.structID] : rawStruct else { continue }
            // An incomplete unit is dissected up to its first missing byte: what follows a gap
            // would otherwise sit at the wrong offsets.
            let received = unit.origin.missing.first.map { Array(unit.bytes.prefix($0.lowerBound)) } ?? unit.bytes
            let failed = interpreter.withDissection(of: received, root: root,
                                                    originalLength: unit.origin.length) { dissection in
                guard renderer != nil || unitHandler != nil,
                      displayFilter?.matches(dissection, originalLength: unit.origin.length) ?? true else {
                    return dissection.error != nil
                }
                var frame = FrameInfo(label: "reassembled")
                frame.reassembly = unit.origin
                if let unitHandler {
                    unitHandler(dissection, frame)
                } else if let renderer {
                    let oneLine = renderer.view.isOneLinePerFrame
                    if oneLine && endingFrameLine { output.newline() }
                    renderer.render(dissection, frame: frame, into: &output)
                    if !oneLine || !endingFrameLine { output.newline() }
                    if !oneLine { output.newline() }
                }
                return dissection.error != nil
            }
            if failed { unitsWithErrors += 1 }
        }
    }

    /// `3 PDUs reassembled (1 with errors), 2 datagrams`, or nil when there was nothing to reassemble.
    package var totals: String? {
        let statistics = reassembler.statistics
        guard statistics.flows > 0 || statistics.datagrams > 0 || statistics.datagramsDropped > 0 else { return nil }
        var parts: [String] = []
        let multiSegment = statistics.pdus - statistics.pdusInOneSegment
        let hasDatagrams = statistics.datagrams > 0 || statistics.datagramsDropped > 0
        // Said when it is all there is to say (TCP flows were followed), or when it is not zero.
        if multiSegment > 0 || statistics.incompletePDUs > 0 || !hasDatagrams {
            parts.append("\(multiSegment) PDU\(multiSegment == 1 ? "" : "s") reassembled from several segments"
                + (statistics.incompletePDUs > 0 ? " (\(statistics.incompletePDUs) incomplete)" : ""))
        }
        if hasDatagrams {
            parts.append("\(statistics.datagrams) datagram\(statistics.datagrams == 1 ? "" : "s") from fragments"
                + (statistics.datagramsDropped > 0 ? " (\(statistics.datagramsDropped) incomplete, dropped)" : ""))
        }
        if unitsWithErrors > 0 { parts.append("\(unitsWithErrors) reassembled with errors") }
        if statistics.conflictingBytes > 0 { parts.append("\(statistics.conflictingBytes) overlapping bytes differed") }
        if statistics.evictedFlows > 0 {
            parts.append("\(statistics.evictedFlows) flow\(statistics.evictedFlows == 1 ? "" : "s") evicted at the memory cap "
                + "(\(statistics.evictedBytes) bytes dropped)")
        }
        return parts.joined(separator: ", ")
    }
}
