import Dissector
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
        // Times are shown in local time: the tests' expectations are in UTC.
        environment["TZ"] = "UTC"
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

    /// The schema commands report output they could not write, as the views do.
    @Test func schemaCommandsOnAFullStandardOutputFail() throws {
        // The same commands on a pipe: every line written, in one piece.
        let list = try run(["schema", "list"])
        #expect(list.status == 0)
        let lines = list.output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "", "the list ends with a newline")
        #expect(lines.contains("Ethernet  (eth)  linktype 1  ethernet.schema"))
        // A line per struct, then the dispatch tables after a blank line.
        let structLines = lines.prefix { !$0.isEmpty }
        #expect(structLines.count == Int(try #require(try run(["schema", "check", "Schemas"]).output
            .firstMatch(of: #/^ok: (\d+) structs, \d+ enums\n$/#)?.1)), "a line per struct")
        #expect(lines.contains("table udp.port: u16  udp.schema:7"))
        for arguments in [["schema", "check", "Schemas"], ["schema", "list"]] {
            let result = try run(arguments, bytes: nil, standardOutput: try Self.fullDevice())
            #expect(result.status == 1, "\(arguments)")
            #expect(result.error == "Error: writing to standard output failed: No space left on device\n", "\(arguments)")
        }
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
        #expect(result.status == 2, "bytes that do not match the schema")
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

    /// Runs `dissect` with its standard output on a pseudo-terminal, as a user at a terminal
    /// would (so `--color auto` may color); `output` is what the terminal received.
    func runOnTerminal(_ arguments: [String], input: String, environment: [String: String]) throws -> Run {
        // posix_openpt, unlockpt and ptsname are not in Swift's Glibc module (they need
        // _XOPEN_SOURCE), nor are the ioctl requests they use (_IOR/_IOW macros): these are
        // Linux's <asm-generic/ioctls.h> values, _IOR('T', 0x30, unsigned) and _IOW('T', 0x31, int).
        let getNumber: UInt = 0x8004_5430
        let setLock: UInt = 0x4004_5431
        let controller = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        try #require(controller >= 0, "no pseudo-terminal: \(String(cString: strerror(errno)))")
        defer { close(controller) }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        try #require(ioctl(controller, setLock, &unlock) == 0 && ioctl(controller, getNumber, &number) == 0)
        let name = "/dev/pts/\(number)"
        let terminalDescriptor = open(name, O_RDWR | O_NOCTTY)
        try #require(terminalDescriptor >= 0, "cannot open \(name)")
        let terminal = FileHandle(fileDescriptor: terminalDescriptor, closeOnDealloc: false)
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        process.currentDirectoryURL = Self.repositoryRoot
        process.environment = environment
        let error = Pipe()
        let standardInput = Pipe()
        process.standardOutput = terminal
        process.standardError = error
        process.standardInput = standardInput
        do {
            try process.run()
        } catch {
            close(terminalDescriptor)
            throw error
        }
        // Only the child holds the terminal now, so reading ends (EIO) when it exits; reading
        // while it runs keeps it from blocking on a full terminal buffer.
        close(terminalDescriptor)
        standardInput.fileHandleForWriting.write(Data(input.utf8))
        try standardInput.fileHandleForWriting.close()
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(controller, &buffer, buffer.count)
            if count > 0 {
                output += buffer.prefix(count)
            } else if count < 0, errno == EINTR {
                continue
            } else {
                break
            }
        }
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        // The terminal turns each newline into CR LF.
        return Run(status: process.terminationStatus,
                   output: String(decoding: output, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n"),
                   error: String(decoding: errorData, as: UTF8.self))
    }

    @Test func everyFormatAndColorChoice() throws {
        let sample = try String(contentsOf: Self.repositoryRoot.appendingPathComponent("Corpus/samples/tcp-syn.hex"), encoding: .utf8)
        // What only each view's output has: a view that printed another's output fails here.
        let isFormat: [String: (String) -> Bool] = [
            "fields": { $0.contains("\noffset  bytes") && $0.contains("\n0022    be 2c") && $0.contains(" tcp.src_port ") },
            "hex": { $0.contains("\n0000  00 00 00 00 00 00 00 00  00 00 00 00 08 00 45 00  |..............E.|\n") },
            "tree": { $0.contains("\nTCP (tcp), 40 bytes: 48684 > 8765 [S]") },
            "json": { text in
                let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
                return object?["fields"] is [Any] && text.hasSuffix("}\n") && text.split(separator: "\n").count == 1
            },
            "summary": { $0.hasPrefix("IPv4 127.0.0.1 > 127.0.0.1 · TCP")
                && $0.split(separator: "\n").count == 1 },
            "html": { $0.hasPrefix("<!DOCTYPE html>") && $0.hasSuffix("</html>\n") && $0.contains("\"src_port\"") },
        ]
        #expect(Set(isFormat.keys) == Set(View.allCases.map(\.rawValue)), "every view needs its marker here")
        let escape = "\u{1B}["
        var environment = Self.utf8Environment
        environment["NO_COLOR"] = nil
        environment["TERM"] = "xterm"
        var noColor = environment
        noColor["NO_COLOR"] = "1"
        var emptyNoColor = environment
        emptyNoColor["NO_COLOR"] = ""
        for format in isFormat.keys.sorted() {
            let name = "-f \(format)"
            let plain = try run(["hex", "--format", format], input: sample, environment: environment)
            #expect(plain.status == 0, "\(name): \(plain.error)")
            for (other, matches) in isFormat {
                #expect(matches(plain.output) == (other == format), "\(name) output \(other == format ? "is not" : "looks like") \(other)")
            }
            // JSON and HTML are never colored: they stay parseable whatever --color says.
            let colors = format != "json" && format != "html"
            let always = try run(["hex", "-f", format, "--color", "always"], input: sample, environment: environment)
            #expect(always.output.contains(escape) == colors, "\(name) --color always")
            #expect(always.output.replacing(#/\u{1B}\[[0-9;]*m/#, with: "") == plain.output, "\(name): color changes only color")
            let alwaysDespiteNoColor = try run(["hex", "-f", format, "--color", "always"], input: sample, environment: noColor)
            #expect(alwaysDespiteNoColor.output == always.output, "\(name): --color always overrides NO_COLOR")
            // Piped, auto is off.
            #expect(!plain.output.contains(escape), "\(name) piped, --color auto")
            // On a terminal: auto colors, unless NO_COLOR is set and not empty; never does not.
            let terminal = try runOnTerminal(["hex", "-f", format], input: sample, environment: environment)
            #expect(terminal.status == 0, "\(name): \(terminal.error)")
            #expect(terminal.output.contains(escape) == colors, "\(name) on a terminal, --color auto")
            #expect(isFormat[format]?(terminal.output.replacing(#/\u{1B}\[[0-9;]*m/#, with: "")) == true, "\(name) on a terminal")
            let terminalNever = try runOnTerminal(["hex", "-f", format, "--color", "never"], input: sample, environment: environment)
            #expect(!terminalNever.output.contains(escape), "\(name) on a terminal, --color never")
            let terminalNoColor = try runOnTerminal(["hex", "-f", format, "--color", "auto"], input: sample, environment: noColor)
            #expect(!terminalNoColor.output.contains(escape), "\(name) on a terminal, NO_COLOR=1, --color auto")
            let terminalEmptyNoColor = try runOnTerminal(["hex", "-f", format], input: sample, environment: emptyNoColor)
            #expect(terminalEmptyNoColor.output.contains(escape) == colors, "\(name) on a terminal, NO_COLOR empty")
        }
        let bad = try run(["hex", "-f", "pretty"], input: sample)
        #expect(bad.status == 64)
        #expect(bad.error.hasPrefix("Error: The value 'pretty' is invalid for '-f <view>': "
            + "'pretty' is not a view (fields, hex, tree, json, summary, html)."), "\(bad.error)")
        let badColor = try run(["hex", "--color", "sometimes"], input: sample)
        #expect(badColor.status == 64)
        #expect(badColor.error.hasPrefix("Error: The value 'sometimes' is invalid for '--color <when>'. "
            + "Please provide one of 'auto', 'always' or 'never'.\n"), "\(badColor.error)")
    }

    @Test func dumpsOfOtherToolsPastedAsTheyAre() throws {
        let xxd = try run(["hex", "-f", "summary"], input: """
            00000000: 0000 0000 0000 0000 0000 0000 0800 4500  ..............E.
            00000010: 003c 7438 4000 4006 c881 7f00 0001 7f00  .<t8@.@.........
            00000020: 0001 be2c 223d b70b fb04 0000 0000 a002  ...,"=..........
            00000030: ffd7 fe30 0000 0204 ffd7 0402 080a bc5a  ...0...........Z
            00000040: eccf 0000 0000 0103 030a                 ..........
            """)
        #expect(xxd.output.contains("TCP 48684 > 8765 [S] seq 3071015684"))
    }

    @Test func aUserSchemaForAFileFormat() throws {
        let result = try run(["hex", "--no-bundled", "--schema", "Schemas/examples/bmp.schema", "--root", "BMPFile",
                              "--file", "Corpus/samples/tiny.bmp", "-f", "summary"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.hasPrefix("BMPFile 2 x 2, 24 bits per pixel, rgb\n"))
    }
}

