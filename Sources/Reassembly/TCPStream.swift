/// One direction of a TCP connection, reassembled into PDUs with the provenance of every byte.
///
/// Feed it the segments of one direction, in capture order, with `receive(_:)`; it returns the
/// PDUs that became deliverable. Call `finish()` when the capture ends (a FIN whose bytes have all
/// arrived finishes the stream by itself).
///
/// - Sequence space: 32-bit serial arithmetic, so the stream runs on across 2^32. The SYN (its
///   sequence number + 1) or else the first segment that carries bytes sets stream offset 0; a SYN
///   seen after that is ignored. Bytes before the delivery point (already delivered) are counted
///   as duplicates and not compared.
/// - Order: segments ahead of the next expected byte are held until the gap fills. A segment that
///   starts more than `Limits.maxWindowAhead` bytes ahead is counted and dropped.
/// - Overlaps: the first received bytes win. A segment that brings no new byte is a
///   retransmission (counted, ignored). Overlapping bytes that differ from the held ones are
///   counted in `Statistics.conflictingBytes` and flag the PDU that holds them (`overlapConflict`):
///   that is what an evasion attempt looks like.
/// - Gaps: bytes after a gap are held. When the stream ends, or a limit forces it, the gap is given
///   up: a PDU that spans it is delivered with `missing` ranges and only the bytes received. If the
///   framer knew the PDU's length, framing goes on after it; if the gap hid the next PDU's start,
///   framing stops and the rest is delivered as `.continuation`. A PDU that runs to the end of the
///   stream (`.untilEndOfStream`) ends at the last held byte when a limit gives up a gap inside it.
/// - Limits: see `Limits`. A PDU longer than `maxPDULength` (a length field that lies, or a large
///   body) is delivered cut at the limit (`isOversized`, `declaredLength`); the rest of its declared
///   length follows as `.continuation` bytes as they arrive, never held, and framing resumes after
///   it. A PDU whose end the framer cannot tell within the limit stops framing.
public struct TCPStream: Sendable {
    /// Memory and window bounds for one stream.
    public struct Limits: Sendable, Hashable {
        /// Bytes held (in order and out of order) before the oldest gap is given up. At least
        /// `maxPDULength` (raised to it).
        public var maxBufferedBytes: Int
        /// The longest PDU delivered whole; longer ones are cut (see `TCPStream`).
        public var maxPDULength: Int
        /// How far ahead of the next expected byte a segment may start; further ones are dropped.
        public var maxWindowAhead: Int
        /// Out-of-order segments held at once before the oldest gap is given up.
        public var maxHeldSegments: Int

        public init(
            maxBufferedBytes: Int = 4 << 20, maxPDULength: Int = 1 << 20, maxWindowAhead: Int = 16 << 20,
            maxHeldSegments: Int = 4096
        ) {
            self.maxPDULength = max(1, maxPDULength)
            self.maxBufferedBytes = max(maxBufferedBytes, self.maxPDULength)
            self.maxWindowAhead = max(0, maxWindowAhead)
            self.maxHeldSegments = max(1, maxHeldSegments)
        }

        public static let `default` = Limits()
    }

    /// Why framing stopped (the rest of the stream is delivered as `.continuation`).
    public enum FramingStop: Sendable, Hashable {
        /// The framer said the bytes are not a PDU of its protocol.
        case notAPDU
        /// A gap hid where the next PDU starts.
        case lostSync
        /// The framer could not tell a PDU's end within `Limits.maxPDULength`.
        case oversized
    }

    /// Counters for the end-of-run report.
    public struct Statistics: Sendable, Hashable {
        /// Segments received (after the end too).
        public var segments = 0
        /// Payload bytes received, duplicates included.
        public var payloadBytes = 0
        /// Segments with payload that brought no new byte.
        public var retransmittedSegments = 0
        /// Payload bytes already held or delivered.
        public var duplicateBytes = 0
        /// Overlapping bytes that differed from the bytes held (the first received were kept).
        public var conflictingBytes = 0
        /// Segments dropped for starting more than `maxWindowAhead` ahead.
        public var outOfWindowSegments = 0
        /// Segments received after `finish()`.
        public var segmentsAfterEnd = 0
        /// PDUs delivered (kind `.pdu`), and of them the incomplete and the oversized ones.
        public var pdus = 0
        public var incompletePDUs = 0
        public var oversizedPDUs = 0
        /// Bytes delivered as `.continuation`.
        public var continuationBytes = 0
        /// Bytes known to be missing: the missing ranges delivered plus gaps skipped between units.
        public var missingBytes = 0
        /// Gaps given up because a limit was reached (not at the end of the stream).
        public var forcedFlushes = 0
        /// The most bytes held at once.
        public var peakBufferedBytes = 0
        /// Why framing stopped, if it did.
        public var framingStopped: FramingStop?

