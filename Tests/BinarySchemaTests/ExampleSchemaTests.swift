import BinarySchema
import Dissector
import Foundation
import Testing

/// Real captures of tunnels (`Corpus/examples/vxlan.pcap`, `gre.pcap`) read by the bundled
/// schemas (`Schemas/vxlan.schema`, `Schemas/gre.schema`, which began as example schemas loaded
/// with `--schema`), and example schemas on formats the bundled schemas leave as bytes: every
/// field tshark shows for the same frames (`Corpus/examples/*.tshark.tsv`, every occurrence,
/// outer layer first) is there with the same value.
@Suite struct ExampleSchemaTests {
    /// tshark field → our path, per capture.
    static let mappings: [String: [String: String]] = [
        "vxlan": [
            "vxlan.vni": "vxlan.vni", "vxlan.gbp": "vxlan.gbp", "vxlan.flag_g": "vxlan.flags.flag_g",
            "vxlan.flag_i": "vxlan.flags.flag_i", "vxlan.flag_d": "vxlan.flags.flag_d", "vxlan.flag_a": "vxlan.flags.flag_a",
            "vxlan.reserved8": "vxlan.reserved8",
        ],
        "gre": [
            "gre.flags.checksum": "gre.flags.checksum", "gre.flags.routing": "gre.flags.routing", "gre.flags.key": "gre.flags.key",
            "gre.flags.sequence_number": "gre.flags.sequence_number", "gre.flags.version": "gre.flags.version",
            "gre.proto": "gre.proto", "gre.checksum": "gre.checksum", "gre.offset": "gre.offset", "gre.key": "gre.key",
            "gre.sequence_number": "gre.sequence_number",
        ],
    ]

    /// Fields of the bundled layers around and inside the tunnels.
    static let common = [
        "eth.src": "eth.src", "eth.dst": "eth.dst", "ip.src": "ip.src", "ip.dst": "ip.dst",
        "udp.srcport": "udp.src_port", "udp.dstport": "udp.dst_port", "dns.id": "dns.id",
    ]

    /// The tunnels on real captures, with the bundled schemas alone.
    @Test(arguments: ["vxlan", "gre"])
    func matchesTshark(example: String) throws {
        let schema = bundledSchema
        let (capture, rows) = try exampleCapture(example)
        let root = try #require(schema.rootStruct(forLinkType: capture.linkType))
        let header = try #require(rows.first)
        #expect(rows.count - 1 == capture.frames.count)
        let mapping = (Self.mappings[example] ?? [:]).merging(Self.common) { first, _ in first }
        #expect(Set(header) == Set(mapping.keys), "every column is compared")
        var compared = 0
        var interpreter = Interpreter(schema: schema)
        for (frameIndex, (row, frame)) in zip(rows.dropFirst(), capture.frames).enumerated() {
            let dissection = interpreter.dissect(frame, root: root)
            #expect(dissection.error == nil, "frame \(frameIndex + 1): \(String(describing: dissection.error))")
            for (column, tsharkName) in header.enumerated() {
                guard let path = mapping[tsharkName] else { continue }
                let expected = column < row.count && !row[column].isEmpty ? row[column].split(separator: ",").map(String.init) : []
                let nodes = dissection.nodes.indices.filter { dissection.path(of: $0) == path }
                let ours = nodes.map { index -> String in
                    if let value = dissection.integer(of: index) { return String(value) }
                    return ValueFormatter.displayText(dissection, index)
                }
                let theirs = expected.map { text in BundledSchemaOracleTests.integer(text).map(String.init) ?? text }
                #expect(ours == theirs, "frame \(frameIndex + 1) \(tsharkName) (\(path))")
                compared += theirs.count
            }
        }
        #expect(compared > 40, "\(compared) values compared")
    }

