import Foundation
import PacketCapture
import Testing

/// The command line as a tcpdump or tshark user types it (issue 16): each defect they met, end to end.
extension CommandLineTests {
    /// A UTF-8 environment whose local time zone is `zone` (a POSIX TZ string: no zone files needed).
    static func environment(zone: String) -> [String: String] {
        var environment = utf8Environment
        environment["TZ"] = zone
        return environment
    }

    @Test func attachedValuesAndGroupedFlagsAreReadAsGetoptReadsThem() throws {
        let spaced = try run(["-r", Self.capture("tcp.pcap"), "-c", "2", "-s", "0"])
        #expect(spaced.status == 0, "\(spaced.error)")
        #expect(spaced.output.split(separator: "\n").count == 2)
        for arguments in [["-c2", "-r" + Self.capture("tcp.pcap"), "-s0"], ["-nc2", "-s0", "-r", Self.capture("tcp.pcap")],
                          ["-nnr", Self.capture("tcp.pcap"), "-c", "2"]] {
            let attached = try run(arguments)
            #expect(attached.status == 0, "\(arguments): \(attached.error)")
            #expect(attached.output == spaced.output, "\(arguments)")
        }
        // A count that is not positive says so, rather than "Missing value".
        let negative = try run(["-r", Self.capture("tcp.pcap"), "-c", "-1"])
        #expect(negative.status != 0)
        #expect(negative.error.contains("-c needs a positive count (got -1)"), "\(negative.error)")
        let attachedNegative = try run(["-r", Self.capture("tcp.pcap"), "-c-1"])
        #expect(attachedNegative.error.contains("-c needs a positive count (got -1)"), "\(attachedNegative.error)")
    }

    /// Frames keep their number in the file whatever the filter passes, as in tshark and Wireshark.
    @Test func framesAreNumberedByTheirPlaceInTheFile() throws {
        let result = try run(["-r", Self.capture("dns.pcap"), "-t", "udp src port 53"])
        #expect(result.status == 0, "\(result.error)")
        let numbers = result.output.split(separator: "\n").compactMap { $0.split(separator: " ").first.flatMap { Int($0) } }
        // tshark -r dns.pcap -Y udp.srcport==53: the responses are the even frames.
        #expect(numbers == [2, 4, 6, 8, 10, 12, 14, 16])
        // -c counts the packets the filter passed, as tcpdump's.
        let counted = try run(["-r", Self.capture("dns.pcap"), "-t", "-c", "2", "udp src port 53"])
        #expect(counted.output.split(separator: "\n").compactMap { $0.split(separator: " ").first } == ["2", "4"])
        let filterFile = Self.temporaryFile(".bpf")
        defer { try? FileManager.default.removeItem(at: filterFile) }
        try Data("udp src port 53  # responses only\n".utf8).write(to: filterFile)
        let fromFile = try run(["-r", Self.capture("dns.pcap"), "-t", "-F", filterFile.path])
        #expect(fromFile.output == result.output)
        let both = try run(["-r", Self.capture("dns.pcap"), "-F", filterFile.path, "udp"])
        #expect(both.status != 0 && both.error.contains("-F reads the filter from a file"), "\(both.error)")
    }

