import BinarySchema
import Testing

/// `@pdu`: how a protocol's PDUs are delimited in a TCP byte stream. The bundled framings give the
/// answers of the reference framers of Reassembly (`PDUFramer.tlsRecords`, `.bgp`, `.dnsOverTCP`,
/// `.mqtt`), written out here; where an expression asks for fewer bytes than the reference (which
/// asks for its whole header at once), the comment says so: both are lower bounds the stream
/// honours by calling again.
@Suite struct PDUFramingTests {
    private func framing(_ structName: String, in schema: Schema = bundledSchema,
                         sourceLocation: SourceLocation = #_sourceLocation) throws -> PDUFraming {
        let structure = try #require(schema.structType(named: structName), sourceLocation: sourceLocation)
        return try #require(structure.pduFraming, "\(structName) has no @pdu", sourceLocation: sourceLocation)
    }

    private func boundary(_ framing: PDUFraming, _ bytes: [UInt8]) -> PDUFramingBoundary {
        bytes.withUnsafeBufferPointer { framing.boundary(of: $0) }
    }

    private func pduStructName(_ framing: PDUFraming, in schema: Schema = bundledSchema) -> String? {
        schema.structs.indices.contains(framing.pduStructID) ? schema.structs[framing.pduStructID].name : nil
    }

    // MARK: - Bundled framings

    @Test(arguments: ["TLS", "TLSHelloSegment"])
    func tlsRecords(segmentStruct: String) throws {
        let tls = try framing(segmentStruct)
        #expect(pduStructName(tls) == "TLS")
        #expect(tls.builtin == nil)
        #expect(boundary(tls, [0x16]) == .needMore(atLeast: 5))
        #expect(boundary(tls, [0x16, 0x03]) == .needMore(atLeast: 5))
        #expect(boundary(tls, [0x16, 0x03, 0x01, 0x00]) == .needMore(atLeast: 5))
        #expect(boundary(tls, [0x16, 0x03, 0x01, 0x00, 0x2A]) == .complete(length: 47))
        #expect(boundary(tls, [0x17, 0x03, 0x03, 0x40, 0x00, 0xAB]) == .complete(length: 16389))
        #expect(boundary(tls, [0x14, 0x03, 0x03, 0x00, 0x00]) == .complete(length: 5))
        #expect(boundary(tls, [0x18, 0x03, 0x03, 0xFF, 0xFF]) == .complete(length: 65540))
        // Content types 20...24 only, version major 3 only.
        #expect(boundary(tls, [0x13]) == .notAPDU)
        #expect(boundary(tls, [0x19, 0x03, 0x03, 0x00, 0x01]) == .notAPDU)
        #expect(boundary(tls, [0x16, 0x02]) == .notAPDU)
        #expect(boundary(tls, [0x47, 0x45, 0x54, 0x20, 0x2F]) == .notAPDU)
        #expect(boundary(tls, []) == .needMore(atLeast: 1))
    }

    @Test func bgpMessages() throws {
        let bgp = try framing("BGPSegment")
        #expect(pduStructName(bgp) == "BGP")
        let marker = [UInt8](repeating: 0xFF, count: 16)
        #expect(boundary(bgp, marker + [0x00, 0x13, 0x04]) == .complete(length: 19))
        #expect(boundary(bgp, marker + [0x00, 0x1D, 0x01, 0x04]) == .complete(length: 29))
        #expect(boundary(bgp, marker + [0xFF, 0xFF, 0x02]) == .complete(length: 65535))
        // A length below the header's, or a marker byte that is not 0xFF.
        #expect(boundary(bgp, marker + [0x00, 0x12, 0x04]) == .notAPDU)
        #expect(boundary(bgp, [0x00]) == .notAPDU)
        #expect(boundary(bgp, [0xFF, 0xFF, 0x00]) == .notAPDU)
        #expect(boundary(bgp, Array(marker.prefix(15)) + [0xFE, 0x00, 0x13, 0x04]) == .notAPDU)
        // Short prefixes: the reference asks for its 19-byte header (.needMore(atLeast: 19)) on
        // each; the expression asks for the first byte it lacks, and already knows the length
        // once bytes 16 and 17 are there.
        #expect(boundary(bgp, [0xFF]) == .needMore(atLeast: 2))
        #expect(boundary(bgp, marker) == .needMore(atLeast: 17))
        #expect(boundary(bgp, marker + [0x00]) == .needMore(atLeast: 18))
        #expect(boundary(bgp, marker + [0x00, 0x17]) == .complete(length: 23))
    }

