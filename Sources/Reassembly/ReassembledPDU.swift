/// One unit a `TCPStream` delivers: a PDU its framer delimited, or continuation bytes once framing
/// has stopped (see `Kind`).
///
/// Coordinates: a PDU spans `length` bytes starting at `streamOffset` (bytes from the stream's first
/// byte). When bytes of it were never received (`missing` is not empty), `bytes` holds only the
/// received ones, in order, with the missing ranges squeezed out: nothing is ever invented.
/// `provenance` runs are in PDU coordinates (0 is the PDU's first byte), in order, and together with
/// `missing` they cover `0..<length` exactly once; their lengths add up to `bytes.count`.
public struct ReassembledPDU: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// Delimited by the framer (possibly incomplete or oversized, see the flags).
        case pdu
        /// Bytes delivered without framing: after the framer said `.notAPDU`, after framing lost
        /// its place (a gap hid where the next PDU starts), or the tail of an oversized PDU.
        case continuation
    }

    public var kind: Kind
    /// The received bytes, in stream order (missing ranges squeezed out).
    public var bytes: [UInt8]
    /// Where each received byte came from, in PDU coordinates, in order.
    public var provenance: [Provenance]
    /// Stream offset of the PDU's first byte (0 is the first byte after the SYN, or the first byte seen).
    public var streamOffset: Int
    /// The PDU's extent: `bytes.count` plus the missing bytes.
    public var length: Int
    /// The frame whose arrival (or the end of the stream, then the last frame seen) delivered it.
    public var completingFrame: Int
    /// Ranges of the PDU (PDU coordinates) whose bytes were never received. For a PDU whose length
    /// the framer could not yet tell, the last range is a lower bound ("at least these").
    public var missing: [Range<Int>]
    /// Some byte of the PDU was received twice with different values; `bytes` holds the first
    /// received (see `TCPStream`'s overlap policy).
    public var overlapConflict: Bool
    /// Set when the PDU was cut at `TCPStream.Limits.maxPDULength`: the length the framer declared
    /// (`nil` for a PDU whose end the framer could not tell). The rest follows as continuation.
    public var declaredLength: Int?
    /// Whether the PDU was cut at the PDU length limit.
    public var isOversized: Bool

    /// Some bytes of the PDU were never received.
    public var isIncomplete: Bool { !missing.isEmpty }
}
