import Foundation
import Testing

/// `dissect hex` end to end: tcpdump's hex dumps of several packets pasted at once (the fixtures
/// in Corpus/samples are tcpdump's output for Corpus/captures/dns.pcap, so no test needs tcpdump),
/// and the names `--root` takes.
@Suite struct HexCommandTests {
    private func run(_ arguments: [String], input: String? = nil,
                     environment: [String: String] = CommandLineTests.utf8Environment) throws -> CommandLineTests.Run {
        try CommandLineTests().run(arguments, input: input, environment: environment)
    }

    private func sample(_ name: String) throws -> String {
        try String(contentsOf: CommandLineTests.repositoryRoot.appendingPathComponent("Corpus/samples/\(name)"), encoding: .utf8)
    }

    /// The frames of a tree view: blocks set apart by a blank line.
    private func frames(_ output: String) -> [Substring] {
        output.split(separator: "\n\n", omittingEmptySubsequences: true)
            .map { $0.trimmingCharacters(in: .newlines)[...] }
            .filter { !$0.isEmpty }
    }

    /// The packet lines tcpdump printed: the lines that start with a time.
    private func packetLines(_ text: String) -> Int {
        text.split(separator: "\n").filter { $0.first?.isNumber == true }.count
    }

    /// Bytes that do not match the schema exit 2, after the whole output; a cut frame is no
    /// error, and a capture's malformed packets leave `dissect -r` at 0.
    @Test func theExitStatusSaysWhetherTheBytesMatchTheSchema() throws {
        let malformed = try run(["hex", "-f", "summary"], input: try sample("truncated-ipv4.hex"))
        #expect(malformed.status == 2, "\(malformed.error)")
        #expect(malformed.output.contains("premature end of data"))
        let whole = try run(["hex", "-f", "summary"], input: try sample("tcp-syn.hex"))
        #expect(whole.status == 0, "\(whole.error)")
        let first60 = try sample("tcp-syn.hex").split(whereSeparator: { $0 == " " || $0 == "\n" }).prefix(60).joined(separator: " ")
        let cut = try run(["hex", "-f", "summary", "--original-length", "74"], input: first60)
        #expect(cut.status == 0, "\(cut.output) \(cut.error)")
        // The same malformed frame as a whole record of a capture file.
        let frame = try sample("truncated-ipv4.hex").split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { UInt8($0, radix: 16) }
        func little(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("malformed-\(UUID()).pcap")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data([0xD4, 0xC3, 0xB2, 0xA1, 2, 0, 4, 0] + little(0) + little(0) + little(65535) + little(1)
                 + little(0) + little(0) + little(UInt32(frame.count)) + little(UInt32(frame.count)) + frame).write(to: file)
        let capture = try run(["-r", file.path, "-f", "summary"])
        #expect(capture.status == 0, "\(capture.error)")
        #expect(capture.output.contains("premature end of data"), "\(capture.output)")
    }

    @Test func pastedTcpdumpXXOutputGivesEachPacketItsOwnFrame() throws {
        let dump = try sample("dns-tcpdump-xx.txt")
        let capture = try run(["-r", "Corpus/captures/dns.pcap", "-f", "tree", "--width", "200"])
        #expect(capture.status == 0, "\(capture.error)")
        let expected = frames(capture.output)
        let pasted = try run(["hex", "-f", "tree", "--width", "200"], input: dump)
        #expect(pasted.status == 0, "\(pasted.error)")
        #expect(pasted.error.isEmpty)
        let got = frames(pasted.output)
        #expect(got.count == packetLines(dump))
        #expect(got.count == expected.count && got.count == 16)
        for (number, (frame, reference)) in zip(got, expected).enumerated() {
            // tcpdump's time of day has no date: the heading has the frame's number but no time.
            let heading = frame.prefix(while: { $0 != "\n" })
            #expect(heading.hasPrefix("frame \(number + 1) · "), "\(heading)")
            #expect(!heading.contains("2026"))
            // Everything under the heading is what `dissect -r` shows for that packet.
            #expect(frame.drop(while: { $0 != "\n" }) == reference.drop(while: { $0 != "\n" }), "frame \(number + 1)")
        }
        // One argument holding the whole paste reads as standard input does.
        let argument = try run(["hex", "-f", "tree", "--width", "200", dump])
        #expect(argument.status == 0 && argument.output == pasted.output)
        // The fields view too, frame by frame.
        let fields = try run(["hex", "-f", "fields", "--width", "200"], input: dump)
        let captureFields = try run(["-r", "Corpus/captures/dns.pcap", "-f", "fields", "--width", "200"])
        let fieldFrames = frames(fields.output), captureFieldFrames = frames(captureFields.output)
        #expect(fieldFrames.count == 16 && captureFieldFrames.count == 16)
        for (frame, reference) in zip(fieldFrames, captureFieldFrames) {
            #expect(frame.drop(while: { $0 != "\n" }) == reference.drop(while: { $0 != "\n" }))
        }
        // A summary line per packet, numbered.
        let summary = try run(["hex", "-f", "summary"], input: dump)
        let lines = summary.output.split(separator: "\n")
        #expect(lines.count == 16)
        #expect(lines.first?.hasPrefix("1 ") == true && lines.last?.hasPrefix("16 ") == true)
    }

    /// `-XX -vv -tt`: the ASCII column and the indented lines that go on the packet line are
    /// skipped, and tcpdump's seconds since the epoch give each frame the time `dissect -r` shows.
    @Test func verboseTcpdumpOutputWithEpochTimesMatchesTheCaptureExactly() throws {
        let dump = try sample("dns-tcpdump-XX-vv-tt.txt")
        let pasted = try run(["hex", "-f", "tree", "--width", "200"], input: dump)
        let capture = try run(["-r", "Corpus/captures/dns.pcap", "-f", "tree", "--width", "200"])
        #expect(pasted.status == 0, "\(pasted.error)")
        #expect(frames(pasted.output).count == packetLines(dump))
        #expect(frames(pasted.output) == frames(capture.output))
    }

    /// tcpdump -x starts at the IP header: under the default root a note says which root to give;
    /// `-tttt`'s local date and time read in the same zone give the capture's times.
    @Test func tcpdumpXOutputNeedsAnIPRootAndSaysSo() throws {
        let dump = try sample("dns-tcpdump-x-tttt.txt")
        var environment = CommandLineTests.utf8Environment
        environment["TZ"] = "UTC"
        let ethernet = try run(["hex", "-f", "summary"], input: dump, environment: environment)
        #expect(ethernet.status == 0)
        #expect(ethernet.error.contains("note: the bytes look like an IPv4 packet") && ethernet.error.contains("--root IPv4"))
        let ip = try run(["hex", "-f", "tree", "--width", "200", "--root", "ipv4"], input: dump, environment: environment)
        #expect(ip.status == 0 && ip.error.isEmpty, "\(ip.error)")
        let capture = try run(["-r", "Corpus/captures/dns.pcap", "-f", "tree", "--width", "200", "-c", "3"],
                              environment: environment)
        let got = frames(ip.output), expected = frames(capture.output)
        #expect(got.count == 3 && expected.count == 3)
        for (frame, reference) in zip(got, expected) {
            let heading = String(frame.prefix(while: { $0 != "\n" }))
            let referenceHeading = String(reference.prefix(while: { $0 != "\n" }))
            // The same frame number and time; the layers start at IPv4.
            let parts = heading.components(separatedBy: " · ")
            let referenceParts = referenceHeading.components(separatedBy: " · ")
            #expect(parts.count == 4 && referenceParts.count == 4, "\(heading)")
            #expect(parts.prefix(2) == referenceParts.prefix(2), "\(heading)")
            #expect(parts.last == "IPv4 › UDP › DNS", "\(heading)")
            // The IPv4 layer and everything above it as in the capture.
            let ipLayers = reference.range(of: "\nIPv4 ").map { reference[$0.lowerBound...] }
            #expect(ipLayers.map { frame.hasSuffix($0) } == true)
        }
    }

    @Test func oneTcpdumpPacketStaysOneUnnumberedFrame() throws {
        let dump = try sample("dns-tcpdump-xx.txt")
        let firstPacket = dump.split(separator: "\n").prefix(8).joined(separator: "\n")
        let result = try run(["hex", "-f", "tree"], input: firstPacket)
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("frame · 99 bytes · Ethernet › IPv4 › UDP › DNS\n"), "\(result.output)")
        #expect(frames(result.output).count == 1)
    }

