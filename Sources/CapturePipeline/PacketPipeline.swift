import BinarySchema
import Dissector
import Foundation
import PacketCapture
import Reassembly

/// Dissects a capture and hands you, in capture order, each frame and each reassembled unit,
/// with the fields you asked for by their filter names (Wireshark's: `ip.src`, `dns.qry.name`).
///
/// ```swift
/// var options = PacketPipeline.Options()
/// options.displayFilter = "dns.flags.response == 1"
/// options.fields = ["ip.src", "dns.qry.name", "dns.a"]
/// let pipeline = try PacketPipeline(options: options)
/// let totals = try pipeline.run(file: "Corpus/captures/dns.pcap") { event in
///     if case .frame(let frame) = event {
///         print(frame.number, frame["ip.src"], frame["dns.qry.name"], frame["dns.a"])
///     }
/// }
/// print(totals.framesPassed, "of", totals.frames, "frames are responses")
/// ```
///
/// Frames are dissected on several threads and reassembled on one; the events come in the same
/// order and with the same content whatever the thread count. The handler runs on the calling
/// thread, one event at a time.
public final class PacketPipeline {
    /// What a run dissects, keeps and shows.
    public struct Options: Sendable {
        /// A Wireshark display filter: only the frames and units it passes are handed on (all
        /// are dissected and counted).
        public var displayFilter: String?
        /// The fields each frame and unit carries, by filter name (`dissect schema list --fields`
        /// lists them), plus `frame.number`, `frame.len` and `frame.cap_len`.
        public var fields: [String] = []
        /// A view each frame and unit is also rendered in, as ``Frame/text`` (nil: none).
        public var view: View?
        /// TCP streams reassembled into the PDUs their protocols frame, IP fragments into datagrams.
        public var reassembles = true
        /// Threads that dissect (one core each), at least 1.
        public var threads = WorkerRing.defaultThreads
        /// Schema files of your own, loaded beside the bundled ones.
        public var schemaPaths: [String] = []

        public init() {}
    }

    /// One frame the display filter passed.
    public struct Frame: Sendable {
        /// Its place in the capture, from 1.
        public let number: Int
        /// When it was captured (UTC).
        public let time: CaptureTime
        /// Bytes captured, and bytes it had on the wire.
        public let capturedLength: Int
        public let originalLength: Int
        /// Its dissection stopped at an error: a field did not fit its bytes.
        public let isMalformed: Bool
        /// The snapshot length cut it short (not an error).
        public let isCut: Bool
        /// A checksum in it did not verify.
        public let hasBadChecksum: Bool
        /// It rendered in ``Options/view``, without a final newline (nil without a view).
        public let text: String?
        let fields: FieldValues

        /// Every value of field `name` in the frame, in the order they occur, as text
        /// (`192.0.2.1`, `example.com`, `443`); empty when the frame has none or `name` was not
        /// among ``Options/fields``.
        public subscript(name: String) -> [String] { fields[name] }
    }

    /// A TCP PDU or IP datagram the display filter passed, put together from several frames.
    public struct Unit: Sendable {
        /// Where its bytes came from: the frames, their offsets, and any gap never captured.
        public let origin: ReassemblyOrigin
        /// Its dissection stopped at an error.
        public let isMalformed: Bool
        /// It rendered in ``Options/view`` (nil without a view).
        public let text: String?
        let fields: FieldValues

        /// Every value of field `name` in the unit, as ``Frame/subscript(_:)``.
        public subscript(name: String) -> [String] { fields[name] }
    }

    /// The values of the fields asked for, by name, each as its occurrences in order.
    struct FieldValues: Sendable {
        let names: [String]
        let values: [[String]]

        subscript(name: String) -> [String] {
            names.firstIndex(of: name).map { values[$0] } ?? []
        }
    }