/// `-d table==key,protocol` and `schema list`'s tables, end to end.
@Suite struct DecodeAsCommandTests {
    /// Ethernet, IPv4, UDP 40000 > 9999 and a DNS header (id 0xabcd) as hex.
    static let udpTo9999 = "02000000000102000000000208004500002800010000401100000a0000010a0000029c40270f00140000abcd01000000000000000000"

    private func run(_ arguments: [String]) throws -> CommandLineTests.Run {
        try CommandLineTests().run(arguments)
    }

    @Test func decodeAsReadsAPortAsAProtocolForOneRun() throws {
        let plain = try run(["hex", "--root", "Ethernet", "-f", "summary", Self.udpTo9999])
        #expect(plain.status == 0)
        #expect(!plain.output.contains("DNS"), "\(plain.output)")
        for rule in ["udp.port==9999,dns", "udp.port==9990-9999,DNS", "udp.port==9998:2,dns", "udp.port==0x270f,dns"] {
            let decoded = try run(["hex", "--root", "Ethernet", "-d", rule, "-f", "summary", Self.udpTo9999])
            #expect(decoded.status == 0, "\(rule): \(decoded.error)")
            #expect(decoded.output.contains("UDP 40000 > 9999 len 20 · DNS 0xabcd"), "\(rule): \(decoded.output)")
        }
        let byEnumName = try run(["hex", "--root", "Ethernet", "-d", "ip.proto==udp,icmp", "-f", "summary", Self.udpTo9999])
        #expect(byEnumName.output.contains("· ICMP "), "\(byEnumName.output)")
    }

