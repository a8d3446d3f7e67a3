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
public struct PDUFramer: Sendable {
    /// A name for reports ("dns", "tls", ...).
    public var name: String
    private let body: @Sendable (ArraySlice<UInt8>) -> PDUBoundary

    public init(name: String, _ body: @escaping @Sendable (ArraySlice<UInt8>) -> PDUBoundary) {
        self.name = name
        self.body = body
    }

    /// The boundary of the PDU at the start of `bytes`.
    public func boundary(of bytes: ArraySlice<UInt8>) -> PDUBoundary {
        body(bytes)
    }
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
    /// `Content-Length` is read as if a body followed; a stream that upgrades (101, CONNECT) is
    /// framed as HTTP until a message fails to parse, then delivered as continuation.
    public static let http1 = PDUFramer(name: "http") { bytes in HTTPFraming.boundary(of: bytes) }
}

/// The HTTP/1.x framer's parsing, on offsets relative to the PDU's start.
enum HTTPFraming {
    static let cr: UInt8 = 0x0D, lf: UInt8 = 0x0A

    static func boundary(of slice: ArraySlice<UInt8>) -> PDUBoundary {
        let bytes = Array(slice)
        guard looksLikeStartLine(bytes) else { return .notAPDU }
        guard let headEnd = find(crlfcrlf: bytes) else { return .needMore(atLeast: bytes.count + 1) }
        let lines = headLines(bytes[0..<headEnd - 4])
        guard let startLine = lines.first else { return .notAPDU }
        let isResponse = startLine.starts(with: Array("HTTP/".utf8))
        var contentLength: Int?
        var chunked = false
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
            let name = String(decoding: line[line.startIndex..<colon], as: UTF8.self).lowercased()
            let value = trimmed(line[(colon + 1)...])
            switch name {
            case "content-length":
                guard let length = decimal(value) else { return .notAPDU }
                if let contentLength, contentLength != length { return .notAPDU }
                contentLength = length
            case "transfer-encoding":
                chunked = chunked || String(decoding: value, as: UTF8.self).lowercased().contains("chunked")
            default: break
            }
        }
        if chunked { return chunkedBody(bytes, from: headEnd) }
        if let contentLength {
            let (total, overflow) = headEnd.addingReportingOverflow(contentLength)
            return overflow ? .notAPDU : .complete(length: total)
        }
        if isResponse {
            let status = decimal(startLine.dropFirst(9).prefix(3)) ?? 0
            if (100...199).contains(status) || status == 204 || status == 304 { return .complete(length: headEnd) }
            return .untilEndOfStream
        }
        return .complete(length: headEnd)
    }

    /// A method token (upper-case letters, then a space) or `HTTP/`, judged on the bytes there.
    static func looksLikeStartLine(_ bytes: [UInt8]) -> Bool {
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

    /// The offset just after the first CRLFCRLF.
    static func find(crlfcrlf bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == cr && bytes[index + 1] == lf && bytes[index + 2] == cr && bytes[index + 3] == lf {
            return index + 4
        }
        return nil
    }

    /// The offset of the first CRLF at or after `start`.
    static func findCRLF(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + 1 < bytes.count {
            if bytes[index] == cr && bytes[index + 1] == lf { return index }
            index += 1
        }
        return nil
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

    /// Decimal digits only, overflow-checked.
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

    /// Hex digits (at most 15, so the value stays far from overflow), before any `;` extension.
    static func chunkSize(_ line: ArraySlice<UInt8>) -> Int? {
        let digits = trimmed(line.prefix { $0 != UInt8(ascii: ";") })
        guard !digits.isEmpty, digits.count <= 15 else { return nil }
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

    /// Chunks from `start`: size line, data, CRLF; a zero size, then trailer lines to an empty one.
    static func chunkedBody(_ bytes: [UInt8], from start: Int) -> PDUBoundary {
        var position = start
        while true {
            guard let lineEnd = findCRLF(bytes, from: position) else { return .needMore(atLeast: bytes.count + 1) }
            guard let size = chunkSize(bytes[position..<lineEnd]) else { return .notAPDU }
            let dataStart = lineEnd + 2
            if size == 0 {
                var trailer = dataStart
                while true {
                    guard let end = findCRLF(bytes, from: trailer) else { return .needMore(atLeast: bytes.count + 1) }
                    if end == trailer { return .complete(length: end + 2) }
                    trailer = end + 2
                }
            }
            let (afterData, overflow1) = dataStart.addingReportingOverflow(size)
            let (next, overflow2) = afterData.addingReportingOverflow(2)
            guard !overflow1, !overflow2 else { return .notAPDU }
            guard next <= bytes.count else { return .needMore(atLeast: next) }
            guard bytes[afterData] == cr, bytes[afterData + 1] == lf else { return .notAPDU }
            position = next
        }
    }
}