    /// What a run hands on, in capture order.
    public enum Event: Sendable {
        /// A frame, once dissected.
        case frame(Frame)
        /// A unit, right after the frame that completed it (or at the end, for what the streams held).
        case unit(Unit)
        /// A warning about the capture (a record claiming more bytes than the packet had), before
        /// the frame it is about.
        case warning(String)
    }

    private let options: Options
    private let loadSchema: @Sendable () throws -> Schema

    /// Loads and checks the schemas, the display filter and the field names: each error is
    /// thrown here, before any capture is opened.
    public init(options: Options = Options()) throws(PipelineError) {
        self.options = options
        let paths = options.schemaPaths
        let load: @Sendable () throws -> Schema = {
            let bundled = BundledSchemas.locate()
            guard let directory = bundled.directory else {
                throw PipelineError(bundled.notFoundMessage ?? "the bundled schemas were not found")
            }
            return try SchemaLoader.load(paths: [directory] + paths, importDirectories: [directory])
        }
        let schema: Schema
        do {
            schema = try load()
        } catch let error as PipelineError {
            throw error
        } catch {
            throw PipelineError("\(error)")
        }
        // Checked once here; each worker compiles its own copy the same way.
        _ = try Self.compileFilter(options.displayFilter, schema: schema)
        _ = try Self.extractor(options.fields, schema: schema)
        // The copy loaded here is the first worker's: a load costs more than a short capture.
        let handOff = SchemaHandOff(schema)
        loadSchema = { try handOff.take() ?? load() }
    }

    private static func compileFilter(_ text: String?, schema: Schema) throws(PipelineError) -> DisplayFilter? {
        guard let text else { return nil }
        do {
            return try DisplayFilter(text, schema: schema)
        } catch {
            throw PipelineError("display filter: \(error.message)", column: error.column)
        }
    }

    private static func extractor(_ names: [String], schema: Schema) throws(PipelineError) -> FieldExtractor? {
        guard !names.isEmpty else { return nil }
        do {
            return try FieldExtractor(fields: names, schema: schema)
        } catch {
            throw PipelineError("fields: \(error.message)")
        }
    }

    /// Dissects the capture file at `path` (pcap or pcapng), handing each event to `handle`.
    /// Returns the run's counts. A damaged file: the events before the damage, then the error.
    @discardableResult
    public func run(file path: String, _ handle: (Event) throws -> Void) throws -> CaptureTotals {
        try run(Capture.open(file: path), handle)
    }

    /// Dissects `capture` (a file, bytes in memory, or a live interface until it is stopped),
    /// handing each event to `handle`; an error `handle` throws ends the run and is rethrown.
    @discardableResult
    public func run(_ capture: Capture, _ handle: (Event) throws -> Void) throws -> CaptureTotals {
        try withoutActuallyEscaping(handle) { handle in
            let delivery = EventDelivery(handle: handle)
            defer { delivery.close() }
            var setup = PipelineSetup(loadSchema: loadSchema)
            let options = self.options
            setup.threads = options.threads
            setup.reassembly.tcp = options.reassembles
            setup.reassembly.ip = options.reassembles
            setup.displayFilter = { schema in try Self.compileFilter(options.displayFilter, schema: schema) }
            setup.makeConsumer = { schema in
                EventFrameConsumer(view: options.view, fields: try Self.extractor(options.fields, schema: schema), delivery: delivery)
            }
            setup.unitHandler = { schema in
                let units = EventFrameConsumer(view: options.view, fields: try Self.extractor(options.fields, schema: schema),
                                               delivery: delivery)
                return { dissection, frame in units.deliverUnit(dissection, frame: frame) }
            }
            setup.warn = { delivery.send(.warning($0)) }
            let ring = try setup.makeRing(for: capture)
            let outcome = readCapture(capture, into: ring, limits: ReadLimits(), warn: setup.warn)
            if let failure = delivery.failure { throw failure }
            if let failure = outcome.failure { throw failure }
            return ring.totals
        }
    }
}

