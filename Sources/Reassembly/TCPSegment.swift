/// One TCP segment of one direction of a connection, as the caller took it from a dissected frame:
/// the sequence number, the SYN and FIN flags, and the payload with where it sits in its frame.
/// The stream copies what it keeps; the caller's slice may come straight from the frame.
public struct TCPSegment: Sendable, Hashable {
    /// `tcp.seq` (raw, not relative).
    public var sequenceNumber: UInt32
    /// The SYN flag: the segment's sequence number is the initial one and data starts one after it.
    public var syn: Bool
    /// The FIN flag: the stream ends after this segment's payload.
    public var fin: Bool
    /// The TCP payload bytes.
    public var payload: ArraySlice<UInt8>
    /// The frame that carried the segment, numbered as the caller numbers its frames.
    public var frame: Int
    /// Where `payload` starts in that frame (bytes from the start of the frame).
    public var payloadOffset: Int

    public init(
        sequenceNumber: UInt32, syn: Bool = false, fin: Bool = false,
        payload: ArraySlice<UInt8>, frame: Int, payloadOffset: Int
    ) {
        self.sequenceNumber = sequenceNumber
        self.syn = syn
        self.fin = fin
        self.payload = payload
        self.frame = frame
        self.payloadOffset = payloadOffset
    }

    public init(
        sequenceNumber: UInt32, syn: Bool = false, fin: Bool = false,
        payload: [UInt8], frame: Int, payloadOffset: Int
    ) {
        self.init(
            sequenceNumber: sequenceNumber, syn: syn, fin: fin, payload: payload[...], frame: frame,
            payloadOffset: payloadOffset)
    }
}
