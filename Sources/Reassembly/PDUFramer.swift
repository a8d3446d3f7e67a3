import Synchronization

/// What a framer tells a `TCPStream` about the bytes at the start of a PDU.
public enum PDUBoundary: Sendable, Hashable {
    /// The bytes given are not enough to tell the PDU's length: call again once at least this many
    /// (counted from the PDU's start) are there.
    case needMore(atLeast: Int)
    /// The PDU is exactly `length` bytes. The length may exceed the bytes given (a header is enough):
    /// the stream waits for them, and keeps its place in the stream across a gap inside the PDU.
    case complete(length: Int)
    /// The PDU runs to the end of the stream (an HTTP response without a length).
    case untilEndOfStream
    /// The bytes do not start a PDU of this protocol: the stream delivers the rest of its bytes as
    /// `.continuation` and stops framing.
    case notAPDU
}

/// Tells where PDUs end in a byte stream. The closure gets the held bytes from a PDU's start (index
/// them from `startIndex`; at least one byte, at least as many as the last `.needMore` asked for) and
/// must not trap on any input. Lengths it returns are PDU lengths counted from that start.
///
/// A framer that must scan (a text protocol looking for a delimiter) can be made resumable with
/// `init(name:resumable:_:)`: it keeps a state between the calls on one PDU, so that each call
/// examines only the bytes that arrived since the last, and framing a PDU costs O(its length)
/// however many segments it arrives in. `TCPStream` keeps one `ResumeState` per PDU.
public struct PDUFramer: Sendable {
    /// What a resumable framer kept from its last call on the current PDU; opaque. A fresh value
    /// starts a PDU. Resuming is valid only on the same PDU: the same start, the bytes given before
    /// unchanged, maybe more after them.
    public struct ResumeState: Sendable {
        var value: (any Sendable)?
        public init() {}
        /// Bytes examined on this PDU, for framers that count them (tests and benchmarks).
        var bytesExamined: Int { (value as? any CountsExaminedBytes)?.bytesExamined ?? 0 }
    }

    /// A name for reports ("dns", "tls", ...).
    public var name: String
    private let step: @Sendable (inout ResumeState, ArraySlice<UInt8>) -> PDUBoundary

    public init(name: String, _ body: @escaping @Sendable (ArraySlice<UInt8>) -> PDUBoundary) {
        self.name = name
        self.step = { _, bytes in body(bytes) }
    }

    /// A framer that keeps a `State` across the calls on one PDU: `body` gets `initial` on a PDU's
    /// first call, then what it left on the previous call, with the same bytes and maybe more.
    public init<State: Sendable>(
        name: String, resumable initial: State,
        _ body: @escaping @Sendable (inout State, ArraySlice<UInt8>) -> PDUBoundary
    ) {
        self.name = name
        self.step = { resume, bytes in
            var state = (resume.value as? State) ?? initial
            let boundary = body(&state, bytes)
            resume.value = state
            return boundary
        }
    }

    /// The boundary of the PDU at the start of `bytes`, from scratch.
    public func boundary(of bytes: ArraySlice<UInt8>) -> PDUBoundary {
        var fresh = ResumeState()
        return step(&fresh, bytes)
    }

    /// The boundary of the PDU at the start of `bytes`, resuming from `state` (see `ResumeState`).
    public func boundary(of bytes: ArraySlice<UInt8>, resuming state: inout ResumeState) -> PDUBoundary {
        step(&state, bytes)
    }
}

/// A framer state that counts the bytes its framer examined.
protocol CountsExaminedBytes {
    var bytesExamined: Int { get }
}

// MARK: - Ready framers

extension PDUFramer {
    /// A big-endian length field of `lengthSize` bytes (1...4) at `lengthOffset`, in a header of
    /// `headerLength` bytes. The PDU is `headerLength + length` bytes, or `length` bytes when
    /// `lengthIncludesHeader` (then a length below the header's is `.notAPDU`). `accepts`, given the
    /// bytes seen so far (fewer than the header, possibly), rejects what cannot start a PDU.
    public static func lengthPrefixed(
        name: String, headerLength: Int, lengthOffset: Int, lengthSize: Int,
        lengthIncludesHeader: Bool = false,
        accepts: (@Sendable (ArraySlice<UInt8>) -> Bool)? = nil
    ) -> PDUFramer {
        PDUFramer(name: name) { bytes in
            if let accepts, !accepts(bytes) { return .notAPDU }
            guard lengthSize >= 1, lengthSize <= 4, lengthOffset >= 0,
                headerLength >= lengthOffset + lengthSize
            else { return .notAPDU }
            guard bytes.count >= headerLength else { return .needMore(atLeast: headerLength) }
            var length = 0
            for index in 0..<lengthSize {
                length = length << 8 | Int(bytes[bytes.startIndex + lengthOffset + index])
            }
            if lengthIncludesHeader {
                return length < headerLength ? .notAPDU : .complete(length: length)
            }
            let (total, overflow) = headerLength.addingReportingOverflow(length)
            return overflow ? .notAPDU : .complete(length: total)
        }
    }

