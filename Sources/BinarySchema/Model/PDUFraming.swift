/// What a ``PDUFraming`` tells about the bytes at the start of a PDU in a byte stream.
public enum PDUFramingBoundary: Sendable, Hashable {
    /// The bytes given are not enough to tell: call again once at least this many (counted from
    /// the PDU's start) are held.
    case needMore(atLeast: Int)
    /// The PDU is exactly `length` bytes from its first (possibly more than the bytes given).
    case complete(length: Int)
    /// These bytes do not start a PDU of this protocol.
    case notAPDU
}

/// How a protocol's PDUs are delimited in a TCP byte stream, from a struct's
/// `@pdu(PDUStruct, length: expression, accept: condition)` or `@pdu(PDUStruct, builtin)`.
public struct PDUFraming: Sendable {
    /// The names a `@pdu` can give for a framing an expression cannot state: `http` (HTTP/1.x:
    /// the head to CRLFCRLF, then a `Content-Length` or chunked body). The pipeline maps each to its framer.
    public static let builtinNames = ["http"]

    /// The struct that reads one PDU (the root when reassembled bytes are dissected): an index in
    /// ``Schema/structs``, as a struct can frame its stream with its own PDUs.
    public let pduStructID: Int
    /// `http` etc. for a builtin framing; nil for an expression framing.
    public let builtin: String?
    /// `length:`: the PDU's length in bytes from its first. Nil for a builtin framing.
    let length: Program?
    /// `accept:`: false when the bytes do not start a PDU.
    let accept: Program?

    init(pduStructID: Int, builtin: String?, length: Program?, accept: Program?) {
        self.pduStructID = pduStructID
        self.builtin = builtin
        self.length = length
        self.accept = accept
    }

    /// The `length:` expression as written; nil for a builtin framing.
    public var lengthText: String? { length?.text }
    /// The `accept:` condition as written, if any.
    public var acceptText: String? { accept?.text }

    /// For expression framings: where the PDU at the start of `bytes` ends. `accept` runs first
    /// (false: `.notAPDU`), then `length` (below 1: `.notAPDU`); a `peek(i)` past the bytes given
    /// in either is `.needMore(atLeast: i + 1)`, and so is a `find` that found nothing in the
    /// bytes given when its limit reaches past them, and an arithmetic error (overflow, division by
    /// zero, a negative peek) is `.notAPDU`. A builtin framing has no expression here: `.notAPDU`
    /// (its framer is the pipeline's, by ``builtin``). Never traps on any input; allocates nothing.
    public func boundary(of bytes: UnsafeBufferPointer<UInt8>) -> PDUFramingBoundary {
        guard let length else { return .notAPDU }
        var context = StreamBytesContext(bytes: bytes)
        do throws(EvaluationFailure) {
            if let accept {
                context.literals = accept.literals
                if try accept.evaluate(in: &context) == 0 { return .notAPDU }
            }
            context.literals = length.literals
            let value = try length.evaluate(in: &context)
            guard value >= 1, let total = Int(exactly: value) else { return .notAPDU }
            return .complete(length: total)
        } catch {
            if case .beyondData(let needed, _) = error { return .needMore(atLeast: Int(clamping: needed)) }
            return .notAPDU
        }
    }
}

/// The context of `@pdu` expressions: the stream's bytes from the PDU's start, and no fields.
struct StreamBytesContext: FieldlessContext {
    let bytes: UnsafeBufferPointer<UInt8>
    /// The literals of the program being run (`find`, `peek(n, "text")`).
    var literals: [[UInt8]] = []

    var remainingBytes: Int64 { Int64(bytes.count) }
    var currentOffset: Int64 { 0 }

    func peekByte(_ distance: Int64) throws(EvaluationFailure) -> Int64 {
        guard distance >= 0, distance < Int64.max else { throw .overflow }
        guard distance < Int64(bytes.count), let index = Int(exactly: distance) else {
            throw .beyondData(needed: distance + 1, available: Int64(bytes.count))
        }
        return Int64(bytes[index])
    }

    func find(literal: Int32, anyByte: Bool, within limit: Int64) throws(EvaluationFailure) -> Int64 {
        guard literals.indices.contains(Int(literal)) else { throw .notAvailable }
        let window = ByteSearch.window(limit: limit, available: bytes.count)
        let distance = unsafe ByteSearch.search(literals[Int(literal)], anyByte: anyByte, in: bytes, from: 0, window: window)
        // The stream's next bytes may hold it: ask for one more, as a peek past the end does.
        if distance < 0, limit > Int64(bytes.count) {
            throw .beyondData(needed: Int64(bytes.count) + 1, available: Int64(bytes.count))
        }
        return distance
    }

    func bytesAhead(_ distance: Int64, areLiteral literal: Int32, caseless: Bool) throws(EvaluationFailure) -> Bool {
        guard literals.indices.contains(Int(literal)) else { throw .notAvailable }
        let needle = literals[Int(literal)]
        guard distance >= 0 else { throw .overflow }
        guard distance <= Int64(bytes.count - needle.count) else { return false }
        return unsafe ByteSearch.matches(needle, in: bytes, at: Int(distance), caseless: caseless)
    }

    func areZeros(_ count: Int64) throws(EvaluationFailure) -> Bool {
        guard count >= 0 else { throw .overflow }
        guard count <= Int64(bytes.count), let end = Int(exactly: count) else {
            throw .beyondData(needed: count, available: Int64(bytes.count))
        }
        for index in 0..<end where bytes[index] != 0 { return false }
        return true
    }
}
