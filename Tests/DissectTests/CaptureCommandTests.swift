import BinarySchema
import CapturePipeline
@testable import dissect
import Foundation
import PacketCapture
import Testing

/// Whether this process may capture on the loopback interface (root or CAP_NET_RAW).
let canCaptureOnLoopback: Bool = (try? Capture.open(interface: "lo")) != nil

/// `dissect -r/-i …`: captures through the command line.
extension CommandLineTests {
    static func capture(_ name: String) -> String { "Corpus/captures/\(name)" }

    static func temporaryFile(_ suffix: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("dissect-cli-\(UUID())\(suffix)")
    }

    @Test func summaryShowsEveryPacketWithNumberAndTime() throws {
        // Frames alone: tcp.pcap's HTTP response spans two segments, whose reassembly adds a line.
        let result = try run(["-r", Self.capture("tcp.pcap"), "-f", "summary", "--no-tcp-reassembly"])
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 12)
        // tshark: frame 1 at epoch 1795240908.740443000, i.e. 06:01:48 UTC.
        #expect(lines.first?.hasPrefix("1 06:01:48.740443 IPv4 127.0.0.1 > 127.0.0.1 · ") == true, "no link layer without -e")
        #expect(lines.first?.hasSuffix("TCP 48684 > 8765 [S] seq 3071015684 win 65495 len 0") == true)
        #expect(lines.last?.hasPrefix("12 ") == true)
    }

    /// Optional summary groups and layer labels on the bundled schemas: an 802.3 frame shows its
    /// length (no EtherType), an STP TCN no root or bridge, an ICMP error's quote its protocols'
    /// names rather than the structs that read them; nothing absent shows as `?`.
    @Test func summariesLeaveOutWhatAFrameDoesNotHave() throws {
        let stp = try run(["-r", Self.capture("stp.pcap"), "-f", "summary"]).output.split(separator: "\n")
        #expect(stp.count == 5)
        #expect(!stp[0].contains("Ethernet") && !stp[0].contains("LLC"), "no link layer without -e: \(stp[0])")
        #expect(stp[0].contains(" STP stp, configuration, root 00:11:22:33:44:00 cost 4, bridge 00:11:22:33:44:55 port 0x8001"))
        #expect(stp[1].hasSuffix(" STP stp, tcn"), "\(stp[1])")
        let icmp = try run(["-r", Self.capture("icmp-errors.pcap"), "-f", "summary"]).output
        #expect(icmp.contains("· ICMP destination_unreachable port_unreachable · IPv4 10.0.0.2 > 10.0.0.9 · UDP 33434 > 33435 len 32\n"))
        #expect(!icmp.contains("Quoted"))
        for name in ["llc", "stp", "icmp-errors", "eapol", "radiotap", "ppp", "macsec"] {
            let output = try run(["-r", Self.capture("\(name).pcap"), "-f", "summary"]).output
            #expect(!output.contains(" ? ") && !output.contains(" ?,"), "\(name): \(output)")
        }
    }

    /// The JSON objects `dissect` prints for `arguments`, one per line.
    func jsonLines(_ arguments: [String]) throws -> [[String: Any]] {
        let result = try run(arguments)
        #expect(result.status == 0, "\(result.error)")
        return try result.output.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// A copy of a little-endian classic pcap file with every record cut to `snapshotLength`
    /// captured bytes, its original length kept (what `editcap -s` does).
    static func snapped(_ name: String, to snapshotLength: Int) throws -> URL {
        let bytes = [UInt8](try Data(contentsOf: Self.repositoryRoot.appendingPathComponent(Self.capture(name))))
        func word(at offset: Int) -> Int {
            Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
        }
        var copy = Array(bytes.prefix(24))
        var offset = 24
        while offset + 16 <= bytes.count {
            let captured = word(at: offset + 8)
            try #require(offset + 16 + captured <= bytes.count, "\(name): a record runs past the end")
            let kept = min(captured, snapshotLength)
            copy += bytes[offset..<(offset + 8)]
            copy += [UInt8(kept & 0xFF), UInt8(kept >> 8 & 0xFF), UInt8(kept >> 16 & 0xFF), UInt8(kept >> 24)]
            copy += bytes[(offset + 12)..<(offset + 16)]
            copy += bytes[(offset + 16)..<(offset + 16 + kept)]
            offset += 16 + captured
        }
        let file = Self.temporaryFile(".pcap")
        try Data(copy).write(to: file)
        return file
    }

    @Test func jsonLinesCarryFrameTimeAndLengths() throws {
        // tshark -T fields -e frame.number -e frame.time_epoch -e frame.cap_len -e frame.len:
        // 1 1795243837.224044071 98 98, 2 1795243837.224148306 102 102.
        let objects = try jsonLines(["-r", Self.capture("dns-nsec.pcap"), "-f", "json"])
        #expect(objects.map { $0["frame"] as? Int } == [1, 2])
        // Nanoseconds survive from the file.
        #expect(objects.map { $0["time"] as? String } == ["2026-11-21T06:50:37.224044071Z", "2026-11-21T06:50:37.224148306Z"])
        #expect(objects.map { $0["length"] as? Int } == [98, 102])
        #expect(objects.map { $0["original_length"] as? Int } == [98, 102])
        #expect(objects.map { $0["layers"] as? [String] } == [["eth", "ip", "udp", "dns"], ["eth", "ip", "udp", "dns"]])

        // Cut to 60 bytes (tshark on `editcap -s 60` of it: 60 98, 60 102), the two lengths part.
        let file = try Self.snapped("dns-nsec.pcap", to: 60)
        defer { try? FileManager.default.removeItem(at: file) }
        let snapped = try jsonLines(["-r", file.path, "-f", "json"])
        #expect(snapped.map { $0["length"] as? Int } == [60, 60])
        #expect(snapped.map { $0["original_length"] as? Int } == [98, 102])
        #expect(snapped.map { $0["time"] as? String } == objects.map { $0["time"] as? String })
    }

    @Test func everyViewReadsAPcapngFile() throws {
        for view in ["fields", "hex", "tree", "json", "summary"] {
            let result = try run(["-r", Self.capture("tcp6.pcapng"), "-f", view, "-c", "1"])
            #expect(result.status == 0, "\(view): \(result.error)")
            #expect(result.output.contains("ipv6") || result.output.contains("IPv6"), "\(view)")
        }
        let tree = try run(["-r", Self.capture("tcp6.pcapng"), "-f", "tree", "-c", "1"])
        #expect(tree.output.hasPrefix("frame 1 · 2026-11-21 06:50:34.155839279 UTC · 94 bytes · Ethernet › IPv6 › TCP"))
    }

    @Test func standardInputFilterAndCount() throws {
        let data = try Data(contentsOf: Self.repositoryRoot.appendingPathComponent(Self.capture("dns.pcap")))
        let result = try run(["-r", "-", "-f", "summary", "-c", "2", "udp", "src", "port", "53"], bytes: data)
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.contains("UDP 53 >") })
    }

    @Test func truncatedFileShowsWholePacketsThenFails() throws {
        let whole = try Data(contentsOf: Self.repositoryRoot.appendingPathComponent(Self.capture("tcp.pcap")))
        let file = Self.temporaryFile(".pcap")
        defer { try? FileManager.default.removeItem(at: file) }
        try whole.prefix(700).write(to: file)
        let result = try run(["-r", file.path, "-f", "summary"])
        #expect(result.status == 1)
        #expect(result.output.split(separator: "\n").count == 5)
        #expect(result.error.contains("truncated dump file"))
        #expect(result.error.contains("after 5 packets"))
    }

    @Test func threadsChangeNeitherOutputNorOrder() throws {
        // tcp.pcap's 12 records repeated past several batches, then cut inside a record.
        let whole = try Data(contentsOf: Self.repositoryRoot.appendingPathComponent(Self.capture("tcp.pcap")))
        var data = whole
        for _ in 0..<110 { data.append(whole.dropFirst(24)) }
        data.append(whole.dropFirst(24).prefix(40))
        let file = Self.temporaryFile(".pcap")
        defer { try? FileManager.default.removeItem(at: file) }
        try data.write(to: file)
        let packets = 12 * 111
        for view in ["summary", "tree", "json"] {
            let one = try run(["-r", file.path, "-f", view, "--threads", "1"])
            let three = try run(["-r", file.path, "-f", view, "--threads", "3"])
            #expect(one.status == 1 && three.status == 1)
            #expect(one.output == three.output, "\(view)")
            #expect(three.error.contains("after \(packets) packets"))
        }
        let summary = try run(["-r", file.path, "-f", "summary"])
        let numbers = summary.output.split(separator: "\n").compactMap { $0.split(separator: " ").first.flatMap { Int($0) } }
        #expect(numbers == Array(1...packets))
        let quiet = try run(["-r", file.path, "-q", "--threads", "2"])
        #expect(quiet.output.contains("\(packets) packets, "))
        #expect(try run(["-r", file.path, "--threads", "0"]).error.contains("--threads needs a positive number"))
    }

    @Test func badInputsAreClearErrors() throws {
        let filter = try run(["-r", Self.capture("tcp.pcap"), "tcp", "port"])
        #expect(filter.status == 1)
        #expect(filter.error.contains("invalid filter 'tcp port': can't parse filter expression: syntax error"))

        let garbage = try run(["-r", "Schemas/ip.schema"])
        #expect(garbage.status == 1)
        #expect(garbage.error.contains("cannot read capture file 'Schemas/ip.schema': unknown file format"))

        let neither = try run(["-c", "3"])
        #expect(neither.status != 0)
        #expect(neither.error.contains("give -r FILE"))

        // With capture privileges libpcap can tell that the interface does not exist (its reason
        // is pcap_statustostr's); without them it refuses first.
        let interface = try run(["-i", "nosuchif0"])
        #expect(interface.status == 1)
        #expect(interface.output.isEmpty)
        if canCaptureOnLoopback {
            #expect(interface.error
                == "Error: no interface named 'nosuchif0' (dissect --list-interfaces shows them): No such device exists\n")
        } else {
            #expect(interface.error.hasPrefix("Error: no permission to capture on 'nosuchif0' (run as root or grant CAP_NET_RAW): "))
            #expect(interface.error.split(separator: "\n").count == 1, "\(interface.error)")
        }
    }

    @Test func writeKeepsTheFilteredPacketsForOtherTools() throws {
        let file = Self.temporaryFile(".pcap")
        defer { try? FileManager.default.removeItem(at: file) }
        let write = try run(["-r", Self.capture("tcp.pcap"), "-w", file.path, "tcp[tcpflags] & tcp-push != 0"])
        #expect(write.status == 0)
        #expect(write.output.isEmpty)
        let reread = try run(["-r", file.path, "-q"])
        #expect(reread.status == 0)
        #expect(reread.output.hasPrefix("3 packets, "))
        #expect(reread.output.contains("0 with errors"))
    }

    /// snaplen.pcap: sixteen real frames, fifteen cut short by snapshot lengths, thirteen of them
    /// inside a header (tshark marks the same thirteen; see BundledSchemaOracleTests).
    @Test func framesCutByTheSnapshotLengthAreMarkedAndCountedApartFromErrors() throws {
        let summary = try run(["-r", Self.capture("snaplen.pcap"), "-f", "summary", "--no-tcp-reassembly"])
        #expect(summary.status == 0)
        let lines = summary.output.split(separator: "\n")
        try #require(lines.count == 16)
        #expect(lines[0].contains("TCP 48684 > 8765 [.] ack 3447603983 win 64"), "\(lines[0])")
        #expect(lines[0].hasSuffix(" · 65 of 66 bytes [|tcp]"))
        #expect(lines[3].contains("TCP 8765 > 48684 [?] win ?"), "the ports of a segment cut after them")
        #expect(lines[3].hasSuffix(" · 38 of 267 bytes [|tcp]"))
        #expect(lines[6].hasSuffix(" · 90 of 154 bytes"), "a cut inside the data marks nothing")
        #expect(lines[7].hasSuffix(" len 0"), "a whole frame: no length without -e")
        #expect(lines[8].hasSuffix(" · 64 of 99 bytes [|dns]"))
        #expect(!summary.output.contains("✗"))
        let totals = try run(["-r", Self.capture("snaplen.pcap"), "-q"])
        #expect(totals.status == 0)
        // The HTTP response whose second segment the snapshot length cut is reassembled without
        // the bytes never captured: incomplete, not an error.
        #expect(totals.output == "16 packets, 833 bytes, 0 with errors, 13 cut by the snapshot length; "
            + "1 PDU reassembled from several segments (1 incomplete)\n")
        let errors = try run(["-r", Self.capture("tcp.pcap"), "-q"])
        #expect(errors.output.hasSuffix(", 0 with errors, 0 cut by the snapshot length; 1 PDU reassembled from several segments\n"))
    }

    @Test func unknownLinkTypeIsShownAsRawBytesWithANote() throws {
        // A pcap of link type 147 (USER0), which no bundled schema claims.
        var bytes: [UInt8] = [0xD4, 0xC3, 0xB2, 0xA1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0, 0, 147, 0, 0, 0]
        bytes += [1, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 3, 0, 0, 0, 0xCA, 0xFE, 0x42]
        let file = Self.temporaryFile(".pcap")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(bytes).write(to: file)
        let result = try run(["-r", file.path, "-f", "fields", "--threads", "3"])
        #expect(result.status == 0)
        #expect(result.error.contains("note: no schema claims link type 147"))
        // Once, however many workers load the schemas.
        #expect(result.error.components(separatedBy: "note:").count == 2, "\(result.error)")
        #expect(result.output.contains("data.data"))
        #expect(result.output.contains("ca fe 42"))
    }

    @Test func withoutArgumentsPrintsHelp() throws {
        let result = try run([])
        #expect(result.status == 0)
        #expect(result.output.contains("USAGE"))
        #expect(result.output.contains("capture"))
    }

    /// tcp.pcap with the second record's original length set 10 bytes below its captured length
    /// (74), an invalid record header libpcap delivers as it is.
    static func captureWithCapturedLengthOverOriginal() throws -> URL {
        var bytes = [UInt8](try Data(contentsOf: Self.repositoryRoot.appendingPathComponent(Self.capture("tcp.pcap"))))
        func word(at offset: Int) -> Int {
            Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
        }
        let second = 24 + 16 + word(at: 24 + 8)
        let captured = word(at: second + 8)
        #expect(captured == 74)
        bytes[second + 12] = UInt8(captured - 10)
        let file = Self.temporaryFile(".pcap")
        try Data(bytes).write(to: file)
        return file
    }

    @Test func capturedLengthOverTheOriginalIsFlagged() throws {
        let file = try Self.captureWithCapturedLengthOverOriginal()
        defer { try? FileManager.default.removeItem(at: file) }
        let warning = "warning: packet 2: captured length 74 is more than the original length 64 (invalid record header)"
        for arguments in [["-f", "summary"], ["-f", "json", "--threads", "3"], ["-q"]] {
            let result = try run(["-r", file.path] + arguments)
            #expect(result.status == 0)
            #expect(result.error.contains(warning), "\(arguments): \(result.error)")
            #expect(result.error.components(separatedBy: "warning:").count == 2, "\(arguments): \(result.error)")
        }
        let copy = Self.temporaryFile(".pcap")
        defer { try? FileManager.default.removeItem(at: copy) }
        let written = try run(["-r", file.path, "-w", copy.path])
        #expect(written.status == 0)
        #expect(written.error.contains(warning), "\(written.error)")
    }

    /// The ring's own tests are CapturePipelineTests' WorkerRingTests; here, the option.
    @Test func aLargeThreadCountGivesTheSameOutput() throws {
        let result = try run(["-r", Self.capture("dns.pcap"), "-f", "summary", "--threads", "1000"])
        #expect(result.status == 0)
        #expect(result.output == (try run(["-r", Self.capture("dns.pcap"), "-f", "summary", "--threads", "1"])).output)
    }

    static func fullDevice() throws -> FileHandle {
        try #require(FileHandle(forWritingAtPath: "/dev/full"))
    }

    @Test func aFullStandardOutputIsAnError() throws {
        for view in ["summary", "tree", "json"] {
            let result = try run(["-r", Self.capture("tcp.pcap"), "-f", view], bytes: nil, standardOutput: try Self.fullDevice())
            #expect(result.status == 1, "\(view)")
            #expect(result.error.contains("Error: writing to standard output failed: No space left on device"), "\(view): \(result.error)")
        }
        let capture = try run(["-r", Self.capture("tcp.pcap"), "-w", "-"], bytes: nil, standardOutput: try Self.fullDevice())
        #expect(capture.status == 1)
        #expect(capture.error.contains("Error: cannot write capture file '-': No space left on device"), "\(capture.error)")
    }

    @Test func aFullCaptureFileIsAnError() throws {
        let result = try run(["-r", Self.capture("tcp.pcap"), "-w", "/dev/full"])
        #expect(result.status == 1)
        #expect(result.error.contains("Error: cannot write capture file '/dev/full': No space left on device"), "\(result.error)")
    }

    /// -q's totals go to standard output (as tshark's statistics): a full one is an error, not a crash.
    @Test func totalsOnAFullStandardOutputFailWithoutACrash() throws {
        let result = try run(["-r", Self.capture("tcp.pcap"), "-q"], bytes: nil, standardOutput: try Self.fullDevice())
        #expect(result.status == 1)
        #expect(result.error.contains("No space left on device"), "\(result.error)")
    }

    @Test func anEmptyFileOrStandardInputIsCalledEmpty() throws {
        let file = Self.temporaryFile(".pcap")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data().write(to: file)
        let empty = try run(["-r", file.path])
        #expect(empty.status == 1)
        #expect(empty.error == "Error: '\(file.path)' is empty: not a pcap or pcapng file\n")
        let emptyInput = try run(["-r", "-"], bytes: Data())
        #expect(emptyInput.status == 1)
        #expect(emptyInput.error == "Error: standard input is empty: not a pcap or pcapng file\n")
        // A pipe that is not empty still reads from its first byte.
        let data = try Data(contentsOf: Self.repositoryRoot.appendingPathComponent(Self.capture("dns.pcap")))
        let piped = try run(["-r", "-", "-q"], bytes: data)
        #expect(piped.status == 0)
        #expect(piped.output.hasPrefix("16 packets, "), "\(piped.output)")
    }

    @Test func asciiSymbolsUnlessTheLocaleIsUTF8() throws {
        var environment = ProcessInfo.processInfo.environment
        for name in ["LC_ALL", "LC_CTYPE", "LANG"] { environment[name] = nil }
        environment["TZ"] = "UTC"
        let noLocale = try run(["-r", Self.capture("tcp6.pcapng"), "-f", "tree", "-c", "1"], environment: environment)
        #expect(noLocale.output.hasPrefix("frame 1 - 2026-11-21 06:50:34.155839279 UTC - 94 bytes - Ethernet > IPv6 > TCP\n"),
                "\(noLocale.output.prefix(100))")
        environment["LANG"] = "en_US.UTF-8"
        environment["LC_ALL"] = "C"
        let cLocale = try run(["-r", Self.capture("tcp6.pcapng"), "-f", "tree", "-c", "1"], environment: environment)
        #expect(cLocale.output == noLocale.output)
        environment["LC_ALL"] = ""
        let utf8 = try run(["-r", Self.capture("tcp6.pcapng"), "-f", "tree", "-c", "1"], environment: environment)
        #expect(utf8.output.hasPrefix("frame 1 · 2026-11-21 06:50:34.155839279 UTC · 94 bytes · Ethernet › IPv6 › TCP\n"))

        // A damaged file in every text view: nothing but ASCII.
        environment["LC_ALL"] = "POSIX"
        let whole = try Data(contentsOf: Self.repositoryRoot.appendingPathComponent(Self.capture("tcp.pcap")))
        var cut = [UInt8](whole)
        cut[24 + 8] = 40
        cut[24 + 12] = 40
        let file = Self.temporaryFile(".pcap")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(cut.prefix(24 + 16 + 40)).write(to: file)
        for view in ["fields", "hex", "tree", "summary"] {
            let result = try run(["-r", file.path, "-f", view, "--width", "60"], environment: environment)
            #expect(result.status == 0, "\(view): \(result.error)")
            // The error mark: `!` for `✗` (the tree puts it before the field's name).
            #expect(result.output.contains("! premature end of") || result.output.contains("! payload: premature end of"),
                    "\(view): \(result.output)")
            #expect(result.output.utf8.allSatisfy { $0 < 0x80 }, "\(view): \(result.output)")
        }
        // A reassembled unit's line (`  ↳ reassembled`) too: it was left in UTF-8.
        let units = try run(["-r", "Corpus/reassembly/http-large.pcap", "-f", "summary"], environment: environment)
        #expect(units.output.contains("  -> reassembled TCP PDU from frames"), "\(units.output.prefix(1500))")
        #expect(units.output.utf8.allSatisfy { $0 < 0x80 })
    }

    @Test func theLocaleRuleFollowsTheCLibrary() {
        #expect(SymbolSet(environment: [:]) == .ascii)
        #expect(SymbolSet(environment: ["LANG": "en_US.UTF-8"]) == .unicode)
        #expect(SymbolSet(environment: ["LANG": "de_DE.utf8"]) == .unicode)
        #expect(SymbolSet(environment: ["LANG": "en_US.ISO-8859-1"]) == .ascii)
        #expect(SymbolSet(environment: ["LC_CTYPE": "C.UTF-8", "LANG": "C"]) == .unicode)
        #expect(SymbolSet(environment: ["LC_ALL": "C", "LC_CTYPE": "C.UTF-8", "LANG": "en_US.UTF-8"]) == .ascii)
        #expect(SymbolSet(environment: ["LC_ALL": "", "LC_CTYPE": "", "LANG": "en_US.UTF-8"]) == .unicode)
    }
}