        public init() {}
    }

    /// Out-of-order bytes from one segment.
    private struct HeldBytes: Sendable {
        var start: Int
        var bytes: [UInt8]
        var frame: Int
        var frameOffset: Int
        var end: Int { start + bytes.count }
    }

    private enum Mode: Sendable {
        case framing
        case untilEnd
        case oversizedTail(end: Int)
        case continuation
    }

    public let framer: PDUFramer
    public let limits: Limits
    public private(set) var statistics = Statistics()
    /// `finish()` was called (or a FIN finished the stream): later segments are counted and ignored.
    public private(set) var isFinished = false

    /// Sequence number of stream offset 0.
    private var initialSequence: UInt32?
    /// Stream offset of the first undelivered byte, `assembled[head]`.
    private var pduStart = 0
    /// In-order bytes; `assembled[head...]` are held.
    private var assembled: [UInt8] = []
    private var head = 0
    /// Provenance of the held in-order bytes; `unitOffset` is a stream offset.
    private var runs: [Provenance] = []
    /// Out-of-order bytes: sorted, disjoint, each starting after the in-order bytes end.
    private var held: [HeldBytes] = []
    private var heldByteCount = 0
    /// Stream ranges where a retransmission differed, not yet delivered.
    private var conflicts: [Range<Int>] = []
    private var mode = Mode.framing
    /// The current PDU's length, once the framer told it.
    private var knownLength: Int?
    /// Call the framer again only once this many bytes are held.
    private var needAtLeast = 1
    private var finOffset: Int?
    private var lastFrame = 0
    /// The framer's state on the PDU at `framingStateStart` (a resumable framer resumes there).
    private var framingState = PDUFramer.ResumeState()
    private var framingStateStart = 0
    private var bytesExaminedBefore = 0
    /// Bytes the framer examined over the stream, for framers that count them (tests).
    var framerBytesExamined: Int { bytesExaminedBefore + framingState.bytesExamined }

    public init(framer: PDUFramer, limits: Limits = .default) {
        self.framer = framer
        self.limits = limits
    }

    /// Bytes held now, in order and out of order.
    public var bufferedByteCount: Int { available + heldByteCount }

    private var available: Int { assembled.count - head }
    private var assembledEnd: Int { pduStart + available }

    /// Takes one segment of this direction; returns the units it made deliverable, in stream order.
    public mutating func receive(_ segment: TCPSegment) -> [ReassembledPDU] {
        statistics.segments += 1
        guard !isFinished else {
            statistics.segmentsAfterEnd += 1
            return []
        }
        lastFrame = segment.frame
        var sequence = segment.sequenceNumber
        if segment.syn {
            sequence = sequence &+ 1
            if initialSequence == nil { initialSequence = sequence }
        }
        if initialSequence == nil {
            guard !segment.payload.isEmpty || segment.fin else { return [] }
            initialSequence = sequence
        }
        guard let initialSequence else { return [] }
        let expected = initialSequence &+ UInt32(truncatingIfNeeded: assembledEnd)
        let delta = Int(Int32(bitPattern: sequence &- expected))
        guard delta <= limits.maxWindowAhead else {
            statistics.outOfWindowSegments += 1
            return []
        }
        let start = assembledEnd + delta
        statistics.payloadBytes += segment.payload.count
        if segment.fin, finOffset == nil { finOffset = start + segment.payload.count }

        var out: [ReassembledPDU] = []
        if !segment.payload.isEmpty {
            insert(segment.payload, at: start, frame: segment.frame, frameOffset: segment.payloadOffset)
        }
        runFraming(&out)
        enforceLimits(&out)
        statistics.peakBufferedBytes = max(statistics.peakBufferedBytes, bufferedByteCount)
        if let finOffset, assembledEnd >= finOffset {
            out += finish()
        }
        return out
    }

    /// Ends the stream: gives up every gap and delivers everything held (a PDU cut short by the end
    /// is incomplete, its missing bytes listed). Later calls return nothing.
    public mutating func finish() -> [ReassembledPDU] {
        guard !isFinished else { return [] }
        var out: [ReassembledPDU] = []
        runFraming(&out)
        while available > 0 || !held.isEmpty {
            let before = (pduStart, available, held.count)
            giveUpFirstGap(&out)
            runFraming(&out)
            if before == (pduStart, available, held.count) { break }  // no progress: never expected
        }
        isFinished = true
        return out
    }