/// A loaded schema given to the first worker that asks, once; workers are made one at a time,
/// but on other threads than the one that loaded it.
private final class SchemaHandOff: @unchecked Sendable {
    private let lock = NSLock()
    private var schema: Schema?

    init(_ schema: Schema) {
        self.schema = schema
    }

    func take() -> Schema? {
        lock.lock()
        defer { lock.unlock() }
        defer { schema = nil }
        return schema
    }
}

/// The user's handler, called on the delivering thread only; the first error it throws stops
/// the events after it.
final class EventDelivery: @unchecked Sendable {
    /// The handler, until ``close()``: a worker's block may release its captures after the run
    /// waited for it, and the handler must not outlive the run (it is not escaping).
    private var handle: ((PacketPipeline.Event) throws -> Void)?
    private(set) var failure: (any Error)?

    init(handle: @escaping (PacketPipeline.Event) throws -> Void) {
        self.handle = handle
    }

    /// Drops the handler: nothing is delivered after the run.
    func close() {
        handle = nil
    }

    func send(_ event: PacketPipeline.Event) {
        guard failure == nil, let handle else { return }
        do {
            try handle(event)
        } catch {
            failure = error
        }
    }
}

/// Makes each frame an owned ``PacketPipeline/Frame`` on the worker's thread, and hands them on
/// in order.
final class EventFrameConsumer: FrameConsumer {
    private let renderer: ViewRenderer?
    private var fields: FieldExtractor?
    private let delivery: EventDelivery
    private var frames: [PacketPipeline.Frame] = []
    private var delivered = 0

    init(view: View?, fields: FieldExtractor?, delivery: EventDelivery) {
        renderer = view.map { ViewRenderer(view: $0, options: RenderOptions()) }
        self.fields = fields
        self.delivery = delivery
    }

    var position: Int { frames.count }

    func unitPosition(frameShown: Bool) -> Int { frames.count }

    func consume(_ dissection: Dissection, frame: FrameInfo) {
        let number = frame.number ?? 0
        let values = fields?.values(of: dissection, frameNumber: number, originalLength: frame.originalLength) ?? []
        frames.append(PacketPipeline.Frame(
            number: number, time: frame.time ?? CaptureTime(seconds: 0, nanoseconds: 0),
            capturedLength: dissection.bytes.count, originalLength: frame.originalLength ?? dissection.bytes.count,
            isMalformed: dissection.error != nil, isCut: dissection.cutNode >= 0, hasBadChecksum: dissection.hasBadChecksum,
            text: render(dissection, frame: frame), fields: .init(names: fields?.names ?? [], values: values)))
    }

    /// A unit, on the delivering thread, as the stage completes it: handed on at once.
    func deliverUnit(_ dissection: Dissection, frame: FrameInfo) {
        guard let origin = frame.reassembly else { return }
        let values = fields?.values(of: dissection, frameNumber: origin.completingFrame, originalLength: origin.length) ?? []
        delivery.send(.unit(PacketPipeline.Unit(origin: origin, isMalformed: dissection.error != nil,
                                                text: render(dissection, frame: frame),
                                                fields: .init(names: fields?.names ?? [], values: values))))
    }

    private func render(_ dissection: Dissection, frame: FrameInfo) -> String? {
        guard let renderer else { return nil }
        var sink = TextSink(capacity: 256)
        renderer.render(dissection, frame: frame, into: &sink)
        return sink.text
    }

    func deliver(upTo position: Int) throws(OutputError) {
        let end = min(position, frames.count)
        while delivered < end {
            delivery.send(.frame(frames[delivered]))
            delivered += 1
        }
    }

    func reset() {
        frames.removeAll(keepingCapacity: true)
        delivered = 0
    }

    func deliverUnits(of stage: ReassemblyStage) throws(OutputError) {
        stage.output.removeAll()
    }
}
