import Foundation
import Testing

/// TCP reassembly and IP defragmentation in the capture command, end to end, on the captures of
/// Corpus/reassembly (real clients and servers, plus scapy-made tricky segments; see its README),
/// against tshark's reassembly of the same files.
@Suite struct ReassemblyCommandTests {
    private func run(_ arguments: [String]) throws -> CommandLineTests.Run {
        try CommandLineTests().run(arguments)
    }

    /// A unit reassembled from several frames: where it completed, its frames, its length.
    struct Unit: Hashable, CustomStringConvertible {
        let completingFrame: Int
        let frames: Set<Int>
        let length: Int
        var description: String { "\(completingFrame) ← \(frames.sorted()) (\(length) bytes)" }
    }

    /// tshark's reassembled units: each frame's `tcp.segments` (or `ip.fragments_tree`,
    /// `ipv6.fragments`), with the reassembled length.
    static func tsharkUnits(_ oracle: URL) throws -> [Unit] {
        let packets = try JSONSerialization.jsonObject(with: Data(contentsOf: oracle)) as? [[String: Any]] ?? []
        var units: [Unit] = []
        for (index, packet) in packets.enumerated() {
            guard let layers = (packet["_source"] as? [String: Any])?["layers"] as? [String: Any] else { continue }
            var found: [(frames: [String], length: String?)] = []
            func visit(_ value: Any) {
                if let dictionary = value as? [String: Any] {
                    for (key, child) in dictionary {
                        // A list of one is written as a plain string.
                        func strings(_ value: Any?) -> [String] { value as? [String] ?? (value as? String).map { [$0] } ?? [] }
                        if key == "tcp.segments", let segments = child as? [String: Any] {
                            found.append((strings(segments["tcp.segment"]), segments["tcp.reassembled.length"] as? String))
                        } else if key == "ip.fragments_tree" || key == "ipv6.fragments", let tree = child as? [String: Any] {
                            let prefix = key == "ip.fragments_tree" ? "ip" : "ipv6"
                            found.append((strings(tree["\(prefix).fragment"]), tree["\(prefix).reassembled.length"] as? String))
                        } else {
                            visit(child)
                        }
                    }
                } else if let array = value as? [Any] {
                    array.forEach(visit)
                }
            }
            visit(layers)
            for unit in found {
                units.append(Unit(completingFrame: index + 1, frames: Set(unit.frames.compactMap { Int($0) }),
                                  length: unit.length.flatMap { Int($0) } ?? -1))
            }
        }
        return units
    }

