import BinarySchema
import Reassembly

/// A PDU reassembled from a TCP stream, or a datagram from IP fragments, ready to dissect: the
/// struct that reads it, its bytes and where each came from.
package struct ReassembledUnit: Sendable {
    /// The struct that reads the bytes, or -1 when no schema claims them (raw bytes).
    package var structID: Int
    /// The bytes received, in order; `missing` ranges are not among them.
    package var bytes: [UInt8]
    package var origin: ReassemblyOrigin
}

/// Turns the TCP segments and IP fragments of a capture's frames, taken in capture order, into
/// reassembled units. One instance sees every frame, in order, on one thread: its output is the
/// same whatever thread dissected each frame.
///
/// TCP: a flow is reassembled when a segment's payload was dispatched to a struct that declares
/// how its PDUs are framed (`@pdu`); both directions are framed alike. Units a frame's own
/// dissection already showed (a PDU wholly inside one segment, in line with the segment's first
/// byte) are counted but not returned again. Memory: each stream has `TCPStream.Limits`; all the
/// flows together hold at most ``Options/maxBufferedBytes`` and ``Options/maxFlows`` flows, past
/// which the flows idle longest are evicted (their held bytes dropped, counted).
package final class CaptureReassembler {
    /// What is reassembled, and the caps.
    package struct Options: Sendable {
        package var tcp = true
        package var ip = true
        package var streamLimits = TCPStream.Limits.default
        package var defragmenterLimits = Defragmenter.Limits(maxTotalBytes: 8 << 20)
        /// Flows followed at once.
        package var maxFlows = 16_384
        /// Bytes all TCP streams may hold together.
        package var maxBufferedBytes = 24 << 20

        package init() {}
    }

    /// Counters for the end-of-run report.
    package struct Statistics: Sendable, Hashable {
        /// TCP segments fed to a stream, and the flows reassembled.
        package var segments = 0
        package var flows = 0
        /// PDUs delivered, and of them those a single segment held (shown in its own frame).
        package var pdus = 0
        package var pdusInOneSegment = 0
        package var incompletePDUs = 0
        /// Bytes that arrived twice with different values (the first received were kept).
        package var conflictingBytes = 0
        /// Flows evicted at a cap, and the bytes they held.
        package var evictedFlows = 0
        package var evictedBytes = 0
        /// Datagrams reassembled, and pending ones dropped (evicted, timed out, or at the end).
        package var datagrams = 0
        package var datagramsDropped = 0
    }

    /// The framing a struct declares: the framers of a connection's two directions (made for each
    /// flow: HTTP's share what a request says of its response) and the struct that reads one PDU.
    package struct Framing: Sendable {
        package var makeFramers: @Sendable () -> (PDUFramer, PDUFramer)
        package var pduStructID: Int

        /// The same stateless framer for both directions of every flow.
        package init(framer: PDUFramer, pduStructID: Int) {
            self.init(pduStructID: pduStructID) { (framer, framer) }
        }

        package init(pduStructID: Int, makeFramers: @escaping @Sendable () -> (PDUFramer, PDUFramer)) {
            self.makeFramers = makeFramers
            self.pduStructID = pduStructID
        }
    }

    private struct FlowKey: Hashable {
        var low: Endpoint
        var high: Endpoint
        var isIPv6: Bool

        /// The key's fields mixed into one word.
        var mixed: UInt64 {
            var mix = low.low &* 0x9E37_79B9_7F4A_7C15 ^ high.low
            mix = mix &* 0xBF58_476D_1CE4_E5B9 ^ (low.high ^ (high.high << 17 | high.high >> 47))
            mix ^= UInt64(low.port) << 16 | UInt64(high.port) << 40 | (isIPv6 ? 1 : 0)
            return mix
        }

        /// One word fed to the hasher instead of seven: the lookup runs for most TCP segments.
        func hash(into hasher: inout Hasher) {
            hasher.combine(mixed)
        }

        /// The key's counter in ``CaptureReassembler/flowFilter``.
        var filterSlot: Int { Int(truncatingIfNeeded: (mixed &* 0x94D0_49BB_1331_11EB) >> 48) }
    }

    /// The SYNs of a flow not started yet: each direction's sequence number, if seen.
    private struct SYNs {
        var sequences: (UInt32, UInt32) = (0, 0)
        var seen: (Bool, Bool) = (false, false)

        mutating func note(_ sequence: UInt32, direction: Int) {
            if direction == 0 { (sequences.0, seen.0) = (sequence, true) } else { (sequences.1, seen.1) = (sequence, true) }
        }

        func sequence(direction: Int) -> UInt32? {
            direction == 0 ? (seen.0 ? sequences.0 : nil) : (seen.1 ? sequences.1 : nil)
        }
    }

    private struct Chain {
        var frame = -1
        var offset = -1
    }

    /// The small per-direction values are kept inline (`InlineArray`): arrays cost a flow an
    /// allocation each. The streams are not: the table of flows would hold 700 bytes per slot.
    private struct Flow {
        var streams: [TCPStream]
        var pduStructID: Int
        var lastFrame: Int
        /// Started by a heuristic struct (not by its port).
        var isHeuristic: Bool
        var chains: InlineArray<2, Chain> = [Chain(), Chain()]
        /// Per direction: framing stopped, so segments are no longer fed.
        var ignored: InlineArray<2, Bool> = [false, false]
        /// Per direction: how often framing started again at a later segment.
        var restarts: InlineArray<2, Int> = [0, 0]
        var held = 0
    }

    package let options: Options
    private let framings: [Framing?]
    private let ipProtocolStructs: [Int: Int]
    // The hot state is touched by this one instance on one thread, through no overlapping
    // access: the run-time exclusivity checks cost a fifth of the stage's time.
    @exclusivity(unchecked) private var flows: [FlowKey: Flow] = [:]
    /// Per slot (``FlowKey/filterSlot``), the flows followed whose keys fall there (stuck at 255):
    /// a segment whose slot holds none belongs to no flow, told without hashing its key. While a
    /// heuristic flow is open every segment is looked up, and most belong to none.
    @exclusivity(unchecked) private var flowFilter = [UInt8](repeating: 0, count: 1 << 16)
    /// How often a direction whose bytes never started a PDU starts framing again at a later segment.
    private static let restarts = 4
    /// How many SYNs of flows not started yet are kept.
    private static let recentSYNs = 1024
    /// SYNs of flows not started yet, per direction (at most ``recentSYNs``).
    @exclusivity(unchecked) private var synSeen: [FlowKey: SYNs] = [:]
    /// Structs a heuristic (not a port) dispatches to, and the flows they started that are open.
    private let heuristicStructs: Set<Int>
    @exclusivity(unchecked) private var heuristicFlows = 0
    @exclusivity(unchecked) private var heldBytes = 0
    @exclusivity(unchecked) private var defragmenter: Defragmenter
    @exclusivity(unchecked) package private(set) var statistics = Statistics()
    /// Bytes all streams hold now, and the flows followed.
    package var bufferedBytes: Int { heldBytes }
    package var flowCount: Int { flows.count }

    /// A reassembler for `schema`; `framing` gives each struct's declared framing, if any.
    package convenience init(schema: Schema, options: Options = Options(), framing: (StructType) -> Framing?) {
        self.init(schema: schema, options: options, framings: schema.structs.map(framing))
    }

    /// A reassembler with each struct's framing worked out already (`framings[id]`), for callers
    /// that make many.
    package init(schema: Schema, options: Options = Options(), framings: [Framing?]) {
        self.options = options
        self.framings = framings
        var ipProtocolStructs: [Int: Int] = [:]
        if let table = schema.dispatchTables.first(where: { $0.name == "ip.proto" }) {
            for entry in table.lookupOrder.reversed() where entry.low >= 0 && entry.high <= 255 {
                for key in entry.low...entry.high { ipProtocolStructs[Int(key)] = entry.structID }
            }
        }
        self.ipProtocolStructs = ipProtocolStructs
        var heuristicStructs = Set<Int>()
        for table in schema.dispatchTables where table.name == "tcp.port" {
            for entry in table.heuristics { heuristicStructs.insert(entry.structID) }
        }
        self.heuristicStructs = heuristicStructs
        defragmenter = Defragmenter(limits: options.defragmenterLimits)
    }

    /// Whether `id` declares a framing: a segment dispatched to it starts or feeds a flow.
    package func isFramed(_ id: Int) -> Bool { framings.indices.contains(id) && framings[id] != nil }

    /// Takes what frame `frame` holds (its bytes `frameBytes`); appends the units it completed.
    package func process(_ tap: TransportTap, frame: Int, frameBytes: ArraySlice<UInt8>, into units: inout [ReassembledUnit]) {
        switch tap {
        case .tcp(let segment):
            guard options.tcp else { return }
            process(segment, frame: frame, frameBytes: frameBytes, into: &units)
        case .fragment(let fragment):
            guard options.ip else { return }
            process(fragment, frame: frame, frameBytes: frameBytes, into: &units)
        }
    }

    private func process(_ segment: TCPSegmentTap, frame: Int, frameBytes: ArraySlice<UInt8>,
                         into units: inout [ReassembledUnit]) {
        // A segment its port did not send to a framed protocol belongs to no flow, unless a
        // heuristic started one (then later segments, which no heuristic claims, still do), or it
        // ends one.
        guard segment.framedStructID >= 0 || heuristicFlows > 0 || segment.syn || segment.fin || segment.rst else { return }
        let forward = segment.source < segment.destination
        let key = FlowKey(low: forward ? segment.source : segment.destination,
                          high: forward ? segment.destination : segment.source, isIPv6: segment.isIPv6)
        let direction = forward ? 0 : 1
        // Without a flow, only a SYN or a framed payload can matter.
        guard segment.framedStructID >= 0 || segment.syn || flowFilter[key.filterSlot] > 0 else { return }
        guard segment.payload.upperBound <= frameBytes.count else { return }
        let payload = frameBytes[(frameBytes.startIndex + segment.payload.lowerBound)..<(frameBytes.startIndex + segment.payload.upperBound)]
        let index: Dictionary<FlowKey, Flow>.Index
        if let existing = flows.index(forKey: key) {
            index = existing
        } else if segment.syn && payload.isEmpty && segment.framedStructID < 0 {
            guard segment.portFramed else { return }
            // No payload, so no protocol yet: the SYN's sequence number is kept until the flow's
            // first bytes show what it carries, so data that arrives out of order is placed.
            // Only recent SYNs matter (their data follows within a round trip): a small table,
            // emptied when full, stays in cache.
            if synSeen.count >= Self.recentSYNs { synSeen.removeAll(keepingCapacity: true) }
            synSeen[key, default: SYNs()].note(segment.sequenceNumber, direction: direction)
            return
        } else {
            // A flow starts with a segment whose payload (or SYN) its protocol frames.
            guard segment.framedStructID >= 0, !payload.isEmpty || segment.syn,
                  let framing = framings[segment.framedStructID] else { return }
            let framers = framing.makeFramers()
            var streams = [TCPStream(framer: framers.0, limits: options.streamLimits),
                           TCPStream(framer: framers.1, limits: options.streamLimits)]
            if let syns = synSeen.removeValue(forKey: key) {
                for side in 0..<2 {
                    guard let sequence = syns.sequence(direction: side) else { continue }
                    _ = streams[side].receive(TCPSegment(sequenceNumber: sequence, syn: true, payload: [],
                                                         frame: frame, payloadOffset: 0))
                }
            }
            let heuristic = heuristicStructs.contains(segment.framedStructID)
            if heuristic { heuristicFlows += 1 }
            flows[key] = Flow(streams: streams, pduStructID: framing.pduStructID, lastFrame: frame,
                              isHeuristic: heuristic)
            let slot = key.filterSlot
            if flowFilter[slot] < .max { flowFilter[slot] += 1 }
            statistics.flows += 1
            guard let created = flows.index(forKey: key) else { return }
            index = created
        }
        statistics.segments += 1
        var ended = false
        withFlow(at: index) { flow in
            flow.lastFrame = frame
            guard !flow.ignored[direction] || segment.rst else { return }
            flow.chains[direction] = Chain(frame: frame, offset: segment.payload.lowerBound)
            let before = flow.streams[direction].bufferedByteCount
            var delivered = flow.streams[direction].receive(TCPSegment(
                sequenceNumber: segment.sequenceNumber, syn: segment.syn, fin: segment.fin,
                payload: payload, frame: frame, payloadOffset: segment.payload.lowerBound))
            if segment.rst {
                delivered += flow.streams[direction].finish()
                let other = 1 - direction
                let otherBefore = flow.streams[other].bufferedByteCount
                let rest = flow.streams[other].finish()
                account(&flow, change: flow.streams[other].bufferedByteCount - otherBefore)
                take(rest, of: &flow, direction: other, into: &units)
            }
            account(&flow, change: flow.streams[direction].bufferedByteCount - before)
            take(delivered, of: &flow, direction: direction, into: &units)
            // A direction whose first bytes do not start a PDU was most likely captured from the
            // middle of one (the capture began mid-conversation): framing starts again at the
            // next segment, a few times, as tshark tries each segment. Once the framer has given
            // up after a PDU, or too often, the bytes are the frames' own business.
            if flow.streams[direction].statistics.framingStopped != nil {
                if flow.streams[direction].statistics.pdus == 0 && flow.restarts[direction] < Self.restarts {
                    flow.restarts[direction] += 1
                    account(&flow, change: -flow.streams[direction].bufferedByteCount)
                    flow.streams[direction] = TCPStream(framer: flow.streams[direction].framer, limits: options.streamLimits)
                    flow.chains[direction] = Chain()
                } else {
                    flow.ignored[direction] = true
                }
            }
            ended = (0..<2).allSatisfy { flow.streams[$0].isFinished || flow.ignored[$0] }
        }
        if ended {
            let (key, value) = flows.remove(at: index)
            var flow = value
            forget(key)
            retire(&flow)
        } else {
            enforceCaps()
        }
    }

    /// Runs `body` on the flow at `index`, in place.
    private func withFlow(at index: Dictionary<FlowKey, Flow>.Index, _ body: (inout Flow) -> Void) {
        body(&flows.values[index])
    }

    private func account(_ flow: inout Flow, change: Int) {
        flow.held += change
        heldBytes += change
    }

    private func take(_ delivered: [ReassembledPDU], of flow: inout Flow, direction: Int,
                      into units: inout [ReassembledUnit]) {
        for pdu in delivered where pdu.kind == .pdu {
            statistics.pdus += 1
            if pdu.isIncomplete { statistics.incompletePDUs += 1 }
            var chain = flow.chains[direction]
            let alone = pdu.provenance.count == 1 && !pdu.isIncomplete && !pdu.isOversized
                && pdu.provenance[0].frame == chain.frame && pdu.provenance[0].frameOffset == chain.offset
            if alone {
                statistics.pdusInOneSegment += 1
                chain.offset += pdu.length
                flow.chains[direction] = chain
                continue
            }
            flow.chains[direction] = Chain()
            units.append(ReassembledUnit(
                structID: flow.pduStructID, bytes: pdu.bytes,
                origin: ReassemblyOrigin(unit: "TCP PDU", completingFrame: pdu.completingFrame, length: pdu.length,
                                         runs: pdu.provenance.map(ReassemblyOrigin.Run.init),
                                         missing: pdu.missing, overlapConflict: pdu.overlapConflict,
                                         declaredLength: pdu.isOversized ? pdu.declaredLength ?? pdu.length : nil)))
        }
    }

    /// Takes a flow that is no longer followed out of ``flowFilter``.
    private func forget(_ key: FlowKey) {
        let slot = key.filterSlot
        if flowFilter[slot] < .max { flowFilter[slot] -= 1 }
    }

    /// Folds a flow's counters into the totals when it ends.
    private func retire(_ flow: inout Flow) {
        if flow.isHeuristic { heuristicFlows -= 1 }
        for stream in flow.streams {
            statistics.conflictingBytes += stream.statistics.conflictingBytes
        }
        heldBytes -= flow.held
        flow.held = 0
    }

    /// Evicts the flows idle longest, an eighth at a time, while a cap is passed.
    private func enforceCaps() {
        guard flows.count > options.maxFlows || heldBytes > options.maxBufferedBytes else { return }
        let byAge = flows.sorted { $0.value.lastFrame < $1.value.lastFrame }
        var evicted = 0
        for (key, var flow) in byAge {
            guard flows.count > options.maxFlows - options.maxFlows / 8 || heldBytes > options.maxBufferedBytes - options.maxBufferedBytes / 8
            else { break }
            flows[key] = nil
            forget(key)
            statistics.evictedBytes += flow.held
            retire(&flow)
            evicted += 1
        }
        statistics.evictedFlows += evicted
    }

    private func process(_ fragment: IPFragmentTap, frame: Int, frameBytes: ArraySlice<UInt8>,
                         into units: inout [ReassembledUnit]) {
        guard fragment.payload.upperBound <= frameBytes.count else { return }
        let start = frameBytes.startIndex + fragment.payload.lowerBound
        let key: Defragmenter.Key = fragment.isIPv6
            ? .ipv6(source: Self.bytes(fragment.source, 16), destination: Self.bytes(fragment.destination, 16),
                    identification: fragment.identification)
            : .ipv4(source: Self.bytes(fragment.source, 4), destination: Self.bytes(fragment.destination, 4),
                    identification: UInt16(truncatingIfNeeded: fragment.identification), protocolNumber: fragment.protocolNumber)
        let outcome = defragmenter.add(Defragmenter.Fragment(
            key: key, protocolNumber: fragment.protocolNumber, offset: fragment.offset,
            moreFragments: fragment.moreFragments, bytes: Array(frameBytes[start..<(start + fragment.payload.count)]),
            frame: frame, frameOffset: fragment.payload.lowerBound))
        guard case .completed(let datagram) = outcome else { return }
        statistics.datagrams += 1
        units.append(ReassembledUnit(
            structID: ipProtocolStructs[Int(datagram.protocolNumber)] ?? -1,
            bytes: datagram.payload,
            origin: ReassemblyOrigin(unit: fragment.isIPv6 ? "IPv6 datagram" : "IPv4 datagram",
                                     completingFrame: frame, length: datagram.payload.count,
                                     runs: datagram.provenance.map(ReassemblyOrigin.Run.init), missing: [],
                                     overlapConflict: datagram.flags.contains(.overlapConflict), declaredLength: nil)))
    }

    /// The last `count` bytes (4 or 16) of an address packed in `endpoint`, most significant first.
    private static func bytes(_ endpoint: Endpoint, _ count: Int) -> [UInt8] {
        (0..<count).map { position in
            let fromEnd = count - 1 - position
            let word = fromEnd < 8 ? endpoint.low : endpoint.high
            return UInt8(truncatingIfNeeded: word >> (UInt64(fromEnd % 8) * 8))
        }
    }

    /// Ends every stream (the capture ended): appends the PDUs still held, incomplete ones among them.
    package func finish(into units: inout [ReassembledUnit]) {
        for key in flows.keys.sorted(by: { ($0.low, $0.high) < ($1.low, $1.high) }) {
            guard var flow = flows[key] else { continue }
            for direction in 0..<2 {
                flow.chains[direction] = Chain()
                take(flow.streams[direction].finish(), of: &flow, direction: direction, into: &units)
            }
            retire(&flow)
        }
        flows.removeAll()
        for slot in flowFilter.indices { flowFilter[slot] = 0 }
        synSeen.removeAll()
        let pending = defragmenter.pendingCount
        defragmenter.finish()
        statistics.datagramsDropped = defragmenter.statistics.evictedByCap + defragmenter.statistics.evictedByTimeout + pending
    }
}

extension ReassemblyOrigin.Run {
    init(_ provenance: Provenance) {
        self.init(frame: provenance.frame, frameOffset: provenance.frameOffset, offset: provenance.unitOffset,
                  length: provenance.length)
    }
}
