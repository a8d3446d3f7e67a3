import Reassembly
import Testing

/// Builds segments whose payload sits at offset 54 of a frame (Ethernet + IPv4 + TCP), and keeps the
/// frames so that provenance can be checked against them.
struct SegmentFeed {
    var frames: [Int: [UInt8]] = [:]
    var nextFrame = 1
    static let headerLength = 54

    mutating func segment(_ sequence: UInt32, _ payload: [UInt8], syn: Bool = false, fin: Bool = false) -> TCPSegment {
        let frame = nextFrame
        nextFrame += 1
        frames[frame] = [UInt8](repeating: 0xEE, count: Self.headerLength) + payload
        return TCPSegment(
            sequenceNumber: sequence, syn: syn, fin: fin, payload: payload, frame: frame,
            payloadOffset: Self.headerLength)
    }

    /// Every byte of `pdu` is covered once, in order, by provenance and missing ranges together, and
    /// each received byte is the frame's byte the provenance names.
    func checkProvenance(_ pdu: ReassembledPDU, sourceLocation: SourceLocation = #_sourceLocation) {
        var pieces: [(range: Range<Int>, run: Provenance?)] = pdu.provenance.map {
            ($0.unitOffset..<$0.unitOffset + $0.length, $0)
        }
        pieces += pdu.missing.map { ($0, nil) }
        pieces.sort { $0.range.lowerBound < $1.range.lowerBound }
        var cursor = 0
        for piece in pieces {
            #expect(piece.range.lowerBound == cursor, "gap or overlap at \(cursor)", sourceLocation: sourceLocation)
            cursor = piece.range.upperBound
        }
        #expect(cursor == pdu.length, sourceLocation: sourceLocation)
        #expect(pdu.provenance.map(\.unitOffset) == pdu.provenance.map(\.unitOffset).sorted(), sourceLocation: sourceLocation)
        #expect(pdu.provenance.reduce(0) { $0 + $1.length } == pdu.bytes.count, sourceLocation: sourceLocation)
        var index = 0
        for run in pdu.provenance {
            let frame = frames[run.frame] ?? []
            for k in 0..<run.length {
                let at = run.frameOffset + k
                guard at < frame.count, index < pdu.bytes.count else {
                    Issue.record("provenance points outside frame \(run.frame)", sourceLocation: sourceLocation)
                    return
                }
                if frame[at] != pdu.bytes[index] {
                    Issue.record("byte \(index) differs from frame \(run.frame) at \(at)", sourceLocation: sourceLocation)
                    return
                }
                index += 1
            }
        }
    }
}

/// A DNS-over-TCP PDU: a 2-byte length, then `body`.
func dnsPDU(_ body: [UInt8]) -> [UInt8] {
    [UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
}

func body(_ count: Int, seed: UInt8) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ Int(seed)) }
}

@Suite struct TCPStreamTests {
    @Test func segmentsInOrderDeliverOnePDUEach() {
        var feed = SegmentFeed()
        var stream = TCPStream(framer: .dnsOverTCP)
        let pdus = [dnsPDU(body(10, seed: 1)), dnsPDU(body(0, seed: 2)), dnsPDU(body(33, seed: 3))]
        var sequence: UInt32 = 1000
        for (index, pdu) in pdus.enumerated() {
            let out = stream.receive(feed.segment(sequence, pdu))
            sequence &+= UInt32(pdu.count)
            #expect(out.map(\.bytes) == [pdu])
            #expect(out.first?.completingFrame == index + 1)
            #expect(out.first?.provenance == [Provenance(frame: index + 1, frameOffset: 54, unitOffset: 0, length: pdu.count)])
        }
        #expect(stream.finish().isEmpty)
        #expect(stream.statistics.pdus == 3)
    }