    @Test func dnsOverTCP() throws {
        let dns = try framing("DNSOverTCP")
        #expect(pduStructName(dns) == "DNSOverTCP")
        #expect(boundary(dns, [0x00]) == .needMore(atLeast: 2))
        #expect(boundary(dns, [0x00, 0x1D]) == .complete(length: 31))
        #expect(boundary(dns, [0x00, 0x00]) == .complete(length: 2))
        #expect(boundary(dns, [0x01, 0x02, 0x12, 0x34]) == .complete(length: 260))
        #expect(boundary(dns, [0xFF, 0xFF]) == .complete(length: 65537))
    }

    @Test func mqttPackets() throws {
        let mqtt = try framing("MQTTSegment")
        #expect(pduStructName(mqtt) == "MQTTPacket")
        #expect(boundary(mqtt, [0x30]) == .needMore(atLeast: 2))
        #expect(boundary(mqtt, [0x30, 0x0A]) == .complete(length: 12))
        #expect(boundary(mqtt, [0xC0, 0x00]) == .complete(length: 2))
        #expect(boundary(mqtt, [0x30, 0x80]) == .needMore(atLeast: 3))
        #expect(boundary(mqtt, [0x30, 0x80, 0x01]) == .complete(length: 131))
        #expect(boundary(mqtt, [0x30, 0xC1, 0x02, 0x00]) == .complete(length: 324))
        #expect(boundary(mqtt, [0x30, 0x80, 0x80]) == .needMore(atLeast: 4))
        #expect(boundary(mqtt, [0x30, 0x80, 0x80, 0x01]) == .complete(length: 16388))
        #expect(boundary(mqtt, [0x30, 0x80, 0x80, 0x80]) == .needMore(atLeast: 5))
        #expect(boundary(mqtt, [0x30, 0xFF, 0xFF, 0xFF, 0x7F]) == .complete(length: 268_435_460))
        // Packet type 0, and a fifth length byte.
        #expect(boundary(mqtt, [0x00, 0x02]) == .notAPDU)
        #expect(boundary(mqtt, [0x0F]) == .notAPDU)
        #expect(boundary(mqtt, [0x30, 0x80, 0x80, 0x80, 0x80, 0x01]) == .notAPDU)
    }

    @Test(arguments: ["HTTPSegment", "HTTPByHeuristic"])
    func httpIsBuiltin(segmentStruct: String) throws {
        let http = try framing(segmentStruct)
        #expect(http.builtin == "http")
        #expect(pduStructName(http) == "HTTPSegment")
        #expect(http.lengthText == nil)
        #expect(boundary(http, Array("GET / HTTP/1.1\r\n\r\n".utf8)) == .notAPDU)
    }

