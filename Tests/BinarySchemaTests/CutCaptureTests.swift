import BinarySchema
import Foundation
import Testing

/// Frames the capture cut short (captured length below the original length): the walk goes on
/// over the bytes there are and stops at the end of them as a cut, not an error; a length that
/// lies stays an error, in a cut frame as in a whole one.
@Suite struct CutCaptureTests {
    /// Frame 3 of tcp.pcap: an ACK of 66 bytes whose TCP header (offset 34) has 12 option bytes,
    /// NOP, NOP and timestamps (value at 58, echo reply at 62).
    static func tcpAck() throws -> (frame: [UInt8], root: StructType) {
        let pcap = try PcapFile(contentsOf: repositoryRoot.appendingPathComponent("Corpus/captures/tcp.pcap"))
        let frame = pcap.frames[2]
        try #require(frame.count == 66 && pcap.originalLengths[2] == 66)
        return (frame, try #require(bundledSchema.rootStruct(forLinkType: pcap.linkType)))
    }

    @Test func tcpPortsAreShownWhenTheCaptureEndsOneByteShortOfTheHeader() throws {
        let (frame, root) = try Self.tcpAck()
        var interpreter = Interpreter(schema: bundledSchema)
        let result = interpreter.dissect(Array(frame.prefix(65)), root: root, originalLength: 66)
        #expect(result.error == nil)
        #expect(result.isTruncated && result.originalLength == 66)
        #expect(try result.int("tcp.src_port") == 48684)
        #expect(try result.int("tcp.dst_port") == 8765)
        #expect(try result.int("tcp.options[2].value.value") == 3_160_075_471)
        let cut = try #require(result.cut)
        #expect(cut.path == "tcp.options[2].value.echo_reply")
        #expect(cut.offset == 62 && cut.needed == 4 && cut.layer == "tcp")
        #expect(cut.capturedLength == 65 && cut.originalLength == 66)
        #expect(cut.description == "captured 65 of 66 bytes: tcp.options[2].value.echo_reply needs 4 bytes at offset 62, 3 captured")
        #expect(result.cutNode == cut.node && result.errorNode == -1)
        #expect(result.nodes[cut.node].byteLength == 3, "the cut field spans the bytes of it that were captured")
        // Each scope the cut narrowed ends at the captured end, and holds the cut field.
        for path in ["tcp", "tcp.options", "tcp.options[2].value"] {
            let scope = try result.at(path)
            #expect(scope.bitEnd == 65 * 8, "\(path) ends at the captured end")
        }
    }

    @Test func theSameBytesAsAWholeFrameAreAnError() throws {
        let (frame, root) = try Self.tcpAck()
        var interpreter = Interpreter(schema: bundledSchema)
        for originalLength in [nil, 65, 60] {
            let result = interpreter.dissect(Array(frame.prefix(65)), root: root, originalLength: originalLength)
            #expect(result.cut == nil && !result.isTruncated)
            let error = try #require(result.error)
            #expect(error.kind == .prematureEnd(needed: 32, available: 31))
            #expect(error.path == "ip.payload")
            #expect(result.node(at: "tcp.src_port") == nil, "a whole frame that lies loses its TCP header")
        }
    }

    @Test func aCaptureEndingInsideTheIPv4HeaderCutsThere() throws {
        let (frame, root) = try Self.tcpAck()
        var interpreter = Interpreter(schema: bundledSchema)
        let result = interpreter.dissect(Array(frame.prefix(28)), root: root, originalLength: 66)
        #expect(result.error == nil)
        let cut = try #require(result.cut)
        #expect(cut.path == "ip.src" && cut.offset == 26 && cut.needed == 4)
        #expect(cut.layer == "ip")
        #expect(try result.int("ip.ttl") == 64)
    }

    @Test func aListThatReadsToTheEndOfItsScopeGoesOnPastTheCapturedBytes() throws {
        let (frame, root) = try Self.tcpAck()
        var interpreter = Interpreter(schema: bundledSchema)
        // The capture ends with TCP's fixed header: its 12 option bytes were on the wire.
        let result = interpreter.dissect(Array(frame.prefix(54)), root: root, originalLength: 66)
        #expect(result.error == nil)
        #expect(result.cut?.path == "tcp.options[0].kind")
        #expect(try result.int("tcp.urgent_pointer") == 0)
        // In a whole frame a list ends quietly at the end of its scope.
        let list = "struct Main { items: u8[..] }"
        #expect(try dissect(list, [1, 2]).error == nil)
        #expect(try dissect(list, [1, 2], originalLength: 3).cut?.path == "Main.items[2]")
    }

    @Test func aCutInsideAPayloadThatNoFieldReadsPastIsNoCut() throws {
        let pcap = try PcapFile(contentsOf: repositoryRoot.appendingPathComponent("Corpus/captures/tcp.pcap"))
        let frame = pcap.frames[3]
        try #require(frame.count == 154)
        var interpreter = Interpreter(schema: bundledSchema)
        let root = try #require(bundledSchema.rootStruct(forLinkType: pcap.linkType))
        let result = interpreter.dissect(Array(frame.prefix(90)), root: root, originalLength: 154)
        #expect(result.error == nil && result.cut == nil)
        #expect(result.isTruncated)
        #expect(try result.at("tcp.payload").byteLength == 24, "the payload is the bytes there are")
    }

    @Test func aLyingLengthInACutFrameIsStillAnError() throws {
        // Frame 4 of tcp.pcap: 154 bytes, the same TCP options as frame 3, then 88 bytes of data.
        let pcap = try PcapFile(contentsOf: repositoryRoot.appendingPathComponent("Corpus/captures/tcp.pcap"))
        let frame = pcap.frames[3]
        try #require(frame.count == 154)
        let root = try #require(bundledSchema.rootStruct(forLinkType: pcap.linkType))
        var interpreter = Interpreter(schema: bundledSchema)
        // IPv4 total length 200: past the 154 bytes on the wire.
        var lying = Array(frame.prefix(60))
        lying[16] = 0
        lying[17] = 200
        let pastTheFrame = interpreter.dissect(lying, root: root, originalLength: 154)
        #expect(pastTheFrame.cut == nil)
        #expect(pastTheFrame.error?.kind == .prematureEnd(needed: 180, available: 120))
        #expect(pastTheFrame.error?.path == "ip.payload")
        // A timestamps option of length 14: past the 12 option bytes TCP's header gives them.
        var option = Array(frame.prefix(60))
        option[57] = 14
        let pastTheOptions = interpreter.dissect(option, root: root, originalLength: 154)
        #expect(pastTheOptions.cut == nil)
        #expect(pastTheOptions.error?.kind == .exceedsScope(needed: 12, available: 8))
        #expect(pastTheOptions.error?.path == "tcp.options[2].value")
    }

    @Test func aLengthPastAScopeTheCaptureKeptWholeIsStillAnError() throws {
        // `inner` ends inside the captured bytes: its contents cannot run into the cut.
        let schema = "struct Main { inner: Inner @size(3)  tail: bytes[..] }\nstruct Inner { n: u8  data: bytes[n] }"
        let result = try dissect(schema, [5, 1, 2, 3, 4, 5, 6], originalLength: 100)
        #expect(result.cut == nil)
        #expect(result.error?.kind == .exceedsScope(needed: 5, available: 2))
        // Its size ends exactly where the capture does: the length, not the capture, ends it.
        let exact = try dissect(schema, [5, 1, 2], originalLength: 100)
        #expect(exact.cut == nil)
        #expect(exact.error?.path == "Main.inner.data")
    }

    @Test func readsThatRunOutOfCapturedBytesAreCuts() throws {
        let bytes = try dissect("struct Main { a: u8  b: bytes[6]  c: u8 }", [1, 2, 3], originalLength: 8)
        #expect(bytes.error == nil)
        #expect(bytes.cut?.path == "Main.b" && bytes.cut?.needed == 6)
        #expect(bytes.nodes[try #require(bytes.cut).node].byteLength == 2)
        #expect(bytes.node(at: "Main.c") == nil)

        let string = try dissect("struct Main { s: cstring }", [0x61, 0x62], originalLength: 10)
        #expect(string.cut?.path == "Main.s" && string.cut?.needed == nil)
        #expect(string.cut?.description == "captured 2 of 10 bytes: Main.s at offset 0 ends past the 2 captured")

        let bits = try dissect("struct Main { a: u4  b: u12 }", [0xAB], originalLength: 2)
        #expect(bits.cut?.path == "Main.b" && bits.cut?.offset == 0 && bits.cut?.bitOffset == 4)

        let varint = try dissect("struct Main { v: varint }", [0x80, 0x80], originalLength: 3)
        #expect(varint.cut?.path == "Main.v")

        let peek = try dissect("""
            struct Main {
              a: u8
              b: switch peek(0) {
                1 => u8
                _ => bytes[..]
              }
            }
            """, [7], originalLength: 2)
        #expect(peek.cut?.path == "Main.b" && peek.error == nil)

        // `é` is two bytes: the capture kept its first. The string takes the captured rest of its
        // scope; the cut character is shown escaped and flagged, as any invalid text.
        let text = try dissect("struct Main { n: u8  s: string[..] @size(n) }", [3, 0x61, 0xC3], originalLength: 4)
        #expect(text.error == nil, "\(String(describing: text.error))")
        #expect(try text.at("Main.s").isInvalidText)
        let invalid = try dissect("struct Main { s: string[..] }", [0x61, 0xFF], originalLength: 4)
        #expect(invalid.error == nil && invalid.cut == nil, "invalid text is flagged, neither an error nor a cut")
        #expect(try invalid.at("Main.s").isInvalidText)
    }

    @Test func aCountPastTheCapturedBytesReadsTheElementsThereAre() throws {
        let result = try dissect("struct Main { n: u8  items: u16[n] }", [4, 0, 1, 0, 2, 0], originalLength: 9)
        #expect(result.error == nil)
        #expect(result.cut?.path == "Main.items[2]")
        #expect(try result.int("Main.items[1]") == 2)
        // More elements than captured bits: the check before any element counts the wire's.
        let many = try dissect("struct Main { n: u8  items: u8[n] }", [100, 1, 2], originalLength: 200)
        #expect(many.error == nil)
        #expect(many.cut?.path == "Main.items[2]")
        // Past the wire as well: an error, before any element.
        let lying = try dissect("struct Main { n: u8  items: u8[n] }", [200, 1, 2], originalLength: 9)
        #expect(lying.error?.kind == .prematureEnd(needed: 200, available: 2))
        #expect(lying.cut == nil)
        #expect(lying.node(at: "Main.items[0]") == nil)
    }

    @Test func aDNSNameTheCaptureEndsIsACut() throws {
        let pcap = try PcapFile(contentsOf: repositoryRoot.appendingPathComponent("Corpus/captures/dns.pcap"))
        let root = try #require(bundledSchema.rootStruct(forLinkType: pcap.linkType))
        var interpreter = Interpreter(schema: bundledSchema)
        let result = interpreter.dissect(Array(pcap.frames[0].prefix(64)), root: root, originalLength: pcap.originalLengths[0])
        #expect(result.error == nil)
        let cut = try #require(result.cut)
        #expect(cut.path == "dns.questions[0].name" && cut.offset == 54 && cut.layer == "dns")
        #expect(result.nodes[cut.node].byteLength == 10, "the name's captured labels, the last one in part")
        #expect(try result.int("udp.dst_port") == 53)
        #expect(try result.int("dns.qdcount") == 1)
    }

    @Test func afterAScopeTheCutNarrowedTheNextReadIsACut() throws {
        let result = try dissect("struct Main { n: u8  body: bytes[..] @size(n)  trailer: u8 }", [4, 1, 2], originalLength: 6)
        #expect(result.error == nil)
        #expect(try result.at("Main.body").byteLength == 2)
        #expect(result.cut?.path == "Main.trailer" && result.cut?.offset == 3)
    }

    @Test func withDissectionSeesTheCutAndTheNextWalkForgetsIt() throws {
        let schema = try SchemaLoader.load(text: "struct Main { a: u16 }")
        let root = try #require(schema.structType(named: "Main"))
        var interpreter = Interpreter(schema: schema)
        let cut = interpreter.withDissection(of: [1], root: root, originalLength: 2) { $0.cut?.path }
        #expect(cut == "Main.a")
        let whole = interpreter.withDissection(of: [1], root: root) { ($0.cut, $0.error?.code) }
        #expect(whole.0 == nil && whole.1 == "premature_end")
    }
}
