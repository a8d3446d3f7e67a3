// Release benchmark of HTTP framing through TCPStream (1448-byte segments). Run:
//   swiftc -O Sources/Reassembly/*.swift /tmp/main.swift -o /tmp/bench-http && /tmp/bench-http
// after `cp scripts/bench/http-framing-main.swift /tmp/main.swift` (top-level code needs main.swift).
import Foundation
// 1 MiB chunked body (4 KiB chunks with an extension) + trailer, and a 1 MiB head, fed in 1448-byte segments.
func chunked(_ size: Int) -> [UInt8] {
    var s = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
    let chunk = [UInt8](repeating: 0x61, count: size)
    for _ in 0..<((1 << 20) / size) { s += Array((String(size, radix: 16) + ";ext=1\r\n").utf8) + chunk + [13, 10] }
    s += Array("0\r\nX-Trailer: y\r\n\r\n".utf8)
    return s
}
func bigHead() -> [UInt8] {
    var s = Array("GET / HTTP/1.1\r\n".utf8)
    while s.count < 1 << 20 { s += Array("X-Filler: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n".utf8) }
    return s + [13, 10]
}
for (name, bytes) in [("chunked 1 MiB/4096", chunked(4096)), ("chunked 1 MiB/64", chunked(64)), ("head 1 MiB", bigHead())] {
    let t0 = Date()
    var stream = TCPStream(framer: .http1, limits: .init(maxPDULength: 4 << 20))
    var out: [ReassembledPDU] = []
    var seq: UInt32 = 1
    var i = 0, frame = 1
    while i < bytes.count {
        let end = min(bytes.count, i + 1448)
        out += stream.receive(TCPSegment(sequenceNumber: seq, syn: false, fin: false, payload: Array(bytes[i..<end]), frame: frame, payloadOffset: 54))
        seq &+= UInt32(end - i); i = end; frame += 1
    }
    out += stream.finish()
    let dt = Date().timeIntervalSince(t0)
    print(name, "pdus:", out.filter { $0.kind == .pdu }.count, "len:", out.first?.length ?? -1, "of", bytes.count, String(format: "%.3f s", dt))
}