    /// Times as tcpdump prints them, in local time (TZ) unless --utc, to the file's own precision.
    @Test func timesFollowTcpdumpsFlagsAndTheLocalZone() throws {
        func firstTwo(_ arguments: [String], zone: String = "UTC") throws -> [String] {
            let result = try run(["-r", Self.capture("tcp.pcap"), "-c", "2", "--no-tcp-reassembly"] + arguments,
                                 environment: Self.environment(zone: zone))
            #expect(result.status == 0, "\(result.error)")
            return result.output.split(separator: "\n").map { line in
                // The time is what lies between the frame number and the first layer.
                let words = line.split(separator: " ").dropFirst()
                return words.prefix { !$0.hasPrefix("IPv4") }.joined(separator: " ")
            }
        }
        // tshark: frame 1 at 1795240908.740443, frame 2 19 µs later; tcp.pcap records microseconds.
        #expect(try firstTwo([]) == ["06:01:48.740443", "06:01:48.740462"])
        #expect(try firstTwo([], zone: "EST+5") == ["01:01:48.740443", "01:01:48.740462"])
        #expect(try firstTwo(["--utc"], zone: "EST+5") == ["06:01:48.740443", "06:01:48.740462"])
        #expect(try firstTwo(["-t"]) == ["", ""])
        #expect(try firstTwo(["-tt"]) == ["1795240908.740443", "1795240908.740462"])
        #expect(try firstTwo(["-ttt"]) == ["00:00:00.000000", "00:00:00.000019"])
        #expect(try firstTwo(["-tttt"], zone: "EST+5") == ["2026-11-21 01:01:48.740443", "2026-11-21 01:01:48.740462"])
        #expect(try firstTwo(["-ttttt"]) == ["00:00:00.000000", "00:00:00.000019"])
        // A nanosecond pcapng keeps its nine digits.
        let nano = try run(["-r", Self.capture("tcp6.pcapng"), "-c", "1"], environment: Self.environment(zone: "UTC"))
        #expect(nano.output.hasPrefix("1 06:50:34.155839279 "), "\(nano.output)")
        // -ttt runs across shares and threads: each frame's time since the one before it.
        let deltas = try run(["-r", Self.capture("dns.pcap"), "-ttt", "--threads", "3"])
        let serial = try run(["-r", Self.capture("dns.pcap"), "-ttt", "--threads", "1"])
        #expect(deltas.output == serial.output)
    }

    /// A line per packet unless a view is asked for; tcpdump's -v and -x/-X choose the tree and the hex dump.
    @Test func theDefaultViewIsALinePerPacket() throws {
        let lines = try run(["-r", Self.capture("dns.pcap")])
        #expect(lines.output.split(separator: "\n").count == 16)
        let summary = try run(["-r", Self.capture("dns.pcap"), "-f", "summary"])
        #expect(summary.output == lines.output)
        let verbose = try run(["-r", Self.capture("dns.pcap"), "-c", "1", "-v"])
        #expect(verbose.output == (try run(["-r", Self.capture("dns.pcap"), "-c", "1", "-f", "tree"])).output)
        let hex = try run(["-r", Self.capture("dns.pcap"), "-c", "1", "-f", "hex"])
        for flag in ["-x", "-xx", "-X", "-XX"] {
            #expect(try run(["-r", Self.capture("dns.pcap"), "-c", "1", flag]).output == hex.output, "\(flag)")
        }
        #expect(try run(["-r", Self.capture("dns.pcap"), "-c", "1", "-V"]).output == verbose.output, "tshark's -V")
        let clash = try run(["-r", Self.capture("dns.pcap"), "-v", "-f", "json"])
        #expect(clash.status != 0 && clash.error.contains("choose one view"), "\(clash.error)")
        let liveOnly = try run(["-r", Self.capture("dns.pcap"), "-Q", "in"])
        #expect(liveOnly.status != 0 && liveOnly.error.contains("-Q applies to a live capture"), "\(liveOnly.error)")
    }

