import Foundation
import Testing

/// Schemas/examples/keyed-archive.schema on the archive KeyedArchiver wrote for
/// Corpus/examples/keyed-archive.bin (BinaryCodingTests checks the file is still what it writes):
/// every byte is labeled, with no gap and no error.
@Suite struct KeyedArchiveSchemaTests {
    @Test func theSchemaLabelsEveryByteOfAnArchive() throws {
        let run = try CommandLineTests().run([
            "hex", "--no-bundled", "--schema", "Schemas/examples/keyed-archive.schema", "--root", "KeyedArchive",
            "--file", "Corpus/examples/keyed-archive.bin", "-f", "json",
        ])
        #expect(run.status == 0, "\(run.error)")
        let line = try #require(run.output.split(separator: "\n").first)
        let frame = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let size = try #require(try FileManager.default.attributesOfItem(
            atPath: CommandLineTests.repositoryRoot.appendingPathComponent("Corpus/examples/keyed-archive.bin").path)[.size] as? Int)
        #expect(frame["length"] as? Int == size)
        #expect((frame["gaps"] as? [Any])?.isEmpty == true, "\(String(describing: frame["gaps"]))")
        #expect(frame["error"] is NSNull, "\(String(describing: frame["error"]))")
        let fields = try #require(frame["fields"] as? [[String: Any]])
        let paths = Set(fields.compactMap { $0["path"] as? String })
        // The header, both tables, keys, class names, object references and each kind of value.
        for path in ["KeyedArchive.magic", "KeyedArchive.symbols[0].text", "KeyedArchive.objects[0].class",
                     "KeyedArchive.root.keyed.entries[0].key", "KeyedArchive.root.keyed.entries[0].value.string.text"] {
            #expect(paths.contains(path), "no \(path)")
        }
        for kind in ["object", "uint", "int", "float", "double", "bytes", "unkeyed"] {
            #expect(paths.contains { $0.hasSuffix(".\(kind)") || $0.hasSuffix(".\(kind).data") }, "no \(kind) value")
        }
    }
}