    @Test func onePDUOverThreeSegmentsWaitsForTheLast() {
        var feed = SegmentFeed()
        var stream = TCPStream(framer: .dnsOverTCP)
        let pdu = dnsPDU(body(28, seed: 9))  // 30 bytes
        #expect(stream.receive(feed.segment(1, Array(pdu[0..<1]))).isEmpty)  // the length field split
        #expect(stream.receive(feed.segment(2, Array(pdu[1..<12]))).isEmpty)
        let out = stream.receive(feed.segment(13, Array(pdu[12...])))
        #expect(out.count == 1)
        #expect(out.first?.bytes == pdu)
        #expect(out.first?.completingFrame == 3)
        #expect(out.first?.kind == .pdu)
        #expect(out.first?.provenance == [
            Provenance(frame: 1, frameOffset: 54, unitOffset: 0, length: 1),
            Provenance(frame: 2, frameOffset: 54, unitOffset: 1, length: 11),
            Provenance(frame: 3, frameOffset: 54, unitOffset: 12, length: 18),
        ])
        if let first = out.first { feed.checkProvenance(first) }
    }

    @Test func threePDUsInOneSegment() {
        var feed = SegmentFeed()
        var stream = TCPStream(framer: .dnsOverTCP)
        let pdus = [dnsPDU(body(5, seed: 1)), dnsPDU(body(7, seed: 2)), dnsPDU(body(1, seed: 3))]
        let out = stream.receive(feed.segment(77, pdus.flatMap { $0 }))
        #expect(out.map(\.bytes) == pdus)
        #expect(out.map(\.streamOffset) == [0, 7, 16])
        #expect(out.map { $0.provenance.map(\.frameOffset) } == [[54], [61], [70]])
        for pdu in out { feed.checkProvenance(pdu) }
    }

    @Test func outOfOrderSegmentsWaitForTheGap() {
        var feed = SegmentFeed()
        var stream = TCPStream(framer: .dnsOverTCP)
        let a = dnsPDU(body(10, seed: 1)), b = dnsPDU(body(20, seed: 2))
        let all = a + b  // 12 + 22 bytes
        #expect(stream.receive(feed.segment(500, Array(all[0..<5]), syn: false)).isEmpty)
        #expect(stream.receive(feed.segment(520, Array(all[20...]))).isEmpty)
        #expect(stream.bufferedByteCount == 5 + 14)
        let out = stream.receive(feed.segment(505, Array(all[5..<20])))
        #expect(out.map(\.bytes) == [a, b])
        #expect(out.allSatisfy { $0.completingFrame == 3 && !$0.isIncomplete })
        for pdu in out { feed.checkProvenance(pdu) }
        #expect(stream.bufferedByteCount == 0)
    }

    @Test func anIdenticalRetransmissionIsIgnored() {
        var feed = SegmentFeed()
        var stream = TCPStream(framer: .dnsOverTCP)
        let pdu = dnsPDU(body(40, seed: 4))
        _ = stream.receive(feed.segment(9, Array(pdu[0..<20])))
        #expect(stream.receive(feed.segment(9, Array(pdu[0..<20]))).isEmpty)
        let out = stream.receive(feed.segment(29, Array(pdu[20...])))
        #expect(out.map(\.bytes) == [pdu])
        #expect(out.first?.overlapConflict == false)
        #expect(out.first?.provenance.map(\.frame) == [1, 3])  // the first copy's frame
        // A retransmission of delivered bytes: counted, nothing delivered again.
        #expect(stream.receive(feed.segment(9, pdu)).isEmpty)
        #expect(stream.statistics.retransmittedSegments == 2)
        #expect(stream.statistics.duplicateBytes == 20 + 42)
        #expect(stream.statistics.conflictingBytes == 0)
    }

    @Test func overlapWithTheSameBytesIsNoConflict() {
        var feed = SegmentFeed()
        var stream = TCPStream(framer: .dnsOverTCP)
        let pdu = dnsPDU(body(30, seed: 5))
        _ = stream.receive(feed.segment(0, Array(pdu[0..<10])))
        _ = stream.receive(feed.segment(20, Array(pdu[20..<25])))  // held out of order
        let out = stream.receive(feed.segment(5, Array(pdu[5...])))  // overlaps both
        #expect(out.map(\.bytes) == [pdu])
        #expect(out.first?.overlapConflict == false)
        #expect(out.first?.provenance.map(\.frame) == [1, 3, 2, 3])
        #expect(stream.statistics.duplicateBytes == 10)
        if let first = out.first { feed.checkProvenance(first) }
    }

    @Test func overlapWithDifferentBytesKeepsTheFirstAndFlagsIt() {
        var feed = SegmentFeed()
        var stream = TCPStream(framer: .dnsOverTCP)
        let first = dnsPDU(body(30, seed: 6))
        let second = dnsPDU(body(4, seed: 7))
        _ = stream.receive(feed.segment(0, Array(first[0..<10])))
        _ = stream.receive(feed.segment(20, Array(first[20..<25])))
        var forged = first
        forged[21] ^= 0xFF
        forged[22] ^= 0xFF
        let out = stream.receive(feed.segment(5, Array(forged[5...]) + second))
        #expect(out.map(\.bytes) == [first, second])  // first received bytes win
        #expect(out.map(\.overlapConflict) == [true, false])
        #expect(stream.statistics.conflictingBytes == 2)
    }

    /// A segment over the second and third of three held pieces (the first lies before it): the
    /// bytes between them are new, the overlap is compared, and one byte deep inside a piece that
    /// differs is counted and flags the PDU.
    @Test func anOverlapPastEarlierHeldPiecesComparesOnlyThePiecesItCovers() {
        var feed = SegmentFeed()
        var stream = TCPStream(framer: .dnsOverTCP)
        let pdu = dnsPDU(body(198, seed: 9))
        _ = stream.receive(feed.segment(0, Array(pdu[0..<10])))
        for piece in [40..<60, 80..<100, 120..<140] { _ = stream.receive(feed.segment(UInt32(piece.lowerBound), Array(pdu[piece]))) }
        var forged = pdu
        forged[93] ^= 0x01
        #expect(stream.receive(feed.segment(70, Array(forged[70..<130]))).isEmpty)
        #expect(stream.statistics.conflictingBytes == 1)
        #expect(stream.statistics.duplicateBytes == 30)
        #expect(stream.statistics.retransmittedSegments == 0)
        var out = stream.receive(feed.segment(10, Array(pdu[10..<40])))
        out += stream.receive(feed.segment(60, Array(pdu[60..<70])))
        out += stream.receive(feed.segment(130, Array(pdu[130...])))
        #expect(out.map(\.bytes) == [pdu], "the first received bytes win")
        #expect(out.first?.overlapConflict == true)
        if let first = out.first { feed.checkProvenance(first) }
    }

    @Test func aGapThenTheEndDeliversAnIncompletePDUWithTheMissingRange() {
        var feed = SegmentFeed()
        var stream = TCPStream(framer: .dnsOverTCP)
        let pdu = dnsPDU(body(18, seed: 8))  // 20 bytes
        let next = dnsPDU(body(3, seed: 9))
        _ = stream.receive(feed.segment(100, Array(pdu[0..<8])))
        #expect(stream.receive(feed.segment(112, Array(pdu[12...]) + next)).isEmpty)
        let out = stream.finish()
        #expect(out.count == 2)
        guard out.count == 2 else { return }
        #expect(out[0].isIncomplete)
        #expect(out[0].missing == [8..<12])
        #expect(out[0].length == 20)
        #expect(out[0].bytes == Array(pdu[0..<8]) + Array(pdu[12...]))  // nothing invented
        #expect(out[0].provenance.map(\.unitOffset) == [0, 12])
        feed.checkProvenance(out[0])
        // The length was known: the next PDU is framed after it.
        #expect(out[1].kind == .pdu && out[1].bytes == next && !out[1].isIncomplete)
        #expect(stream.statistics.incompletePDUs == 1 && stream.statistics.missingBytes == 4)
        #expect(stream.isFinished)
    }

    @Test func aGapInAHeaderLosesThePlaceAndTheRestIsContinuation() {
        var feed = SegmentFeed()
        var stream = TCPStream(framer: .bgp)
        var message = [UInt8](repeating: 0xFF, count: 16) + [0, 19, 4]  // KEEPALIVE
        message += message
        _ = stream.receive(feed.segment(1, Array(message[0..<10])))
        _ = stream.receive(feed.segment(21, Array(message[20...])))
        let out = stream.finish()
        #expect(out.map(\.kind) == [.pdu, .continuation])
        #expect(out.first?.missing == [10..<19])  // at least the rest of the header
        #expect(out.last?.bytes == Array(message[20...]))
        #expect(stream.statistics.framingStopped == .lostSync)
    }

    @Test func theStreamEndsAtAFINWhoseBytesHaveArrived() {
        var feed = SegmentFeed()
        var stream = TCPStream(framer: .dnsOverTCP)
        let pdu = dnsPDU(body(6, seed: 1))
        #expect(stream.receive(feed.segment(37, Array(pdu[0..<2]))).isEmpty)
        #expect(stream.receive(feed.segment(41, Array(pdu[4...]), fin: true)).isEmpty)  // before its gap fills
        #expect(!stream.isFinished)
        let out = stream.receive(feed.segment(39, Array(pdu[2..<4])))
        #expect(out.map(\.bytes) == [pdu])
        #expect(stream.isFinished)
        #expect(stream.receive(feed.segment(45, [1, 2])).isEmpty)
        #expect(stream.statistics.segmentsAfterEnd == 1)
    }

    @Test func sequenceNumbersWrapAround() {
        var feed = SegmentFeed()
        var stream = TCPStream(framer: .dnsOverTCP)
        let pdus = [dnsPDU(body(9, seed: 1)), dnsPDU(body(30, seed: 2))]  // 11 + 32 bytes
        let all = pdus.flatMap { $0 }
        let isn: UInt32 = 0xFFFF_FFF0  // data starts at 0xFFFF_FFF1: offset 15 is sequence 0
        #expect(stream.receive(feed.segment(isn, [], syn: true)).isEmpty)
        #expect(stream.receive(feed.segment(4, Array(all[19...]))).isEmpty)  // after the wrap, first
        #expect(stream.receive(feed.segment(0xFFFF_FFF1, Array(all[0..<11]))).map(\.bytes) == [pdus[0]])
        let out = stream.receive(feed.segment(0xFFFF_FFFC, Array(all[11..<19])))  // crosses 2^32
        #expect(out.map(\.bytes) == [pdus[1]])
        #expect(out.first?.streamOffset == 11)
        #expect(stream.statistics.outOfWindowSegments == 0)
    }

    @Test func aSegmentFarAheadIsDropped() {
        var feed = SegmentFeed()
        var stream = TCPStream(framer: .dnsOverTCP, limits: .init(maxWindowAhead: 1000))
        _ = stream.receive(feed.segment(1, [0]))
        #expect(stream.receive(feed.segment(1 + 1 + 1001, [1, 2, 3])).isEmpty)
        #expect(stream.statistics.outOfWindowSegments == 1)
        #expect(stream.bufferedByteCount == 1)
        _ = stream.receive(feed.segment(1 + 1 + 1000, [1, 2, 3]))  // at the limit: held
        #expect(stream.bufferedByteCount == 4)
    }

    @Test func theBufferLimitGivesUpTheOldestGap() {
        var feed = SegmentFeed()
        let limits = TCPStream.Limits(maxBufferedBytes: 100, maxPDULength: 100)
        var stream = TCPStream(framer: .dnsOverTCP, limits: limits)
        let pdus = (0..<6).map { dnsPDU(body(28, seed: UInt8($0))) }  // 30 bytes each
        let all = pdus.flatMap { $0 }
        var out: [ReassembledPDU] = []
        // The first PDU's bytes 10..<30 never come.
        out += stream.receive(feed.segment(0, Array(all[0..<10])))
        for start in stride(from: 30, to: 180, by: 30) {
            out += stream.receive(feed.segment(UInt32(start), Array(all[start..<start + 30])))
        }
        #expect(stream.statistics.forcedFlushes >= 1)
        #expect(stream.statistics.peakBufferedBytes <= 100 + 30)
        #expect(out.first?.missing == [10..<30])
        #expect(out.dropFirst().map(\.bytes) == Array(pdus.dropFirst()))
    }

    // MARK: - Limits

    @Test func aLyingLengthDoesNotMakeTheStreamHoldIt() {
        var feed = SegmentFeed()
        let limits = TCPStream.Limits(maxBufferedBytes: 2000, maxPDULength: 1000)
        var stream = TCPStream(framer: .mqtt, limits: limits)
        // PUBLISH claiming 268,435,455 remaining bytes (the varint's largest), then 5000 bytes.
        let header: [UInt8] = [0x30, 0xFF, 0xFF, 0xFF, 0x7F]
        let rest = body(5000, seed: 3)
        var out = stream.receive(feed.segment(1, header))
        var sequence: UInt32 = 1 + 5
        for start in stride(from: 0, to: rest.count, by: 500) {
            out += stream.receive(feed.segment(sequence, Array(rest[start..<start + 500])))
            sequence += 500
            #expect(stream.bufferedByteCount <= 1000 + 500)
        }
        out += stream.finish()
        #expect(out.first?.isOversized == true)
        #expect(out.first?.bytes.count == 1000)
        #expect(out.first?.declaredLength == 5 + 268_435_455)
        #expect(out.dropFirst().allSatisfy { $0.kind == .continuation })
        #expect(out.flatMap(\.bytes) == header + rest)  // every byte delivered once
        #expect(stream.statistics.oversizedPDUs == 1)
        #expect(stream.statistics.peakBufferedBytes <= 1500)
    }

    @Test func aContentLengthNearIntMaxIsCutWithoutOverflow() {
        var feed = SegmentFeed()
        var stream = TCPStream(framer: .http1, limits: .init(maxPDULength: 100))
        // The head and the length fit in an Int; added to the stream offset (90) they would not.
        let get = Array("GET /a HTTP/1.1\r\nHost: example.com\r\nAccept: */*\r\nUser-Agent: test/1.0 (x)\r\n\r\n".utf8)
        let request = Array("POST / HTTP/1.1\r\nContent-Length: 9223372036854775750\r\n\r\n".utf8) + body(300, seed: 1)
        var out = stream.receive(feed.segment(1, get + request))
        out += stream.finish()
        #expect(out.first?.bytes == get)
        #expect(out.dropFirst().first?.isOversized == true)
        #expect(out.dropFirst().first?.declaredLength == 56 + 9_223_372_036_854_775_750)
        #expect(out.flatMap(\.bytes) == get + request)
    }

    @Test func anHonestOversizedPDUIsCutThenFramingResumes() {
        var feed = SegmentFeed()
        var stream = TCPStream(framer: .dnsOverTCP, limits: .init(maxPDULength: 1000))
        let big = dnsPDU(body(3000, seed: 1)), small = dnsPDU(body(4, seed: 2))
        let all = big + small
        var out: [ReassembledPDU] = []
        for start in stride(from: 0, to: all.count, by: 700) {
            out += stream.receive(feed.segment(UInt32(start), Array(all[start..<min(start + 700, all.count)])))
        }
        #expect(out.first?.bytes == Array(big[0..<1000]))
        #expect(out.first?.declaredLength == 3002)
        #expect(out.last?.kind == .pdu)
        #expect(out.last?.bytes == small)
        #expect(out.dropFirst().dropLast().allSatisfy { $0.kind == .continuation })
        #expect(out.dropLast().flatMap(\.bytes) == big)
        for pdu in out { feed.checkProvenance(pdu) }
    }

    @Test func aPDUWhoseEndCannotBeToldStopsFramingAtTheLimit() {
        var feed = SegmentFeed()
        var stream = TCPStream(framer: .http1, limits: .init(maxPDULength: 64))
        let head = Array("GET / HTTP/1.1\r\nX-Long: ".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 100)
        let out = stream.receive(feed.segment(1, head))
        #expect(out.first?.isOversized == true && out.first?.bytes == Array(head[0..<64]))
        #expect(out.last?.kind == .continuation && out.last?.bytes == Array(head[64...]))
        #expect(stream.statistics.framingStopped == .oversized)
    }

    // MARK: - Framers

    /// Feeds `bytes` cut at `cuts` and returns the PDUs and continuations, ended.
    func frame(_ bytes: [UInt8], with framer: PDUFramer, cutAt cuts: [Int]) -> [ReassembledPDU] {
        var feed = SegmentFeed()
        var stream = TCPStream(framer: framer)
        var out: [ReassembledPDU] = []
        let bounds = [0] + cuts + [bytes.count]
        for (from, to) in zip(bounds, bounds.dropFirst()) where from < to {
            out += stream.receive(feed.segment(UInt32(5000 + from), Array(bytes[from..<to])))
        }
        out += stream.finish()
        for pdu in out { feed.checkProvenance(pdu) }
        return out
    }

    @Test func dnsOverTCPFramesAQueryAndAResponse() {
        // A query for example.com A, and its response with one answer.
        let query: [UInt8] = [
            0x12, 0x34, 0x01, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
            0x07, 0x65, 0x78, 0x61, 0x6D, 0x70, 0x6C, 0x65, 0x03, 0x63, 0x6F, 0x6D, 0x00, 0x00, 0x01, 0x00, 0x01,
        ]
        let response = Array(query[0..<2]) + [0x81, 0x80, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00]
            + Array(query[12...]) + [0xC0, 0x0C, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x0E, 0x10, 0x00, 0x04, 93, 184, 216, 34]
        let stream = dnsPDU(query) + dnsPDU(response)
        let out = frame(stream, with: .dnsOverTCP, cutAt: [1, 31 + 1])  // both length fields split
        #expect(out.map(\.bytes) == [dnsPDU(query), dnsPDU(response)])
        #expect(out.allSatisfy { $0.kind == .pdu && !$0.isIncomplete })
    }

    @Test func tlsRecordsAreFramedByTheirHeader() {
        let handshake: [UInt8] = [0x16, 0x03, 0x01, 0x00, 0x08, 0x01, 0x00, 0x00, 0x04, 0x03, 0x03, 0xAA, 0xBB]
        let changeCipherSpec: [UInt8] = [0x14, 0x03, 0x03, 0x00, 0x01, 0x01]
        let appData: [UInt8] = [0x17, 0x03, 0x03, 0x01, 0x00] + body(256, seed: 4)
        let all = handshake + changeCipherSpec + appData
        let out = frame(all, with: .tlsRecords, cutAt: [3, 15, 22])  // headers split at 3, 2 and 3
        #expect(out.map(\.bytes) == [handshake, changeCipherSpec, appData])
        #expect(out.allSatisfy { $0.kind == .pdu })
        // Not TLS: an HTTP request on port 443 is continuation.
        let notTLS = frame(Array("GET / HTTP/1.1\r\n\r\n".utf8), with: .tlsRecords, cutAt: [])
        #expect(notTLS.map(\.kind) == [.continuation])
    }

    @Test func bgpMessagesCountTheirHeader() {
        let marker = [UInt8](repeating: 0xFF, count: 16)
        let open = marker + [0x00, 0x1D, 0x01, 0x04, 0xFD, 0xE8, 0x00, 0xB4, 0x0A, 0x00, 0x00, 0x01, 0x00]
        let keepalive = marker + [0x00, 0x13, 0x04]
        let out = frame(open + keepalive + keepalive, with: .bgp, cutAt: [17, 29 + 10])
        #expect(out.map(\.bytes) == [open, keepalive, keepalive])
        // A length below the header's is not BGP.
        let short = frame(marker + [0x00, 0x05, 0x04], with: .bgp, cutAt: [])
        #expect(short.map(\.kind) == [.continuation])
        // Nor a broken marker.
        var broken = keepalive
        broken[3] = 0
        #expect(frame(broken, with: .bgp, cutAt: []).map(\.kind) == [.continuation])
    }

    @Test func mqttUsesTheVarintRemainingLength() {
        let connect: [UInt8] = [0x10, 0x10, 0x00, 0x04, 0x4D, 0x51, 0x54, 0x54, 0x04, 0x02, 0x00, 0x3C, 0x00, 0x04, 0x64, 0x69, 0x67, 0x69]
        let publish: [UInt8] = [0x30, 0xC8, 0x01] + [0x00, 0x03, 0x61, 0x2F, 0x62] + body(195, seed: 2)  // 200 remaining
        let pingreq: [UInt8] = [0xC0, 0x00]
        let out = frame(connect + publish + pingreq, with: .mqtt, cutAt: [19, 20, 100])  // varint split
        #expect(out.map(\.bytes) == [connect, publish, pingreq])
        // Five length bytes are not MQTT.
        let five = frame([0x30, 0x80, 0x80, 0x80, 0x80, 0x01], with: .mqtt, cutAt: [])
        #expect(five.map(\.kind) == [.continuation])
    }

    @Test func httpFramesHeadsAndBodies() {
        let get = Array("GET /index.html HTTP/1.1\r\nHost: example.com\r\n\r\n".utf8)
        let post = Array("POST /form HTTP/1.1\r\nContent-Length: 11\r\n\r\nhello=world".utf8)
        let ok = Array("HTTP/1.1 200 OK\r\ncontent-length:  5 \r\n\r\nabcde".utf8)
        let chunked = Array(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nWiki\r\n6;x=y\r\npedia \r\n0\r\nExpires: never\r\n\r\n".utf8)
        let notModified = Array("HTTP/1.1 304 Not Modified\r\nETag: x\r\n\r\n".utf8)
        let untilClose = Array("HTTP/1.0 200 OK\r\n\r\nall the rest".utf8)
        let all = get + post + ok + chunked + notModified + untilClose
        // Cuts inside CRLFCRLF, in a chunk size line and in a body.
        let cuts = [get.count - 2, get.count + 30, get.count + post.count + ok.count + 50, all.count - 5]
        let out = frame(all, with: .http1, cutAt: cuts)
        #expect(out.map { String(decoding: $0.bytes, as: UTF8.self) }
            == [get, post, ok, chunked, notModified, untilClose].map { String(decoding: $0, as: UTF8.self) })
        #expect(out.allSatisfy { $0.kind == .pdu && !$0.isIncomplete })
        // Binary bytes are not HTTP.
        #expect(frame([0x16, 0x03, 0x01, 0x00], with: .http1, cutAt: []).map(\.kind) == [.continuation])
        // A body cut by the end is incomplete, its missing bytes counted from the head's length.
        let cut = frame(Array(post[0..<post.count - 4]), with: .http1, cutAt: [])
        #expect(cut.first?.missing == [post.count - 4..<post.count])
    }

    // MARK: - Property

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func randomPDUsCutShuffledAndDuplicatedComeOutEqual(seed: UInt64) {
        var random = SeededGenerator(state: seed)
        let framers: [(PDUFramer, ([UInt8]) -> [UInt8])] = [
            (.dnsOverTCP, dnsPDU),
            (.tlsRecords, { [0x17, 0x03, 0x03, UInt8($0.count >> 8), UInt8($0.count & 0xFF)] + $0 }),
        ]
        let (framer, wrap) = framers[Int(seed % 2)]
        let pdus = (0..<Int.random(in: 1...40, using: &random)).map { index in
            wrap((0..<Int.random(in: 0...300, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
        }
        let all = pdus.flatMap { $0 }
        var cuts: [Range<Int>] = []
        var start = 0
        while start < all.count {
            let end = min(all.count, start + Int.random(in: 1...150, using: &random))
            cuts.append(start..<end)
            start = end
        }
        var order = cuts
        for _ in 0..<(cuts.count / 4) { order.append(cuts[Int.random(in: 0..<cuts.count, using: &random)]) }
        order.shuffle(using: &random)
        // Some duplicates overlap their neighbours rather than repeat a segment.
        for index in order.indices where Int.random(in: 0..<10, using: &random) == 0 {
            let range = order[index]
            order[index] = max(0, range.lowerBound - 7)..<min(all.count, range.upperBound + 7)
        }

        let isn = UInt32.random(in: 0...UInt32.max, using: &random)
        var feed = SegmentFeed()
        var stream = TCPStream(framer: framer)
        var out = stream.receive(feed.segment(isn, [], syn: true))
        for range in order {
            out += stream.receive(feed.segment(isn &+ 1 &+ UInt32(range.lowerBound), Array(all[range])))
        }
        out += stream.finish()
        #expect(out.map(\.bytes) == pdus, "seed \(seed)")
        #expect(out.allSatisfy { $0.kind == .pdu && !$0.isIncomplete && !$0.overlapConflict })
        #expect(stream.statistics.conflictingBytes == 0)
        for pdu in out { feed.checkProvenance(pdu) }
    }
}