    /// dissect's units from several frames, from its JSON view.
    func dissectUnits(_ capture: String, threads: Int = 1) throws -> (units: [Unit], output: String) {
        let result = try run(["-r", capture, "-f", "json", "--threads", "\(threads)"])
        #expect(result.status == 0, "\(result.error)")
        var units: [Unit] = []
        for line in result.output.split(separator: "\n") where line.hasPrefix("{\"reassembled\"") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let completing = object["reassembled_in"] as? Int, let frames = object["frames"] as? [Int],
                  let length = object["unit_length"] as? Int, frames.count > 1,
                  (object["missing"] as? [Any])?.isEmpty ?? false
            else { continue }
            units.append(Unit(completingFrame: completing, frames: Set(frames), length: length))
        }
        return (units, result.output)
    }

    /// Every unit tshark reassembles, dissect reassembles in the same frame, from the same frames
    /// (tshark also lists a retransmitted copy, which adds no byte), to the same length; and
    /// dissect shows no multi-frame unit tshark does not have.
    @Test(arguments: [
        ("tls-multisegment", "tls-multisegment"), ("tls-midstream", "tls-midstream"), ("http-large", "http-large"),
        ("dns-tcp-large", "dns-tcp-large"), ("ip-fragments", "ip-fragments"), ("tcp-tricky", "tcp-tricky.out-of-order"),
    ])
    func unitsAgreeWithTshark(capture: String, oracle: String) throws {
        let root = CommandLineTests.repositoryRoot
        let expected = try Self.tsharkUnits(root.appendingPathComponent("Corpus/reassembly/\(oracle).json"))
        #expect(!expected.isEmpty)
        let (units, _) = try dissectUnits("Corpus/reassembly/\(capture).pcap")
        for unit in expected {
            let match = units.first { $0.completingFrame == unit.completingFrame && $0.length == unit.length }
            #expect(match != nil, "tshark's \(unit) is missing; dissect has \(units)")
            // tshark also lists a retransmitted copy, and leaves out a frame whose overlap conflicted.
            if let match {
                #expect(match.frames.isSubset(of: unit.frames.union([unit.completingFrame])) && !match.frames.isDisjoint(with: unit.frames),
                        "\(match) vs \(unit)")
            }
        }
        for unit in units {
            #expect(expected.contains { $0.completingFrame == unit.completingFrame && $0.length == unit.length },
                    "dissect's \(unit) is not tshark's")
        }
    }

    /// The tricky flows: the retransmitted copy adds nothing, differing overlapping bytes are
    /// flagged (the first received kept), and the flow with a missing segment is shown as
    /// incomplete at the end, its missing range listed, never filled in.
    @Test func trickySegmentsAreReportedNotInvented() throws {
        let summary = try run(["-r", "Corpus/reassembly/tcp-tricky.pcap", "-f", "summary"])
        let units = summary.output.split(separator: "\n").filter { $0.hasPrefix("  ↳") }
        #expect(units.contains { $0.contains("from frames 25,26 [overlapping bytes differed]") }, "\(units)")
        #expect(units.contains { $0.contains("from frames 30,31 [incomplete: 600 bytes missing]") }, "\(units)")
        #expect(units.contains { $0.contains("from frames 14,16 ·") }, "\(units)")
        let quiet = try run(["-r", "Corpus/reassembly/tcp-tricky.pcap", "-q"])
        #expect(quiet.output.contains("6 PDUs reassembled from several segments (1 incomplete), 1 datagram from fragments, "
            + "200 overlapping bytes differed"), "\(quiet.error)")
        let hex = try run(["-r", "Corpus/reassembly/tcp-tricky.pcap", "-f", "hex"])
        #expect(hex.output.contains("bytes 600-1199 missing (not in the capture, or not read)"), "\(hex.output.suffix(2000))")
    }

    /// Every byte of a unit maps back to its frame: the provenance runs, read in the frames the
    /// capture holds, give the unit's bytes (checked on the 40 kB HTTP response of 29 segments).
    @Test func provenanceMapsEveryByteBackToItsFrame() throws {
        let result = try run(["-r", "Corpus/reassembly/http-large.pcap", "-f", "json"])
        let lines = result.output.split(separator: "\n")
        var frames: [Int: [UInt8]] = [:]
        var checked = 0
        for line in lines {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
            let fields = object["fields"] as? [[String: Any]] ?? []
            if let number = object["frame"] as? Int {
                // The frame's bytes, from its fields' raw hex (the Ethernet struct spans the frame).
                var bytes = [UInt8](repeating: 0, count: object["length"] as? Int ?? 0)
                for field in fields {
                    guard let raw = field["raw"] as? String, let offset = field["offset"] as? Int else { continue }
                    for (position, byte) in Self.hex(raw).enumerated() where offset + position < bytes.count {
                        bytes[offset + position] = byte
                    }
                }
                frames[number] = bytes
                continue
            }
            guard let runs = object["provenance"] as? [[String: Int]] else { continue }
            var unit = [UInt8](repeating: 0, count: object["unit_length"] as? Int ?? 0)
            var known = [Bool](repeating: false, count: unit.count)
            for field in fields {
                guard let raw = field["raw"] as? String, let offset = field["offset"] as? Int else { continue }
                for (position, byte) in Self.hex(raw).enumerated() where offset + position < unit.count {
                    unit[offset + position] = byte
                    known[offset + position] = true
                }
            }
            for run in runs {
                guard let frame = run["frame"], let frameOffset = run["frame_offset"], let offset = run["offset"],
                      let length = run["length"], let bytes = frames[frame] else { continue }
                for position in 0..<length where known[offset + position] {
                    #expect(bytes[frameOffset + position] == unit[offset + position])
                    checked += 1
                }
            }
        }
        #expect(checked > 40_000)
    }

    static func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while let next = text.index(index, offsetBy: 2, limitedBy: text.endIndex), index < text.endIndex {
            if let byte = UInt8(text[index..<next], radix: 16) { bytes.append(byte) }
            index = next
        }
        return bytes
    }

    /// The stage runs in capture order whatever thread dissected each frame: the output is the
    /// same, byte for byte, for any --threads.
    @Test func outputIsTheSameForAnyThreadCount() throws {
        for capture in ["Corpus/reassembly/http-large.pcap", "Corpus/reassembly/tcp-tricky.pcap"] {
            for format in ["summary", "json", "hex"] {
                let one = try run(["-r", capture, "-f", format, "--threads", "1"])
                let four = try run(["-r", capture, "-f", format, "--threads", "4"])
                #expect(one.output == four.output, "\(capture) \(format)")
                #expect(one.output.contains("reassembled"), "\(capture) \(format)")
            }
        }
    }

    /// With -q the stage runs on a thread of its own, behind the frames: its totals are the same
    /// for any --threads, and count the units the summary view shows.
    @Test func quietTotalsMatchTheUnitsShown() throws {
        let expected = [
            "http-large.pcap": "; 4 PDUs reassembled from several segments\n",
            "ip-fragments.pcap": "; 2 datagrams from fragments\n",
            "tls-multisegment.pcap": "; 4 PDUs reassembled from several segments\n",
        ]
        for (name, suffix) in expected {
            let capture = "Corpus/reassembly/" + name
            let one = try run(["-r", capture, "-q", "--threads", "1"])
            let four = try run(["-r", capture, "-q", "--threads", "4"])
            #expect(one.output.hasSuffix(suffix), "\(one.output)")
            #expect(one.output == four.output, "\(name)")
            let summary = try run(["-r", capture, "-f", "summary"])
            let units = summary.output.split(separator: "\n").filter { $0.hasPrefix("  ↳ reassembled") }
            let pdus = units.filter { $0.contains("TCP PDU") }.count
            #expect(suffix.contains("\(pdus) PDU") || (pdus == 0 && !suffix.contains("PDU")), "\(units)")
        }
    }

    /// http.pcap's third connection is a HEAD whose response carries a Content-Length: framed
    /// with its request, it ends at its head, not as an incomplete message waiting for a body.
    @Test func aResponseToHeadIsNotLeftWaitingForABody() throws {
        let quiet = try run(["-r", "Corpus/captures/http.pcap", "-q"])
        #expect(quiet.output.hasSuffix("; 3 PDUs reassembled from several segments\n"), "\(quiet.output)")
    }

    /// Each flag turns its reassembly off: the frames alone, as before.
    @Test func flagsTurnEachOff() throws {
        let tcpOff = try run(["-r", "Corpus/reassembly/tcp-tricky.pcap", "-f", "summary", "--no-tcp-reassembly"])
        #expect(!tcpOff.output.contains("TCP PDU") && tcpOff.output.contains("IPv4 datagram"))
        let ipOff = try run(["-r", "Corpus/reassembly/tcp-tricky.pcap", "-f", "summary", "--no-defragment"])
        #expect(ipOff.output.contains("TCP PDU") && !ipOff.output.contains("IPv4 datagram"))
    }
}

