import BinarySchema
import Dissector
import Testing

/// What the tapper takes from a frame for reassembly: the TCP segment (its addresses, ports,
/// sequence number, flags, payload, and the framed struct its payload went to, by port or by a
/// heuristic) or the IP fragment, read in two halves (``TransportTapper/note(_:tag:into:)`` while
/// a frame's walk is at hand, ``TransportTapper/taps(of:bytes:_:)`` for a share of frames).
@Suite struct TransportTapTests {
    let tapper = ReassemblyStage.tapper(for: bundledSchema)

    func interpreter() -> Interpreter {
        var interpreter = Interpreter(schema: bundledSchema)
        interpreter.noteStructs(tapper.structIDs)
        return interpreter
    }

    func root() throws -> StructType { try #require(bundledSchema.rootStruct(forLinkType: 1)) }

    /// A frame's tap, read in one call.
    func tap(_ frame: [UInt8]) throws -> TransportTap? {
        var interpreter = interpreter()
        let root = try root()
        return interpreter.withDissection(of: frame, root: root) { tapper.tap($0) }
    }

    func segment(_ frame: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws -> TCPSegmentTap {
        guard case .tcp(let segment) = try tap(frame) else {
            Issue.record("no TCP segment", sourceLocation: sourceLocation)
            throw TapMissing()
        }
        return segment
    }

    struct TapMissing: Error {}

    /// A TLS handshake record's first bytes: a ClientHello that claims more than the segment holds.
    let helloStart: [UInt8] = [22, 3, 1, 0x02, 0x00, 1, 0, 0x01, 0xFC, 3, 3] + [UInt8](repeating: 0x5A, count: 32)

    @Test func aSegmentToAFramedPortCarriesItsAddressesPortsAndPayload() throws {
        let frame = tcpFrame(from: 50_000, to: 443, helloStart)
        let segment = try segment(frame)
        #expect(segment.isIPv6 == false)
        #expect(segment.source == Endpoint(high: 0, low: 0x0A00_0001, port: 50_000))
        #expect(segment.destination == Endpoint(high: 0, low: 0x0A00_0002, port: 443))
        #expect(segment.sequenceNumber == 1)
        #expect(!segment.syn && !segment.fin && !segment.rst)
        #expect(segment.payload == 54..<frame.count)
        #expect(segment.framedStructID == bundledSchema.structType(named: "TLS")?.id)
        #expect(segment.portFramed)
    }

    /// On a port no table names, the TLS heuristic claims a hello: its struct is the framed one.
    @Test func aHeuristicThatClaimsThePayloadFramesIt() throws {
        let segment = try segment(tcpFrame(from: 50_000, to: 4433, helloStart))
        let framed = try #require(segment.framedStructID >= 0 ? bundledSchema.structs[segment.framedStructID] : nil)
        #expect(framed.protocolAbbreviation == "tls")
    }

    /// The names of the structs a frame's walk noted, in order.
    func noted(_ frame: [UInt8]) throws -> [String] {
        var interpreter = interpreter()
        let root = try root()
        return interpreter.withDissection(of: frame, root: root) { dissection in
            (0..<dissection.notedStructCount).compactMap { dissection.notedStruct(at: $0) }
                .map { bundledSchema.structs[Int($0.structID)].name }
        }
    }

    /// On a port no table names, the heuristics are tried in turn: whichever comes first gives up
    /// one of these two payloads, and what it noted goes with it.
    @Test func aHeuristicThatGivesUpLeavesNothingNoted() throws {
        let request = tcpFrame(from: 50_000, to: 8081, Array("GET /index.html HTTP/1.1\r\nHost: example.test\r\n\r\n".utf8))
        let framed = try segment(request).framedStructID
        #expect(framed >= 0 && bundledSchema.structs[framed].name == "HTTPByHeuristic")
        #expect(try noted(request) == ["IPv4", "TCP", "HTTPByHeuristic"])
        #expect(try noted(tcpFrame(from: 50_000, to: 4433, helloStart)) == ["IPv4", "TCP", "TLSHelloSegment"])
    }

    @Test func aPayloadNoFramedStructClaimsIsTappedUnframed() throws {
        let segment = try segment(tcpFrame(from: 50_000, to: 9, [1, 2, 3, 4]))
        #expect(segment.framedStructID == -1)
        #expect(!segment.portFramed)
    }

    @Test func aBareAcknowledgmentIsNotTapped() throws {
        #expect(try tap(tcpFrame(from: 50_000, to: 443, [])) == nil)
    }

    /// A SYN has no payload to dispatch: its ports say whether its flow may be framed.
    @Test func aSYNIsPortFramedByItsPorts() throws {
        func syn(to port: UInt16) -> [UInt8] {
            var frame = tcpFrame(from: 50_000, to: port, [])
            frame[47] = 0x02
            return frame
        }
        let toTLS = try segment(syn(to: 443))
        #expect(toTLS.syn && toTLS.portFramed && toTLS.framedStructID == -1)
        #expect(toTLS.payload.isEmpty)
        let toDiscard = try segment(syn(to: 9))
        #expect(toDiscard.syn && !toDiscard.portFramed)
    }

    /// A later IPv4 fragment: its identification, offset and data, not a segment.
    @Test func anIPv4FragmentIsTappedAsOne() throws {
        var frame = tcpFrame(from: 50_000, to: 443, helloStart)
        frame[18] = 0x12
        frame[19] = 0x34
        frame[20] = 0x20  // MF, offset 0x0010 (128 bytes)
        frame[21] = 0x10
        guard case .fragment(let fragment) = try tap(frame) else {
            Issue.record("no fragment")
            return
        }
        #expect(fragment.identification == 0x1234)
        #expect(fragment.offset == 128)
        #expect(fragment.moreFragments)
        #expect(fragment.protocolNumber == 6)
        #expect(fragment.payload == 34..<frame.count)
    }

    /// A share of frames tapped in two halves gives each frame's tap under its tag, in order, the
    /// same as tapping each alone; frames without one are left out.
    @Test func aShareTappedInTwoHalvesMatchesEachFrameAlone() throws {
        let frames = [
            tcpFrame(from: 50_000, to: 443, helloStart),
            tcpFrame(from: 50_000, to: 443, []),
            [UInt8](repeating: 0xFF, count: 14),
            tcpFrame(from: 50_001, to: 8081, Array("HTTP/1.1 200 OK\r\n".utf8)),
            tcpFrame(from: 50_002, to: 9, [7]),
        ]
        var interpreter = interpreter()
        let root = try root()
        var layers = TransportTapper.NotedLayers()
        var kept: [Bool] = []
        for (position, frame) in frames.enumerated() {
            kept.append(interpreter.withDissection(of: frame, root: root) { tapper.note($0, tag: position, into: &layers) })
        }
        // The bare acknowledgment and the frame without IP are not kept for the second half.
        #expect(kept == [true, false, false, true, true])
        var found: [(Int, TCPSegmentTap)] = []
        frames[0].withUnsafeBufferPointer { first in
            frames[3].withUnsafeBufferPointer { fourth in
                frames[4].withUnsafeBufferPointer { fifth in
                    let buffers = [0: first, 3: fourth, 4: fifth]
                    tapper.taps(of: layers, bytes: { buffers[$0] }) { tag, tap in
                        if case .tcp(let segment) = tap { found.append((tag, segment)) }
                    }
                }
            }
        }
        #expect(found.map(\.0) == [0, 3, 4])
        for (tag, segment) in found {
            let alone = try self.segment(frames[tag])
            #expect(segment.payload == alone.payload)
            #expect(segment.source == alone.source && segment.destination == alone.destination)
            #expect(segment.framedStructID == alone.framedStructID)
        }
    }
}
