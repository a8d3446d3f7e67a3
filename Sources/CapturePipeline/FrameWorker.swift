import BinaryIO
import BinarySchema
import Dissector
import Foundation
import PacketCapture

/// An interpreter, a consumer and the marks of one share. Used by one thread at a time: the ring
/// hands a worker a share and waits for it before delivering its output or handing it another.
package final class FrameWorker: @unchecked Sendable {
    /// A packet whose record is invalid, and where its output starts: its warning is given
    /// just before it.
    struct LengthNote {
        var outputOffset: Int
        let packet: Int
        let captured: Int
        let original: Int
    }

    /// A frame whose TCP segment or IP fragment goes to reassembly, and where its output ends:
    /// the units it completes are delivered there.
    package struct TapMark {
        var outputOffset: Int
        package let frame: Int
        package let tap: TransportTap
        /// The frame's bytes in the share.
        package let range: Range<Int>
        /// Whether the frame was shown (a display filter may leave it out): its units then follow its line.
        var frameShown = true
    }

    private let leadingPadding = CacheLinePadding()
    // A worker is used by one thread at a time (a share's dissection, then its delivery, in
    // turn), and the frame loop touches these properties for every frame: the run-time
    // exclusivity checks of a class's properties are left out.
    @exclusivity(unchecked) private var interpreter: Interpreter
    private let tapper: TransportTapper?
    /// How frames' times are shown, and the local time zone's offsets (nil: UTC).
    private let timeStyle: TimeStyle
    private let localOffsets: LocalOffsets?
    @exclusivity(unchecked) private var taps: [TapMark] = []
    /// The layers each walk of the share noted, and where each frame's units go (by its
    /// position in the share), until the share's taps are read.
    @exclusivity(unchecked) private var notedLayers = TransportTapper.NotedLayers()
    @exclusivity(unchecked) private var unitPositions: [Int] = []
    /// The share dissected last, kept while its taps wait to be reassembled.
    private var tappedShare: PacketShare?
    private let root: StructType
    /// The link type `root` is for, and the roots of the other link types of a pcapng file
    /// whose interfaces differ, found as their packets come.
    private let rootLinkType: Int
    private var otherRoots: [Int: StructType] = [:]
    private let schema: Schema
    /// What is made of each shown frame (nil: nothing, as for -q).
    package let consumer: (any FrameConsumer)?
    /// `-Y`: only the frames it passes are shown.
    @exclusivity(unchecked) private var displayFilter: DisplayFilter?
    /// Per frame of the share, whether it was shown.
    @exclusivity(unchecked) private var shownFrames: [Bool] = []
    /// Whether the share is kept until it is delivered, for ``writeShownPackets(to:)``.
    package var keepsShares = false
    private var keptShare: PacketShare?
    @exclusivity(unchecked) private var lengthNotes: [LengthNote] = []
    @exclusivity(unchecked) private var packetBytes: [UInt8] = []
    @exclusivity(unchecked) package private(set) var totals = CaptureTotals()
    /// Whether a display filter is asked of each frame.
    package var filters: Bool { displayFilter != nil }
    private let trailingPadding = CacheLinePadding()

    /// A worker over `schema` whose frames of link type `linkType` start at `root`. `tapper` takes
    /// each frame's TCP segment or IP fragment for reassembly (nil: none).
    package init(schema: Schema, root: StructType, linkType: Int = -1, consumer: (any FrameConsumer)?,
                 timeStyle: TimeStyle = .none, localTime: Bool = false, walk: Interpreter.Options = Interpreter.Options(),
                 tapper: TransportTapper? = nil, displayFilter: DisplayFilter? = nil) {
        self.tapper = tapper
        self.consumer = consumer
        self.displayFilter = displayFilter
        self.schema = schema
        self.timeStyle = timeStyle
        rootLinkType = linkType
        localOffsets = localTime ? LocalOffsets() : nil
        interpreter = Interpreter(schema: schema, options: walk)
        if let tapper { interpreter.noteStructs(tapper.structIDs) }
        self.root = root
        totals.filtered = displayFilter != nil
    }

    /// Dissects `packets`, handing each shown frame to the consumer.
    package func dissect(_ packets: PacketShare) {
        var previousTime = packets.previousTime
        unitPositions.removeAll(keepingCapacity: true)
        shownFrames.removeAll(keepingCapacity: true)
        packets.bytes.withUnsafeBufferPointer { shareBytes in
            for (position, packet) in packets.records.enumerated() {
                let number = packet.number
                totals.frames += 1
                totals.bytes += packet.count
                if packet.count > packet.originalLength {
                    lengthNotes.append(LengthNote(outputOffset: consumer?.position ?? 0, packet: number, captured: packet.count,
                                                  original: packet.originalLength))
                }
                // One buffer for every packet this worker dissects: emptied, refilled, never reallocated
                // once large enough.
                packetBytes.removeAll(keepingCapacity: true)
                packetBytes.append(contentsOf: UnsafeBufferPointer(rebasing: shareBytes[packet.range]))
                // The dissection borrows the interpreter's working memory: nothing is copied or kept per packet.
                let root = packet.linkType == rootLinkType ? self.root : root(forLinkType: packet.linkType)
                let outcome = interpreter.withDissection(of: packetBytes, root: root,
                                                         originalLength: packet.originalLength) { dissection in
                    tapper?.note(dissection, tag: position, into: &notedLayers)
                    let shown = displayFilter?.matches(dissection, frameNumber: number, originalLength: packet.originalLength) ?? true
                    if let consumer, shown {
                        var time = CaptureTime(seconds: packet.seconds, nanoseconds: packet.nanoseconds)
                        var frame = FrameInfo(number: number, time: time, originalLength: packet.originalLength)
                        switch timeStyle {
                        case .timeOfDay, .dateAndTime:
                            if let localOffsets { time.utcOffset = localOffsets.offset(at: packet.seconds) }
                            frame.time = time
                        case .sincePrevious: frame.elapsed = time.since(previousTime ?? time)
                        case .sinceFirst: frame.elapsed = time.since(packets.firstTime ?? time)
                        case .none, .epoch: break
                        }
                        previousTime = time
                        consumer.consume(dissection, frame: frame)
                    }
                    return (failed: dissection.error != nil, cut: dissection.cutNode >= 0,
                            badChecksum: dissection.hasBadChecksum, shown: shown)
                }
                shownFrames.append(outcome.shown)
                if outcome.shown { totals.framesPassed += 1 }
                if outcome.failed { totals.framesWithErrors += 1 }
                if outcome.cut { totals.framesCut += 1 }
                if outcome.badChecksum { totals.framesWithBadChecksums += 1 }
                if tapper != nil { unitPositions.append(consumer?.unitPosition(frameShown: outcome.shown) ?? 0) }
            }
            guard let tapper, !notedLayers.isEmpty else { return }
            // The segments' headers are read now, for the whole share: between two walks the
            // interpreter's code keeps the instruction cache. The tapper leaves out bare
            // acknowledgments: a tap is worth the stage's time.
            tapper.taps(of: notedLayers, bytes: { position in
                UnsafeBufferPointer(rebasing: shareBytes[packets.records[position].range])
            }) { position, tap in
                let packet = packets.records[position]
                taps.append(TapMark(outputOffset: unitPositions[position], frame: packet.number, tap: tap, range: packet.range,
                                    frameShown: shownFrames[position]))
            }
            notedLayers.removeAll()
        }
        if !taps.isEmpty { tappedShare = packets }
        if keepsShares { keptShare = packets }
    }

    /// Writes the packets of the share dissected last that the display filter passed, in order
    /// (`-w` with `-Y`). Needs ``keepsShares``.
    package func writeShownPackets(to writer: CaptureWriter) {
        guard let share = keptShare else { return }
        for (position, record) in share.records.enumerated() where position < shownFrames.count && shownFrames[position] {
            writer.write(CapturedPacket(seconds: record.seconds, nanoseconds: record.nanoseconds, bytes: Array(share.bytes[record.range]),
                                        originalLength: record.originalLength, linkType: record.linkType))
        }
    }

    /// The root struct for a packet whose link type is not the capture's (its schema's, else
    /// `Unrecognized`, else the capture's root).
    private func root(forLinkType linkType: Int) -> StructType {
        if let known = otherRoots[linkType] { return known }
        let found = schema.rootStruct(forLinkType: linkType) ?? schema.structType(named: "Unrecognized") ?? root
        otherRoots[linkType] = found
        return found
    }

    /// Delivers the share's output, each invalid record's warning just before its packet, and
    /// forgets it. With `stage`, each tapped frame's segment or fragment is reassembled in
    /// order, and the units it completes are delivered right after the frame.
    package func deliver(notingLengthsIn notes: inout InvalidLengthNotes, stage: ReassemblyStage? = nil) throws(OutputError) {
        defer { discardOutput() }
        var noteIndex = 0
        var tapIndex = 0
        while noteIndex < lengthNotes.count || tapIndex < taps.count {
            // At one position a frame's units come before the next frame's note.
            let takeTap = noteIndex == lengthNotes.count
                || (tapIndex < taps.count && taps[tapIndex].outputOffset <= lengthNotes[noteIndex].outputOffset)
            let end = takeTap ? taps[tapIndex].outputOffset : lengthNotes[noteIndex].outputOffset
            try consumer?.deliver(upTo: end)
            if takeTap {
                let mark = taps[tapIndex]
                tapIndex += 1
                guard let stage, let share = tappedShare else { continue }
                stage.process(mark.tap, frame: mark.frame, frameBytes: share.bytes[mark.range], frameShown: mark.frameShown)
                if let consumer { try consumer.deliverUnits(of: stage) } else { stage.output.removeAll() }
            } else {
                let note = lengthNotes[noteIndex]
                noteIndex += 1
                notes.note(packet: note.packet, captured: note.captured, original: note.original)
            }
        }
        if let consumer { try consumer.deliver(upTo: consumer.position) }
    }

    /// Hands over the taps of the share dissected last, and that share, for reassembly elsewhere.
    package func takeTaps() -> (taps: [TapMark], share: PacketShare?) {
        defer {
            taps.removeAll(keepingCapacity: true)
            tappedShare = nil
        }
        return (taps, tappedShare)
    }

    /// Forgets the share's output without delivering it.
    package func discardOutput() {
        consumer?.reset()
        lengthNotes.removeAll(keepingCapacity: true)
        taps.removeAll(keepingCapacity: true)
        tappedShare = nil
        keptShare = nil
    }
}
