import BinarySchema
import Dissector
import Foundation
import Testing

/// Fields out (`-T fields -e NAME`), line for line against tshark's output for the same fields and
/// `-E` options on the repository's captures (`Corpus/oracle/field-output/*.txt`, written by
/// `scripts/field-output-oracle`).
@Suite struct FieldOutputTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let file: String
        let capture: String
        let fields: [String]
        let options: [String]
        let lines: [String]
        var testDescription: String { "\(file): \(capture) \(fields.joined(separator: " "))" }
    }

    /// The `-T fields` cases (the `T=json` and `T=ek` ones are the command line's: CommandLineTests).
    static let cases: [Case] = allCases.filter { !$0.options.contains { $0.hasPrefix("T=") } }

    static let allCases: [Case] = {
        let folder = repositoryRoot.appendingPathComponent("Corpus/oracle/field-output")
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".txt") }.sorted()
        return files.compactMap { file in
            guard let text = try? String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8) else { return nil }
            var lines = text.components(separatedBy: "\n")
            if lines.last == "" { lines.removeLast() }
            guard lines.count >= 3 else { return nil }
            return Case(file: file, capture: lines[0], fields: lines[1].split(separator: " ").map(String.init),
                        options: lines[2].split(separator: " ").map(String.init), lines: Array(lines.dropFirst(3)))
        }
    }()

    @Test func theOracleCoversTheOptions() {
        #expect(Self.cases.count >= 14)
        let options = Set(Self.cases.flatMap(\.options))
        for option in ["header=y", "separator=,", "quote=d", "quote=s", "occurrence=f", "occurrence=l", "aggregator=/s", "separator=/s"] {
            #expect(options.contains(option), "no case uses -E \(option)")
        }
        #expect(Self.cases.reduce(0) { $0 + $1.fields.count } >= 80)
    }

    @Test(arguments: cases)
    func theLinesAreTsharks(_ example: Case) throws {
        let capture = try PcapFile(contentsOf: repositoryRoot.appendingPathComponent("Corpus/captures/\(example.capture)"))
        let root = try #require(bundledSchema.rootStruct(forLinkType: capture.linkType))
        var format = FieldExtractor.Format()
        for option in example.options { try format.apply(option) }
        var extractor = try FieldExtractor(fields: example.fields, schema: bundledSchema, format: format)
        var interpreter = Interpreter(schema: bundledSchema)
        var lines: [String] = format.header ? [extractor.headerLine] : []
        for (index, frame) in capture.frames.enumerated() {
            lines.append(interpreter.withDissection(of: frame, root: root, originalLength: capture.originalLengths[index]) {
                extractor.line(for: $0, frameNumber: index + 1, originalLength: capture.originalLengths[index])
            })
        }
        #expect(lines.count == example.lines.count)
        for (number, (ours, theirs)) in zip(lines, example.lines).enumerated() {
            #expect(ours == theirs, "line \(number + 1)")
        }
    }

    /// A struct's parameter is a value its user passes, not a protocol's field: it has no filter
    /// name, and a field of the same name elsewhere is not shadowed by it (the RPC helper's
    /// `struct Portmap(version: u32)` printed the parameter beside `portmap.version`).
    @Test func parametersHaveNoFilterName() throws {
        let schema = try SchemaLoader.load(text: """
            @protocol("pm") struct Outer { count: u8; body: Inner(count) }
            @protocol("pmi") struct Inner(version: u8) { real: u8 @name("version"); items: u8[version] }
            """)
        let names = schema.filterFields.map(\.name)
        #expect(names.filter { $0 == "pmi.version" }.count == 1, "\(names)")
        var extractor = try FieldExtractor(fields: ["pm.count", "pmi.version"], schema: schema)
        let root = try #require(schema.structType(named: "Outer"))
        var interpreter = Interpreter(schema: schema)
        let line = interpreter.withDissection(of: [2, 7, 0xAA, 0xBB], root: root) { extractor.line(for: $0, frameNumber: 1) }
        #expect(line == "2\t7")
        var filter = try DisplayFilter("pmi.version == 2", schema: schema)
        #expect(!interpreter.withDissection(of: [2, 7, 0xAA, 0xBB], root: root) { filter.matches($0) })
    }

    /// `@scale(n)`: a field counted in words is filtered and printed in the unit of its filter
    /// name, as tshark's `tcp.hdr_len` is bytes; the tree still shows the bits as read.
    @Test func aScaledFieldIsFilteredAndPrintedInItsNamesUnit() throws {
        let schema = try SchemaLoader.load(text: """
            @protocol("sc") struct Main { words: u4 @scale(4) @display("{} ({} bytes)", words, words * 4); rest: u4; plain: u8 }
            """)
        let root = try #require(schema.structType(named: "Main"))
        var interpreter = Interpreter(schema: schema)
        let bytes: [UInt8] = [0x52, 7]
        var extractor = try FieldExtractor(fields: ["sc.words", "sc.rest", "sc.plain"], schema: schema)
        #expect(interpreter.withDissection(of: bytes, root: root) { extractor.line(for: $0, frameNumber: 1) } == "20\t2\t7")
        for (text, expected) in [("sc.words == 20", true), ("sc.words == 5", false), ("sc.words > 16", true), ("sc.plain == 7", true)] {
            var filter = try DisplayFilter(text, schema: schema)
            #expect(interpreter.withDissection(of: bytes, root: root) { filter.matches($0) } == expected, "\(text)")
        }
        let tree = interpreter.withDissection(of: bytes, root: root) { View.tree.render($0) }
        #expect(tree.contains("5 (20 bytes)"), "\(tree)")
    }

    @Test func scaleTakesAConstantOnAnInteger() {
        for (text, message) in [
            ("struct Main { a: u8 @scale(1) }", "@scale takes one constant from 2 to 2^32"),
            ("struct Main { a: u8 @scale(a) }", "@scale takes one constant"),
            ("struct Main { a: u8[2] @scale(4) }", "'@scale' applies to an integer, not to"),
        ] {
            do {
                _ = try SchemaLoader.load(text: text)
                Issue.record("\(text) was taken")
            } catch {
                #expect(error.diagnostics.contains { $0.message.contains(message) }, "\(text): \(error.diagnostics)")
            }
        }
    }

    /// `@hex(bits)`: field output writes the value as wide as tshark writes a field of that type
    /// (`wpan.frame_type` is `0x0001`, three bits of a 16-bit word); the tree is unchanged.
    @Test func hexTakesTheWidthFieldOutputWritesAt() throws {
        let schema = try SchemaLoader.load(text: """
            @protocol("hw") struct Main { word: u16le; let mode = word & 7 @hex(16); small: u8 @hex(32); plain: u8 @hex }
            """)
        let root = try #require(schema.structType(named: "Main"))
        var interpreter = Interpreter(schema: schema)
        var extractor = try FieldExtractor(fields: ["hw.mode", "hw.small", "hw.plain"], schema: schema)
        #expect(interpreter.withDissection(of: [0x41, 0x00, 0x80, 0x05], root: root) { extractor.line(for: $0, frameNumber: 1) }
                == "0x0001\t0x00000080\t0x05")
        for text in ["struct Main { a: u8 @hex(12) }", "struct Main { a: u8 @hex(72) }", "struct Main { let b = 1 @hex(0) }"] {
            do {
                _ = try SchemaLoader.load(text: text)
                Issue.record("\(text) was taken")
            } catch {
                #expect(error.diagnostics.contains { $0.message.contains("@hex takes no arguments, or the width in bits") },
                        "\(text): \(error.diagnostics)")
            }
        }
        // A width is still a hex hint: on a bool it does nothing, and says so.
        do {
            _ = try SchemaLoader.load(text: "struct Main { a: u8; let b = a == 1 @hex(16) }")
            Issue.record("@hex(16) on a bool was taken")
        } catch {
            #expect(error.diagnostics.contains { $0.message.contains("'@hex' does nothing on a bool") }, "\(error.diagnostics)")
        }
    }

    @Test func badNamesAndOptionsSayWhatIsWrong() throws {
        #expect(throws: DisplayFilterError.self) { try FieldExtractor(fields: [], schema: bundledSchema) }
        do {
            _ = try FieldExtractor(fields: ["ip.src", "tcp.srcprt"], schema: bundledSchema)
            Issue.record("an unknown field was taken")
        } catch {
            #expect(error.message == "no field or protocol is named 'tcp.srcprt': did you mean tcp.srcport?")
        }
        var format = FieldExtractor.Format()
        for bad in ["header", "separator=ab", "quote=x", "occurrence=z", "colour=red"] {
            #expect(throws: DisplayFilterError.self, "\(bad)") { try format.apply(bad) }
        }
        try format.apply("separator=;")
        #expect(format.separator == ";")
    }
}
