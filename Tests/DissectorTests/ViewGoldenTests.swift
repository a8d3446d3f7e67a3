import BinarySchema
import Dissector
import Foundation
import Testing

let repositoryRoot: URL = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url
}()

let bundled: Schema = {
    do {
        return try SchemaLoader.load(paths: [repositoryRoot.appendingPathComponent("Schemas").path])
    } catch {
        fatalError("\(error)")
    }
}()

func sample(_ name: String, root: String = "Ethernet") throws -> Dissection {
    let text = try String(contentsOf: repositoryRoot.appendingPathComponent("Corpus/samples/\(name).hex"), encoding: .utf8)
    let bytes = try HexInput.parse(text)
    var interpreter = Interpreter(schema: bundled)
    return interpreter.dissect(bytes, root: try #require(bundled.structType(named: root)),
                               originalLength: ViewGoldenTests.originalLengths[name])
}

/// Every view of eight frames against checked-in output. Set DISSECT_UPDATE_GOLDEN=1 to rewrite
/// the files after an intended change, then review the diff.
@Suite struct ViewGoldenTests {
    static let samples = ["tcp-syn", "dns-response", "icmpv6-echo", "vlan",
                          "truncated-ipv4", "ipv4-length-beyond-frame", "dns-compression-loop", "tcp-ack-cut"]
    /// Samples that are captures cut short: their length on the wire. tcp-ack-cut is frame 3 of
    /// Corpus/captures/tcp.pcap, 66 bytes, one byte short of its TCP header's end.
    static let originalLengths = ["tcp-ack-cut": 66]

    static let cases: [(String, View)] = samples.flatMap { name in View.allCases.map { (name, $0) } }

    @Test(arguments: cases)
    func viewMatchesItsGoldenFile(sampleName: String, view: View) throws {
        let dissection = try sample(sampleName)
        let output = view.render(dissection, frame: FrameInfo(number: 1), options: RenderOptions(color: false, width: 100)) + "\n"
        let file = repositoryRoot.appendingPathComponent("Tests/DissectorTests/Golden/\(sampleName).\(view.rawValue).txt")
        if ProcessInfo.processInfo.environment["DISSECT_UPDATE_GOLDEN"] == "1" {
            try output.write(to: file, atomically: true, encoding: .utf8)
            // A run that rewrites the files compared nothing: it must not count as a pass.
            Issue.record("rewrote \(file.lastPathComponent); review the diff, then run again without DISSECT_UPDATE_GOLDEN")
            return
        }
        let golden = try String(contentsOf: file, encoding: .utf8)
        #expect(output == golden, "\(sampleName).\(view.rawValue) differs from its golden file")
    }
}

@Suite struct ViewBehaviourTests {
    @Test(arguments: ViewGoldenTests.samples)
    func jsonParsesAndDescribesEveryField(sampleName: String) throws {
        let dissection = try sample(sampleName)
        let line = JSONRenderer().render(dissection, frame: FrameInfo(number: 7))
        #expect(!line.contains("\n"), "one object per line")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["frame"] as? Int == 7)
        let fields = try #require(object["fields"] as? [[String: Any]])
        #expect(fields.count == dissection.nodes.count)
        for (index, field) in fields.enumerated() {
            #expect(field["path"] as? String == dissection.path(of: index))
            #expect(field["offset"] as? Int == dissection.nodes[index].byteOffset)
        }
        if let error = dissection.error {
            let reported = try #require(object["error"] as? [String: Any])
            #expect(reported["code"] as? String == error.code)
            #expect(reported["offset"] as? Int == error.offset)
            #expect(reported["path"] as? String == error.path)
        } else {
            #expect(object["error"] is NSNull)
        }
        if let cut = dissection.cut {
            let reported = try #require(object["cut"] as? [String: Any])
            #expect(reported["layer"] as? String == cut.layer)
            #expect(reported["message"] as? String == cut.description)
            #expect(reported["path"] as? String == cut.path)
            #expect(reported["offset"] as? Int == cut.offset)
            #expect(reported["needed"] as? Int == cut.needed)
            #expect(reported["captured_length"] as? Int == cut.capturedLength)
            #expect(reported["original_length"] as? Int == cut.originalLength)
            #expect(reported["field"] as? Int == cut.node)
            #expect(fields[cut.node]["cut"] as? Bool == true)
            #expect(object["original_length"] as? Int == dissection.originalLength)
        } else {
            #expect(object["cut"] is NSNull)
        }
    }