    /// DNS over TCP (RFC 1035 4.2.2): a 2-byte length, then the message.
    public static let dnsOverTCP = lengthPrefixed(name: "dns", headerLength: 2, lengthOffset: 0, lengthSize: 2)

    /// TLS records: content type (20...24), version (major 3), 2-byte length at 3, 5-byte header.
    public static let tlsRecords = lengthPrefixed(name: "tls", headerLength: 5, lengthOffset: 3, lengthSize: 2) {
        bytes in
        guard let type = bytes.first, (20...24).contains(type) else { return false }
        return bytes.count < 2 || bytes[bytes.startIndex + 1] == 3
    }

    /// BGP messages (RFC 4271 4.1): 16 marker bytes of 0xFF, a 2-byte length at 16 that counts the
    /// 19-byte header itself, then the type.
    public static let bgp = lengthPrefixed(
        name: "bgp", headerLength: 19, lengthOffset: 16, lengthSize: 2, lengthIncludesHeader: true
    ) { bytes in
        bytes.prefix(16).allSatisfy { $0 == 0xFF }
    }

    /// MQTT control packets: a fixed header byte (packet type 1...15), a remaining length as a
    /// varint of 1...4 bytes (7 bits each, least significant first), then that many bytes.
    public static let mqtt = PDUFramer(name: "mqtt") { bytes in
        guard let first = bytes.first, first >> 4 != 0 else { return .notAPDU }
        var remaining = 0
        for index in 1...4 {
            guard index < bytes.count else { return .needMore(atLeast: index + 1) }
            let byte = bytes[bytes.startIndex + index]
            remaining |= Int(byte & 0x7F) << (7 * (index - 1))
            if byte & 0x80 == 0 { return .complete(length: 1 + index + remaining) }
        }
        return .notAPDU  // a fifth length byte
    }

    /// HTTP/1.x messages: the head up to and including CRLFCRLF, then the body: chunked
    /// (`Transfer-Encoding: chunked`, through the last chunk and the trailers), else
    /// `Content-Length` bytes, else none for a request or a 1xx/204/304 response, else (a response
    /// delimited by the connection's close) `.untilEndOfStream`. Bytes that do not start with a
    /// method token or `HTTP/` are `.notAPDU`.
    ///
    /// Limits: one direction is framed alone, so a response to HEAD that carries a
    /// `Content-Length` is read as if a body followed (``http1Conversation()`` frames both
    /// directions together); a stream that upgrades (101, CONNECT) is framed as HTTP until a
    /// message fails to parse, then delivered as continuation.
    public static let http1 = PDUFramer(name: "http", resumable: HTTPFraming.State()) { state, bytes in
        HTTPFraming.boundary(of: bytes, resuming: &state)
    }

    /// The two directions of one HTTP/1.x connection, framed as ``http1`` but sharing what a
    /// request says of its response: a response to HEAD ends at its head, whatever its
    /// `Content-Length` (RFC 9110 9.3.2). Requests are taken in the order they are framed, and
    /// each final (not 1xx) response answers the oldest.
    public static func http1Conversation() -> (PDUFramer, PDUFramer) {
        let conversation = HTTPConversation()
        let framer = PDUFramer(name: "http", resumable: HTTPFraming.State()) { state, bytes in
            HTTPFraming.boundary(of: bytes, resuming: &state, conversation: conversation)
        }
        return (framer, framer)
    }
}

/// The requests of one HTTP/1.x connection awaiting their responses: whether each was a HEAD.
final class HTTPConversation: Sendable {
    private let awaiting = Mutex<[Bool]>([])

    /// A request was framed.
    func request(isHead: Bool) {
        awaiting.withLock { awaiting in
            // A pipelining client or a lost response: the count stays bounded.
            if awaiting.count >= 64 { awaiting.removeFirst() }
            awaiting.append(isHead)
        }
    }

    /// A final response was framed: whether it answers a HEAD (and so has no body).
    func answersHead() -> Bool {
        awaiting.withLock { awaiting in awaiting.isEmpty ? false : awaiting.removeFirst() }
    }
}

/// The HTTP/1.x framer's parsing. Offsets in `State` count from the PDU's start; the bytes are
/// indexed from their slice's `startIndex`.
enum HTTPFraming {
    static let cr: UInt8 = 0x0D, lf: UInt8 = 0x0A

