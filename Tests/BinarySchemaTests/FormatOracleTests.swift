import BinarySchema
import Foundation
import Testing

/// The file formats of `Schemas/examples` (wav, gif, MIDI, sqlite3, ext2, gettext .mo, Java class,
/// PE, pcap, TrueType, protobuf, msgpack), each checked on a real sample against the values an
/// independent parser wrote (`Corpus/examples/formats/<format>.oracle.tsv`, made by the
/// `<format>.oracle.py` beside it; `<format>.md` says how the sample and the oracle were made).
@Suite struct FormatOracleTests {
    static let directory = repositoryRoot.appendingPathComponent("Corpus/examples/formats")

    static let oracles: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".oracle.tsv") }.sorted()
    }()

    struct Oracle {
        var schema = ""
        var root = ""
        var sample = ""
        var rows: [(path: String, value: String)] = []

        init(contentsOf url: URL) throws {
            for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: true) {
                if line.hasPrefix("#") {
                    let parts = line.dropFirst().split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                    guard parts.count == 2 else { continue }
                    switch parts[0] {
                    case "schema": schema = parts[1]
                    case "root": root = parts[1]
                    case "sample": sample = parts[1]
                    default: break
                    }
                } else if let tab = line.firstIndex(of: "\t") {
                    rows.append((String(line[..<tab]), String(line[line.index(after: tab)...])))
                }
            }
        }
    }

    /// A value as the oracle writes it: dissect's JSON value (integers in decimal, text with
    /// `\\`, `\t`, `\n`, `\r` escaped, bytes in lowercase hex).
    static func rendered(_ dissection: Dissection, _ index: Int) -> String {
        switch dissection.nodes[index].value {
        case .unsigned(let value): return String(value)
        case .signed(let value): return String(value)
        case .boolean(let value): return value ? "true" : "false"
        case .float(let value): return String(value)
        case .string, .text:
            let text = dissection.text(of: index) ?? ""
            return text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\t", with: "\\t")
                .replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\r", with: "\\r")
        case .bytes:
            return dissection.rawBytes(of: index).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        default:
            return "None"
        }
    }

    @Test func everyFormatOfTheIssueHasASampleAndAnOracle() {
        let formats = Self.oracles.map { String($0.dropLast(".oracle.tsv".count)) }
        #expect(formats == ["ext2", "gif", "java_class", "midi", "mo", "msgpack", "pcap", "pe", "protobuf", "sqlite3", "ttf", "wav"])
    }

    @Test(arguments: oracles)
    func aFormatDissectsAsItsIndependentParserReadIt(oracle name: String) throws {
        let oracle = try Oracle(contentsOf: Self.directory.appendingPathComponent(name))
        #expect(oracle.rows.count >= 20, "\(name): at least 20 values")
        let schema = try SchemaLoader.load(paths: [repositoryRoot.appendingPathComponent(oracle.schema).path])
        #expect(schema.warnings.isEmpty, "\(schema.warnings)")
        let bytes = try [UInt8](Data(contentsOf: repositoryRoot.appendingPathComponent(oracle.sample)))
        var interpreter = Interpreter(schema: schema)
        let dissection = interpreter.dissect(bytes, root: try #require(schema.structType(named: oracle.root)))
        #expect(dissection.error == nil, "\(name): \(String(describing: dissection.error))")
        for (path, expected) in oracle.rows {
            guard let index = dissection.node(at: path) else {
                Issue.record("\(name): no field \(path)")
                continue
            }
            let actual = Self.rendered(dissection, index)
            if case .float(let value) = dissection.nodes[index].value, let number = Double(expected) {
                #expect(value == number, "\(name): \(path)")
            } else {
                #expect(actual == expected, "\(name): \(path)")
            }
        }
    }
}