    /// A frame a snapshot length cut short: every view marks where, as tcpdump does (`[|tcp]`),
    /// with what was captured, keeps every field before it, and shows no error.
    @Test func everyViewMarksTheCutAndKeepsTheFieldsBeforeIt() throws {
        let dissection = try sample("tcp-ack-cut")
        let cut = try #require(dissection.cut)
        #expect(dissection.error == nil)
        for view in View.allCases {
            let output = view.render(dissection, options: RenderOptions(color: false, width: 1000))
            #expect(output.contains(view == .summary ? "65 of 66 bytes [|tcp]" : cut.description), "\(view) shows the cut")
            #expect(output.contains("48684"), "\(view) keeps TCP's source port")
            #expect(!output.contains("✗") && !output.contains("Malformed") && !output.contains("\"error\":{"),
                    "\(view) shows no error")
        }
        // The same bytes as a whole frame: an error, and no cut.
        var interpreter = Interpreter(schema: bundled)
        let whole = interpreter.dissect(dissection.bytes, root: try #require(bundled.structType(named: "Ethernet")))
        #expect(whole.error != nil && whole.cut == nil)
        for view in View.allCases {
            #expect(!view.render(whole).contains("[|"), "\(view) marks no cut in a whole frame")
        }
    }

    /// A capture that ends exactly where a field starts: the cut field has no bytes, and starts
    /// at the end of the data, in every view, with color or without.
    @Test func everyViewShowsACutAtTheEndOfTheData() throws {
        let syn = try HexInput.parse(try String(contentsOf: repositoryRoot.appendingPathComponent("Corpus/samples/tcp-syn.hex"),
                                                encoding: .utf8))
        var interpreter = Interpreter(schema: bundled)
        let dissection = interpreter.dissect(Array(syn.prefix(26)), root: try #require(bundled.structType(named: "Ethernet")),
                                             originalLength: 74)
        let cut = try #require(dissection.cut)
        #expect(cut.offset == 26 && cut.path == "ip.src" && dissection.nodes[cut.node].byteLength == 0)
        for view in View.allCases {
            for color in [false, true] {
                let output = view.render(dissection, options: RenderOptions(color: color, width: 1000))
                #expect(output.contains(view == .summary ? "[|ip]" : cut.description), "\(view) (color \(color))")
            }
        }
    }