    @Test func rootNamesIgnoreCaseAndTyposGetSuggestions() throws {
        let frame = "ffffffffffff 001122334455 0800 4500 0014 0000 0000 4000 0000 0a000001 0a000002"
        let exact = try run(["hex", "-f", "summary", "--root", "Ethernet", frame])
        let lower = try run(["hex", "-f", "summary", "--root", "ethernet", frame])
        #expect(lower.status == 0 && lower.error.isEmpty, "\(lower.error)")
        #expect(lower.output == exact.output)
        let typo = try run(["hex", "--root", "Ethernt", frame])
        #expect(typo.status != 0)
        #expect(typo.error.contains("no struct named 'Ethernt'; did you mean Ethernet?"), "\(typo.error)")
        let swapped = try run(["hex", "--root", "Ehternet", frame])
        #expect(swapped.error.contains("did you mean Ethernet?"), "\(swapped.error)")
        // A prefix suggests the structs it starts, roots for a link type first.
        let prefix = try run(["hex", "--root", "ip", frame])
        #expect(prefix.error.contains("did you mean IPv4, IPv6"), "\(prefix.error)")
        // Nothing close: no guess, but the roots for link types and where to find the rest.
        let far = try run(["hex", "--root", "Nope", frame])
        #expect(!far.error.contains("did you mean"))
        #expect(far.error.contains("roots for link types: ") && far.error.contains("Ethernet, ")
                && far.error.contains("dissect schema list"))
        // --decode-as names a protocol the same way.
        let decodeAs = try run(["-r", "Corpus/captures/dns.pcap", "-d", "udp.port==53,dsn"])
        #expect(decodeAs.status != 0)
        #expect(decodeAs.error.contains("no protocol or struct 'dsn'; did you mean dns?"), "\(decodeAs.error)")
    }
}
