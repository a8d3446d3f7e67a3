import Dissector
import Foundation
import PacketCapture

/// Dissects shares of packets and delivers what their consumers made of them. Packets come in
/// shares of a few hundred; with several threads each share is dissected in the background by
/// one of a ring of workers, and delivered in the order the shares came, so the output is the
/// same whatever the number of threads. A worker's share is delivered when its turn in the ring
/// comes round again (or at ``finish()``).
package final class WorkerRing {
    /// Packets in one share: enough that handing out work costs nothing next to dissecting it,
    /// few enough that the buffers stay small.
    package static let packetsPerShare = 256
    /// A share is cut early past this many captured bytes, which bounds memory for large packets.
    package static let bytesPerShare = 1 << 18
    /// One thread per core, up to 8.
    package static var defaultThreads: Int { max(1, min(8, ProcessInfo.processInfo.activeProcessorCount)) }
    /// A bound on what a large thread count costs: each worker loads its own schemas (about
    /// 0.2 MB and some milliseconds), and two cores or sixty-four give the same output.
    package static let maximumThreads = 64

    /// The threads used when `requested` are asked for: at least one, at most ``maximumThreads``.
    package static func threadCount(requested: Int) -> Int { min(max(1, requested), maximumThreads) }

    /// Made as shares need them, up to `ringSize`: a short file needs one, whatever the threads.
    private var workers: [FrameWorker] = []
    private let makeWorker: () throws -> FrameWorker
    private let ringSize: Int
    /// Per worker: the share it is dissecting, until its output is delivered.
    private var inFlight: [DispatchGroup?]
    /// Shares dissecting right now, at most `threads` (the ring holds twice as many workers).
    private let running: DispatchSemaphore
    private var nextWorker = 0
    private var lengthNotes: InvalidLengthNotes
    /// Reassembly, in capture order as shares are delivered (nil when off or behind).
    private let stage: ReassemblyStage?
    /// Reassembly behind the frames, for -q (nil when off or inline).
    private let background: BackgroundReassembly?
    package let threads: Int
    /// Why the output could not be written; after it, nothing more is delivered.
    package private(set) var writeError: OutputError?
    /// `-w` with `-Y`: the packets the display filter passed are written here as shares are delivered.
    private let shownPacketWriter: CaptureWriter?
    /// Why that file could not be written; after it, nothing more is delivered.
    package private(set) var packetWriteError: PcapError?

    /// `makeWorker` makes each worker; the first at once, so schemas that fail to load fail
    /// before any packet is read. `quiet`: the workers have no consumer (-q), so fewer of them
    /// are enough. `warn` gives warnings (invalid records) in capture order.
    package init(threads: Int, quiet: Bool = false, stage: ReassemblyStage? = nil, background: BackgroundReassembly? = nil,
                 shownPacketWriter: CaptureWriter? = nil, warn: @escaping (String) -> Void = printError,
                 makeWorker: @escaping () throws -> FrameWorker) throws {
        self.stage = stage
        self.shownPacketWriter = shownPacketWriter
        self.background = background
        lengthNotes = InvalidLengthNotes(emit: warn)
        self.threads = Self.threadCount(requested: threads)
        // Two workers per thread: one share can be delivered while the next is dissected. With
        // nothing to deliver, one spare is enough, and each worker fewer is a load of the schemas
        // fewer (about 15 ms of CPU).
        ringSize = self.threads == 1 ? 1 : quiet ? self.threads + 1 : 2 * self.threads
        self.makeWorker = { [shownPacketWriter] in
            let worker = try makeWorker()
            worker.keepsShares = shownPacketWriter != nil
            return worker
        }
        inFlight = Array(repeating: nil, count: ringSize)
        running = DispatchSemaphore(value: self.threads)
        workers.append(try self.makeWorker())
    }

    /// Whether delivering must stop: the output or the packet file could not be written.
    package var failed: Bool { writeError != nil || packetWriteError != nil }

    /// Dissects and delivers `packets`. With one thread, before returning; with more, in the
    /// background. A worker that cannot be made (its schemas no longer load) leaves the share
    /// to the workers there are.
    package func dissect(_ packets: PacketShare) {
        guard packets.count > 0 else { return }
        guard threads > 1 else {
            workers[0].dissect(packets)
            deliver(0)
            return
        }
        var index = nextWorker
        if index == workers.count {
            let made: FrameWorker?
            if let pending {
                pending.group.wait()
                made = pending.worker
                self.pending = nil
            } else {
                made = try? makeWorker()
            }
            if let made {
                workers.append(made)
            } else {
                index = 0
            }
        }
        nextWorker = (index + 1) % ringSize
        // The worker's previous share is the oldest in flight: its output goes next.
        drain(index)
        let worker = workers[index]
        let group = DispatchGroup()
        let running = self.running
        running.wait()
        DispatchQueue.global().async(group: group) {
            worker.dissect(packets)
            running.signal()
        }
        inFlight[index] = group
        // The ring's next worker is made while this share is dissected: its schemas take about
        // 15 ms to load, which the reading thread would spend not reading, and a core idle. Only
        // once shares come full: a short file needs no more workers.
        if index == workers.count - 1, workers.count < ringSize, pending == nil, packets.count >= Self.packetsPerShare {
            let next = PendingWorker(make: makeWorker)
            DispatchQueue.global().async(group: next.group) { next.make() }
            pending = next
        }
    }

    /// A worker being made on another thread. One at a time, and only the reading thread asks for
    /// it, after waiting for `group`: the maker's captured state is never touched by two threads.
    private final class PendingWorker: @unchecked Sendable {
        let group = DispatchGroup()
        private let maker: () throws -> FrameWorker
        private(set) var worker: FrameWorker?

        init(make: @escaping () throws -> FrameWorker) {
            maker = make
        }

        func make() {
            worker = try? maker()
        }
    }

    /// The ring's next worker, while it is made (nil: none is).
    private var pending: PendingWorker?

    /// Waits for every share in flight and delivers their output, oldest first; then the units
    /// the streams still held.
    package func finish() {
        pending?.group.wait()
        for step in 0..<ringSize {
            let index = (nextWorker + step) % ringSize
            if index < workers.count { drain(index) }
        }
        if let stage, writeError == nil {
            stage.finish()
            do {
                if let consumer = workers[0].consumer { try consumer.deliverUnits(of: stage) }
            } catch {
                writeError = error
            }
        }
        backgroundTotals = background?.finish()
        lengthNotes.finish()
    }

    /// The background stage's totals, once ``finish()`` waited for it.
    private var backgroundTotals: String?

    private func drain(_ index: Int) {
        guard let group = inFlight[index] else { return }
        group.wait()
        deliver(index)
        inFlight[index] = nil
    }

    private func deliver(_ index: Int) {
        guard !failed else {
            workers[index].discardOutput()
            return
        }
        if let shownPacketWriter {
            workers[index].writeShownPackets(to: shownPacketWriter)
            // Flushed once a share, which stops a failing write (a full disk) early.
            do {
                try shownPacketWriter.flush()
            } catch {
                packetWriteError = error
            }
        }
        if let background {
            let (taps, share) = workers[index].takeTaps()
            if let share { background.reassemble(taps, in: share) }
        }
        do {
            try workers[index].deliver(notingLengthsIn: &lengthNotes, stage: stage)
        } catch {
            writeError = error
        }
    }

    /// The run's counts, once ``finish()`` returned.
    package var totals: CaptureTotals {
        var totals = CaptureTotals()
        for worker in workers { totals.add(worker.totals) }
        totals.reassembly = stage?.totals ?? backgroundTotals
        return totals
    }
}

