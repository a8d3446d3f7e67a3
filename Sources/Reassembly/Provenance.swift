/// Where a run of bytes of a reassembled unit (an IP datagram, a TCP stream's PDU) came from:
/// `length` bytes at `unitOffset` in the unit are the bytes at `frameOffset` in frame `frame`
/// (numbered as the caller numbers its frames). Views map each byte back through these.
public struct Provenance: Sendable, Hashable {
    public var frame: Int
    public var frameOffset: Int
    public var unitOffset: Int
    public var length: Int

    public init(frame: Int, frameOffset: Int, unitOffset: Int, length: Int) {
        self.frame = frame
        self.frameOffset = frameOffset
        self.unitOffset = unitOffset
        self.length = length
    }
}
