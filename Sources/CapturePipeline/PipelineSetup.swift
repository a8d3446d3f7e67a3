import BinarySchema
import Dissector
import Foundation
import PacketCapture
import Reassembly

/// How a run turns a capture into delivered output: what each worker loads and makes of a frame,
/// and what reassembly does. The command line and ``PacketPipeline`` each fill one in; the
/// reading loop, the ring of workers and the reassembly stage are the same for both.
package struct PipelineSetup {
    /// Loads a copy of the schemas: each worker has its own, so threads share no
    /// reference-counted object (retains of one schema from two cores contend for its cache line).
    package var loadSchema: @Sendable () throws -> Schema
    /// The walk's options for a copy of the schemas (a checksum selection is checked against it).
    package var walkOptions: @Sendable (Schema) throws -> Interpreter.Options = { _ in Interpreter.Options() }
    /// The display filter, compiled against a copy (nil: every frame is shown).
    package var displayFilter: (Schema) throws -> DisplayFilter? = { _ in nil }
    /// What a worker over a copy makes of each frame (nil: nothing, as for -q).
    package var makeConsumer: (Schema) throws -> (any FrameConsumer)? = { _ in nil }
    /// TCP reassembly and IP defragmentation, each on or off.
    package var reassembly = CaptureReassembler.Options()
    /// The view reassembled units are rendered in (nil: they are dissected and counted only).
    package var unitView: View?
    package var renderOptions = RenderOptions()
    /// Takes each unit instead of rendering it, set on the stage once it is made.
    package var unitHandler: ((Schema) throws -> ((Dissection, FrameInfo) -> Void))?
    /// Nothing is shown but totals: reassembly can run behind the frames, on a thread of its own.
    package var quiet = false
    package var threads = WorkerRing.defaultThreads
    /// How frames' times are given to the consumer, and whether in local time.
    package var timeStyle = TimeStyle.none
    package var localTime = false
    /// `-w` with `-Y`: the packets the display filter passes are written here, in capture order.
    package var shownPacketWriter: CaptureWriter?
    /// Where warnings go (standard error for the command line).
    package var warn: (String) -> Void = printError

    package init(loadSchema: @escaping @Sendable () throws -> Schema) {
        self.loadSchema = loadSchema
    }

    /// The ring of workers for `capture`'s link type. Throws what loading the schemas, compiling
    /// the filter or making a consumer throws, before any packet is read.
    package func makeRing(for capture: Capture) throws -> WorkerRing {
        let requestedThreads = threads
        // One thread: the stage and the one worker run on it, and share one copy of the schemas.
        // With more, the stage (on the reading thread) has its own: its framers evaluate the
        // schemas' programs, and two cores retaining one object contend for its cache line.
        var sharedSchema: Schema?
        var stage: ReassemblyStage?
        var background: BackgroundReassembly?
        let reassembling = reassembly.tcp || reassembly.ip
        if quiet && reassembling {
            // Nothing the stage finds is shown before the totals, so it runs behind the frames
            // on a thread of its own, with schemas of its own loaded there.
            let loadSchema = self.loadSchema, walkOptions = self.walkOptions, options = reassembly
            background = BackgroundReassembly {
                let schema = try loadSchema()
                return ReassemblyStage(schema: schema, options: options, walk: try walkOptions(schema),
                                       view: nil, renderOptions: RenderOptions())
            }
        } else if reassembling {
            let schema = try loadSchema()
            if WorkerRing.threadCount(requested: requestedThreads) == 1 { sharedSchema = schema }
            let made = ReassemblyStage(schema: schema, options: reassembly, walk: try walkOptions(schema),
                                       view: unitView, renderOptions: renderOptions)
            made.displayFilter = try displayFilter(schema)
            if let unitHandler { made.unitHandler = try unitHandler(schema) }
            stage = made
        }
        var noted = false
        let linkType = capture.linkType, linkTypeName = capture.linkTypeName
        let setup = self
        return try WorkerRing(threads: requestedThreads, quiet: quiet, stage: stage, background: background,
                              shownPacketWriter: shownPacketWriter, warn: warn) {
            let schema = try sharedSchema ?? setup.loadSchema()
            sharedSchema = nil
            var root = schema.rootStruct(forLinkType: linkType)
            if root == nil {
                if !noted {
                    setup.warn("note: no schema claims link type \(linkType) (\(linkTypeName)); frames are shown as raw bytes")
                    noted = true
                }
                root = schema.structType(named: "Unrecognized")
            }
            guard let root else {
                throw PipelineError("no schema claims link type \(linkType) (\(linkTypeName)), and the bundled 'Unrecognized' struct is not loaded")
            }
            return FrameWorker(schema: schema, root: root, linkType: linkType, consumer: try setup.makeConsumer(schema),
                               timeStyle: setup.timeStyle, localTime: setup.localTime, walk: try setup.walkOptions(schema),
                               tapper: reassembling ? ReassemblyStage.tapper(for: schema, options: setup.reassembly) : nil,
                               displayFilter: try setup.displayFilter(schema))
        }
    }
}