/// The reassembly stage on a serial queue of its own, for `-q`: it shows nothing but its totals,
/// so it can run behind the frames, on another core. It takes the taps in capture order, as the
/// ring delivers shares; a few shares may wait for it, no more, so memory stays bounded.
package final class BackgroundReassembly: @unchecked Sendable {
    private let queue = DispatchQueue(label: "dissect.reassembly")
    private let waiting = DispatchSemaphore(value: 4)
    /// Touched only on `queue`, and by ``finish()`` after the queue is drained.
    private var stage: ReassemblyStage?
    private var failure: String?

    /// `makeStage` runs on the stage's queue, so loading its schemas overlaps the first frames.
    package init(makeStage: @escaping @Sendable () throws -> ReassemblyStage) {
        queue.async { [self] in
            do {
                stage = try makeStage()
            } catch {
                failure = "\(error)"
            }
        }
    }

    /// Taps not yet queued, with the shares whose bytes they point into.
    private var batch: [(taps: [FrameWorker.TapMark], share: PacketShare)] = []
    /// Shares batched before the queue is woken: a wake-up per share costs more than its taps.
    private static let sharesPerBatch = 16

    /// Takes one share's taps, in capture order.
    func reassemble(_ taps: [FrameWorker.TapMark], in share: PacketShare) {
        guard !taps.isEmpty else { return }
        batch.append((taps, share))
        if batch.count >= Self.sharesPerBatch { flush() }
    }

    private func flush() {
        guard !batch.isEmpty else { return }
        let work = batch
        batch = []
        waiting.wait()
        queue.async { [self] in
            defer { waiting.signal() }
            guard let stage else { return }
            for (taps, share) in work {
                for mark in taps {
                    stage.process(mark.tap, frame: mark.frame, frameBytes: share.bytes[mark.range])
                    stage.output.removeAll()
                }
            }
        }
    }

    /// Waits for the queued taps, ends the streams, and gives the totals.
    func finish() -> String? {
        flush()
        return queue.sync {
            guard let stage else { return failure.map { "reassembly off: \($0)" } }
            stage.finish()
            return stage.totals
        }
    }
}