    /// Where the last call stopped on one PDU: each call examines only the bytes after it.
    struct State: Sendable, CountsExaminedBytes {
        enum Phase: Sendable {
            /// Looking for CRLFCRLF; no candidate starts before `scanFrom`.
            case head(scanFrom: Int)
            /// A chunk size line starts at `line`; no CRLF ends before `scanFrom`.
            case chunkLine(line: Int, scanFrom: Int)
            /// A trailer line (or the final empty line) starts at `line`.
            case trailerLine(line: Int, scanFrom: Int)
        }
        var phase = Phase.head(scanFrom: 0)
        var bytesExamined = 0
    }

    static func boundary(of bytes: ArraySlice<UInt8>, resuming state: inout State,
                         conversation: HTTPConversation? = nil) -> PDUBoundary {
        switch state.phase {
        case .head(let scanFrom):
            if scanFrom < 20 {  // judged again until 20 bytes are there
                state.bytesExamined += min(bytes.count, 20)
                guard looksLikeStartLine(bytes) else { return .notAPDU }
            }
            guard let headEnd = find(crlfcrlf: bytes, from: scanFrom, &state) else {
                return .needMore(atLeast: bytes.count + 1)
            }
            state.bytesExamined += headEnd
            return head(bytes, headEnd: headEnd, &state, conversation: conversation)
        case .chunkLine(let line, let scanFrom):
            return chunks(bytes, line: line, scanFrom: scanFrom, &state)
        case .trailerLine(let line, let scanFrom):
            return trailers(bytes, line: line, scanFrom: scanFrom, &state)
        }
    }