/// What stops a pipeline before its first packet (schemas that do not load, a filter or field
/// name that does not compile), or a link type nothing can show.
public struct PipelineError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, as a user reads it.
    public let message: String
    /// For a display filter or field list: the column (from 1) where the error is.
    public let column: Int?

    package init(_ message: String, column: Int? = nil) {
        self.message = message
        self.column = column
    }

    public var description: String { message }
}

/// How a run of the reading loop ended.
package struct ReadOutcome {
    /// Packets read.
    package var seen = 0
    /// A damaged capture: every packet before it was read.
    package var failure: PcapError?
    /// `-w`'s file could not be written.
    package var writeFailure: PcapError?
    /// The output could not be written.
    package var outputFailure: OutputError?
}

/// Limits and side outputs of the reading loop.
package struct ReadLimits {
    /// Stop after this many packets.
    package var count: Int?
    /// Stop at this time.
    package var deadline: Date?
    /// Packets are dissected one at a time, as they come (live, pipes, -l): else in shares.
    package var oneAtATime = false
    /// `-w`: every packet the capture filter passes is written here, before it is dissected.
    package var writer: CaptureWriter?
    /// Flush `writer` after each packet (-U, live, pipes), else once a share.
    package var flushEachPacket = false

    package init() {}
}

/// Reads `capture` to its end (or a limit), handing shares to `ring` (nil: packets are only
/// written, -w alone), then waits for the ring to deliver everything.
package func readCapture(_ capture: Capture, into ring: WorkerRing?, limits: ReadLimits,
                         warn: @escaping (String) -> Void = printError) -> ReadOutcome {
    var outcome = ReadOutcome()
    let shareSize = limits.oneAtATime ? 1 : WorkerRing.packetsPerShare
    let stream = capture.isStream
    var share = PacketShare(packets: shareSize, bytes: 0)
    var firstTime: CaptureTime?
    // Without a ring (-w alone) the reading loop notes invalid lengths itself.
    var lengthNotes = InvalidLengthNotes(emit: warn)
    loop: while limits.count.map({ outcome.seen < $0 }) ?? true {
        if let deadline = limits.deadline, Date() >= deadline { break }
        // A pipe's shares are cut whenever its writer has nothing more yet.
        if stream, share.count > 0, let ring, !capture.inputIsWaiting() {
            ring.dissect(share)
            if ring.failed { break loop }
            share = PacketShare(packets: shareSize, bytes: share.byteCount, after: share)
        }
        let next: Capture.BorrowedNext
        do {
            next = try capture.nextBorrowed()
        } catch {
            outcome.failure = error
            break
        }
        switch next {
        case .end: break loop
        case .timeout: continue
        case .packet(let packet):
            outcome.seen += 1
            if let writer = limits.writer {
                writer.write(packet)
                // A file is flushed once a share, which stops a failing write (a full disk)
                // early without a system call per packet.
                if limits.flushEachPacket || outcome.seen % WorkerRing.packetsPerShare == 0 {
                    do {
                        try writer.flush()
                    } catch {
                        outcome.writeFailure = error
                        break loop
                    }
                }
            }
            guard let ring else {
                if packet.bytes.count > packet.originalLength {
                    lengthNotes.note(packet: packet.position, captured: packet.bytes.count, original: packet.originalLength)
                }
                continue
            }
            if firstTime == nil {
                firstTime = CaptureTime(seconds: packet.seconds, nanoseconds: packet.nanoseconds)
                share.firstTime = firstTime
            }
            share.append(packet)
            if share.count >= shareSize || share.byteCount >= WorkerRing.bytesPerShare {
                ring.dissect(share)
                if ring.failed { break loop }
                // The ring keeps that share until it is dissected: the next one is new, sized
                // like the last.
                share = PacketShare(packets: shareSize, bytes: share.byteCount, after: share)
            }
        }
    }
    if let ring {
        if !ring.failed { ring.dissect(share) }
        ring.finish()
        outcome.outputFailure = ring.writeError
        outcome.writeFailure = outcome.writeFailure ?? ring.packetWriteError
    }
    lengthNotes.finish()
    if outcome.writeFailure == nil, let writer = limits.writer {
        do {
            try writer.flush()
        } catch {
            outcome.writeFailure = error
        }
    }
    return outcome
}
