@testable import Reassembly
import Testing

struct HTTPFramingTests {
    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// Feeds `message` to a stream in 1448-byte segments; returns the units and the bytes the
    /// framer examined.
    func stream(_ message: [UInt8]) -> (units: [ReassembledPDU], examined: Int) {
        var stream = TCPStream(framer: .http1, limits: .init(maxPDULength: 4 << 20))
        var units: [ReassembledPDU] = []
        var offset = 0
        while offset < message.count {
            let end = min(message.count, offset + 1448)
            units += stream.receive(TCPSegment(
                sequenceNumber: UInt32(1000 + offset), syn: false, fin: false, payload: Array(message[offset..<end]),
                frame: offset / 1448 + 1, payloadOffset: 54))
            offset = end
        }
        units += stream.finish()
        return (units, stream.framerBytesExamined)
    }

    @Test func aMebibyteChunkedBodyInSegmentsIsFramedInLinearWork() {
        var message = bytes("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 64)
        for _ in 0..<(1 << 20) / 64 { message += bytes("40;ext=\"a;b\"\r\n") + chunk + bytes("\r\n") }
        message += bytes("0\r\nExpires: never\r\nX-Checksum: 1\r\n\r\n")
        let (units, examined) = stream(message)
        #expect(units.count == 1)
        #expect(units.first?.kind == .pdu && units.first?.bytes == message)
        // Rescanning from the PDU's start on every segment would examine about 725 times the body.
        #expect(examined > 100_000)  // the counter counts
        #expect(examined < 3 * message.count, "examined \(examined) of \(message.count)")
    }

    @Test func aMebibyteHeadInSegmentsIsFramedInLinearWork() {
        var message = bytes("GET / HTTP/1.1\r\n")
        while message.count < 1 << 20 { message += bytes("X-Filler: " + String(repeating: "a", count: 50) + "\r\n") }
        message += bytes("\r\n")
        let (units, examined) = stream(message)
        #expect(units.count == 1 && units.first?.bytes == message)
        #expect(examined < 3 * message.count, "examined \(examined) of \(message.count)")
    }

    /// Every prefix framed byte by byte with a resumed state gives what a fresh framing gives.
    @Test func resumingGivesWhatFramingFromScratchGives() {
        let messages = [
            bytes("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n5;a=1;b=\"x\"\r\nhello\r\n000A\r\n0123456789\r\n0\r\nA: b\r\nC: d\r\n\r\n"),
            bytes("POST /x HTTP/1.1\r\nContent-Length: 0005\r\n\r\nabcde"),
            bytes("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcXX"),  // no CRLF after the data
            bytes("GETX /abcdefghijklmnopqrstuvwxyz HTTP/1.1\r\n\r\n"),  // not a method: judged on 20 bytes
        ]
        for message in messages {
            var state = PDUFramer.ResumeState()
            for count in 1...message.count {
                let prefix = message[0..<count]
                let resumed = PDUFramer.http1.boundary(of: prefix, resuming: &state)
                #expect(resumed == PDUFramer.http1.boundary(of: prefix), "\(count)")
                guard case .needMore = resumed else { break }  // a state is not resumed past an answer
            }
        }
    }

    func framed(_ text: String) -> PDUBoundary { PDUFramer.http1.boundary(of: ArraySlice(bytes(text))) }

    @Test func chunkExtensionsAndTrailersAreFramed() {
        let message = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "4 ;name=value;q=\"a;b\\\"c\"\r\nWiki\r\n00006\r\npedia \r\n0;last\r\nExpires: never\r\nX-Sum: 9\r\n\r\n"
        #expect(framed(message) == .complete(length: message.utf8.count))
        #expect(framed(message + "GET / HTTP/1.1\r\n\r\n") == .complete(length: message.utf8.count))
        // Without the final empty line the trailers go on.
        let cut = bytes(message).dropLast(2)
        #expect(PDUFramer.http1.boundary(of: cut) == .needMore(atLeast: cut.count + 1))
        // A chunk whose data is not followed by CRLF, or a size that is not hex, is not HTTP.
        #expect(framed("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n") == .notAPDU)
        #expect(framed("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n") == .notAPDU)
    }

    @Test func contentLengthValues() {
        let head = "POST / HTTP/1.1\r\n"
        for (fields, length) in [
            ("Content-Length: 007\r\n", 7), ("Content-Length: 5, 5\r\n", 5),
            ("Content-Length: 5\r\nContent-Length: 05\r\n", 5), ("Content-Length: 0\r\n", 0),
        ] {
            let message = head + fields + "\r\n"
            #expect(framed(message) == .complete(length: message.utf8.count + length), "\(fields)")
        }
        // Differing values, in one field or in two, and non-digits are not a PDU (RFC 9112 6.3).
        #expect(framed(head + "Content-Length: 5, 6\r\n\r\n") == .notAPDU)
        #expect(framed(head + "Content-Length: 5\r\nContent-Length: 6\r\n\r\n") == .notAPDU)
        #expect(framed(head + "Content-Length: +5\r\n\r\n") == .notAPDU)
        #expect(framed(head + "Content-Length: 5,\r\n\r\n") == .notAPDU)
    }

    @Test func transferEncodingOverridesContentLengthWhenChunkedIsFinal() {
        let chunkedBody = "1\r\na\r\n0\r\n\r\n"
        let request = "POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"
        #expect(framed(request + chunkedBody) == .complete(length: (request + chunkedBody).utf8.count))
        // Chunked not final: a response runs to the close, a request cannot be framed.
        #expect(framed("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\n") == .untilEndOfStream)
        #expect(framed("POST / HTTP/1.1\r\nTransfer-Encoding: chunked, gzip\r\n\r\n") == .notAPDU)
        // 1xx, 204 and 304 end at their head whatever their fields say.
        let notModified = "HTTP/1.1 304 Not Modified\r\nContent-Length: 20\r\n\r\n"
        #expect(framed(notModified) == .complete(length: notModified.utf8.count))
    }

    /// A response to HEAD has no body whatever its Content-Length (RFC 9110 9.3.2): the two
    /// directions of a conversation share what each request was, and each final response answers
    /// the oldest request. Framed alone (`http1`), the same response waits for 100 body bytes.
    @Test func aResponseToHeadEndsAtItsHeadWhenBothDirectionsAreFramedTogether() {
        let (requests, responses) = PDUFramer.http1Conversation()
        var client = TCPStream(framer: requests)
        var server = TCPStream(framer: responses)
        let head = bytes("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n")
        let continueHead = bytes("HTTP/1.1 100 Continue\r\n\r\n")
        var sequence: UInt32 = 1
        func send(_ stream: inout TCPStream, _ payload: [UInt8], frame: Int, at offset: inout UInt32) -> [ReassembledPDU] {
            defer { offset &+= UInt32(payload.count) }
            return stream.receive(TCPSegment(sequenceNumber: offset, payload: payload, frame: frame, payloadOffset: 0))
        }
        var clientOffset: UInt32 = 1
        #expect(send(&client, bytes("HEAD / HTTP/1.1\r\nHost: a\r\n\r\n"), frame: 1, at: &clientOffset).count == 1)
        #expect(send(&client, bytes("GET / HTTP/1.1\r\nHost: a\r\n\r\n"), frame: 2, at: &clientOffset).count == 1)
        // A 1xx answers nothing; the HEAD's response ends at its head; the GET's waits for its body.
        #expect(send(&server, continueHead, frame: 3, at: &sequence).map(\.length) == [continueHead.count])
        #expect(send(&server, head, frame: 4, at: &sequence).map(\.length) == [head.count])
        #expect(send(&server, head, frame: 5, at: &sequence).isEmpty)
        #expect(send(&server, [UInt8](repeating: 0x61, count: 100), frame: 6, at: &sequence).map(\.length) == [head.count + 100])

        var alone = TCPStream(framer: .http1)
        var aloneOffset: UInt32 = 1
        #expect(send(&alone, head, frame: 1, at: &aloneOffset).isEmpty)
    }
}
