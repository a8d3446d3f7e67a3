import BinarySchema
import Dissector
import Foundation
import Testing

/// The bundled tls.schema on what one TCP segment holds: records, a record the segment cuts,
/// bytes that do not start a record, and the heuristic for a hello on an unregistered port.
@Suite struct TLSTests {
    static func dissect(_ frame: [UInt8]) throws -> Dissection {
        var interpreter = Interpreter(schema: bundledSchema)
        return interpreter.dissect(frame, root: try #require(bundledSchema.structType(named: "Ethernet")))
    }

    /// A ClientHello with SNI and ALPN (h2), in a handshake record of the given version.
    static func clientHello(recordVersion: UInt8 = 1) -> [UInt8] {
        let sni: [UInt8] = [0, 0, 0, 16, 0, 14, 0, 0, 11] + Array("example.com".utf8)
        let alpn: [UInt8] = [0, 16, 0, 5, 0, 3, 2] + Array("h2".utf8)
        let extensions = sni + alpn
        var body: [UInt8] = [3, 3] + [UInt8](repeating: 0xAB, count: 32) + [0, 0, 2, 0x13, 0x01, 1, 0]
        body += [UInt8(extensions.count >> 8), UInt8(extensions.count & 0xFF)] + extensions
        let message: [UInt8] = [1, 0, UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
        return [22, 3, recordVersion, UInt8(message.count >> 8), UInt8(message.count & 0xFF)] + message
    }

    @Test func aClientHelloOnAnyPortIsClaimedByTheHeuristicAndSummarized() throws {
        let dissection = try Self.dissect(tcpFrame(from: 50000, to: 4433, Self.clientHello()))
        #expect(dissection.error == nil)
        #expect(try dissection.int("tls.record[0].handshake[0].type") == 1)
        #expect(try dissection.display("tls.record[0].handshake[0].body.extension[0].value.names[0].name") == "\"example.com\"")
        let summary = SummaryRenderer().render(dissection)
        // Text unquoted in a summary, as tcpdump prints it.
        #expect(summary.contains("TLS ClientHello sni example.com alpn h2 [bad checksum"), "\(summary)")
    }

    /// Application data, or a handshake record of an SSL 2-era version, on an unregistered port is not claimed.
    @Test func theHeuristicWantsAHelloRecord() throws {
        let appData = try Self.dissect(tcpFrame(from: 50000, to: 4433, [23, 3, 3, 0, 2, 0xAA, 0xBB]))
        #expect(appData.node(at: "tls") == nil)
        #expect(try appData.at("tcp.payload").kind == .bytes)
        let future = try Self.dissect(tcpFrame(from: 50000, to: 4433, Self.clientHello(recordVersion: 5)))
        #expect(future.node(at: "tls") == nil)
        // On a registered port the same record is TLS, whatever it carries.
        let registered = try Self.dissect(tcpFrame(from: 50000, to: 993, [23, 3, 3, 0, 2, 0xAA, 0xBB]))
        #expect(registered.error == nil)
        #expect(try registered.display("tls.record[0].app_data") == "aabb")
        #expect(SummaryRenderer().render(registered).contains("TLS Application Data (2 bytes) [bad checksum"))
    }

    /// No TCP reassembly: the bytes of a record's continuation, and a record the segment ends
    /// inside, are no error.
    @Test func continuationsAndCutRecordsAreBytes() throws {
        let http = Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        let text = try Self.dissect(tcpFrame(from: 50000, to: 443, http))
        #expect(text.error == nil)
        #expect(try text.at("tls.continuation").byteLength == http.count)
        #expect(text.node(at: "tls.record") == nil)

        let hello = Self.clientHello()
        let cut = try Self.dissect(tcpFrame(from: 50000, to: 443, Array(hello.prefix(40))))
        #expect(cut.error == nil)
        #expect(try cut.int("tls.record[0].length") == hello.count - 5)
        #expect(try cut.at("tls.record[0].fragment").byteLength == 35)

        // A whole record, then the start of the next one's continuation.
        let twice = try Self.dissect(tcpFrame(from: 50000, to: 8443, [21, 3, 3, 0, 2, 2, 40] + http))
        #expect(twice.error == nil)
        #expect(try twice.int("tls.record[0].alert_message.desc") == 40)
        #expect(try twice.at("tls.continuation").byteLength == http.count)
    }

    /// A handshake record whose first bytes are not a message header sent in the clear is
    /// encrypted (an AES-GCM Finished starts with its explicit nonce, often the sequence number 0).
    @Test func aFinishedWithAZeroNonceIsEncrypted() throws {
        let finished: [UInt8] = [22, 3, 3, 0, 40] + [UInt8](repeating: 0, count: 8) + [UInt8](repeating: 0x5A, count: 32)
        let dissection = try Self.dissect(tcpFrame(from: 50000, to: 443, finished))
        #expect(dissection.error == nil)
        #expect(try dissection.at("tls.record[0].encrypted_handshake").byteLength == 40)
        #expect(dissection.node(at: "tls.record[0].handshake") == nil)
    }
}
