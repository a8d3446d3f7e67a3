import BinarySchema
import Dissector
import Foundation
import Testing

/// The summary view's lines read like tcpdump's: TCP flags, sequence ranges and acks as tcpdump
/// prints them, the link layer only when asked (tcpdump's `-e`), and short lines.
@Suite struct SummaryLineTests {
    /// The summary line of each frame of a capture in Corpus/captures.
    static func summaries(_ capture: String, options: RenderOptions = RenderOptions()) throws -> [String] {
        let pcap = try PcapFile(contentsOf: repositoryRoot.appendingPathComponent("Corpus/captures/\(capture)"))
        let root = try #require(bundledSchema.rootStruct(forLinkType: pcap.linkType), "no root for link type \(pcap.linkType)")
        var interpreter = Interpreter(schema: bundledSchema)
        let renderer = SummaryRenderer(options: options)
        return pcap.frames.enumerated().map { number, frame in
            renderer.render(interpreter.dissect(frame, root: root, originalLength: pcap.originalLengths[number]))
        }
    }

    static var captures: [String] {
        let folder = repositoryRoot.appendingPathComponent("Corpus/captures")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".pcap") || $0.hasSuffix(".pcapng") }.sorted()
    }

    /// Corpus/tcpdump/tcp-segments.txt (scripts/tcpdump-oracle.sh): tcpdump's line for every TCP
    /// segment of the captures. Each segment's flags (`[S.]`, `[FP.]`, `[none]`), its sequence
    /// number or range (`seq 1001:1089`, absolute as `-S`) and its ack (only with ACK set) match.
    @Test func tcpFlagsSequenceRangesAndAcksMatchTcpdump() throws {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("Corpus/tcpdump/tcp-segments.txt"), encoding: .utf8)
        var lines: [String: [String]] = [:]
        var compared = 0
        var flagsSeen: Set<String> = []
        for row in text.split(separator: "\n") {
            let cells = row.split(separator: "\t", maxSplits: 1)
            try #require(cells.count == 2, "\(row)")
            let capture = String(cells[0])
            let tcpdump = String(cells[1])
            if lines[capture] == nil { lines[capture] = try Self.summaries(capture) }
            let summaries = try #require(lines[capture])
            let expected = try #require(tcpdump.firstMatch(of: #/^ *(\d+) .*: Flags \[([^\]]*)\],(?: seq (\d+(?::\d+)?),)?(?: ack (\d+),)?/#),
                                        "\(tcpdump)")
            let number = try #require(Int(expected.1))
            try #require(number >= 1 && number <= summaries.count, "\(capture) has no frame \(number)")
            let line = summaries[number - 1]
            // The last TCP layer: tcpdump shows the innermost one of a tunnel.
            let ours = try #require(line.matches(of: #/TCP \d+ > \d+ \[([^\]]*)\](?: seq (\d+(?::\d+)?))?(?: ack (\d+))?/#).last,
                                    "\(capture) frame \(number): \(line)")
            #expect(ours.1 == expected.2, "\(capture) frame \(number): flags \(ours.1), tcpdump \(expected.2)\n\(line)\n\(tcpdump)")
            #expect(ours.3 == expected.4, "\(capture) frame \(number): ack \(ours.3 ?? "none"), tcpdump \(expected.4 ?? "none")")
            // The frame's lengths end the line only when the capture cut it short.
            let cut = line.hasSuffix(" bytes") || line.contains(" bytes [|")
            if let sequence = expected.3 {
                if let ourSequence = ours.2 {
                    if ourSequence.contains(":") || !(cut || line.contains(" frag ")) {
                        #expect(ourSequence == sequence, "\(capture) frame \(number): seq \(ourSequence), tcpdump \(sequence)")
                    } else {
                        // Cut short, or a first fragment: the payload's length is not known, so no range.
                        #expect(sequence.hasPrefix(ourSequence + ":") || sequence == ourSequence, "\(capture) frame \(number)")
                    }
                } else {
                    // tcpdump takes the length of data the capture cut from IP's total length.
                    #expect(cut, "\(capture) frame \(number): no seq, tcpdump \(sequence)\n\(line)")
                }
            } else {
                // As tcpdump: no sequence number on a segment without data, SYN, FIN or RST.
                #expect(ours.2 == nil, "\(capture) frame \(number): seq where tcpdump shows none\n\(line)")
            }
            flagsSeen.insert(String(expected.2))
            compared += 1
        }
        #expect(compared >= 200)
        // tcp-flags.pcap holds each letter, alone and together, in tcpdump's order (F S R P . U E W).
        #expect(flagsSeen.isSuperset(of: ["S", "S.", ".", "P.", "F.", "FP.", "R", "R.", "SEW", "S.E", "P.U", "none", "FSRP.UEW"]),
                "\(flagsSeen.sorted())")
    }

    /// Each layer's part of a line stays short: of the layers' summaries in the bundled captures'
    /// lines (the parts between ` · `) other than TCP's, four in five fit in 50 columns, 99% in 80
    /// and every one in 120; TCP's, with flags, sequence and acknowledgment numbers as tcpdump
    /// writes them, in 100. A whole line is as long as its layers make it: a TCP segment with data
    /// takes about 75 columns before its application says anything, so captures of protocols over
    /// TCP (industrial control, databases) make most lines longer than 120.
    @Test func eachLayersSummaryIsShort() throws {
        let prefix = 20
        var parts: [Int] = []
        var tcpParts: [Int] = []
        for capture in Self.captures {
            for line in try Self.summaries(capture) {
                for part in line.components(separatedBy: " · ") {
                    if part.hasPrefix("TCP ") { tcpParts.append(part.unicodeScalars.count) } else { parts.append(part.unicodeScalars.count) }
                }
            }
        }
        try #require(parts.count > 1000 && tcpParts.count > 500)
        #expect(tcpParts.allSatisfy { $0 <= 100 }, "\(tcpParts.max() ?? 0)")
        func share(_ limit: Int) -> Double { Double(parts.filter { $0 <= limit }.count) / Double(parts.count) }
        #expect(share(50) >= 0.8, "\(share(50))")
        #expect(share(80) >= 0.99, "\(share(80))")
        #expect(parts.allSatisfy { $0 <= 120 }, "\(parts.max() ?? 0)")
        // The handshake of tcp.pcap fits, as tcpdump's would without its options.
        let handshake = try Self.summaries("tcp.pcap").prefix(3)
        #expect(handshake.allSatisfy { $0.count + prefix <= 120 }, "\(handshake)")
    }

    /// No line has two spaces in a row (an absent first `{?…}` group once left its neighbour's
    /// leading space after the label: `QUIC  version 0`) or a label said twice (`LLMNR LLMNR`).
    @Test func noDoubledSpacesOrLabels() throws {
        for capture in Self.captures {
            let frames = try PcapFile(contentsOf: repositoryRoot.appendingPathComponent("Corpus/captures/\(capture)")).frames
            for (number, line) in try Self.summaries(capture).enumerated() {
                // Two spaces the packet itself holds (a server's message, a query) are data, not a gap.
                if let gap = line.range(of: "  "), line.distance(from: line.startIndex, to: gap.lowerBound) >= 3 {
                    let around = Array(line[line.index(gap.lowerBound, offsetBy: -3)..<gap.upperBound].utf8)
                    let bytes = frames[number]
                    let inData = bytes.count >= around.count
                        && (0...(bytes.count - around.count)).contains { bytes[$0..<($0 + around.count)].elementsEqual(around) }
                    if inData { continue }
                }
                #expect(!line.contains("  "), "\(capture) frame \(number + 1): \(line)")
                for layer in line.components(separatedBy: " · ") {
                    let words = layer.split(separator: " ")
                    #expect(words.count < 2 || words[0] != words[1], "\(capture) frame \(number + 1): \(layer)")
                }
            }
        }
    }

    /// tcpdump shows the Ethernet header (and VLAN tags) only with -e: `showsLinkLayer`. A frame
    /// with nothing beyond its link layer shows it anyway, so a line is never empty; ARP is not
    /// link layer.
    @Test func linkLayerOnlyWhenAsked() throws {
        let plain = try Self.summaries("vlan.pcap")
        let withLinkLayer = try Self.summaries("vlan.pcap", options: RenderOptions(showsLinkLayer: true))
        try #require(plain.count == withLinkLayer.count && !plain.isEmpty)
        for (line, full) in zip(plain, withLinkLayer) {
            #expect(!line.contains("Ethernet") && !line.contains("VLAN"), "\(line)")
            #expect(line.hasPrefix("IPv"), "\(line)")
            #expect(full.hasPrefix("Ethernet "), "\(full)")
            #expect(full.contains(" · VLAN vlan "), "\(full)")
            // The rest of the line is the same, and the frame's length ends it, as tcpdump -e shows it.
            #expect(full.contains(" · " + line + " · "), "\(full)\n\(line)")
            #expect(full.hasSuffix(" bytes"), "\(full)")
        }
        // LLC frames that nothing follows: the link layer is all there is.
        let llc = try Self.summaries("llc.pcap")
        #expect(llc.contains { $0.hasPrefix("Ethernet ") && $0.contains(" · LLC ") }, "\(llc)")
        // STP after LLC: the link layer goes.
        let stp = try Self.summaries("stp.pcap")
        #expect(stp.allSatisfy { $0.hasPrefix("STP ") }, "\(stp)")
        // ARP stays, with or without the link layer, and SLL goes as Ethernet does.
        let arp = try Self.summaries("vxlan.pcap")
        #expect(arp.contains { $0.contains("VXLAN vni 703710 · ARP request 10.1.0.1 > 10.1.0.2") }, "\(arp)")
        let sll = try Self.summaries("sll.pcap")
        #expect(!sll.isEmpty && sll.allSatisfy { !$0.hasPrefix("SLL") }, "\(sll)")
        #expect(try Self.summaries("sll.pcap", options: RenderOptions(showsLinkLayer: true)).allSatisfy { $0.hasPrefix("SLL ") })
    }

    /// ICMP echo as tcpdump writes it, DNS queries with `A?` and responses with their counts and
    /// first answer, IPv4 fragments with their id and offset.
    @Test func bundledProtocolsReadLikeTcpdump() throws {
        let icmp = try Self.summaries("icmp.pcap")
        #expect(icmp[0].contains("IPv4 127.0.0.1 > 127.0.0.1 · ICMP echo_request, id 4882, seq 1"), "\(icmp[0])")
        let dns = try Self.summaries("dns-tcp.pcap")
        #expect(dns[0].contains("· DNS 0x1111 a? example.com"), "\(dns[0])")
        #expect(dns[1].contains("· DNS 0x1111 1/0/0 a 93.184.216.34"), "\(dns[1])")
        let fragments = try Self.summaries("fragments.pcap")
        #expect(fragments[0].hasPrefix("IPv4 10.0.0.1 > 10.0.0.2 frag 0x4242:0+ · UDP"), "\(fragments[0])")
        #expect(fragments[1] == "IPv4 10.0.0.1 > 10.0.0.2 frag 0x4242:12", "\(fragments[1])")
        let errors = try Self.summaries("icmp-errors.pcap")
        #expect(errors[1].contains("· ICMP time_exceeded ttl_exceeded_in_transit · IPv4 10.0.0.2 > 10.0.0.9 · TCP 40000 > 80 seq 123456789"),
                "\(errors[1])")
    }

    /// The placeholders a schema's @summary can use: letters of set flags, a number with its end
    /// (modulo its width), and tests that show a group only when a value is or is not 0.
    @Test func summaryPlaceholderForms() throws {
        let schema = """
            @protocol("t") @summary("[{f|a:A b:B c:C}] {n:#data}{? odd{f.c?}}{? even{f.c!}}")
            struct Main { f: Flags  n: u8  data: bytes[..] }
            struct Flags { a: u1  b: u1  c: u1  pad: u5 }
            """
        let set = try dissect(schema, [0b1010_0000, 250, 1, 2, 3, 4, 5, 6, 7, 8])
        #expect(SummaryRenderer().render(set) == "Main [AC] 250:2 odd")
        let none = try dissect(schema, [0, 5])
        #expect(SummaryRenderer().render(none) == "Main [none] 5 even")
        let problems = diagnostics("""
            @protocol("t") @summary("{f|a} {n:#nothing}")
            struct Main { f: u8  n: u8 }
            """).map(\.message)
        #expect(problems.contains { $0.contains("'field:letter' pairs") }, "\(problems)")
        #expect(problems.contains { $0.contains("names no field") }, "\(problems)")
        let link = diagnostics("@link struct Main { f: u8 }").map(\.message)
        #expect(link.contains { $0.contains("@link marks a protocol layer") }, "\(link)")
    }
}