    @Test func decodeAsMistakesAreUsageErrorsThatSayWhatIsKnown() throws {
        let cases: [(String, String)] = [
            ("udp.port=9999,dns", "Error: --decode-as 'udp.port=9999,dns': expected table==key,protocol as in udp.port==8443,quic"),
            ("udp.port==9999,", "Error: --decode-as 'udp.port==9999,': expected table==key,protocol as in udp.port==8443,quic"),
            ("udp.prt==9999,dns", "Error: --decode-as 'udp.prt==9999,dns': no dispatch table 'udp.prt' (tables: "),
            ("udp.port==x,dns", "Error: --decode-as 'udp.port==x,dns': 'x' is not a key of udp.port (u16): expected table==key,protocol as in udp.port==8443,quic"),
            ("udp.port==9-1,dns", "Error: --decode-as 'udp.port==9-1,dns': the range 9-1 is empty"),
            ("udp.port==9999,nosuch", "Error: --decode-as 'udp.port==9999,nosuch': no protocol or struct 'nosuch' (protocols: "),
        ]
        for (rule, message) in cases {
            let result = try run(["hex", "--root", "Ethernet", "-d", rule, Self.udpTo9999])
            #expect(result.status == 64, "\(rule)")
            #expect(result.error.hasPrefix(message), "\(rule): \(result.error)")
            // The lists grow with the bundled schemas: what must be in them, not where.
            if rule.hasPrefix("udp.prt") {
                #expect(["tcp.port", "udp.port"].allSatisfy { result.error.contains($0) }, "\(result.error)")
            }
            if rule.hasSuffix("nosuch") {
                #expect(["arp, ", "data, ", "dns, ", "eth, "].allSatisfy { result.error.contains($0) }, "\(result.error)")
            }
            #expect(result.output.isEmpty)
        }
    }

    /// A table passes no arguments, so a struct with parameters is refused, as `register` refuses it.
    @Test func decodeAsRefusesAStructWithParameters() throws {
        let result = try run(["hex", "--root", "Ethernet", "-d", "udp.port==9999,mqtt",
                              Self.udpTo9999])
        #expect(result.status == 64)
        #expect(result.error.hasPrefix("Error: --decode-as 'udp.port==9999,mqtt': struct 'MQTT' (mqtt) takes parameters, which decode-as cannot pass; name a struct without parameters that reads it"),
                "\(result.error)")
        let wrapper = try run(["hex", "--root", "Ethernet", "-d", "udp.port==9999,MQTTv5",
                               "-f", "summary", Self.udpTo9999])
        #expect(wrapper.status == 0, "\(wrapper.error)")
    }

    @Test func schemaListShowsEveryTableAndWhoRegisteredEachEntry() throws {
        let result = try run(["schema", "list", "-d", "udp.port==8443,dns"])
        #expect(result.status == 0, "\(result.error)")
        // Columns are aligned to the longest entry of each table: compared with single spaces.
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.split(separator: " ").joined(separator: " ") }
        let udp = try #require(lines.firstIndex(of: "table udp.port: u16 udp.schema:7"), "\(result.output)")
        let udpEntries = Array(lines[(udp + 1)...].prefix { !$0.isEmpty && !$0.hasPrefix("table ") })
        #expect(udpEntries.first == "8443 (override) => DNS (dns) <command line>:1", "the override is looked up first")
        #expect(udpEntries.contains("53 => DNS (dns) dns.schema:15"))
        #expect(udpEntries.contains("5353 => MDNS (mdns) mdns.schema:9"))
        #expect(!udpEntries.contains { $0.hasPrefix("5353 => DNS") })
        #expect(lines.contains { $0.hasPrefix("table ethertype: EtherType ethernet.schema:") })
        #expect(lines.contains { $0.hasPrefix("ipv4 (0x0800) => IPv4 (ip) ip.schema:") })
        #expect(lines.contains("tcp (0x06) => TCP (tcp) tcp.schema:9"))
        #expect(lines.contains("table tcp.port: u16 tcp.schema:7"))
    }
}