    // MARK: - Storing bytes

    private mutating func insert(_ payload: ArraySlice<UInt8>, at start: Int, frame: Int, frameOffset: Int) {
        // Most segments come in order with nothing held: they extend the in-order bytes at once.
        if start == assembledEnd, held.isEmpty {
            appendInOrder(payload, frame: frame, frameOffset: frameOffset)
            return
        }
        let end = start + payload.count
        var cursor = start
        if cursor < pduStart {
            let stop = min(end, pduStart)
            statistics.duplicateBytes += stop - cursor
            cursor = stop
        }
        let inOrderEnd = assembledEnd
        if cursor < end, cursor < inOrderEnd {
            let stop = min(end, inOrderEnd)
            compare(payload, from: start, with: assembled, at: head + (cursor - pduStart), range: cursor..<stop)
            cursor = stop
        }
        var fresh: [HeldBytes] = []
        // Held pieces are sorted and disjoint: those the segment overlaps are a run, found by
        // bisection rather than a pass over all of them.
        let overlapStart = heldPartition { $0.end <= cursor }
        for piece in held[overlapStart...] {
            guard cursor < end, piece.start < end else { break }
            if piece.start > cursor {
                fresh.append(slice(payload, from: start, range: cursor..<piece.start, frame: frame, frameOffset: frameOffset))
                cursor = piece.start
            }
            let stop = min(end, piece.end)
            compare(payload, from: start, with: piece.bytes, at: cursor - piece.start, range: cursor..<stop)
            cursor = stop
        }
        if cursor < end {
            fresh.append(slice(payload, from: start, range: cursor..<end, frame: frame, frameOffset: frameOffset))
        }
        if fresh.isEmpty, !payload.isEmpty { statistics.retransmittedSegments += 1 }
        for piece in fresh {
            held.insert(piece, at: heldPartition { $0.start < piece.start })
            heldByteCount += piece.bytes.count
        }
        drain()
    }

    private func slice(
        _ payload: ArraySlice<UInt8>, from start: Int, range: Range<Int>, frame: Int, frameOffset: Int
    ) -> HeldBytes {
        let from = payload.startIndex + (range.lowerBound - start)
        return HeldBytes(
            start: range.lowerBound, bytes: Array(payload[from..<from + range.count]), frame: frame,
            frameOffset: frameOffset + (range.lowerBound - start))
    }

    /// Counts the overlap of `payload` (stream offset `start`) with bytes held in `existing` from
    /// `existingIndex` over the stream `range`, and records where they differ.
    private mutating func compare(
        _ payload: ArraySlice<UInt8>, from start: Int, with existing: [UInt8], at existingIndex: Int, range: Range<Int>
    ) {
        statistics.duplicateBytes += range.count
        // A retransmission almost always repeats the bytes: one comparison of the runs settles it.
        let newFrom = payload.startIndex + (range.lowerBound - start)
        if Self.equal(payload[newFrom..<(newFrom + range.count)], existing[existingIndex..<(existingIndex + range.count)]) {
            return
        }
        var differing = 0
        var first: Int?
        var last = 0
        for offset in range {
            let new = payload[payload.startIndex + (offset - start)]
            if existing[existingIndex + (offset - range.lowerBound)] != new {
                differing += 1
                if first == nil { first = offset }
                last = offset
            }
        }
        if let first {
            statistics.conflictingBytes += differing
            conflicts.append(first..<last + 1)
        }
    }

