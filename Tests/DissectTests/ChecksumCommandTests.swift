import Foundation
import Testing

/// `--checksums`, end to end, on Corpus/captures/checksums.pcap (right and wrong checksums of
/// every layer; frame 4 is a TCP segment captured on loopback, its checksum left to the NIC).
@Suite struct ChecksumCommandTests {
    private func run(_ arguments: [String]) throws -> CommandLineTests.Run {
        try CommandLineTests().run(arguments)
    }

    private func lines(_ output: String, containing text: String) -> [String] {
        output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.contains(text) }
    }

    @Test func theIPv4HeaderIsVerifiedByDefaultAndTCPOnRequest() throws {
        let plain = try run(["-r", "Corpus/captures/checksums.pcap", "-f", "tree", "-c", "4", "--width", "200"])
        #expect(plain.status == 0, "\(plain.error)")
        #expect(lines(plain.output, containing: "checksum:") == [
            "checksum: 0xc881 [correct]", "checksum: 0x145a",
            "checksum: 0x1dd6 [correct]", "checksum: 0x4806",
            "checksum: 0x1dd7 [incorrect, should be 0x1dd6]", "checksum: 0x4806",
            "checksum: 0xc888 [correct]", "checksum: 0xfe28",
        ])
        let tcp = try run(["-r", "Corpus/captures/checksums.pcap", "-f", "tree", "-c", "4", "--width", "200",
                           "--checksums", "default,tcp"])
        #expect(lines(tcp.output, containing: "checksum:").last == "checksum: 0xfe28 [incorrect, should be 0x7c7f]")
        let none = try run(["-r", "Corpus/captures/checksums.pcap", "-f", "tree", "-c", "4", "--checksums", "none"])
        #expect(!none.output.contains("[correct]") && !none.output.contains("[incorrect"))
    }

    /// Two verified checksums a frame (IPv4 and TCP), in every view: frames 1 and 2 right, frame 3
    /// a wrong IPv4 header, frame 4 an offloaded TCP checksum.
    @Test func everyViewMarksEveryVerifiedChecksum() throws {
        for format in ["tree", "fields", "hex"] {
            let result = try run(["-r", "Corpus/captures/checksums.pcap", "-f", format, "-c", "4", "--checksums", "all",
                                  "--width", "200"])
            #expect(result.output.components(separatedBy: " [correct]").count - 1 == 6, "\(format)")
            #expect(result.output.components(separatedBy: " [incorrect, should be ").count - 1 == 2, "\(format)")
            #expect(result.output.contains("0x1dd7 [incorrect, should be 0x1dd6]"), "\(format)")
            #expect(result.output.contains("0xfe28 [incorrect, should be 0x7c7f]"), "\(format)")
        }
        let json = try run(["-r", "Corpus/captures/checksums.pcap", "-f", "json", "-c", "4", "--checksums", "all"])
        #expect(json.output.components(separatedBy: "\"checksum\":{\"status\":\"good\"").count - 1 == 6)
        #expect(json.output.components(separatedBy: "\"checksum\":{\"status\":\"bad\"").count - 1 == 2)
    }

    @Test func summaryAndTotalsCountTheFramesWithBadChecksums() throws {
        let summary = try run(["-r", "Corpus/captures/checksums.pcap", "-f", "summary", "--checksums", "all", "-c", "4",
                               "--no-tcp-reassembly",
                               "--width", "300"])
        #expect(summary.status == 0, "\(summary.error)")
        #expect(summary.output.split(separator: "\n").map { $0.contains("[bad checksum") } == [false, false, true, true])
        #expect(summary.output.contains("HTTP/1.0 200 OK [bad checksum: ip.checksum]\n"), "\(summary.output)")
        #expect(summary.output.hasSuffix("len 0 [bad checksum: tcp.checksum]\n"), "\(summary.output)")
        let quiet = try run(["-r", "Corpus/captures/checksums.pcap", "-q", "--checksums", "all"])
        #expect(quiet.output.contains("20 packets, 2413 bytes, 0 with errors, 0 cut by the snapshot length, 8 with bad checksums"), "\(quiet.output)")
        let quietDefault = try run(["-r", "Corpus/captures/checksums.pcap", "-q"])
        #expect(quietDefault.output.contains("cut by the snapshot length, 1 with bad checksums"), "\(quietDefault.output)")
        let clean = try run(["-r", "Corpus/captures/tcp.pcap", "-q"])
        #expect(clean.output.contains("12 packets") && !clean.output.contains("checksums"), "\(clean.output)")
    }

    @Test func jsonCarriesTheVerdict() throws {
        let result = try run(["-r", "Corpus/captures/checksums.pcap", "-f", "json", "-c", "4", "--checksums", "tcp",
                              "--no-tcp-reassembly"])
        let frames = try result.output.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        let verdicts = frames.map { frame in
            ((frame["fields"] as? [[String: Any]]) ?? []).compactMap { field -> String? in
                guard let checksum = field["checksum"] as? [String: Any] else { return nil }
                return "\(field["path"] ?? "") \(checksum["status"] ?? "") \(checksum["expected"] ?? "")"
            }
        }
        // Only TCP's: `--checksums tcp` alone leaves out the defaults.
        #expect(verdicts == [["tcp.checksum good 5210"], ["tcp.checksum good 18438"], ["tcp.checksum good 18438"],
                             ["tcp.checksum bad 31871"]])
    }

    @Test func aHexFrameTakesTheOptionToo() throws {
        // Ethernet, IPv4 (checksum 0x0000), UDP 40000 > 9999 with checksum 0x0000 (none sent).
        let frame = "02000000000102000000000208004500002800010000401100000a0000010a0000029c40270f00140000abcd01000000000000000000"
        let result = try run(["hex", "-f", "fields", "--checksums", "all", "--width", "120", frame])
        #expect(result.status == 0, "\(result.error)")
        #expect(lines(result.output, containing: "checksum") == [
            "0018    00 00                      ip.checksum          0x0000 [incorrect, should be 0x66c2]",
            "0028    00 00                      udp.checksum         0x0000",
        ])
    }

    @Test func mistakesAreUsageErrorsThatSayWhatIsKnown() throws {
        let unknown = try run(["-r", "Corpus/captures/checksums.pcap", "--checksums", "default,tpc"])
        #expect(unknown.status == 64)
        #expect(unknown.error.hasPrefix(
            "Error: --checksums 'default,tpc': no checksum named 'tpc' (known: default, all, none, icmp, icmpv6, ip, synphasor, tcp, udp)"),
                "\(unknown.error)")
        #expect(unknown.output.isEmpty)
        let empty = try run(["hex", "--checksums", "tcp,", "00"])
        #expect(empty.status == 64)
        #expect(empty.error.hasPrefix("Error: --checksums 'tcp,': expected names separated by commas, as in default,tcp,udp"),
                "\(empty.error)")
        let help = try run(["hex", "--help"])
        #expect(help.output.contains("--checksums <list>"))
    }
}
