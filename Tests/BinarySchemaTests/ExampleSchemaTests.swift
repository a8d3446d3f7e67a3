import BinarySchema
import Dissector
import Foundation
import Testing

/// The example schemas on real captures the bundled schemas alone leave as bytes: loaded with
/// `--schema`, they register on the bundled tables, and every field tshark shows for the same
/// frames (`Corpus/examples/*.tshark.tsv`, every occurrence, outer layer first) is there with
/// the same value.
@Suite struct ExampleSchemaTests {
    /// tshark field → our path, per example.
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

    @Test(arguments: ["vxlan", "gre"])
    func matchesTshark(example: String) throws {
        let examples = repositoryRoot.appendingPathComponent("Corpus/examples")
        let bundled = repositoryRoot.appendingPathComponent("Schemas").path
        let schema = try SchemaLoader.load(
            paths: [bundled, repositoryRoot.appendingPathComponent("Schemas/examples/\(example).schema").path],
            importDirectories: [bundled])
        let capture = try PcapFile(contentsOf: examples.appendingPathComponent("\(example).pcap"))
        let root = try #require(schema.rootStruct(forLinkType: capture.linkType))
        let table = try String(contentsOf: examples.appendingPathComponent("\(example).tshark.tsv"), encoding: .utf8)
        let rows = table.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
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

    /// Without the example schema the same frames stop at the bundled layer, as bytes.
    @Test func withoutTheExampleTheTunnelIsBytes() throws {
        let capture = try PcapFile(contentsOf: repositoryRoot.appendingPathComponent("Corpus/examples/vxlan.pcap"))
        var interpreter = Interpreter(schema: bundledSchema)
        let dissection = interpreter.dissect(try #require(capture.frames.last), root: try #require(bundledSchema.rootStruct(forLinkType: 1)))
        #expect(dissection.node(at: "dns.id") == nil)
        #expect(try dissection.at("udp.payload").kind == .bytes)
    }
}