    /// Judges the head `bytes[..<headEnd]` (CRLFCRLF included); a chunked body goes on in `state`.
    static func head(_ bytes: ArraySlice<UInt8>, headEnd: Int, _ state: inout State,
                     conversation: HTTPConversation? = nil) -> PDUBoundary {
        let lines = headLines(bytes[bytes.startIndex..<bytes.startIndex + headEnd - 4])
        guard let startLine = lines.first else { return .notAPDU }
        let isResponse = startLine.starts(with: Array("HTTP/".utf8))
        if isResponse {
            // RFC 9112 6.3: these end at the head whatever their fields say.
            let status = decimal(startLine.dropFirst(9).prefix(3)) ?? 0
            if (100...199).contains(status) { return .complete(length: headEnd) }
            let answersHead = conversation?.answersHead() ?? false
            if answersHead || status == 204 || status == 304 { return .complete(length: headEnd) }
        } else {
            conversation?.request(isHead: startLine.starts(with: Array("HEAD ".utf8)))
        }
        var contentLength: Int?
        var codings: [String] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
            let name = String(decoding: line[line.startIndex..<colon], as: UTF8.self).lowercased()
            let value = line[(colon + 1)...]
            switch name {
            case "content-length":
                // A list of one repeated value is that value (RFC 9110 8.6); differing values, in
                // one field or several, make the framing invalid (RFC 9112 6.3).
                for element in value.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
                    guard let length = decimal(trimmed(element)) else { return .notAPDU }
                    if let contentLength, contentLength != length { return .notAPDU }
                    contentLength = length
                }
            case "transfer-encoding":
                codings += value.split(separator: UInt8(ascii: ",")).map {
                    String(decoding: trimmed($0.prefix { $0 != UInt8(ascii: ";") }), as: UTF8.self).lowercased()
                }.filter { !$0.isEmpty }
            default: break
            }
        }
        if !codings.isEmpty {
            // Transfer-Encoding overrides Content-Length. Chunked must be the final coding; else a
            // response runs to the close, and a request cannot be framed (RFC 9112 6.3).
            if codings.last == "chunked" {
                state.phase = .chunkLine(line: headEnd, scanFrom: headEnd)
                return chunks(bytes, line: headEnd, scanFrom: headEnd, &state)
            }
            return isResponse ? .untilEndOfStream : .notAPDU
        }
        if let contentLength {
            let (total, overflow) = headEnd.addingReportingOverflow(contentLength)
            return overflow ? .notAPDU : .complete(length: total)
        }
        return isResponse ? .untilEndOfStream : .complete(length: headEnd)
    }

    /// A method token (upper-case letters, then a space) or `HTTP/`, judged on the bytes there.
    static func looksLikeStartLine(_ bytes: ArraySlice<UInt8>) -> Bool {
        let version = Array("HTTP/".utf8)
        if bytes.count <= version.count, version.starts(with: bytes) { return true }
        if bytes.starts(with: version) { return true }
        for (index, byte) in bytes.prefix(20).enumerated() {
            if byte == UInt8(ascii: " ") { return index > 0 }
            guard (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || byte == UInt8(ascii: "-") else {
                return false
            }
        }
        return bytes.count < 20
    }

    /// The offset just after the first CRLFCRLF that starts at or after `from`; when there is none
    /// yet, moves the head scan's resume point to the last candidate start not yet judged.
    static func find(crlfcrlf bytes: ArraySlice<UInt8>, from: Int, _ state: inout State) -> Int? {
        let base = bytes.startIndex
        var index = from
        while index + 4 <= bytes.count {
            if bytes[base + index] == cr, bytes[base + index + 1] == lf, bytes[base + index + 2] == cr,
                bytes[base + index + 3] == lf
            {
                state.bytesExamined += index + 4 - from
                return index + 4
            }
            index += 1
        }
        let next = max(from, bytes.count - 3)
        state.bytesExamined += max(0, bytes.count - from)
        state.phase = .head(scanFrom: next)
        return nil
    }

    /// The offset of the first CRLF at or after `from`, or where to resume looking.
    static func findCRLF(_ bytes: ArraySlice<UInt8>, from: Int, _ state: inout State) -> (found: Int?, resume: Int) {
        let base = bytes.startIndex
        var index = from
        while index + 2 <= bytes.count {
            if bytes[base + index] == cr, bytes[base + index + 1] == lf {
                state.bytesExamined += index + 2 - from
                return (index, index)
            }
            index += 1
        }
        let next = max(from, bytes.count - 1)
        state.bytesExamined += max(0, bytes.count - from)
        return (nil, next)
    }

    static func headLines(_ head: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = head.startIndex
        var index = head.startIndex
        while index < head.endIndex {
            if head[index] == lf {
                let end = index > start && head[index - 1] == cr ? index - 1 : index
                lines.append(head[start..<end])
                start = index + 1
            }
            index += 1
        }
        lines.append(head[start..<head.endIndex])
        return lines
    }

    static func trimmed(_ value: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard let first = value.firstIndex(where: { !blank($0) }), let last = value.lastIndex(where: { !blank($0) })
        else { return value[value.endIndex...] }
        return value[first...last]
    }

    /// Decimal digits only (leading zeros allowed), overflow-checked.
    static func decimal(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty else { return nil }
        var value = 0
        for byte in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
        }
        return value
    }

    /// Hex digits (leading zeros skipped, then at most 15, so the value stays far from overflow),
    /// before any `;` chunk extension.
    static func chunkSize(_ line: ArraySlice<UInt8>) -> Int? {
        let digits = trimmed(line.prefix { $0 != UInt8(ascii: ";") })
        guard !digits.isEmpty else { return nil }
        let significant = digits.drop { $0 == UInt8(ascii: "0") }
        guard significant.count <= 15 else { return nil }
        var value = 0
        for byte in digits {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | Int(digit)
        }
        return value
    }

    /// Chunks from the size line at `line`: size line, data, CRLF; a zero size, then trailers.
    static func chunks(_ bytes: ArraySlice<UInt8>, line: Int, scanFrom: Int, _ state: inout State) -> PDUBoundary {
        var position = line
        var scan = scanFrom
        while true {
            let (found, resume) = findCRLF(bytes, from: scan, &state)
            guard let lineEnd = found else {
                state.phase = .chunkLine(line: position, scanFrom: resume)
                return .needMore(atLeast: bytes.count + 1)
            }
            guard let size = chunkSize(bytes[bytes.startIndex + position..<bytes.startIndex + lineEnd]) else {
                return .notAPDU
            }
            let dataStart = lineEnd + 2
            if size == 0 {
                state.phase = .trailerLine(line: dataStart, scanFrom: dataStart)
                return trailers(bytes, line: dataStart, scanFrom: dataStart, &state)
            }
            let (afterData, overflow1) = dataStart.addingReportingOverflow(size)
            let (next, overflow2) = afterData.addingReportingOverflow(2)
            guard !overflow1, !overflow2 else { return .notAPDU }
            // The data is not examined: the next call comes once the CRLF after it is there.
            state.phase = .chunkLine(line: position, scanFrom: lineEnd)
            guard next <= bytes.count else { return .needMore(atLeast: next) }
            state.bytesExamined += 2
            guard bytes[bytes.startIndex + afterData] == cr, bytes[bytes.startIndex + afterData + 1] == lf else {
                return .notAPDU
            }
            position = next
            scan = next
        }
    }

    /// Trailer lines from `line` to an empty one, which ends the message.
    static func trailers(_ bytes: ArraySlice<UInt8>, line: Int, scanFrom: Int, _ state: inout State) -> PDUBoundary {
        var position = line
        var scan = scanFrom
        while true {
            let (found, resume) = findCRLF(bytes, from: scan, &state)
            guard let end = found else {
                state.phase = .trailerLine(line: position, scanFrom: resume)
                return .needMore(atLeast: bytes.count + 1)
            }
            if end == position { return .complete(length: end + 2) }
            position = end + 2
            scan = position
        }
    }
}
