import Dissector
import Foundation
import Testing

/// `-f html`, end to end: one well-formed self-contained page whose data lines describe the
/// same fields as the JSON view (the browser tests in Tests/Browser drive the page itself).
@Suite struct HTMLViewTests {
    private func run(_ arguments: [String], input: String? = nil) throws -> CommandLineTests.Run {
        try CommandLineTests().run(arguments, input: input)
    }

    private static let dataStart = "<script type=\"application/x-ndjson\" id=\"packets\">\n"

    /// The page's data lines, parsed, after checking the page's shape: the doctype first, one
    /// data element, nothing that closes it early, the tail last, no network reference.
    private func frames(ofPage page: String) throws -> [[String: Any]] {
        #expect(page.hasPrefix("<!DOCTYPE html>\n"))
        #expect(page.hasSuffix(HTMLPage.tail), "the tail is written")
        #expect(page.components(separatedBy: Self.dataStart).count == 2, "one ndjson element")
        // The page's own script, then the data element: no other </script> anywhere.
        #expect(page.components(separatedBy: "</script>").count == 3)
        #expect(!page.contains("http://") && !page.contains("https://") && !page.contains(" src="), "nothing loaded from elsewhere")
        let afterStart = try #require(page.range(of: Self.dataStart)).upperBound
        let end = try #require(page.range(of: "</script>", range: afterStart..<page.endIndex)).lowerBound
        #expect(page[end...] == Substring(HTMLPage.tail), "the data runs to the tail")
        let data = page[afterStart..<end]
        #expect(!data.contains("<"), "every < in the data is escaped")
        return try data.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line.prefix(80))")
        }
    }

    /// Each field's path as the page builds it: a layer's abbreviation, else its parent's path
    /// and its own name (`[i]` for an element).
    private func paths(of fields: [[Any]]) -> [String] {
        var paths: [String] = []
        for (index, field) in fields.enumerated() {
            let name = field[0] as? String ?? "?"
            let parent = field[1] as? Int ?? -1
            let flags = field[2] as? Int ?? 0
            if flags & 16 != 0 || parent < 0 || parent >= index {
                paths.append(name)
            } else {
                paths.append(paths[parent] + (name.hasPrefix("[") ? "" : ".") + name)
            }
        }
        return paths
    }

    /// A capture with reassembled units: every line of the JSON view has its line in the page,
    /// with the same fields (paths, offsets, lengths, bits), the frame's bytes and its summary line.
    @Test(arguments: ["Corpus/captures/dns.pcap", "Corpus/reassembly/http-large.pcap", "Corpus/captures/snaplen.pcap"])
    func pageDescribesWhatTheJSONViewDoes(capture: String) throws {
        let html = try run(["-r", capture, "-f", "html"])
        #expect(html.status == 0, "\(html.error)")
        let page = try frames(ofPage: html.output)
        let json = try run(["-r", capture, "-f", "json"])
        let summary = try run(["-r", capture, "-f", "summary"])
        let objects = try json.output.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let summaries = summary.output.split(separator: "\n").map(String.init)
        #expect(page.count == objects.count && page.count > 1)
        #expect(page.map { $0["summary"] as? String ?? "" } == summaries, "each frame's summary line")
        for (line, object) in zip(page, objects) {
            #expect(line["frame"] as? Int == object["frame"] as? Int)
            #expect(line["reassembled_in"] as? Int == object["reassembled_in"] as? Int)
            let fields = try #require(line["fields"] as? [[Any]])
            let expected = try #require(object["fields"] as? [[String: Any]])
            #expect(paths(of: fields) == expected.map { $0["path"] as? String ?? "" })
            for (field, reference) in zip(fields, expected) {
                #expect(field[3] as? Int == reference["offset"] as? Int && field[4] as? Int == reference["length"] as? Int)
                if reference["error"] == nil && reference["cut"] == nil {
                    #expect(field[5] as? String == reference["display"] as? String)
                }
                #expect(field[6] as? String == reference["filter"] as? String)
                #expect((field.count > 7 ? field[7] as? Int : nil) == reference["bit_offset"] as? Int)
            }
            // The bytes each field's raw came from.
            let bytes = try #require(line["bytes"] as? String)
            #expect(bytes.count == 2 * (object["length"] as? Int ?? -1))
            for reference in expected {
                guard let raw = reference["raw"] as? String, let offset = reference["offset"] as? Int else { continue }
                let start = bytes.index(bytes.startIndex, offsetBy: 2 * offset)
                #expect(bytes[start...].hasPrefix(raw))
            }
            #expect((line["error"] as? [String: Any])?["message"] as? String
                    == (object["error"] as? [String: Any])?["message"] as? String)
            #expect((line["cut"] as? [String: Any])?["path"] as? String == (object["cut"] as? [String: Any])?["path"] as? String)
        }
        if capture.contains("reassembly") {
            #expect(page.contains { $0["provenance"] is [[Int]] }, "reassembled units say where their bytes came from")
        }
    }

    /// `dissect hex -f html` of a malformed frame: one page, the error said, the bytes after it marked.
    @Test func hexOfAMalformedFrameIsAPageWithItsError() throws {
        let sample = try String(contentsOf: CommandLineTests.repositoryRoot.appendingPathComponent("Corpus/samples/truncated-ipv4.hex"),
                                encoding: .utf8)
        let result = try run(["hex", "-f", "html"], input: sample)
        #expect(result.status == 2, "the page, and the status of bytes that do not match: \(result.error)")
        let page = try frames(ofPage: result.output)
        let frame = try #require(page.first)
        #expect(page.count == 1)
        let error = try #require(frame["error"] as? [String: Any])
        #expect((error["message"] as? String)?.hasPrefix("premature end of data") == true)
        let fields = try #require(frame["fields"] as? [[Any]])
        let failing = try #require(error["field"] as? Int)
        #expect((fields[failing][2] as? Int ?? 0) & 64 != 0, "the failing field is flagged")
        #expect((frame["summary"] as? String)?.contains("✗") == true)
    }

    /// Text that would end the data element (`</script>`) or open a comment is escaped, and a
    /// title from the command line cannot inject markup.
    @Test func markupInValuesCannotEscapeTheData() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dissect-html-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let schema = directory.appendingPathComponent("text.schema")
        try "struct Note { text: string[..] }\n".write(to: schema, atomically: true, encoding: .utf8)
        let text = "</script><!--<script>alert(1)</script>"
        let hex = text.utf8.map { String(format: "%02x", $0) }.joined()
        let result = try run(["hex", "--no-bundled", "--schema", schema.path, "--root", "Note", "-f", "html", hex])
        #expect(result.status == 0, "\(result.error)")
        let page = try frames(ofPage: result.output)
        let fields = try #require(page.first?["fields"] as? [[Any]])
        #expect(fields.contains { ($0[5] as? String)?.contains(text) == true }, "the value reads back whole")
        let file = directory.appendingPathComponent("a<i>.bin")
        try Data("hi".utf8).write(to: file)
        let title = try run(["hex", "--no-bundled", "--schema", schema.path, "--root", "Note", "-f", "html", "--file", file.path])
        #expect(title.status == 0, "\(title.error)")
        #expect(title.output.contains("a&lt;i&gt;.bin · dissect</title>") && !title.output.contains("<i>"))
        #expect(HTMLPage.head(title: "<b>&\"").contains("&lt;b&gt;&amp;&quot;"))
    }
}