    /// The index of the first held piece for which `isBefore` is false; `isBefore` must be true
    /// for a prefix of the sorted pieces and false after it.
    private func heldPartition(_ isBefore: (HeldBytes) -> Bool) -> Int {
        var low = 0
        var high = held.count
        while low < high {
            let middle = (low + high) / 2
            if isBefore(held[middle]) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Whether two runs of bytes are the same, eight at a time: a generic element-by-element
    /// comparison cost more than the rest of a retransmitted segment's handling.
    private static func equal(_ first: ArraySlice<UInt8>, _ second: ArraySlice<UInt8>) -> Bool {
        guard first.count == second.count else { return false }
        return first.withUnsafeBytes { first in
            second.withUnsafeBytes { second in
                var offset = 0
                while offset + 8 <= first.count {
                    guard first.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                        == second.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else { return false }
                    offset += 8
                }
                while offset < first.count {
                    guard first[offset] == second[offset] else { return false }
                    offset += 1
                }
                return true
            }
        }
    }

    /// Moves out-of-order bytes that now follow the in-order ones into them.
    private mutating func drain() {
        while let piece = held.first, piece.start <= assembledEnd {
            held.removeFirst()
            heldByteCount -= piece.bytes.count
            let skip = assembledEnd - piece.start  // 0 unless the frontier jumped into it
            guard skip < piece.bytes.count else { continue }
            appendInOrder(piece.bytes[skip...], frame: piece.frame, frameOffset: piece.frameOffset + skip)
        }
    }

    private mutating func appendInOrder(_ bytes: ArraySlice<UInt8>, frame: Int, frameOffset: Int) {
        let start = assembledEnd
        if let last = runs.last, last.frame == frame, last.frameOffset + last.length == frameOffset,
            last.unitOffset + last.length == start
        {
            runs[runs.count - 1].length += bytes.count
        } else {
            runs.append(Provenance(frame: frame, frameOffset: frameOffset, unitOffset: start, length: bytes.count))
        }
        assembled += bytes
    }

    // MARK: - Framing

    private mutating func runFraming(_ out: inout [ReassembledPDU]) {
        while true {
            switch mode {
            case .continuation:
                if available > 0 { deliver(to: assembledEnd, kind: .continuation, &out) }
                return
            case .oversizedTail(let end):
                let count = min(available, end - pduStart)
                if count > 0 { deliver(to: pduStart + count, kind: .continuation, &out) }
                guard pduStart >= end else { return }
                mode = .framing
            case .untilEnd:
                guard available >= limits.maxPDULength else { return }
                deliver(to: pduStart + limits.maxPDULength, kind: .pdu, oversized: true, &out)
                stopFraming(.oversized)
            case .framing:
                guard available > 0 else { return }
                if let length = knownLength {
                    if length > limits.maxPDULength {
                        guard available >= limits.maxPDULength else { return }
                        let end = saturatingOffset(pduStart, length)
                        deliver(to: pduStart + limits.maxPDULength, kind: .pdu, declaredLength: length, oversized: true, &out)
                        mode = .oversizedTail(end: end)
                    } else {
                        guard available >= length else { return }
                        deliver(to: pduStart + length, kind: .pdu, &out)
                    }
                    knownLength = nil
                    needAtLeast = 1
                    continue
                }
                guard available >= needAtLeast else { return }
                if framingStateStart != pduStart {
                    bytesExaminedBefore += framingState.bytesExamined
                    framingState = PDUFramer.ResumeState()
                    framingStateStart = pduStart
                }
                switch framer.boundary(of: assembled[head...], resuming: &framingState) {
                case .complete(let length):
                    if length > 0 { knownLength = length } else { stopFraming(.notAPDU) }
                case .needMore(let atLeast):
                    if available >= limits.maxPDULength {
                        deliver(to: pduStart + limits.maxPDULength, kind: .pdu, oversized: true, &out)
                        stopFraming(.oversized)
                    } else {
                        needAtLeast = min(max(atLeast, available + 1), limits.maxPDULength)
                        return
                    }
                case .untilEndOfStream:
                    mode = .untilEnd
                case .notAPDU:
                    stopFraming(.notAPDU)
                }
            }
        }
    }

    private mutating func stopFraming(_ reason: FramingStop) {
        if statistics.framingStopped == nil { statistics.framingStopped = reason }
        mode = .continuation
        knownLength = nil
        needAtLeast = 1
    }

    /// Gives up the first gap (at the end of the in-order bytes): delivers the PDU that spans it
    /// with its missing ranges, or skips it.
    private mutating func giveUpFirstGap(_ out: inout [ReassembledPDU]) {
        switch mode {
        case .framing:
            if let length = knownLength {
                let cut = min(length, limits.maxPDULength)
                let end = saturatingOffset(pduStart, length)
                deliver(
                    to: pduStart + cut, kind: .pdu, declaredLength: length > cut ? length : nil, oversized: length > cut,
                    &out)
                knownLength = nil
                needAtLeast = 1
                if length > cut { mode = .oversizedTail(end: end) }
            } else if available > 0 {
                // The length is unknown: the framer's lower bound, then the place is lost.
                deliver(to: pduStart + max(needAtLeast, available + 1), kind: .pdu, &out)
                stopFraming(.lostSync)
            } else if let next = held.first?.start {
                skip(to: next)
                stopFraming(.lostSync)
            }
        case .untilEnd:
            let end = held.last?.end ?? assembledEnd
            let cut = min(end - pduStart, limits.maxPDULength)
            deliver(to: pduStart + cut, kind: .pdu, oversized: cut < end - pduStart, &out)
            mode = .continuation
        case .oversizedTail(let end):
            guard let next = held.first?.start else { return }
            skip(to: next)
            if next > end { stopFraming(.lostSync) }
        case .continuation:
            guard let next = held.first?.start else { return }
            skip(to: next)
        }
    }

    /// `base + length`, or `Int.max` for a length no stream reaches (a framer may return any length).
    private func saturatingOffset(_ base: Int, _ length: Int) -> Int {
        let (sum, overflow) = base.addingReportingOverflow(length)
        return overflow ? Int.max : sum
    }

    /// Jumps over missing bytes (the in-order bytes are all delivered).
    private mutating func skip(to offset: Int) {
        guard available == 0, offset > pduStart else { return }
        statistics.missingBytes += offset - pduStart
        pduStart = offset
        assembled.removeAll(keepingCapacity: true)
        head = 0
        runs.removeAll()
        drain()
    }

    private mutating func enforceLimits(_ out: inout [ReassembledPDU]) {
        while !held.isEmpty, bufferedByteCount > limits.maxBufferedBytes || held.count > limits.maxHeldSegments {
            statistics.peakBufferedBytes = max(statistics.peakBufferedBytes, bufferedByteCount)
            let before = (pduStart, available, held.count)
            statistics.forcedFlushes += 1
            giveUpFirstGap(&out)
            runFraming(&out)
            if before == (pduStart, available, held.count) { break }
        }
    }

    // MARK: - Delivering

    /// Delivers stream bytes `pduStart..<end` (in-order bytes, then held ones; the rest is missing)
    /// and moves the delivery point to `end`.
    private mutating func deliver(
        to end: Int, kind: ReassembledPDU.Kind, declaredLength: Int? = nil, oversized: Bool = false,
        _ out: inout [ReassembledPDU]
    ) {
        let start = pduStart
        var bytes: [UInt8] = []
        var provenance: [Provenance] = []
        var missing: [Range<Int>] = []

        let fromAssembled = min(available, end - start)
        bytes += assembled[head..<head + fromAssembled]
        var cursor = start + fromAssembled
        var keptRuns = 0
        for run in runs {
            let runEnd = run.unitOffset + run.length
            if runEnd <= cursor {
                provenance.append(Provenance(frame: run.frame, frameOffset: run.frameOffset, unitOffset: run.unitOffset - start, length: run.length))
                keptRuns += 1
            } else {
                if run.unitOffset < cursor {
                    let taken = cursor - run.unitOffset
                    provenance.append(Provenance(frame: run.frame, frameOffset: run.frameOffset, unitOffset: run.unitOffset - start, length: taken))
                    runs[keptRuns] = Provenance(frame: run.frame, frameOffset: run.frameOffset + taken, unitOffset: cursor, length: run.length - taken)
                }
                break
            }
        }
        runs.removeFirst(keptRuns)
        head += fromAssembled

        if cursor < end {
            // The in-order bytes are used up: the rest comes from held bytes, across gaps.
            while let piece = held.first, piece.start < end {
                if piece.start > cursor { missing.append(cursor - start..<piece.start - start) }
                let take = min(piece.end, end) - piece.start
                bytes += piece.bytes[0..<take]
                provenance.append(Provenance(frame: piece.frame, frameOffset: piece.frameOffset, unitOffset: piece.start - start, length: take))
                cursor = piece.start + take
                if take == piece.bytes.count {
                    held.removeFirst()
                } else {
                    held[0] = HeldBytes(start: piece.start + take, bytes: Array(piece.bytes[take...]), frame: piece.frame, frameOffset: piece.frameOffset + take)
                }
                heldByteCount -= take
            }
            if cursor < end { missing.append(cursor - start..<end - start) }
            assembled.removeAll(keepingCapacity: true)
            head = 0
            runs.removeAll()
        } else if head == assembled.count {
            assembled.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1 << 16, head * 2 >= assembled.count {
            assembled.removeFirst(head)
            head = 0
        }
        pduStart = end
        drain()

        let span = start..<end
        let conflict = conflicts.contains { $0.overlaps(span) }
        conflicts.removeAll { $0.upperBound <= end }

        let unit = ReassembledPDU(
            kind: kind, bytes: bytes, provenance: provenance, streamOffset: start, length: end - start,
            completingFrame: lastFrame, missing: missing, overlapConflict: conflict,
            declaredLength: declaredLength, isOversized: oversized)
        switch kind {
        case .pdu:
            statistics.pdus += 1
            if unit.isIncomplete { statistics.incompletePDUs += 1 }
            if oversized { statistics.oversizedPDUs += 1 }
        case .continuation:
            statistics.continuationBytes += bytes.count
        }
        statistics.missingBytes += missing.reduce(0) { $0 + $1.count }
        out.append(unit)
    }
}
