import Foundation
@testable import PacketCapture
import Testing

/// pcapng files libpcap refuses (interfaces of different link types), read by our own reader:
/// Corpus/pcapng, made by scripts/corpus/pcapng.py, with tshark's reading as the oracle.
@Suite struct PcapngReaderTests {
    static func path(_ name: String) -> String { repositoryRoot.appendingPathComponent("Corpus/pcapng/\(name)").path }

    /// tshark's rows for a file: number, epoch time, interface, length, captured length, protocols.
    static func oracle(_ name: String) throws -> [[String]] {
        let text = try String(contentsOfFile: path("\(name).tshark.tsv"), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }

    /// tshark's first protocol, as the link type (DLT) libpcap calls it.
    static let linkTypes = ["eth": 1, "raw": 12, "sll": 113]

    /// Every packet until the end or an error, and the error.
    static func read(_ capture: Capture) -> (packets: [CapturedPacket], error: PcapError?) {
        var packets: [CapturedPacket] = []
        do {
            while case .packet(let packet) = try capture.next() { packets.append(packet) }
        } catch {
            return (packets, error)
        }
        return (packets, nil)
    }

    static func epoch(_ packet: CapturedPacket) -> String {
        let fraction = String(packet.nanoseconds)
        return "\(packet.seconds).\(String(repeating: "0", count: 9 - fraction.count))\(fraction)"
    }

    /// Every packet as tshark reads it: its interface's link type, lengths, and time in each
    /// interface's resolution (microseconds with an offset, 10^-9, 2^-20), over two sections of
    /// opposite byte orders; the simple packet block has no time.
    @Test(arguments: [false, true]) func mixedLinkTypesAsTsharkReadsThem(fromMemory: Bool) throws {
        let capture = fromMemory ? try Capture.open(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.path("mixed.pcapng")))))
                                 : try Capture.open(file: Self.path("mixed.pcapng"))
        #expect(capture.linkType == 1)
        let (packets, error) = Self.read(capture)
        #expect(error == nil, "\(String(describing: error))")
        let rows = try Self.oracle("mixed")
        try #require(packets.count == rows.count)
        #expect(rows.count == 7)
        for (packet, row) in zip(packets, rows) {
            let first = String(row[5].split(separator: ":")[0])
            #expect(packet.linkType == Self.linkTypes[first], "frame \(row[0])")
            #expect(packet.originalLength == Int(row[3]) && packet.bytes.count == Int(row[4]), "frame \(row[0])")
            #expect(row[1].isEmpty ? packet.seconds == 0 && packet.nanoseconds == 0 : Self.epoch(packet) == row[1], "frame \(row[0]): \(Self.epoch(packet))")
        }
    }

    /// A filter is compiled for each link type: `icmp` matches the raw IP packets, `udp` the
    /// Ethernet and Linux cooked ones.
    @Test func filtersApplyToEachLinkType() throws {
        let icmp = try Capture.open(file: Self.path("mixed.pcapng"))
        try icmp.setFilter("icmp")
        #expect(Self.read(icmp).packets.map(\.linkType) == [12, 12, 12])
        let udp = try Capture.open(file: Self.path("mixed.pcapng"))
        try udp.setFilter("udp and not port 9001")
        let packets = Self.read(udp).packets
        #expect(packets.map(\.linkType) == [1, 113, 1])
        #expect(packets.map(\.originalLength) == [46, 56, 46])
        let bad = try Capture.open(file: Self.path("mixed.pcapng"))
        #expect(throws: PcapError.self) { try bad.setFilter("no such thing") }
    }

    /// The packets before the damage are delivered, then an error that gives the block's offset.
    @Test func aTruncatedFileGivesItsPacketsThenTheOffset() throws {
        let (packets, error) = Self.read(try Capture.open(file: Self.path("mixed-truncated.pcapng")))
        #expect(packets.count == (try Self.oracle("mixed-truncated")).count)
        #expect(packets.count == 4)
        let failure = try #require(error)
        #expect(failure.kind == .read)
        #expect(failure.description.contains("damaged pcapng block at byte offset 480: the file ends inside the block"), "\(failure)")
    }

    // MARK: crafted blocks

    static func block(_ type: UInt32, _ body: [UInt8], length: UInt32? = nil, trailer: UInt32? = nil) -> [UInt8] {
        let padded = body + [UInt8](repeating: 0, count: (4 - body.count % 4) % 4)
        let total = UInt32(12 + padded.count)
        return le(type) + le(length ?? total) + padded + le(trailer ?? length ?? total)
    }

    static func le(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }

    static let sectionHeader = block(0x0A0D_0D0A, le(0x1A2B_3C4D) + le16(1) + le16(0) + [UInt8](repeating: 0xFF, count: 8))
    static func interface(_ linkType: UInt16, options: [UInt8] = []) -> [UInt8] {
        block(1, le16(linkType) + le16(0) + le(0) + options)
    }
    static func packet(interface: UInt32 = 0, _ data: [UInt8], captured: UInt32? = nil, seconds: UInt64 = 0) -> [UInt8] {
        let ticks = seconds * 1_000_000
        return block(6, le(interface) + le(UInt32(ticks >> 32)) + le(UInt32(truncatingIfNeeded: ticks))
                         + le(captured ?? UInt32(data.count)) + le(UInt32(data.count)) + data)
    }

    /// An Ethernet and a raw IP interface (which libpcap refuses) and one good packet.
    static let goodStart = sectionHeader + interface(1) + interface(101) + packet([UInt8](repeating: 0xAB, count: 14), seconds: 7)

    static func readCrafted(_ bytes: [UInt8]) throws -> (packets: [CapturedPacket], error: PcapError?) {
        read(try Capture.open(bytes: bytes))
    }

    @Test(arguments: [
        (block(6, [], length: 0), "block length 0 is less than 12"),
        (block(6, [], length: 8), "block length 8 is less than 12"),
        (block(6, [0, 0, 0, 0, 0], length: 13), "block length 13 is not a multiple of 4"),
        (block(6, [], length: 0xFFFF_FFF0), "block length 4294967280 is more than"),
        (block(6, [], length: 0x0100_0000), "the file ends inside the block"),
        (block(6, [0, 0, 0, 0], trailer: 20), "block length 16 at its start, 20 at its end"),
        (packet([1, 2, 3, 4], captured: 9), "captured length 9 is more than the block's 4 bytes"),
        (packet(interface: 2, [1, 2, 3, 4]), "packet on interface 2, of 2 described"),
        (block(6, [1, 2, 3, 4]), "enhanced packet block of 4 bytes"),
        (interface(1, options: le16(9) + le16(1) + [20, 0, 0, 0]), "if_tsresol 10^-20 is too fine"),
        (interface(1, options: le16(2) + le16(40) + [65, 0, 0, 0]), "option 2 of 40 bytes runs past the block"),
        ([0x06, 0, 0, 0, 0x10], "the file ends inside a block header"),
    ] as [([UInt8], String)])
    func damagedBlocksAreErrorsAfterThePacketsBefore(damage: [UInt8], reason: String) throws {
        let (packets, error) = try Self.readCrafted(Self.goodStart + damage)
        #expect(packets.count == 1)
        #expect(packets.first?.seconds == 7)
        let offset = Self.goodStart.count
        #expect(error?.description.contains("damaged pcapng block at byte offset \(offset): \(reason)") == true,
                "\(String(describing: error))")
    }

    /// Unknown blocks are skipped, a new section forgets the interfaces of the last, a simple
    /// packet block takes interface 0 and is cut to what its block holds, and an if_tsresol of
    /// 2^-n counts binary fractions.
    @Test func sectionsSkippedBlocksAndSimplePackets() throws {
        let simple = Self.block(3, Self.le(100) + [UInt8](repeating: 0x11, count: 20))
        let binary = Self.interface(113, options: Self.le16(9) + Self.le16(1) + [0x82, 0, 0, 0])
        let ticks: UInt64 = 9 * 4 + 3 // 9.75 s in quarters of a second
        let quarter = Self.block(6, Self.le(1) + Self.le(UInt32(ticks >> 32)) + Self.le(UInt32(ticks)) + Self.le(2)
                                     + Self.le(2) + [0x45, 0])
        let bytes = Self.goodStart + Self.block(0x8000_0001, [1, 2, 3]) + simple + Self.sectionHeader
            + Self.interface(101) + binary + quarter + Self.packet(interface: 2, [0])
        let (packets, error) = try Self.readCrafted(bytes)
        #expect(packets.map(\.linkType) == [1, 1, 113])
        #expect(packets[1].originalLength == 100 && packets[1].bytes.count == 20)
        #expect(packets[2].seconds == 9 && packets[2].nanoseconds == 750_000_000)
        // The second section has two interfaces: interface 2 was the first section's.
        #expect(error?.description.contains("packet on interface 2, of 2 described") == true, "\(String(describing: error))")
    }

    /// A pcapng file libpcap reads (one link type) stays libpcap's: a damaged block there is
    /// still reported with its offset, after libpcap's packets, none of them twice.
    @Test func aFileLibpcapReadsFailsOverAtTheDamage() throws {
        let bytes = Self.sectionHeader + Self.interface(1) + Self.packet([1, 2, 3], seconds: 1) + Self.packet([4, 5], seconds: 2)
            + Self.block(6, [], length: 13)
        let (packets, error) = try Self.readCrafted(bytes)
        #expect(packets.map(\.seconds) == [1, 2])
        #expect(error?.description.contains("byte offset \(bytes.count - 12)") == true, "\(String(describing: error))")
    }

    /// A pcap file holds one link type: writing a packet of another is refused at the flush.
    @Test func aWriterRefusesASecondLinkType() throws {
        let capture = try Capture.open(file: Self.path("mixed.pcapng"))
        let file = temporaryFile(".pcap")
        defer { try? FileManager.default.removeItem(at: file) }
        let writer = try CaptureWriter(path: file.path, for: capture)
        let packets = Self.read(capture).packets
        writer.write(packets[0])
        try writer.flush()
        writer.write(packets[1])
        #expect(throws: PcapError.self) { try writer.flush() }
        do {
            try writer.flush()
        } catch {
            #expect(error.description.contains("one link type, EN10MB, and this capture has RAW packets too"))
        }
    }
}
