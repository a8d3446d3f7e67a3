import Foundation
import Testing

/// End-to-end: runs the built `dissect` binary as a user would.
@Suite struct CommandLineTests {
    static let repositoryRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// The `dissect` binary next to the test bundle.
    static var executable: URL {
        var directory = Bundle.main.bundleURL
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("dissect").path),
              directory.pathComponents.count > 1 {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("dissect")
    }

    struct Run {
        let status: Int32
        let output: String
        let error: String
    }

    /// The environment every run gets unless a test passes its own: the test runner's, with a
    /// UTF-8 locale pinned, so the expected `·`, `›` and `✗` do not depend on how `swift test`
    /// was started (CI may set no locale at all, which means ASCII symbols).
    static var utf8Environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["LC_ALL"] = "C.UTF-8"
        return environment
    }

    func run(_ arguments: [String], input: String? = nil, environment: [String: String] = utf8Environment) throws -> Run {
        try run(arguments, bytes: input.map { Data($0.utf8) }, environment: environment)
    }

    /// Runs `dissect`; `standardOutput` or `standardError` replace the pipes that `Run` collects
    /// (to write to /dev/full, say), leaving that part of `Run` empty.
    func run(_ arguments: [String], bytes input: Data?, environment: [String: String] = utf8Environment,
             standardOutput: FileHandle? = nil, standardError: FileHandle? = nil) throws -> Run {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        process.currentDirectoryURL = Self.repositoryRoot
        process.environment = environment
        let output = Pipe()
        let error = Pipe()
        let standardInput = Pipe()
        process.standardOutput = standardOutput ?? output
        process.standardError = standardError ?? error
        process.standardInput = standardInput
        try process.run()
        if let input { standardInput.fileHandleForWriting.write(input) }
        try standardInput.fileHandleForWriting.close()
        // A pipe the process did not get is closed here, so reading it ends at once.
        if standardOutput != nil { try output.fileHandleForWriting.close() }
        if standardError != nil { try error.fileHandleForWriting.close() }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
                   error: String(decoding: errorData, as: UTF8.self))
    }

    @Test func schemaCheckPassesTheBundledSchemas() throws {
        let result = try run(["schema", "check", "Schemas"])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("ok: "))
    }

    @Test func schemaCheckListsEveryErrorAndExitsOne() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID()).schema")
        try "struct Main {\n  a: Nope\n  b: bytes[zz]\n}\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try run(["schema", "check", file.path])
        #expect(result.status == 1)
        #expect(result.error.contains("\(file.path):2:6: error: unknown type 'Nope'"))
        #expect(result.error.contains("\(file.path):3:12: error: unknown field 'zz'"))
        #expect(result.error.contains("  a: Nope\n     ^"))
        #expect(result.error.contains("2 errors"))
    }

    /// `schema check` loads a file as `hex` and `-r` would: beside the bundled schemas, unless
    /// `--no-bundled`.
    @Test func schemaCheckLoadsTheBundledSchemasAsTheOtherCommandsDo() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("clash-\(UUID()).schema")
        try "struct TCP {\n  a: u8\n}\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let hex = try run(["hex", "--schema", file.path, "00"])
        #expect(hex.status == 1 && hex.error.contains("'TCP' is already declared"), "\(hex.error)")
        let check = try run(["schema", "check", file.path])
        #expect(check.status == 1, "\(check.output)")
        #expect(check.error.contains("\(file.path):1:8: error:") && check.error.contains("'TCP' is already declared"),
                "\(check.error)")
        let alone = try run(["schema", "check", "--no-bundled", file.path])
        #expect(alone.status == 0 && alone.output == "ok: 1 structs, 0 enums\n", "\(alone.error)")
        let bundledAndExamples = try run(["schema", "check", "Schemas", "Schemas/examples"])
        #expect(bundledAndExamples.status == 0, "\(bundledAndExamples.error)")
    }

    @Test func hexDissectsAFrameFromArgumentsOrStandardInput() throws {
        let sample = try String(contentsOf: Self.repositoryRoot.appendingPathComponent("Corpus/samples/tcp-syn.hex"), encoding: .utf8)
        let fromInput = try run(["hex", "--root", "Ethernet"], input: sample)
        #expect(fromInput.status == 0)
        #expect(fromInput.output.contains("0022    be 2c"))
        #expect(fromInput.output.contains("tcp.src_port"))
        #expect(fromInput.output.contains("tcp.options[0].kind") && fromInput.output.contains("mss (2)"))
        let fromArguments = try run(["hex", "--root", "Ethernet"] + sample.split(whereSeparator: \.isWhitespace).map(String.init))
        #expect(fromArguments.output == fromInput.output)
    }

    @Test func hexMarksTheErrorOfATruncatedFrame() throws {
        let result = try run(["hex", "--width", "200", "ffffffffffff 001122334455 0800 4500 0028 1234 4000 4006 0000 0a00"])
        #expect(result.status == 0)
        #expect(result.output.contains("✗ premature end of data: ip.src needs 4 bytes at offset 26, 2 available"))
    }

    @Test func hexWithAnOriginalLengthMarksTheCutInsteadOfAnError() throws {
        let frame = "ffffffffffff 001122334455 0800 4500 0028 1234 4000 4006 0000 0a00"
        let cut = try run(["hex", "--width", "200", "--original-length", "54", frame])
        #expect(cut.status == 0)
        #expect(cut.output.contains("28 of 54 bytes"))
        #expect(cut.output.contains("[|ip] captured 28 of 54 bytes: ip.src needs 4 bytes at offset 26, 2 captured"))
        #expect(!cut.output.contains("✗"))
        let bad = try run(["hex", "--original-length", "-1", frame])
        #expect(bad.status != 0)
        #expect(bad.error.contains("--original-length"))
    }

    @Test func hexRejectsBadInputAndUnknownRoots() throws {
        let badHex = try run(["hex", "zz"])
        #expect(badHex.status != 0)
        #expect(badHex.error.contains("'z' at line 1, column 1 is not a hex digit"))
        let badRoot = try run(["hex", "--root", "Nope", "00"])
        #expect(badRoot.status != 0)
        #expect(badRoot.error.contains("no struct named 'Nope'"))
    }

    @Test func userSchemasImportBundledOnesByName() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("user-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("wrapped.schema")
        try "import \"ethernet.schema\"\nstruct Wrapped {\n  magic: u16 == 0xBEEF @hex\n  frame: Ethernet\n}\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let result = try run(["hex", "--schema", file.path, "--root", "Wrapped",
                              "beef ffffffffffff 001122334455 0806"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("Wrapped.magic") && result.output.contains("0xbeef"))
        #expect(result.output.contains("eth.type") && result.output.contains("arp (0x0806)"))
        let check = try run(["schema", "check", file.path])
        #expect(check.status == 0, "\(check.error)")
    }

    @Test func everyFormatAndColorChoice() throws {
        let sample = try String(contentsOf: Self.repositoryRoot.appendingPathComponent("Corpus/samples/tcp-syn.hex"), encoding: .utf8)
        let summary = try run(["hex", "--format", "summary"], input: sample)
        #expect(summary.output.hasPrefix("Ethernet 00:00:00:00:00:00 > 00:00:00:00:00:00 ipv4 (0x0800) · IPv4 127.0.0.1"))
        let json = try run(["hex", "-f", "json"], input: sample)
        #expect((try? JSONSerialization.jsonObject(with: Data(json.output.utf8))) != nil)
        let tree = try run(["hex", "-f", "tree"], input: sample)
        #expect(tree.output.contains("TCP (tcp), 40 bytes: 48684 > 8765 [syn]"))
        let hex = try run(["hex", "-f", "hex"], input: sample)
        #expect(hex.output.contains("0000  00 00 00 00 00 00 00 00  00 00 00 00 08 00 45 00  |..............E.|"))
        // Piped output has no color unless asked for; NO_COLOR is honoured by auto.
        #expect(!hex.output.contains("\u{1B}["))
        let colored = try run(["hex", "-f", "hex", "--color", "always"], input: sample)
        #expect(colored.output.contains("\u{1B}["))
        let bad = try run(["hex", "-f", "pretty"], input: sample)
        #expect(bad.status != 0 && bad.error.contains("fields"))
    }

    @Test func dumpsOfOtherToolsPastedAsTheyAre() throws {
        let xxd = try run(["hex", "-f", "summary"], input: """
            00000000: 0000 0000 0000 0000 0000 0000 0800 4500  ..............E.
            00000010: 003c 7438 4000 4006 c881 7f00 0001 7f00  .<t8@.@.........
            00000020: 0001 be2c 223d b70b fb04 0000 0000 a002  ...,"=..........
            00000030: ffd7 fe30 0000 0204 ffd7 0402 080a bc5a  ...0...........Z
            00000040: eccf 0000 0000 0103 030a                 ..........
            """)
        #expect(xxd.output.contains("TCP 48684 > 8765 [syn] seq 3071015684"))
    }

    @Test func aUserSchemaForAFileFormat() throws {
        let result = try run(["hex", "--no-bundled", "--schema", "Schemas/examples/bmp.schema", "--root", "BMPFile",
                              "--file", "Corpus/samples/tiny.bmp", "-f", "summary"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.hasPrefix("BMPFile 2 x 2, 24 bits per pixel, rgb (0) · 70 bytes"))
    }
}
