import BinarySchema
import Dissector

/// What a pipeline makes of each frame its display filter passes. Each worker has its own
/// consumer: ``consume(_:frame:)`` runs on the worker's thread, a share of frames at a time;
/// ``deliver(upTo:)`` on the thread that reads the capture, in capture order, once the share is
/// dissected. A position counts what the consumer has kept since ``reset()``: the pipeline marks
/// by it where a frame's reassembled units and warnings go, so they come out right after it.
package protocol FrameConsumer: AnyObject {
    /// Where the next frame's output begins.
    var position: Int { get }
    /// Where the units the frame just consumed completes go: its end, or for a one-line text
    /// view before the newline that ends its line (so the unit's line follows it).
    func unitPosition(frameShown: Bool) -> Int
    /// Keeps what it makes of one frame.
    func consume(_ dissection: Dissection, frame: FrameInfo)
    /// Hands on what was kept before `position` and not handed on yet.
    func deliver(upTo position: Int) throws(OutputError)
    /// Forgets what was kept: positions count from zero again.
    func reset()
    /// Hands on what `stage` rendered of the units it completed, and empties its output.
    func deliverUnits(of stage: ReassemblyStage) throws(OutputError)
}

/// Whether a JSON array of records (`-T json`) has had its first record yet: its consumers, one
/// per worker, share it on the delivering thread, where the first record loses its separator.
package final class JSONArrayState {
    package private(set) var hasRecords = false

    package init() {}

    /// Marks that a record was written; true for the first.
    func takeFirst() -> Bool {
        defer { hasRecords = true }
        return !hasRecords
    }
}

/// A view or `-T fields` records, as text written to a destination (standard output), with the
/// views' symbols in ASCII where the locale wants them.
package final class TextFrameConsumer: FrameConsumer {
    private let renderer: ViewRenderer?
    @exclusivity(unchecked) private var fields: FieldExtractor?
    private let symbols: SymbolSet
    private let destination: any ByteDestination
    @exclusivity(unchecked) private var sink = TextSink(capacity: 1 << 17)
    private var delivered = 0
    @exclusivity(unchecked) private var asciiOutput: [UInt8] = []
    /// For `-T json`: the array the records go in.
    private let jsonArray: JSONArrayState?

    /// Renders each frame in `view`, or (`view` nil) writes its record of `fields`; `jsonArray`
    /// is the array shared by every worker's consumer when the records are `-T json`'s.
    package init(view: View?, options: RenderOptions, fields: FieldExtractor? = nil, symbols: SymbolSet,
                 destination: any ByteDestination, jsonArray: JSONArrayState? = nil) {
        renderer = view.map { ViewRenderer(view: $0, options: options) }
        self.fields = fields
        self.symbols = symbols
        self.destination = destination
        self.jsonArray = jsonArray
    }

    package var position: Int { sink.count }

    package func unitPosition(frameShown: Bool) -> Int {
        renderer?.view.isOneLinePerFrame == true && frameShown ? max(0, sink.count - 1) : sink.count
    }

    package func consume(_ dissection: Dissection, frame: FrameInfo) {
        if let renderer {
            renderer.render(dissection, frame: frame, into: &sink)
            sink.newline()
            // Frames with several lines each are separated by a blank line, as tshark -V does.
            if !renderer.view.isOneLinePerFrame { sink.newline() }
        } else if fields != nil {
            fields?.appendRecord(dissection, frameNumber: frame.number ?? 0, originalLength: frame.originalLength,
                                 time: frame.time, to: &sink)
        }
    }

    package func deliver(upTo position: Int) throws(OutputError) {
        let end = min(position, sink.count)
        guard end > delivered else { return }
        var start = delivered
        delivered = end
        // Each JSON record starts with the array's separator, which the first does without.
        if let jsonArray, jsonArray.takeFirst(), sink.bytes[start] == UInt8(ascii: ",") { start += 1 }
        try write(UnsafeBufferPointer(rebasing: sink.bytes[start..<end]))
    }

    package func reset() {
        sink.removeAll()
        delivered = 0
    }

    package func deliverUnits(of stage: ReassemblyStage) throws(OutputError) {
        guard stage.output.count > 0 else { return }
        defer { stage.output.removeAll() }
        try write(stage.output.bytes)
    }

    private func write(_ text: UnsafeBufferPointer<UInt8>) throws(OutputError) {
        guard symbols == .ascii else {
            try destination.write(UnsafeRawBufferPointer(text))
            return
        }
        asciiOutput.removeAll(keepingCapacity: true)
        SymbolSet.appendASCII(of: text, to: &asciiOutput)
        var failure: OutputError?
        asciiOutput.withUnsafeBytes { bytes in
            do throws(OutputError) {
                try destination.write(bytes)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }
}