    /// Numbers are written digit pair by digit pair, and display text in place then escaped only
    /// when it must be: both checked at the edges (every power of ten, the extremes, quotes and
    /// control bytes in a string).
    @Test func jsonWritesEveryIntegerExactlyAndEscapesDisplayText() throws {
        var unsignedValues: [UInt64] = [0, 9, UInt64.max]
        var power: UInt64 = 10
        for _ in 1...19 {
            unsignedValues += [power - 1, power, power + 1]
            power = power &* 10
        }
        let signedValues: [Int64] = [Int64.min, Int64.min + 1, -100, -10, -9, -1, Int64.max]
        var fields = ""
        var bytes: [UInt8] = []
        for (position, value) in unsignedValues.enumerated() {
            fields += "u\(position): u64be\n"
            bytes += withUnsafeBytes(of: value.bigEndian, Array.init)
        }
        for (position, value) in signedValues.enumerated() {
            fields += "i\(position): i64be\n"
            bytes += withUnsafeBytes(of: value.bigEndian, Array.init)
        }
        let text = "say \"hi\"\\\n\t\u{01}"
        fields += "text: string[\(text.utf8.count)]\n"
        bytes += Array(text.utf8)
        let schema = try SchemaLoader.load(text: "struct Main {\n\(fields)}")
        var interpreter = Interpreter(schema: schema)
        let dissection = interpreter.dissect(bytes, root: try #require(schema.structType(named: "Main")))
        #expect(dissection.error == nil)
        let line = JSONRenderer().render(dissection)
        let expected = unsignedValues.map(String.init) + signedValues.map(String.init)
        let written = line.matches(of: #/"value":(-?[0-9]+),"display":"(-?[0-9]+)"/#).map { ($0.1, $0.2) }
        #expect(written.map { String($0.0) } == expected)
        #expect(written.map { String($0.1) } == expected)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let last = try #require((object["fields"] as? [[String: Any]])?.last)
        #expect(last["value"] as? String == text)
        #expect((last["display"] as? String)?.contains("say \\\"hi\\\"") == true, "shown as the other views show it")
        #expect(line.contains(#""value":"say \"hi\"\\\n\t\u0001""#))
    }

    @Test(arguments: ViewGoldenTests.samples.filter { $0.contains("truncated") || $0.contains("beyond") || $0.contains("loop") })
    func everyViewMarksTheErrorAndKeepsTheFieldsBeforeIt(sampleName: String) throws {
        let dissection = try sample(sampleName)
        let error = try #require(dissection.error)
        let source = try #require(dissection.nodes.indices.first { dissection.path(of: $0) == "ip.src" })
        #expect(source < error.node)
        for view in View.allCases {
            let output = view.render(dissection, options: RenderOptions(color: false, width: 1000))
            #expect(output.contains(error.description), "\(view) shows the exact reason")
            // ip.src decodes in every one of these frames, before the failing field.
            #expect(output.contains("127.0.0.1"), "\(view) keeps the fields before the error")
        }
    }

    /// A frame cut exactly where a field starts: the failing field has no bytes, and starts at
    /// the end of the data (an IPv4 header cut before `src`, inside the last dump line; and a
    /// buffer of exactly one full dump line).
    @Test func everyViewShowsAnErrorAtTheEndOfTheData() throws {
        let syn = try HexInput.parse(try String(contentsOf: repositoryRoot.appendingPathComponent("Corpus/samples/tcp-syn.hex"),
                                                encoding: .utf8))
        var interpreter = Interpreter(schema: bundled)
        let cutIPv4 = interpreter.dissect(Array(syn.prefix(26)), root: try #require(bundled.structType(named: "Ethernet")))
        let lineSchema = try SchemaLoader.load(text: "struct Main { line: bytes[16]  next: u8 }")
        var lineInterpreter = Interpreter(schema: lineSchema)
        let fullLine = lineInterpreter.dissect([UInt8](repeating: 0x41, count: 16),
                                               root: try #require(lineSchema.structType(named: "Main")))
        for (dissection, length) in [(cutIPv4, 26), (fullLine, 16)] {
            let error = try #require(dissection.error)
            #expect(error.offset == length)
            for view in View.allCases {
                for color in [false, true] {
                    let output = view.render(dissection, options: RenderOptions(color: color, width: 1000))
                    #expect(output.contains(error.description), "\(view) (color \(color)) shows \(error.description)")
                }
            }
        }
    }

    /// Under `bit_order lsb` a field's first bit is the byte's least significant: the masks show
    /// the bits where they are, as Wireshark does (bit 3 of 0x16 is `.... 0...`).
    @Test func bitMasksUnderLsbOrderShowTheBitsWhereTheyAre() throws {
        let schema = try SchemaLoader.load(paths: [repositoryRoot.appendingPathComponent("Schemas/examples/heart-rate.schema").path])
        var interpreter = Interpreter(schema: schema)
        let measurement = interpreter.dissect([0x16, 0x48, 0x10, 0x00, 0x00, 0x04],
                                              root: try #require(schema.structType(named: "HeartRateMeasurement")))
        #expect(measurement.error == nil)
        let tree = TreeRenderer().render(measurement)
        for line in [".... ...0 = rate_is_16_bit: Not set", ".... .11. = sensor_contact: detected (3)",
                     ".... 0... = energy_expended_present: Not set", "...1 .... = rr_intervals_present: Set",
                     "000. .... = reserved: 0"] {
            #expect(tree.contains(line), "\(line)")
        }
        // A field across a byte boundary: the high nibble of the first byte, the low of the second.
        let straddling = try SchemaLoader.load(text: "bit_order lsb\nstruct M { a: u4  b: u8  c: u4 }")
        var straddlingInterpreter = Interpreter(schema: straddling)
        let split = straddlingInterpreter.dissect([0xAB, 0xCD], root: try #require(straddling.structType(named: "M")))
        let fields = TreeRenderer().render(split)
        #expect(fields.contains(".... 1011 = a: 11"))
        #expect(fields.contains("1010 .... .... 1101 = b: 218"))
        #expect(fields.contains("1100 .... = c: 12"))
    }

    /// Paths longer than the hex view's path column, and gap labels beside short paths, still
    /// stand apart from the value after them.
    @Test func hexViewSeparatesEveryPathFromItsValue() throws {
        let long = try SchemaLoader.load(text: "struct MeasurementWithAVeryLongName { flags: Flags  rr_intervals_in_units_of_1024th_seconds: u16[..] }\n"
            + "struct Flags { energy_expended_present: u1 @flag  rest: u7 }")
        var longInterpreter = Interpreter(schema: long)
        let measurement = longInterpreter.dissect([0x80, 0x10, 0x00],
                                                  root: try #require(long.structType(named: "MeasurementWithAVeryLongName")))
        #expect(measurement.error == nil)
        let short = try SchemaLoader.load(text: "struct M { a: u8  b: bytes[1] @size(2) }")
        var shortInterpreter = Interpreter(schema: short)
        let gaps = shortInterpreter.dissect([1, 2, 3, 4, 5], root: try #require(short.structType(named: "M")))
        let cut = shortInterpreter.dissect([1, 2], root: try #require(short.structType(named: "M")))
        for dissection in [measurement, gaps, cut] {
            let hex = HexDumpRenderer().render(dissection)
            for leaf in dissection.nodes.indices where dissection.children(of: leaf).isEmpty && leaf > 0 {
                let path = dissection.path(of: leaf)
                #expect(hex.contains(path + " "), "\(path) is followed by a space in\n\(hex)")
            }
            for label in ["(unclaimed)", "(unparsed)"] where hex.contains(label) {
                #expect(hex.contains(label + " "), "\(label) is followed by a space in\n\(hex)")
            }
        }
    }

    /// Two questions announced, the second cut short: the first decoded, and every view shows it
    /// and counts the elements it lists.
    @Test func partialArraysShowWhatDecodedAndCountWhatTheyList() throws {
        let message = try HexInput.parse("1234 0100 0002 0000 0000 0000 03777777 076578616d706c65 00 0001 0001 03")
        var interpreter = Interpreter(schema: bundled)
        let dissection = interpreter.dissect(message, root: try #require(bundled.structType(named: "DNS")))
        #expect(dissection.error?.path == "dns.questions[1].name")
        let summary = SummaryRenderer().render(dissection)
        #expect(summary.contains("DNS 0x1234 a? www.example"), "\(summary)")
        let tree = TreeRenderer().render(dissection)
        #expect(tree.contains("questions: 2 elements"), "\(tree)")
        #expect(tree.contains("[1]: DNSQuestion"))
        let fields = FieldRowsRenderer().render(dissection)
        #expect(fields.contains(#/dns\.questions +2 elements/#), "\(fields)")
        let json = JSONRenderer().render(dissection)
        #expect(json.contains(#""path":"dns.questions","name":"questions","filter":"dns.questions","parent":0,"kind":"array","offset":12,"length":17,"value":2,"display":"2 elements""#),
                "\(json)")
    }

    /// Control characters in strings are short escapes (`\\0`, `\\x01`), the same in every view
    /// (a summary leaves out the quotes, as tcpdump's lines do), and wrapping a long value never
    /// cuts one in two.
    @Test func invalidTextIsShownEscapedAndFlaggedInEveryView() throws {
        let schema = try SchemaLoader.load(text: """
            @protocol("t") @summary("T {name}")
            struct T { name: string[until 0] @encoding("ascii")  path: string[..] }
            """)
        var interpreter = Interpreter(schema: schema)
        let bytes: [UInt8] = [0x61, 0x5C, 0xFF, 0x63, 0x00] + Array("ok".utf8)
        let dissection = interpreter.dissect(bytes, root: try #require(schema.structType(named: "T")))
        #expect(dissection.error == nil)
        // The byte that is not ASCII is \xff; the backslash that is, \\.
        let shown = #""a\\\xffc" [invalid ASCII]"#
        for view in [View.fields, .tree, .hex, .summary] {
            let text = view.render(dissection, options: RenderOptions(width: 200))
            #expect(text.contains(view == .summary ? #"T a\\\xffc [invalid ASCII]"# : shown), "\(view): \(text)")
            #expect(!text.contains("\"ok\" ["), "\(view): valid text has no marker")
        }
        let object = try #require(try JSONSerialization.jsonObject(with: Data(JSONRenderer().render(dissection).utf8)) as? [String: Any])
        let fields = try #require(object["fields"] as? [[String: Any]])
        let name = try #require(fields.first { $0["path"] as? String == "t.name" })
        #expect(name["invalid_text"] as? Bool == true)
        #expect(name["value"] as? String == #"a\\xffc"#)
        #expect(name["display"] as? String == shown)
        #expect(name["raw"] as? String == "615cff6300")
        let path = try #require(fields.first { $0["path"] as? String == "t.path" })
        #expect(path["invalid_text"] == nil, "only invalid text has the property")
    }

    @Test func controlCharactersAreEscapedCompactlyAndNeverSplit() throws {
        let schema = try SchemaLoader.load(text: "struct M { s: string[..] }")
        var interpreter = Interpreter(schema: schema)
        let bytes = [UInt8](repeating: 0, count: 40) + [0x01, 0x7F, 0x1B] + [UInt8](repeating: 0, count: 40)
        let dissection = interpreter.dissect(bytes, root: try #require(schema.structType(named: "M")))
        #expect(dissection.error == nil)
        let escaped = #"""# + String(repeating: #"\0"#, count: 40) + #"\x01\x7f\x1b"# + String(repeating: #"\0"#, count: 40) + #"""#
        for view in [View.fields, .tree, .hex] {
            let wide = view.render(dissection, options: RenderOptions(width: 1000))
            #expect(wide.contains(escaped), "\(view): \(wide)")
        }
        let json = JSONRenderer().render(dissection)
        #expect(json.contains(#""value":"\u0000\u0000"#) && json.contains(#"\u0001"#) && json.contains(#"\u001b"#), "\(json)")
        #expect(json.contains(#""display":"\"\\0\\0"#), "\(json)")
        // Every piece of a wrapped value starts at an escape (or the opening quote).
        for view in [View.fields, .tree, .hex] {
            let narrow = view.render(dissection, options: RenderOptions(width: 61))
            let pieces = narrow.split(separator: "\n").compactMap { line -> Substring? in
                guard let start = line.firstIndex(where: { $0 == "\\" || $0 == "\"" }) else { return nil }
                return line[start...]
            }
            #expect(pieces.count > 2, "\(view) wraps")
            #expect(pieces.joined() == escaped, "\(view): \(narrow)")
            for piece in pieces.dropFirst() { #expect(piece.hasPrefix("\\"), "\(view): \(piece)") }
        }
    }

    /// Also checks the two ways of finding bytes no field claims agree: the colored dump builds
    /// a table of each byte's owner, the other views find the holes between the fields.
    @Test(arguments: ViewGoldenTests.samples)
    func colorWrapsTextInANSICodesAndAddsNothingElse(_ name: String) throws {
        let dissection = try sample(name)
        for view in [View.fields, .hex, .tree, .summary] {
            let plain = view.render(dissection, options: RenderOptions(color: false))
            let colored = view.render(dissection, options: RenderOptions(color: true))
            #expect(colored.contains("\u{1B}["))
            let stripped = colored.replacing(#/\u{1B}\[[0-9;]*m/#, with: "")
            #expect(stripped == plain, "\(view)")
        }
    }

    /// The value of the field-rows row for `path`, one string per output line (the row's own,
    /// then each continuation line's: nothing in the field column, text in the value column),
    /// and the column it starts at.
    static func wrappedValue(of path: String, in output: String) throws -> (column: Int, parts: [String]) {
        let lines = output.split(separator: "\n").map { Array($0.unicodeScalars) }
        func text(_ line: [Unicode.Scalar], from column: Int) -> String {
            String(String.UnicodeScalarView(line.dropFirst(column)))
        }
        let header = try #require(lines.firstIndex { text($0, from: 0).hasPrefix("offset  bytes") })
        let headerText = text(lines[header], from: 0)
        let fieldStart = try #require(headerText.range(of: "  field")).lowerBound
        let fieldColumn = headerText.unicodeScalars.distance(from: headerText.startIndex, to: fieldStart) + 2
        for (index, line) in lines.enumerated() where index > header {
            let afterField = text(line, from: fieldColumn)
            let indent = afterField.prefix { $0 == " " }.count
            guard afterField.dropFirst(indent).hasPrefix(path + " ") else { continue }
            let valueColumn = fieldColumn + indent + path.count + afterField.dropFirst(indent + path.count).prefix { $0 == " " }.count
            var parts = [text(line, from: valueColumn)]
            for next in lines.dropFirst(index + 1) {
                guard next.count > valueColumn, next[fieldColumn..<valueColumn].allSatisfy({ $0 == " " }) else { break }
                parts.append(text(next, from: valueColumn))
            }
            return (valueColumn, parts)
        }
        Issue.record("no row for \(path) in:\n\(output)")
        return (0, [])
    }

    @Test(arguments: [60, 80, 100])
    func longValuesWrapWithinTheWidth(width: Int) throws {
        let dissection = try sample("ipv4-length-beyond-frame")
        let output = FieldRowsRenderer(options: RenderOptions(color: false, width: width)).render(dissection)
        let error = try #require(dissection.error)
        let wrappedError = try Self.wrappedValue(of: "ip.payload", in: output)
        // The offset, bytes and field columns are fixed, and a value keeps at least 20 columns:
        // a width narrower than those (60 here) is exceeded by that much, and no more.
        let limit = max(width, wrappedError.column + 20)
        #expect(width == 60 ? limit > width : limit == width, "the value column moved: \(wrappedError.column)")
        // Columns are code points, as the renderer counts them.
        for line in output.split(separator: "\n") { #expect(line.unicodeScalars.count <= limit, "\(line)") }
        // Cut at spaces, which the cut drops: the parts joined by one space are the whole value.
        #expect(wrappedError.parts.joined(separator: " ") == "✗ " + error.description, "\(wrappedError.parts)")
        // A layer's summary is a heading, wrapped at its own column.
        let heading = try Self.wrappedValue(of: "eth", in: output).parts
        #expect(heading.joined(separator: " ") == "Ethernet 00:00:00:00:00:00 > 00:00:00:00:00:00 ipv4", "\(heading)")
        // What must wrap at each width, so the checks above saw wrapped values.
        #expect(wrappedError.parts.count == [60: 5, 80: 4, 100: 2][width], "\(wrappedError.parts)")
        #expect(heading.count == [60: 3, 80: 2, 100: 1][width], "\(heading)")
    }

    /// The tree wraps a long line with a 4-column hanging indent: the continuation lines, and the
    /// closing `[Malformed: …]` line, keep to the width as the first line does.
    @Test(arguments: [60, 80, 100])
    func treeLinesKeepToTheWidth(width: Int) throws {
        var wrapped = 0
        for name in ViewGoldenTests.samples {
            let dissection = try sample(name)
            let output = TreeRenderer(options: RenderOptions(color: false, width: width)).render(dissection, frame: FrameInfo(number: 1))
            let lines = output.split(separator: "\n")
            for line in lines { #expect(line.unicodeScalars.count <= width, "\(name): \(line)") }
            for (index, line) in lines.enumerated().dropFirst() {
                let indent = line.prefix { $0 == " " }.count
                let before = lines[index - 1].prefix { $0 == " " }.count
                if indent == before + 4, !line.dropFirst(indent).hasPrefix("[") { wrapped += 1 }
            }
            guard let error = dissection.error else { continue }
            let start = try #require(lines.lastIndex { $0.hasPrefix("[Malformed: ") }, "\(name)")
            // Cut at spaces, which the cut drops: the parts joined by one space are the whole line.
            let closing = lines[start...].map { String($0.drop { $0 == " " }) }.joined(separator: " ")
            #expect(closing == "[Malformed: \(error.description)]", "\(name)")
        }
        #expect(wrapped > 0, "no line wrapped at \(width), so the hanging indent went unchecked")
    }

    @Test func bytesNoFieldClaimsAreShown() throws {
        // UDP's length holds 18 bytes; the DNS header in them (no records) reads 12, leaving 6.
        let frame = "ffffffffffff 001122334455 0800 4500 002e 0001 0000 4011 0000 0a000001 0a000002"
            + " 1234 0035 001a 0000 0001 0100 0000 0000 0000 0000 010203040506"
        var interpreter = Interpreter(schema: bundled)
        let dissection = interpreter.dissect(try HexInput.parse(frame), root: try #require(bundled.structType(named: "Ethernet")))
        #expect(dissection.error == nil)
        let fields = FieldRowsRenderer().render(dissection)
        #expect(fields.contains("(unclaimed)") && fields.contains("6 bytes no field claims"))
        #expect(HexDumpRenderer().render(dissection).contains("(unclaimed)"))
        #expect(TreeRenderer().render(dissection).contains("unclaimed (no field): 6 bytes at offset 54"))
        #expect(JSONRenderer().render(dissection).contains(#""gaps":[{"offset":54,"length":6,"kind":"unclaimed""#))
        let colored = HexDumpRenderer(options: RenderOptions(color: true)).render(dissection)
        #expect(colored.replacing(#/\u{1B}\[[0-9;]*m/#, with: "") == HexDumpRenderer().render(dissection))
    }
}

@Suite struct HexInputTests {
    static let bytes = Array("00000000000000000000000008004500003c7438400040 06".utf8)

    private func syn() throws -> [UInt8] {
        try HexInput.parse(try String(contentsOf: repositoryRoot.appendingPathComponent("Corpus/samples/tcp-syn.hex"), encoding: .utf8))
    }

    @Test func readsXxdOutput() throws {
        let text = """
            00000000: 0000 0000 0000 0000 0000 0000 0800 4500  ..............E.
            00000010: 003c 7438 4000 4006 c881 7f00 0001 7f00  .<t8@.@.........
            00000020: 0001 be2c 223d b70b fb04 0000 0000 a002  ...,"=..........
            00000030: ffd7 fe30 0000 0204 ffd7 0402 080a bc5a  ...0...........Z
            00000040: eccf 0000 0000 0103 030a                 ..........
            """
        #expect(try HexInput.parse(text) == (try syn()))
    }

    @Test func readsHexdumpCanonicalOutput() throws {
        let text = """
            00000000  00 00 00 00 00 00 00 00  00 00 00 00 08 00 45 00  |..............E.|
            00000010  00 3c 74 38 40 00 40 06  c8 81 7f 00 00 01 7f 00  |.<t8@.@.........|
            00000020  00 01 be 2c 22 3d b7 0b  fb 04 00 00 00 00 a0 02  |...,"=..........|
            00000030  ff d7 fe 30 00 00 02 04  ff d7 04 02 08 0a bc 5a  |...0...........Z|
            00000040  ec cf 00 00 00 00 01 03  03 0a                    |..........|
            0000004a
            """
        #expect(try HexInput.parse(text) == (try syn()))
    }

    @Test func readsOdOutput() throws {
        let text = """
            000000 00 00 00 00 00 00 00 00 00 00 00 00 08 00 45 00
            000010 00 3c 74 38 40 00 40 06 c8 81 7f 00 00 01 7f 00
            000020 00 01 be 2c 22 3d b7 0b fb 04 00 00 00 00 a0 02
            000030 ff d7 fe 30 00 00 02 04 ff d7 04 02 08 0a bc 5a
            000040 ec cf 00 00 00 00 01 03 03 0a
            00004a
            """
        #expect(try HexInput.parse(text) == (try syn()))
    }

    @Test func readsTcpdumpXXAndXOutput() throws {
        let xx = """
            06:01:48.740443 IP localhost.48684 > localhost.8765: Flags [S], seq 3071015684, win 65495, length 0
            \t0x0000:  0000 0000 0000 0000 0000 0000 0800 4500
            \t0x0010:  003c 7438 4000 4006 c881 7f00 0001 7f00
            \t0x0020:  0001 be2c 223d b70b fb04 0000 0000 a002
            \t0x0030:  ffd7 fe30 0000 0204 ffd7 0402 080a bc5a
            \t0x0040:  eccf 0000 0000 0103 030a
            """
        #expect(try HexInput.parse(xx) == (try syn()))
        let x = """
            06:01:48.740443 IP localhost.48684 > localhost.8765: Flags [S], seq 3071015684, win 65495, length 0
            \t0x0000:  4500 003c 7438 4000 4006 c881 7f00 0001  E..<t8@.@.......
            \t0x0010:  7f00 0001 be2c 223d b70b fb04 0000 0000  .....,"=........
            \t0x0020:  a002 ffd7 fe30 0000 0204 ffd7 0402 080a  .....0..........
            \t0x0030:  bc5a eccf 0000 0000 0103 030a            .Z..........
            """
        #expect(try HexInput.parse(x) == Array(try syn()[14...]))
    }

    @Test func readsPlainHexWithSeparatorsAndPrefixes() throws {
        #expect(try HexInput.parse("3c:22:fb 0x45,0x00-AB") == [0x3C, 0x22, 0xFB, 0x45, 0x00, 0xAB])
        #expect(throws: HexInputError.self) { try HexInput.parse("4") }
        #expect(throws: HexInputError.self) { try HexInput.parse("45 zz") }
    }
}
