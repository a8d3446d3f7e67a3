import Foundation
import Testing

/// End-to-end: `dissect --version`, `make install-files` into a temporary prefix, the installed
/// binary away from the build tree, the schema errors, and the man page against `--help`.
@Suite struct InstallTests {
    let cli = CommandLineTests()

    /// The test runner's environment without `$DISSECT_SCHEMAS`, which would decide where schemas come from.
    static var environment: [String: String] {
        var environment = CommandLineTests.utf8Environment
        environment.removeValue(forKey: "DISSECT_SCHEMAS")
        return environment
    }

    static let capture = CommandLineTests.repositoryRoot.appendingPathComponent("Corpus/captures/tcp.pcap").path

    /// Runs a program (not dissect) to its end; its status and standard error.
    func runTool(_ executable: String, _ arguments: [String], in directory: URL) throws -> (status: Int32, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let error = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = error
        try process.run()
        let data = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Runs a dissect binary other than the build's (an installed one).
    func runInstalled(_ binary: URL, _ arguments: [String], environment: [String: String] = environment) throws -> CommandLineTests.Run {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = FileManager.default.temporaryDirectory
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CommandLineTests.Run(status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
                                    error: String(decoding: errorData, as: UTF8.self))
    }

    @Test func versionIsPrinted() throws {
        let result = try cli.run(["--version"], environment: Self.environment)
        #expect(result.status == 0)
        #expect(result.output.range(of: #"^[0-9]+\.[0-9]+\.[0-9]+\n$"#, options: .regularExpression) != nil)
    }

    /// `make install-files` (what `make install` runs after its release build) into a temporary
    /// prefix, then the installed tree moved elsewhere: the binary finds its schemas beside itself
    /// (also through a symlink), and without them names every place it looked.
    @Test func installedBinaryStandsOnItsOwn() throws {
        let make = ["/usr/bin/make", "/bin/make"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let make else {
            Issue.record("make is not installed")
            return
        }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("dissect-install-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        let prefix = root.appendingPathComponent("prefix")
        let install = try runTool(make, ["-s", "install-files", "BUILT=\(CommandLineTests.executable.path)",
                                         "PREFIX=\(prefix.path)"], in: CommandLineTests.repositoryRoot)
        try #require(install.status == 0, "make install-files failed: \(install.error)")

        // Away from where it was installed (and from the build tree): a prefix is only relative.
        let moved = root.appendingPathComponent("elsewhere")
        try FileManager.default.moveItem(at: prefix, to: moved)
        let binary = moved.appendingPathComponent("bin/dissect")
        let version = try runInstalled(binary, ["--version"]).output.trimmingCharacters(in: .newlines)
        let share = moved.appendingPathComponent("share")
        for file in ["bash-completion/completions/dissect", "zsh/site-functions/_dissect",
                     "fish/vendor_completions.d/dissect.fish", "dissect/schemas/ethernet.schema",
                     "dissect/schemas/examples/bmp.schema"] {
            let size = (try? FileManager.default.attributesOfItem(atPath: share.appendingPathComponent(file).path)[.size] as? Int) ?? 0
            #expect(size > 0, "\(file) not installed")
        }
        let manual = try String(contentsOf: share.appendingPathComponent("man/man1/dissect.1"), encoding: .utf8)
        #expect(manual.contains("\n.Os dissect \(version)\n"))

        let dissected = try runInstalled(binary, ["-r", Self.capture, "-c", "2", "-f", "json"])
        #expect(dissected.status == 0, "\(dissected.error)")
        #expect(dissected.output.split(separator: "\n").count == 2)
        #expect(dissected.output.contains("\"tcp\""))

        // Through a symlink elsewhere: the binary's real place decides.
        let links = root.appendingPathComponent("links")
        try FileManager.default.createDirectory(at: links, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: links.appendingPathComponent("dissect"), withDestinationURL: binary)
        let linked = try runInstalled(links.appendingPathComponent("dissect"), ["-r", Self.capture, "-c", "1", "-f", "json"])
        #expect(linked.status == 0, "\(linked.error)")

        // Without the schemas: every place, and the variable, named; no caret.
        try FileManager.default.removeItem(at: share.appendingPathComponent("dissect/schemas"))
        let places = "\(moved.path)/share/dissect/schemas and \(moved.path)/bin/schemas"
        let missing = try runInstalled(binary, ["-r", Self.capture, "-c", "1"])
        #expect(missing.status == 1)
        #expect(missing.output.isEmpty)
        #expect(missing.error == "error: no bundled schemas found; looked in $DISSECT_SCHEMAS (not set), \(places); "
            + "set DISSECT_SCHEMAS to a directory of .schema files, or use --no-bundled --schema FILE\n")
        // Empty is unset, and the message says so (no note that contradicts it).
        var empty = Self.environment
        empty["DISSECT_SCHEMAS"] = ""
        let emptied = try runInstalled(binary, ["-r", Self.capture, "-c", "1"], environment: empty)
        #expect(emptied.status == 1)
        #expect(emptied.error.hasPrefix("error: no bundled schemas found; looked in $DISSECT_SCHEMAS (set but empty, so not used), \(places);"))
        #expect(!emptied.error.contains("note"))
        // The variable then finds them; the same binary with --no-bundled needs none.
        var pointed = Self.environment
        pointed["DISSECT_SCHEMAS"] = CommandLineTests.repositoryRoot.appendingPathComponent("Schemas").path
        #expect(try runInstalled(binary, ["-r", Self.capture, "-c", "1"], environment: pointed).status == 0)
        let alone = try runInstalled(binary, ["schema", "check", "--no-bundled",
                                              CommandLineTests.repositoryRoot.appendingPathComponent("Schemas/examples/bmp.schema").path])
        #expect(alone.status == 0, "\(alone.error)")

        let uninstall = try runTool(make, ["-s", "uninstall", "PREFIX=\(moved.path)"], in: CommandLineTests.repositoryRoot)
        #expect(uninstall.status == 0, "\(uninstall.error)")
        #expect(!FileManager.default.fileExists(atPath: binary.path))
        #expect(!FileManager.default.fileExists(atPath: share.appendingPathComponent("man/man1/dissect.1").path))
    }

    /// A `$DISSECT_SCHEMAS` that names no directory is an error naming it, not a fall-back.
    @Test func schemaVariableNamingNoDirectory() throws {
        var environment = Self.environment
        environment["DISSECT_SCHEMAS"] = "/nonexistent-schemas"
        let result = try cli.run(["-r", "Corpus/captures/tcp.pcap", "-c", "1"], environment: environment)
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(result.error == "error: no bundled schemas found: DISSECT_SCHEMAS=/nonexistent-schemas is not a directory; "
            + "set DISSECT_SCHEMAS to a directory of .schema files, unset it to use the installed ones, or use --no-bundled --schema FILE\n")
        // Empty is unset: the bundled schemas of the build.
        environment["DISSECT_SCHEMAS"] = ""
        #expect(try cli.run(["-r", "Corpus/captures/tcp.pcap", "-c", "1", "-f", "summary"], environment: environment).status == 0)
    }

    /// A missing file is named as given, with the option, on one line without a caret.
    @Test func missingSchemaFile() throws {
        let option = try cli.run(["-r", "Corpus/captures/tcp.pcap", "--schema", "/nonexistent"], environment: Self.environment)
        #expect(option.status == 1)
        #expect(option.error == "error: --schema /nonexistent: no such file or directory\n")
        let check = try cli.run(["schema", "check", "/nonexistent"], environment: Self.environment)
        #expect(check.status == 1)
        #expect(check.error == "error: /nonexistent: no such file or directory\n")
        let hex = try cli.run(["hex", "--no-bundled", "--schema", "/nonexistent.schema", "00"], environment: Self.environment)
        #expect(hex.status == 1)
        #expect(hex.error == "error: --schema /nonexistent.schema: no such file or directory\n")
    }

    /// Every long option of every command's `--help` is in docs/dissect.1, and the man page has
    /// none that `--help` lacks: `make man` regenerates it.
    @Test func manualHasEveryOption() throws {
        let manual = try String(contentsOf: CommandLineTests.repositoryRoot.appendingPathComponent("docs/dissect.1"), encoding: .utf8)
        var documented: Set<String> = []
        for line in manual.split(separator: "\n") where line.hasPrefix(".It Fl ") {
            for match in line.matches(of: /Fl (?:[A-Za-z] , )?-([a-z0-9][a-z0-9-]*)/) { documented.insert(String(match.1)) }
        }
        var listed: Set<String> = []
        for command in [[], ["capture"], ["hex"], ["schema"], ["schema", "check"], ["schema", "list"]] {
            let help = try cli.run(command + ["--help"], environment: Self.environment)
            #expect(help.status == 0)
            for line in help.output.split(separator: "\n") {
                if let match = line.firstMatch(of: /^ {2}(?:-[A-Za-z], )?--([a-z0-9][a-z0-9-]*)/) { listed.insert(String(match.1)) }
            }
        }
        #expect(listed.contains("schema") && listed.contains("version"))
        #expect(listed.subtracting(documented).isEmpty, "not in docs/dissect.1 (run make man): \(listed.subtracting(documented).sorted())")
        #expect(documented.subtracting(listed).isEmpty, "in docs/dissect.1 but not in --help (run make man): \(documented.subtracting(listed).sorted())")
    }
}