/// Reassembly in a live capture: an HTTP response of 150 kB over loopback, which the kernel sends
/// in several segments, shown whole under the frame that completes it.
@Suite struct LiveReassemblyTests {
    /// A listening TCP socket on 127.0.0.1, on a port the kernel picks.
    private func listener() throws -> (socket: Int32, port: UInt16) {
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(server >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(server, pointer, length) == 0 && listen(server, 1) == 0 && getsockname(server, pointer, &length) == 0
            }
        }
        try #require(bound)
        return (server, UInt16(bigEndian: address.sin_port))
    }

    private func connectTo(_ port: UInt16) throws -> Int32 {
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        try #require(connected)
        return client
    }

    private func send(_ socket: Int32, _ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            // MSG_NOSIGNAL: a peer gone is a short write here, not a SIGPIPE that ends the tests.
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return }
            sent += count
        }
    }

    /// Reads `pipe` until a line satisfying `wanted` arrives, the pipe ends, or `seconds` pass;
    /// returns what was read and whether the line came.
    private func readLines(_ pipe: Pipe, seconds: Int32, until wanted: (Substring) -> Bool) -> (text: String, found: Bool) {
        let descriptor = pipe.fileHandleForReading.fileDescriptor
        var text = ""
        let deadline = Date(timeIntervalSinceNow: TimeInterval(seconds))
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&waiting, 1, 1000) >= 0 else { break }
            guard waiting.revents != 0 else { continue }
            let count = Glibc.read(descriptor, &buffer, buffer.count)
            guard count > 0 else { break }
            text += String(decoding: buffer[..<count], as: UTF8.self)
            if text.split(separator: "\n").contains(where: wanted) { return (text, true) }
        }
        return (text, false)
    }

    @Test(.enabled(if: canCaptureOnLoopback, "capturing on lo needs root or CAP_NET_RAW; skipped"))
    func aLiveResponseInSeveralSegmentsIsShownWhole() throws {
        let (server, port) = try listener()
        defer { close(server) }
        let process = Process()
        process.executableURL = CommandLineTests.executable
        process.arguments = ["-i", "lo", "-f", "summary", "tcp port \(port)"]
        process.environment = CommandLineTests.utf8Environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Under a sanitizer loading the schemas takes seconds: a fixed wait lost the traffic
        // (and a SIGTERM before the handler was set ended the process with nothing printed).
        defer { if process.isRunning { process.terminate() } }
        let listening = readLines(errors, seconds: 120) { $0.hasPrefix("listening on") }
        try #require(listening.found, "dissect never said it was listening: \(listening.text)")
        let client = try connectTo(port)
        let accepted = accept(server, nil, nil)
        try #require(accepted >= 0)
        send(client, Array("GET /big HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
        let body = [UInt8](repeating: UInt8(ascii: "x"), count: 150_000)
        // The response is written while the client reads it: more than a socket buffer holds.
        let response = Array("HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
        let writer = Thread { [self] in send(accepted, response) }
        writer.start()
        // Never waits more than 5 s for the bytes.
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var drained = [UInt8](repeating: 0, count: 1 << 16)
        var received = 0
        while received < response.count {
            let count = read(client, &drained, drained.count)
            guard count > 0 else { break }
            received += count
        }
        close(client)
        close(accepted)
        let wholeResponse = "HTTP HTTP/1.1 200 OK"
        let shown = readLines(output, seconds: 120) { $0.contains(wholeResponse) && $0.hasPrefix("  ↳ reassembled") }
        process.terminate()
        process.waitUntilExit()
        let text = shown.text + String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let units = text.split(separator: "\n").filter { $0.hasPrefix("  ↳ reassembled TCP PDU from frames") }
        #expect(units.contains { $0.contains(wholeResponse) && $0.contains("· \(response.count) bytes") },
                "\(units) in \(text.suffix(1500))")
    }
}