    /// Every struct `tcp.port` names frames its stream, but SSH's (its packets are encrypted after
    /// KEXINIT) and the text protocols', read a segment's lines at a time (a line framing is not
    /// a builtin yet; Redis's RESP too, whose lengths are decimal text; SIP over TCP, whose
    /// Content-Length is decimal text as well), Telnet's and ftp-data's (streams with no messages
    /// to frame), and VNC's (a message's length depends on the session's state: the pixel format).
    @Test func everyTCPPortStructIsFramed() throws {
        let table = try #require(bundledSchema.dispatchTables.first { $0.name == "tcp.port" })
        let named = Set((table.entries + table.heuristics).map { bundledSchema.structs[$0.structID].name })
        #expect(named.isSuperset(of: ["TLS", "TLSHelloSegment", "BGPSegment", "DNSOverTCP", "MQTTSegment", "HTTPSegment",
                                      "HTTPByHeuristic"]))
        let unframed = named.filter { bundledSchema.structType(named: $0)?.pduFraming == nil }
        let unframedByDesign: Set = ["SSHSegment", "FTP", "FTPData", "SMTPSegment", "POPSegment", "IMAPSegment", "IRC", "RTSP", "Telnet",
                                     "RESPSegment", "SIP", "VNC", "X11", "RLogin", "RSH"]
        #expect(unframed.subtracting(unframedByDesign).isEmpty, "no @pdu: \(unframed.sorted())")
    }

    /// The PDU struct reads a PDU the per-segment struct cannot (an MQTT remaining length of 3 bytes).
    @Test func pduStructReadsAWholePDU() throws {
        let mqtt = try framing("MQTTSegment")
        let payload = [UInt8](repeating: 0x61, count: 16384)
        let packet: [UInt8] = [0x30, 0x84, 0x80, 0x01, 0x00, 0x02, 0x61, 0x62] + payload
        #expect(boundary(mqtt, packet) == .complete(length: packet.count))
        var interpreter = Interpreter(schema: bundledSchema)
        let dissection = interpreter.dissect(packet, root: bundledSchema.structs[mqtt.pduStructID])
        #expect(dissection.error == nil)
        #expect(try dissection.int("mqtt.len") == 16388)
        #expect(dissection.node(at: "mqtt.body.topic").flatMap(dissection.text(of:)) == "ab")
    }

    // MARK: - A user's schema

    @Test func userSchemaDeclaresItsOwnFraming() throws {
        let schema = try SchemaLoader.load(text: """
            endian big
            enum Kind: u8 { data = 1, ping = 2 }
            table tcp.port: u16
            // A 4-byte header: magic "MX", kind, then a length of the body in 16-bit words.
            @pdu(Message, accept: peek(0) == 0x4D && peek(1) == 0x58 && peek(2) <= Kind.ping,
                 length: 4 + peek(3) * 2)
            struct Session { messages: Message[..] }
            @protocol("mx")
            struct Message {
              magic: bytes[2]
              kind: Kind
              words: u8
              body: bytes[words * 2]
            }
            register tcp.port 7000 => Session
            """)
        let mx = try framing("Session", in: schema)
        #expect(pduStructName(mx, in: schema) == "Message")
        #expect(mx.lengthText == "4 + peek(3) * 2")
        #expect(boundary(mx, [0x4D, 0x58]) == .needMore(atLeast: 3))
        #expect(boundary(mx, [0x4D, 0x58, 0x01]) == .needMore(atLeast: 4))
        #expect(boundary(mx, [0x4D, 0x58, 0x01, 0x03, 0x00]) == .complete(length: 10))
        #expect(boundary(mx, [0x4D, 0x58, 0x03, 0x03]) == .notAPDU)
        #expect(boundary(mx, [0x4E]) == .notAPDU)
        #expect(schema.structType(named: "Message")?.pduFraming == nil)
    }

    @Test func arithmeticErrorsAndLengthsBelowOneAreNotAPDU() throws {
        let schema = try SchemaLoader.load(text: """
            @pdu(Main, length: 100 / peek(0)) struct Main { a: u8 }
            @pdu(Main, length: peek(0) - 1) struct Shifted { a: u8 }
            @pdu(Main, length: peek(0) << 62) struct Overflowing { a: u8 }
            @pdu(Main, length: peek(0) - 9 == 0 ? peek(1 - peek(0)) : peek(remaining()) + 1, accept: zeros(1)) struct Odd { a: u8 }
            @pdu(Main, length: peek(peek(0) - 1) + 1) struct Negative { a: u8 }
            """)
        let main = try framing("Main", in: schema)
        #expect(boundary(main, [0x00]) == .notAPDU)       // division by zero
        #expect(boundary(main, [0x0A]) == .complete(length: 10))
        #expect(boundary(main, [0xFF]) == .notAPDU)       // 100 / 255 == 0
        let shifted = try framing("Shifted", in: schema)
        #expect(boundary(shifted, [0x01]) == .notAPDU)
        #expect(boundary(shifted, [0x02]) == .complete(length: 1))
        let overflowing = try framing("Overflowing", in: schema)
        #expect(boundary(overflowing, [0x04]) == .notAPDU)
        #expect(boundary(overflowing, [0x01]) == .complete(length: 1 << 62))
        let odd = try framing("Odd", in: schema)
        #expect(boundary(odd, [0x01]) == .notAPDU)        // zeros(1) is false
        #expect(boundary(odd, [0x00, 0x00]) == .needMore(atLeast: 3))   // peek(remaining())
        #expect(boundary(odd, []) == .needMore(atLeast: 1))
        let negative = try framing("Negative", in: schema)
        #expect(boundary(negative, [0x00]) == .notAPDU)   // peek(-1)
        #expect(boundary(negative, [0x01]) == .complete(length: 2))
        #expect(boundary(negative, [0x03, 0x00]) == .needMore(atLeast: 3))
    }

    // MARK: - Checker errors

    @Test func unknownPDUStruct() throws {
        let found = diagnostics("struct Main { a: u8 }\n@pdu(Nowhere, length: 2)\nstruct Segment { a: u8 }")
        let diagnostic = try #require(found.first)
        #expect(found.count == 1)
        #expect(diagnostic.kind == .unknownType)
        #expect(diagnostic.message == "@pdu: no struct 'Nowhere' to read a PDU with")
        #expect((diagnostic.location.line, diagnostic.location.column) == (2, 6))
    }

    @Test func fieldReferenceInLength() throws {
        let found = diagnostics("""
            @pdu(Main,
                 length: peek(0) + size)
            struct Main { size: u8 }
            @pdu(Main, length: len(data) + 2, accept: parent.x == 1) struct Other { data: bytes[2] }
            """)
        #expect(found.map(\.kind) == [.unknownField, .unknownField, .unknownField])
        #expect(found.map { [$0.location.line, $0.location.column] } == [[2, 24], [4, 20], [4, 43]])
        #expect(found.first?.message.hasSuffix("it has no fields: 'size'") == true)
    }

    @Test func unknownBuiltin() throws {
        let found = diagnostics("struct Main { a: u8 }\n@pdu(Main, smtp) struct Segment { a: u8 }")
        let diagnostic = try #require(found.first)
        #expect(found.count == 1)
        #expect(diagnostic.kind == .invalidValue)
        #expect(diagnostic.message == "@pdu: no builtin framing 'smtp' (known: http)")
        #expect((diagnostic.location.line, diagnostic.location.column) == (2, 12))
    }

    @Test func missingLength() throws {
        let found = diagnostics("struct Main { a: u8 }\n\n  @pdu(Main, accept: peek(0) == 1) struct Segment { a: u8 }")
        let diagnostic = try #require(found.first)
        #expect(found.count == 1)
        #expect(diagnostic.kind == .invalidValue)
        #expect(diagnostic.message.hasPrefix("@pdu needs 'length: expression'"))
        #expect((diagnostic.location.line, diagnostic.location.column) == (3, 3))
    }

    @Test func otherMisuses() {
        let found = diagnostics("""
            struct P(n: u8) { a: u8 }
            @pdu(P, length: 2) struct A { a: u8 }
            @pdu(A, http, length: 2) struct B { a: u8 }
            @pdu(A, length: 2, size: 3) struct C { a: u8 }
            @pdu(A, length: peek(0) == 1) struct D { a: u8 }
            @pdu(A, length: 2, accept: peek(0)) struct E { a: u8 }
            @pdu(A, length: 2) @pdu(A, length: 3) struct F { a: u8 }
            @pdu struct G { a: u8 }
            @size(length: 2) struct H { a: u8 }
            """)
        #expect(found.map(\.kind) == [.invalidValue, .invalidValue, .invalidValue, .typeMismatch, .typeMismatch,
                                      .duplicateName, .invalidValue, .invalidValue])
        #expect(found.map(\.location.line) == [2, 3, 4, 5, 6, 7, 8, 9])
    }
}