    /// Without the bundled VXLAN schema the same frames stop at UDP, as bytes.
    @Test func withoutTheVXLANSchemaTheTunnelIsBytes() throws {
        let bundled = repositoryRoot.appendingPathComponent("Schemas")
        let files = try FileManager.default.contentsOfDirectory(atPath: bundled.path)
            .filter { $0.hasSuffix(".schema") && $0 != "vxlan.schema" }.sorted()
        let schema = try SchemaLoader.load(paths: files.map { bundled.appendingPathComponent($0).path },
                                           importDirectories: [bundled.path])
        let capture = try PcapFile(contentsOf: repositoryRoot.appendingPathComponent("Corpus/examples/vxlan.pcap"))
        var interpreter = Interpreter(schema: schema)
        let frame = try #require(capture.frames.last)
        let dissection = interpreter.dissect(frame, root: try #require(schema.rootStruct(forLinkType: 1)))
        #expect(dissection.node(at: "dns.id") == nil)
        #expect(try dissection.at("udp.payload").kind == .bytes)
        var withVXLAN = Interpreter(schema: bundledSchema)
        #expect(withVXLAN.dissect(frame, root: try #require(bundledSchema.rootStruct(forLinkType: 1))).node(at: "dns.id") != nil)
    }

    /// HTTP/1.1 from curl to `python3 -m http.server` on loopback: every request and response
    /// start line, every header line, the headers tshark names and the bodies, frame by frame
    /// (tshark with desegmentation off, so it too reads each segment alone).
    @Test func httpMatchesTshark() throws {
        let schema = bundledSchema      // Schemas/http.schema, which began as an example
        let (capture, rows) = try exampleCapture("http")
        let root = try #require(schema.rootStruct(forLinkType: capture.linkType))
        let header = try #require(rows.first)
        #expect(rows.count - 1 == capture.frames.count)
        var compared = 0
        var messages = 0
        var interpreter = Interpreter(schema: schema)
        for (frameIndex, (row, frame)) in zip(rows.dropFirst(), capture.frames).enumerated() {
            let dissection = interpreter.dissect(frame, root: root)
            #expect(dissection.error == nil, "frame \(frameIndex + 1): \(String(describing: dissection.error))")
            let ours = Self.httpFields(dissection)
            if ours["http.request.method"] != nil || ours["http.response.code"] != nil { messages += 1 }
            for (column, name) in header.enumerated() {
                let theirs = column < row.count && !row[column].isEmpty ? row[column].split(separator: "|").map(String.init) : []
                #expect((ours[name] ?? []) == theirs, "frame \(frameIndex + 1) \(name)")
                compared += theirs.count
            }
            #expect(Set(ours.keys).isSubset(of: header), "frame \(frameIndex + 1): every value we read is compared")
        }
        #expect(messages == 4, "two requests and two responses")
        #expect(compared >= 100, "\(compared) values compared")
    }

    /// The values tshark shows for a frame, by tshark field name, read from our dissection.
    static func httpFields(_ dissection: Dissection) -> [String: [String]] {
        var fields: [String: [String]] = [:]
        func text(_ path: String) -> String? { dissection.node(at: path).flatMap { dissection.text(of: $0) } }
        func add(_ name: String, _ value: String?) { if let value { fields[name, default: []].append(value) } }
        add("tcp.srcport", dissection.node(at: "tcp.src_port").flatMap(dissection.integer(of:)).map(String.init))
        add("tcp.dstport", dissection.node(at: "tcp.dst_port").flatMap(dissection.integer(of:)).map(String.init))
        let isRequest = dissection.node(at: "http.method") != nil
        let isResponse = dissection.node(at: "http.status") != nil
        if isRequest {
            add("http.request.method", text("http.method"))
            add("http.request.uri", text("http.target"))
            add("http.request.version", text("http.version"))
        }
        if isResponse {
            add("http.response.version", text("http.version"))
            add("http.response.code", text("http.status"))
            add("http.response.phrase", text("http.reason"))
        }
        // Each header as tshark names it, and each whole line as its raw bytes.
        let named = ["host": "http.host", "user-agent": "http.user_agent", "accept": "http.accept",
                     "accept-language": "http.accept_language", "content-type": "http.content_type",
                     "content-length": "http.content_length_header", "server": "http.server", "date": "http.date",
                     "last-modified": "http.last_modified", "connection": "http.connection"]
        var index = 0
        while let line = dissection.node(at: "http.headers[\(index)]") {
            add(isRequest ? "http.request.line" : "http.response.line", tsharkEscaped(dissection.rawBytes(of: line)))
            if let name = text("http.headers[\(index)].name"), let field = named[name.lowercased()] {
                add(field, text("http.headers[\(index)].value"))
            }
            index += 1
        }
        // The body, in the message's segment or (sent on its own) as the TCP payload.
        let body = dissection.node(at: "http.body") ?? (isRequest || isResponse ? nil : dissection.node(at: "tcp.payload"))
        if let body, dissection.nodes[body].byteLength > 0 { add("http.file_data", tsharkEscaped(dissection.rawBytes(of: body))) }
        return fields
    }

    /// Text as `tshark -T fields` writes it: CR, LF and tab as \r, \n and \t.
    static func tsharkEscaped(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
            .replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\n", with: "\\n")
            .replacingOccurrences(of: "\t", with: "\\t")
    }
}
