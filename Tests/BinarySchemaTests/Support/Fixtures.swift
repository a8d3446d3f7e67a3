import BinarySchema
import Dissector
import Foundation
import PacketCapture
import Testing

/// The repository root, found from this file's path.
let repositoryRoot: URL = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }
    return url
}()

/// The bundled schemas, loaded once.
let bundledSchema: Schema = {
    do {
        return try SchemaLoader.load(paths: [repositoryRoot.appendingPathComponent("Schemas").path])
    } catch {
        fatalError("bundled schemas do not load:\n\(error)")
    }
}()

/// Checks `text` as a schema and dissects `bytes` from struct `root`, as a frame of
/// `originalLength` bytes on the wire when given (a capture cut short).
func dissect(_ text: String, _ bytes: [UInt8], root: String = "Main", originalLength: Int? = nil) throws -> Dissection {
    let schema = try SchemaLoader.load(text: text)
    let rootStruct = try #require(schema.structType(named: root))
    var interpreter = Interpreter(schema: schema)
    return interpreter.dissect(bytes, root: rootStruct, originalLength: originalLength)
}

/// The diagnostics for schema text that must fail to check.
func diagnostics(_ text: String, path: String = "test.schema") -> [Diagnostic] {
    do {
        _ = try SchemaLoader.load(text: text, path: path)
        Issue.record("expected the schema to fail to check")
        return []
    } catch {
        return error.diagnostics
    }
}

extension Dissection {
    /// The node at `path`, failing the test if there is none.
    func at(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> FieldNode {
        let index = try #require(node(at: path), "no field \(path)", sourceLocation: sourceLocation)
        return nodes[index]
    }

    /// The integer at `path`.
    func int(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int64 {
        let index = try #require(node(at: path), "no field \(path)", sourceLocation: sourceLocation)
        return try #require(integer(of: index), "\(path) has no integer value", sourceLocation: sourceLocation)
    }

    /// The display text at `path`.
    func display(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let index = try #require(node(at: path), "no field \(path)", sourceLocation: sourceLocation)
        return ValueFormatter.displayText(self, index)
    }
}

/// Every frame of a capture file (pcap or pcapng), read through libpcap, with its link type.
struct PcapFile {
    let linkType: Int
    let frames: [[UInt8]]
    /// Each frame's length on the wire (more than its bytes when the capture cut it short).
    let originalLengths: [Int]

    init(contentsOf url: URL) throws {
        let capture = try Capture.open(file: url.path)
        linkType = capture.linkType
        var frames: [[UInt8]] = []
        var originalLengths: [Int] = []
        while case .packet(let packet) = try capture.next() {
            frames.append(packet.bytes)
            originalLengths.append(packet.originalLength)
        }
        self.frames = frames
        self.originalLengths = originalLengths
    }
}

/// An example capture of `Corpus/examples` and tshark's fields for it: `<name>.pcap`, and
/// `<name>.tshark.tsv` split into rows of tab-separated cells, the header row first.
func exampleCapture(_ name: String) throws -> (capture: PcapFile, rows: [[String]]) {
    let examples = repositoryRoot.appendingPathComponent("Corpus/examples")
    let capture = try PcapFile(contentsOf: examples.appendingPathComponent("\(name).pcap"))
    let table = try String(contentsOf: examples.appendingPathComponent("\(name).tshark.tsv"), encoding: .utf8)
    let rows = table.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    return (capture, rows)
}

/// An Ethernet frame with IPv4 (10.0.0.1 to 10.0.0.2) and a 20-byte TCP header around `payload`;
/// checksums left zero.
func tcpFrame(from source: UInt16, to destination: UInt16, _ payload: [UInt8]) -> [UInt8] {
    let ipLength = 40 + payload.count
    var frame: [UInt8] = [0x02, 0, 0, 0, 0, 1, 0x02, 0, 0, 0, 0, 2, 0x08, 0x00]
    frame += [0x45, 0, UInt8(ipLength >> 8), UInt8(ipLength & 0xFF), 0, 1, 0, 0, 64, 6, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2]
    frame += [UInt8(source >> 8), UInt8(source & 0xFF), UInt8(destination >> 8), UInt8(destination & 0xFF),
              0, 0, 0, 1, 0, 0, 0, 0, 0x50, 0x18, 0xFF, 0xFF, 0, 0, 0, 0]
    return frame + payload
}

/// Writes `files` (name → text) into a fresh directory and loads them with the bundled schemas.
func loadWithBundled(_ files: [String: String]) throws -> Schema {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dispatch-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var paths = [repositoryRoot.appendingPathComponent("Schemas").path]
    for (name, text) in files.sorted(by: { $0.key < $1.key }) {
        let url = directory.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        paths.append(url.path)
    }
    return try SchemaLoader.load(paths: paths, importDirectories: [repositoryRoot.appendingPathComponent("Schemas").path])
}

/// Dissects `bytes` as an Ethernet frame.
func dissectFrame(_ schema: Schema, _ bytes: [UInt8]) throws -> Dissection {
    var interpreter = Interpreter(schema: schema)
    return interpreter.dissect(bytes, root: try #require(schema.structType(named: "Ethernet")))
}