    /// -T json and -T ek, byte for byte as tshark writes them (`Corpus/oracle/field-output/`, the
    /// files whose options hold `T=json` or `T=ek`, written by `scripts/field-output-oracle`).
    @Test func jsonAndElasticsearchRecordsAreTsharks() throws {
        let folder = Self.repositoryRoot.appendingPathComponent("Corpus/oracle/field-output")
        var checked: Set<String> = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where file.hasSuffix(".txt") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let lines = text.components(separatedBy: "\n")
            let options = lines[2].split(separator: " ").map(String.init)
            guard let format = options.first(where: { $0.hasPrefix("T=") })?.dropFirst(2) else { continue }
            var arguments = ["-r", Self.capture(lines[0]), "-T", String(format)]
            for field in lines[1].split(separator: " ") { arguments += ["-e", String(field)] }
            for option in options where !option.hasPrefix("T=") { arguments += ["-E", option] }
            let result = try run(arguments, environment: Self.environment(zone: "UTC"))
            #expect(result.status == 0, "\(file): \(result.error)")
            #expect(result.output == lines.dropFirst(3).joined(separator: "\n"), "\(file)")
            checked.insert(String(format))
        }
        #expect(checked == ["json", "ek"])
        // No packet: an empty array, as tshark's.
        let none = try run(["-r", Self.capture("dns.pcap"), "-Y", "frame.number == 99", "-T", "json", "-e", "ip.src"])
        #expect(none.output == "[]\n")
    }

    /// tshark's -j (those layers' own fields), -J (those layers and what they carry) and -O (the
    /// tree in full for those layers only), over dissect's JSON and tree.
    @Test func layersAreChosenAsTsharksJAndOChooseThem() throws {
        struct Line: Decodable {
            struct Field: Decodable { let filter: String; let parent: Int }
            let layers: [String]
            let fields: [Field]
        }
        func lines(_ arguments: [String]) throws -> [Line] {
            let result = try run(["-r", Self.capture("dns.pcap"), "-c", "2"] + arguments)
            #expect(result.status == 0, "\(arguments): \(result.error)")
            return try result.output.split(separator: "\n").map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
        }
        func layer(_ filter: String) -> String { String(filter.prefix { $0 != "." }) }
        for arguments in [["-j", "ip udp"], ["-f", "json", "-j", "ip,udp"]] {
            let chosen = try lines(arguments)
            #expect(chosen.count == 2)
            for line in chosen {
                // The frame's list of layers stays whole; its fields are the two layers' own.
                #expect(line.layers == ["eth", "ip", "udp", "dns"])
                #expect(Set(line.fields.map { layer($0.filter) }) == ["ip", "udp"], "\(arguments)")
                #expect(line.fields.first?.filter == "ip" && line.fields.first?.parent == -1)
                for (position, field) in line.fields.enumerated() { #expect(field.parent < position) }
            }
        }
        let carried = try lines(["-J", "udp"])
        for line in carried {
            #expect(Set(line.fields.map { layer($0.filter) }) == ["udp", "dns"])
            #expect(line.fields.first?.filter == "udp" && line.fields.first?.parent == -1)
        }
        let tree = try run(["-r", Self.capture("dns.pcap"), "-c", "1", "-O", "dns"])
        #expect(tree.status == 0, "\(tree.error)")
        // Every layer's heading line, and only DNS's fields.
        #expect(tree.output.contains("IPv4 (ip), 20 bytes") && tree.output.contains("UDP (udp), 8 bytes"))
        #expect(tree.output.contains("qdcount: 1"))
        #expect(!tree.output.contains("ttl:") && !tree.output.contains("dst_port:"))
        let misspelt = try run(["-r", Self.capture("dns.pcap"), "-j", "ipp"])
        #expect(misspelt.status != 0)
        #expect(misspelt.error.contains("-j 'ipp': no protocol is named 'ipp' (did you mean ip"), "\(misspelt.error)")
        let wrongView = try run(["-r", Self.capture("dns.pcap"), "-j", "ip", "-V"])
        #expect(wrongView.error.contains("-j chooses the layers of the json view"), "\(wrongView.error)")
        let both = try run(["-r", Self.capture("dns.pcap"), "-j", "ip", "-J", "udp"])
        #expect(both.error.contains("-j and -J cannot be used together"), "\(both.error)")
        let tsharkHabit = try run(["-r", Self.capture("dns.pcap"), "-T", "json", "-j", "ip"])
        #expect(tsharkHabit.error.contains("-f json -j 'ip udp'"), "\(tsharkHabit.error)")
    }

    /// -w with -Y writes only what the filter passes, as tshark does; --print shows them too.
    @Test func aDisplayFilterChoosesThePacketsWritten() throws {
        let file = Self.temporaryFile(".pcap")
        defer { try? FileManager.default.removeItem(at: file) }
        let written = try run(["-r", Self.capture("dns.pcap"), "-Y", "dns.flags.response == 1 and dns.a", "-w", file.path])
        #expect(written.status == 0 && written.output.isEmpty, "\(written.error)")
        // tshark -r dns.pcap -Y 'dns.flags.response == 1 and dns.a': frames 2 and 6.
        let readBack = try run(["-r", file.path, "-T", "fields", "-e", "dns.qry.name", "-e", "dns.a"])
        #expect(readBack.status == 0, "\(readBack.error)")
        let expected = try run(["-r", Self.capture("dns.pcap"), "-Y", "dns.flags.response == 1 and dns.a", "-T", "fields",
                                "-e", "dns.qry.name", "-e", "dns.a"])
        #expect(readBack.output == expected.output && readBack.output.split(separator: "\n").count == 2, "\(readBack.output)")
        let printed = try run(["-r", Self.capture("dns.pcap"), "-Y", "dns.a", "-w", file.path, "--print", "-t"])
        #expect(printed.status == 0, "\(printed.error)")
        let again = try run(["-r", file.path, "-t"])
        // The numbers differ (the file written has only these packets); the rest of each line does not.
        func withoutNumbers(_ text: String) -> [String] {
            text.split(separator: "\n").map { line in line.split(separator: " ").dropFirst().joined(separator: " ") }
        }
        let printedLines = withoutNumbers(printed.output)
        #expect(!printedLines.isEmpty && printedLines == withoutNumbers(again.output))
    }

    /// Where tcpdump's or tshark's flag means something else here, or nothing, the error says
    /// what to use instead.
    @Test func flagsThatDifferPointToWhatToUse() throws {
        let tsharkFilter = try run(["-r", Self.capture("dns.pcap"), "-f", "udp"])
        #expect(tsharkFilter.status == 64)
        #expect(tsharkFilter.error.contains("-f chooses the view here; a capture filter goes after the options"), "\(tsharkFilter.error)")
        for (arguments, pointer) in [(["-A"], "-X or -f hex"), (["-nA"], "-X or -f hex"), (["-T", "json"], "-f json"),
                                     (["-T", "fields"], "-T fields needs at least one -e NAME"),
                                     (["-T", "fields", "-e", "ip.srcc"], "did you mean ip.src?"),
                                     (["-T", "fields", "-e", "ip.src", "-f", "tree"], "choose it or a view"),
                                     (["-T", "fields", "-e", "ip.src", "-E", "quote=x"], "unknown -E option 'quote=x'")] {
            let refused = try run(["-r", Self.capture("dns.pcap")] + arguments)
            #expect(refused.status == 64, "\(arguments)")
            #expect(refused.error.contains(pointer), "\(arguments): \(refused.error)")
        }
        // -q with -Y counts what the filter passed, on standard output as tshark's statistics.
        let counted = try run(["-r", Self.capture("dns.pcap"), "-q", "-Y", "udp.srcport == 53"])
        #expect(counted.status == 0 && counted.error.isEmpty, "\(counted.error)")
        #expect(counted.output.hasPrefix("16 packets, ") && counted.output.hasSuffix(", 8 passed the display filter\n"), "\(counted.output)")
        // With -T, -e names a field, as tshark's; without it, -e is tcpdump's link-layer flag.
        let fields = try run(["-r", Self.capture("dns.pcap"), "-c", "2", "-T", "fields", "-e", "frame.number", "-e", "dns.qry.name",
                              "-E", "header=y", "-E", "separator=,"])
        #expect(fields.status == 0, "\(fields.error)")
        #expect(fields.output == "frame.number,dns.qry.name\n1,www.example.test\n2,www.example.test\n")
        let linkLayer = try run(["-r", Self.capture("dns.pcap"), "-c", "1", "-t", "-e"])
        #expect(linkLayer.status == 0 && linkLayer.output.hasPrefix("1 Ethernet"), "\(linkLayer.output)")
        // A letter inside an option's value is the value's, not a flag: -r with a path holding 'A'.
        let value = try run(["-c1", "-rCorpus/captures/dns.pcap", "-t"])
        #expect(value.status == 0, "\(value.error)")
        // Nor is the word after it: a file named -A.pcap is a file to read, not tcpdump's -A.
        let named = try run(["-nr", "-A.pcap"])
        #expect(named.status == 1 && named.error.contains("-A.pcap: No such file or directory"), "\(named.error)")
    }

    /// `-r -` from a pipe shows each packet as it arrives, not when a share of 256 fills or the
    /// pipe closes; Ctrl-C (SIGINT) then ends it cleanly, with status 0 and no error.
    @Test func standardInputStreamsAndCtrlCEndsItCleanly() throws {
        let file = try Data(contentsOf: Self.repositoryRoot.appendingPathComponent(Self.capture("tcp.pcap")))
        // The pcap header (24 bytes) and the first record (16-byte header, 74 bytes captured).
        let firstPacket = file.prefix(24 + 16 + 74)
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = ["-r", "-", "-t"]
        process.currentDirectoryURL = Self.repositoryRoot
        process.environment = Self.utf8Environment
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(firstPacket)
        // The writer stays open: the packet must show without it closing.
        let shown = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var firstLine = Data()
        DispatchQueue.global().async {
            while !firstLine.contains(UInt8(ascii: "\n")) {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                firstLine.append(chunk)
            }
            shown.signal()
        }
        let arrived = shown.wait(timeout: .now() + 20) == .success
        #expect(arrived, "the first packet was not shown while the pipe stayed open")
        #expect(String(decoding: firstLine, as: UTF8.self).hasPrefix("1 IPv4 127.0.0.1 > 127.0.0.1 · TCP 48684 > 8765 [S]"), "\(String(decoding: firstLine, as: UTF8.self))")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(errorText)")
        #expect(!errorText.contains("Interrupted"), "\(errorText)")
    }

    /// --duration ends a capture on an interface where nothing matches, on time; the capture
    /// says what it listens on first, as tcpdump does, and -s 0 is all of a packet.
    @Test(.enabled(if: canCaptureOnLoopback, "capturing on lo needs root or CAP_NET_RAW; skipped"))
    func aQuietLiveCaptureStopsOnTime() throws {
        let start = Date()
        let result = try run(["-i", "lo", "--duration", "1", "-s", "0", "udp port 1"])
        let took = Date().timeIntervalSince(start)
        #expect(result.status == 0, "\(result.error)")
        #expect(took < 10, "a 1-second capture took \(took) s")
        #expect(result.error.hasPrefix("listening on lo, link-type EN10MB (Ethernet), snapshot length 262144 bytes\n"),
                "\(result.error)")
        #expect(result.error.contains("0 packets captured"))
        let linkTypes = try run(["-i", "lo", "-L"])
        #expect(linkTypes.output.contains("EN10MB (Ethernet)"), "\(linkTypes.output)")
        let chosen = try run(["-ilo", "-y", "EN10MB", "--duration", "0.3", "udp port 1"])
        #expect(chosen.status == 0 && chosen.error.contains("link-type EN10MB"), "\(chosen.error)")
        let wrongType = try run(["-i", "lo", "-y", "NO_SUCH_TYPE"])
        #expect(wrongType.status != 0 && wrongType.error.contains("-y 'NO_SUCH_TYPE': no such link type"), "\(wrongType.error)")
    }
}
