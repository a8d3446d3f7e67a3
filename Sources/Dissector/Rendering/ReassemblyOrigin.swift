/// Where the bytes of a reassembled unit (a TCP stream's PDU, an IP datagram's payload) came
/// from: the frame that completed it, and for each run of its bytes the frame and offset they were
/// captured at. Views show it with the unit, so every byte maps back to a frame.
public struct ReassemblyOrigin: Sendable, Hashable {
    /// `length` bytes at `offset` in the unit are the bytes at `frameOffset` in frame `frame`.
    public struct Run: Sendable, Hashable {
        public var frame: Int
        public var frameOffset: Int
        public var offset: Int
        public var length: Int

        public init(frame: Int, frameOffset: Int, offset: Int, length: Int) {
            self.frame = frame
            self.frameOffset = frameOffset
            self.offset = offset
            self.length = length
        }
    }

    /// What the unit is, for headings: `TCP PDU`, `IPv4 datagram`.
    public var unit: String
    /// The frame whose arrival completed the unit (for one the capture's end gave up, the last
    /// frame seen of its stream).
    public var completingFrame: Int
    /// The unit's extent, missing bytes included.
    public var length: Int
    /// The runs, in unit order; with `missing` they cover `0..<length` once.
    public var runs: [Run]
    /// Ranges of the unit never received: the unit is incomplete, and is dissected only up to
    /// the first of them (nothing is invented).
    public var missing: [Range<Int>]
    /// Some byte arrived twice with different values; the first received was kept.
    public var overlapConflict: Bool
    /// For a PDU cut at the length limit: the length its header declared.
    public var declaredLength: Int?

    public init(unit: String = "PDU", completingFrame: Int, length: Int, runs: [Run], missing: [Range<Int>] = [], overlapConflict: Bool = false,
                declaredLength: Int? = nil) {
        self.unit = unit
        self.completingFrame = completingFrame
        self.length = length
        self.runs = runs
        self.missing = missing
        self.overlapConflict = overlapConflict
        self.declaredLength = declaredLength
    }

    /// The frames the bytes came from, in order, each once.
    public var frames: [Int] {
        var seen = Set<Int>()
        return runs.map(\.frame).filter { seen.insert($0).inserted }
    }
}

extension ReassemblyOrigin {
    /// `frame 3` or `frames 3, 4, 5` (with `separator` between the numbers).
    func writeFrames(separator: StaticString, into sink: inout TextSink) {
        let frames = self.frames
        sink.append(frames.count > 1 ? "frames" as StaticString : "frame")
        for (position, frame) in frames.enumerated() {
            sink.append(position == 0 ? " " as StaticString : separator)
            sink.appendDecimal(frame)
        }
    }
}
