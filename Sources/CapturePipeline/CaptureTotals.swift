/// What a run of a pipeline counted: the answer `dissect -q` prints.
public struct CaptureTotals: Sendable, Equatable, CustomStringConvertible {
    /// Frames read (every frame the capture filter passed, shown or not).
    public var frames = 0
    /// Their captured bytes.
    public var bytes = 0
    /// Frames whose dissection stopped at an error (malformed).
    public var framesWithErrors = 0
    /// Frames a field of which ran past the bytes the snapshot length kept (no error otherwise).
    public var framesCut = 0
    /// Frames with a checksum that did not verify (of those the run's checksum selection checks).
    public var framesWithBadChecksums = 0
    /// Frames the display filter passed (all of them without one).
    public var framesPassed = 0
    /// Whether a display filter was asked of each frame.
    public var filtered = false
    /// What reassembly did (`3 PDUs reassembled from several segments, 2 datagrams from
    /// fragments`), or nil when it was off or had nothing to do.
    public var reassembly: String?

    public init() {}

    /// Adds another worker's counts.
    mutating func add(_ other: CaptureTotals) {
        frames += other.frames
        bytes += other.bytes
        framesWithErrors += other.framesWithErrors
        framesCut += other.framesCut
        framesWithBadChecksums += other.framesWithBadChecksums
        framesPassed += other.framesPassed
        filtered = filtered || other.filtered
    }

    /// `12 packets, 1480 bytes, 0 with errors, 0 cut by the snapshot length; 1 PDU reassembled …`
    public var description: String {
        // Said only when there are some: the checksums verified depend on the selection.
        let checksums = framesWithBadChecksums > 0 ? ", \(framesWithBadChecksums) with bad checksums" : ""
        let passed = filtered ? ", \(framesPassed) passed the display filter" : ""
        let reassembled = reassembly.map { "; " + $0 } ?? ""
        return "\(frames) packet\(frames == 1 ? "" : "s"), \(bytes) bytes, \(framesWithErrors) with errors, "
            + "\(framesCut) cut by the snapshot length\(checksums)\(passed)\(reassembled)"
    }
}
