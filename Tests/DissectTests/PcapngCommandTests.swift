@testable import dissect
import Foundation
import Testing

/// `dissect -r` on pcapng files whose interfaces have different link types (Corpus/pcapng).
extension CommandLineTests {
    static func pcapng(_ name: String) -> String { "Corpus/pcapng/\(name)" }

    /// Each packet is dissected from its own interface's link type, in tshark's order.
    @Test func mixedLinkTypesAreEachDissectedFromTheirOwn() throws {
        let result = try run(["-r", Self.pcapng("mixed.pcapng"), "-f", "summary", "-e"])
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n")
        try #require(lines.count == 7)
        // tshark's frame.protocols: eth, raw, sll, eth (the simple packet block), raw, raw, eth.
        let layers = ["Ethernet", "RawIP", "SLL", "Ethernet", "RawIP", "RawIP", "Ethernet"]
        for (line, layer) in zip(lines, layers) {
            #expect(line.split(separator: " ").dropFirst(2).first.map(String.init) == layer, "\(line)")
        }
        #expect(lines[2].contains("DNS"))
        #expect(!result.error.contains("note:"))
    }

    @Test func mixedLinkTypesWithAFilter() throws {
        let result = try run(["-r", Self.pcapng("mixed.pcapng"), "-f", "summary", "-e", "udp port 53"])
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.contains("SLL") == true)
    }

    @Test func aTruncatedMixedFileShowsItsPacketsThenFails() throws {
        let result = try run(["-r", Self.pcapng("mixed-truncated.pcapng"), "-f", "summary"])
        #expect(result.status == 1)
        #expect(result.output.split(separator: "\n").count == 4)
        #expect(result.error.contains("damaged pcapng block at byte offset 480"), "\(result.error)")
        #expect(result.error.contains("after 4 packets"))
    }

    /// -w writes one link type: a mixed file is refused with a reason.
    @Test func writingAMixedFileIsRefused() throws {
        let file = Self.temporaryFile(".pcap")
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try run(["-r", Self.pcapng("mixed.pcapng"), "-w", file.path])
        #expect(result.status == 1)
        #expect(result.error.contains("a pcap file holds packets of one link type, EN10MB, and this capture has RAW packets too"),
                "\(result.error)")
        // The first interface's link type alone is written: here, the Ethernet frames.
        let ethernet = try run(["-r", Self.pcapng("mixed.pcapng"), "-w", file.path, "udp and not port 53"])
        #expect(ethernet.status == 0, "\(ethernet.error)")
        let reread = try run(["-r", file.path, "-q"])
        #expect(reread.output.hasPrefix("3 packets, "), "\(reread.output)")
    }
}
