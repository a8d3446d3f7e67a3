import Foundation
import PacketCapture
import Testing

let repositoryRoot: URL = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url
}()

func capturePath(_ name: String) -> String {
    repositoryRoot.appendingPathComponent("Corpus/captures/\(name)").path
}

/// Every packet of a capture, failing the test on a read error.
func packets(of capture: Capture) throws -> [CapturedPacket] {
    var packets: [CapturedPacket] = []
    while case .packet(let packet) = try capture.next() { packets.append(packet) }
    return packets
}

/// A file in the temporary directory, removed by the caller.
func temporaryFile(_ suffix: String) -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("dissect-\(UUID())\(suffix)")
}

@Suite struct CaptureFileTests {
    /// The `frame` layer tshark gave for each packet of the same file (Corpus/oracle).
    static func tsharkFrames(_ capture: String) throws -> [[String: Any]] {
        let name = (capture as NSString).deletingPathExtension
        let data = try Data(contentsOf: repositoryRoot.appendingPathComponent("Corpus/oracle/\(name).json"))
        let packets = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        return try packets.map { packet in
            let layers = try #require((packet["_source"] as? [String: Any])?["layers"] as? [String: Any])
            return try #require(layers["frame"] as? [String: Any])
        }
    }

    /// Every capture in Corpus/captures: a capture added is read here too.
    static let captures: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: capturePath(""))) ?? []
        return files.filter { !$0.hasPrefix(".") }.sorted()
    }()

    /// The link type libpcap reports where it differs from the file's header: LINKTYPE_RAW (101)
    /// in the file is DLT_RAW (12) on Linux, LINKTYPE_ATM_RFC1483 (100) DLT_ATM_RFC1483 (11),
    /// LINKTYPE_ATM_CLIP (106) DLT_ATM_CLIP (19).
    static let reportedLinkTypes: [String: Int] = ["raw.pcap": 12, "atm-rfc1483.pcap": 11, "atm-clip.pcap": 19]

    /// The link type a capture file's header declares (pcap), or its first interface's (pcapng),
    /// read here byte by byte, independently of libpcap.
    static func declaredLinkType(_ name: String) throws -> Int {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: capturePath(name))))
        try #require(bytes.count >= 24)
        func number(_ offset: Int, _ width: Int, littleEndian: Bool) -> Int {
            let slice = bytes[offset..<(offset + width)]
            return (littleEndian ? slice.reversed() : Array(slice)).reduce(0) { $0 << 8 | Int($1) }
        }
        switch Array(bytes[0..<4]) {
        case [0xD4, 0xC3, 0xB2, 0xA1], [0x4D, 0x3C, 0xB2, 0xA1]: return number(20, 4, littleEndian: true) & 0x0FFF_FFFF
        case [0xA1, 0xB2, 0xC3, 0xD4], [0xA1, 0xB2, 0x3C, 0x4D]: return number(20, 4, littleEndian: false) & 0x0FFF_FFFF
        case [0x0A, 0x0D, 0x0D, 0x0A]:
            let littleEndian = Array(bytes[8..<12]) == [0x4D, 0x3C, 0x2B, 0x1A]
            var offset = 0
            while offset + 12 <= bytes.count {
                let type = number(offset, 4, littleEndian: littleEndian)
                let length = number(offset + 4, 4, littleEndian: littleEndian)
                try #require(length >= 12 && offset + length <= bytes.count, "\(name): bad block at \(offset)")
                if type == 1 { return number(offset + 8, 2, littleEndian: littleEndian) }
                offset += length
            }
            Issue.record("\(name): no interface description block")
            return -1
        default:
            Issue.record("\(name): not a pcap or pcapng file")
            return -1
        }
    }

    @Test func theCorpusHoldsTheCaptures() {
        #expect(Self.captures.count >= 15)
        #expect(Self.captures.contains("raw.pcap"))
    }

    @Test(arguments: captures)
    func countsTimesAndLengthsMatchTshark(capture name: String) throws {
        let capture = try Capture.open(file: capturePath(name))
        #expect(capture.linkType == (try Self.reportedLinkTypes[name] ?? Self.declaredLinkType(name)))
        let read = try packets(of: capture)
        let oracle = try Self.tsharkFrames(name)
        try #require(read.count == oracle.count)
        for (packet, frame) in zip(read, oracle) {
            let number = frame["frame.number"] as? String ?? "?"
            let time = "\(packet.seconds)." + String(repeating: "0", count: 9 - String(packet.nanoseconds).count) + String(packet.nanoseconds)
            #expect(time == frame["frame.time_epoch"] as? String, "frame \(number) time")
            #expect(String(packet.bytes.count) == frame["frame.cap_len"] as? String, "frame \(number) captured length")
            #expect(String(packet.originalLength) == frame["frame.len"] as? String, "frame \(number) length")
        }
    }

    /// Every packet read from a file held in memory, or the error that ended the reading.
    static func packetsOrError(of capture: Capture) -> (packets: [CapturedPacket], error: PcapError?) {
        var read: [CapturedPacket] = []
        do {
            while case .packet(let packet) = try capture.next() { read.append(packet) }
            return (read, nil)
        } catch {
            return (read, error)
        }
    }

    static func expectSamePackets(_ memory: [CapturedPacket], _ disk: [CapturedPacket], _ name: String) {
        #expect(memory.count == disk.count, "\(name)")
        for (number, (fromMemory, fromDisk)) in zip(memory, disk).enumerated() {
            let frame: Comment = "\(name) frame \(number + 1)"
            #expect(fromMemory.seconds == fromDisk.seconds, frame)
            #expect(fromMemory.nanoseconds == fromDisk.nanoseconds, frame)
            #expect(fromMemory.originalLength == fromDisk.originalLength, frame)
            #expect(fromMemory.bytes == fromDisk.bytes, frame)
        }
    }

    /// A capture handed over as bytes (what the fuzz target reads) is the same capture as its file.
    @Test(arguments: captures)
    func memoryGivesThePacketsOfTheFile(capture name: String) throws {
        let path = capturePath(name)
        let fromDisk = try Capture.open(file: path)
        let fromMemory = try Capture.open(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(fromMemory.linkType == fromDisk.linkType)
        #expect(fromMemory.source == "<memory>")
        let disk = try packets(of: fromDisk)
        #expect(!disk.isEmpty)
        Self.expectSamePackets(try packets(of: fromMemory), disk, name)
    }

    @Test func aTruncatedCaptureInMemoryEndsAsItsFileDoes() throws {
        let whole = try Data(contentsOf: URL(fileURLWithPath: capturePath("tcp.pcap")))
        let file = temporaryFile(".pcap")
        defer { try? FileManager.default.removeItem(at: file) }
        // Cut inside a record: both must give the same whole packets, then the same error.
        let cut = whole.prefix(700)
        try cut.write(to: file)
        let disk = Self.packetsOrError(of: try Capture.open(file: file.path))
        let memory = Self.packetsOrError(of: try Capture.open(bytes: [UInt8](cut)))
        #expect(disk.packets.count == 5)
        Self.expectSamePackets(memory.packets, disk.packets, "tcp.pcap cut at 700")
        #expect(disk.error?.kind == .read)
        #expect(memory.error?.kind == disk.error?.kind)
        #expect(memory.error?.message == disk.error?.message)
    }

    @Test func nanosecondFileKeepsNanoseconds() throws {
        let read = try packets(of: try Capture.open(file: capturePath("dns-nsec.pcap")))
        // A microsecond file would give multiples of 1000.
        #expect(read.contains { $0.nanoseconds % 1000 != 0 })
    }

    @Test func truncatedFileGivesEveryWholePacketThenAnError() throws {
        let whole = try Data(contentsOf: URL(fileURLWithPath: capturePath("tcp.pcap")))
        let complete = try packets(of: try Capture.open(file: capturePath("tcp.pcap")))
        let file = temporaryFile(".pcap")
        defer { try? FileManager.default.removeItem(at: file) }
        // Cut inside the sixth packet: header (24) + five records.
        let fiveRecords = complete.prefix(5).reduce(24) { $0 + 16 + $1.bytes.count }
        try whole.prefix(fiveRecords + 30).write(to: file)

        let capture = try Capture.open(file: file.path)
        var seen: [CapturedPacket] = []
        do {
            while case .packet(let packet) = try capture.next() { seen.append(packet) }
            Issue.record("a truncated file must end in an error")
        } catch {
            #expect(error.kind == .read)
            #expect(error.message.contains("truncated"), "libpcap's reason: \(error.message)")
        }
        #expect(seen.map(\.bytes) == complete.prefix(5).map(\.bytes))
    }

    @Test func garbageFileIsRefusedWithLibpcapsReason() throws {
        let file = temporaryFile(".pcap")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data((0..<512).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }).write(to: file)
        #expect {
            _ = try Capture.open(file: file.path)
        } throws: { error in
            guard let error = error as? PcapError else { return false }
            return error.kind == .openFile && error.message == "unknown file format" && error.description.contains(file.path)
        }
    }

    @Test func emptyFileIsRefusedAsEmpty() throws {
        let file = temporaryFile(".pcap")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data().write(to: file)
        #expect {
            _ = try Capture.open(file: file.path)
        } throws: { error in
            guard let error = error as? PcapError else { return false }
            return error.kind == .emptyFile && error.description == "'\(file.path)' is empty: not a pcap or pcapng file"
        }
        #expect {
            _ = try Capture.open(bytes: [])
        } throws: { error in
            (error as? PcapError)?.kind == .emptyFile
        }
    }

    @Test func aFileIsReadFromItsFirstByteAfterTheEmptinessCheck() throws {
        let capture = try Capture.open(file: capturePath("tcp.pcap"))
        #expect(try packets(of: capture).count == 12)
    }

    @Test func missingFileIsRefused() {
        #expect(throws: PcapError.self) { _ = try Capture.open(file: "/nonexistent/capture.pcap") }
    }

    @Test func filterKeepsOnlyMatchingPackets() throws {
        let capture = try Capture.open(file: capturePath("tcp.pcap"))
        try capture.setFilter("tcp[tcpflags] & tcp-syn != 0")
        let read = try packets(of: capture)
        #expect(read.count == 2)
        // Byte 47 of an Ethernet/IPv4/TCP frame is the flags byte; SYN is 0x02.
        #expect(read.allSatisfy { $0.bytes.count > 47 && $0.bytes[47] & 0x02 != 0 })
    }

    @Test func invalidFilterQuotesLibpcap() throws {
        let capture = try Capture.open(file: capturePath("tcp.pcap"))
        #expect {
            try capture.setFilter("tcp port")
        } throws: { error in
            guard let error = error as? PcapError else { return false }
            return error.kind == .filter && error.message.contains("syntax error") && error.subject == "tcp port"
        }
    }

    @Test func writtenFileReadsBackIdentically() throws {
        let source = try Capture.open(file: capturePath("tcp6.pcapng"))
        let original = try packets(of: try Capture.open(file: capturePath("tcp6.pcapng")))
        let file = temporaryFile(".pcap")
        defer { try? FileManager.default.removeItem(at: file) }
        do {
            let writer = try CaptureWriter(path: file.path, for: source)
            for packet in original { writer.write(packet) }
        }
        let reread = try Capture.open(file: file.path)
        #expect(reread.linkType == source.linkType)
        let copy = try packets(of: reread)
        #expect(copy.map(\.bytes) == original.map(\.bytes))
        #expect(copy.map(\.seconds) == original.map(\.seconds))
        #expect(copy.map(\.nanoseconds) == original.map(\.nanoseconds))
        #expect(copy.map(\.originalLength) == original.map(\.originalLength))
    }

    @Test func stopEndsAFileCaptureAtTheNextRead() throws {
        let capture = try Capture.open(file: capturePath("dns.pcap"))
        guard case .packet = try capture.next() else {
            Issue.record("the first packet must be read")
            return
        }
        capture.stop()
        guard case .end = try capture.next() else {
            Issue.record("a stopped file capture must end at the next read")
            return
        }
    }

    @Test func stopCanComeFromAnotherThread() async throws {
        let capture = try Capture.open(file: capturePath("tcp.pcap"))
        let stopper = capture.stopper
        await Task.detached { stopper.stop() }.value
        guard case .end = try capture.next() else {
            Issue.record("a capture stopped from another thread must end at the next read")
            return
        }
    }

    @Test func linkTypeNamesComeFromLibpcap() throws {
        #expect(try Capture.open(file: capturePath("sll2.pcap")).linkTypeName == "LINUX_SLL2")
        #expect(try Capture.open(file: capturePath("tcp.pcap")).linkTypeName == "EN10MB")
    }
}
