import BinarySchema
import Foundation
import Testing

/// The bundled schemas' checksum verdicts against tshark's, frame by frame and layer by layer, on
/// every capture of the corpus: `Corpus/oracle/checksum-status.tsv` (and a `<capture>.checksums.tsv`
/// per capture made by a script of its own), written by TShark 4.0 with
/// `-o ip.check_checksum:TRUE -o tcp.check_checksum:TRUE -o udp.check_checksum:TRUE` (see
/// scripts/capture-samples.sh). `checksums.pcap` holds right and wrong checksums of every layer
/// on purpose; the loopback captures hold TCP and UDP checksums left to the NIC (offloaded).
@Suite struct ChecksumOracleTests {
    /// tshark's `*.checksum.status` values.
    enum Verdict: String {
        case bad = "0", good = "1", unverified = "2", notPresent = "3", illegal = "4"
    }

    struct Row {
        let capture: String
        let frame: Int
        /// Per layer, each occurrence's verdict and (for ip, tcp and udp) the value tshark computed.
        let layers: [String: [(verdict: Verdict, calculated: UInt64?)]]
        let expertMessages: String
    }

    static let layers = ["ip", "tcp", "udp", "icmp", "icmpv6"]
    /// Application checksums verified by default, as tshark verifies them (each with its own status
    /// field in the oracle JSON rather than a column of the status tables).
    static let applicationChecksums = ["synphasor"]

    /// The rows of `checksum-status.tsv` and of every `<capture>.checksums.tsv` beside it (the same
    /// columns, written by the script that made that capture).
    static let rows: [Row] = {
        let folder = repositoryRoot.appendingPathComponent("Corpus/oracle")
        let names = ["checksum-status.tsv"] + ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".checksums.tsv") }.sorted()
        let text = names.compactMap { try? String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }
        return text.flatMap { $0.split(separator: "\n").dropFirst() }.compactMap { line in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count == 11, let frame = Int(columns[1]) else { return nil }
            func occurrences(_ status: String, _ calculated: String?) -> [(verdict: Verdict, calculated: UInt64?)] {
                let values = calculated?.split(separator: ";").map { UInt64($0.dropFirst(2), radix: 16) } ?? []
                return status.split(separator: ";").enumerated().compactMap { position, verdict in
                    Verdict(rawValue: String(verdict)).map { ($0, values.indices.contains(position) ? values[position] : nil) }
                }
            }
            return Row(capture: columns[0], frame: frame,
                       layers: ["ip": occurrences(columns[2], columns[3]), "tcp": occurrences(columns[4], columns[5]),
                                "udp": occurrences(columns[6], columns[7]), "icmp": occurrences(columns[8], nil),
                                "icmpv6": occurrences(columns[9], nil)],
                       expertMessages: columns[10])
        }
    }()

    @Test func theOracleCoversEveryCaptureAndFrame() throws {
        #expect(Set(Self.rows.map(\.capture)) == Set(BundledSchemaOracleTests.captures))
        for capture in BundledSchemaOracleTests.captures {
            let pcap = try PcapFile(contentsOf: repositoryRoot.appendingPathComponent("Corpus/captures/\(capture)"))
            #expect(Self.rows.filter { $0.capture == capture }.map(\.frame) == Array(1...pcap.frames.count), "\(capture)")
        }
    }

    /// With every checksum verified (`--checksums all`), each layer's verdict is tshark's: good or bad
    /// alike, with the value tshark computed; where tshark verifies nothing (unverified, not present)
    /// there is no verdict. One difference, documented: a zero UDP checksum over IPv6 is "illegal" to
    /// tshark and not verified here (the schema's `when(checksum != 0)` cannot tell IPv4 from IPv6).
    @Test(arguments: BundledSchemaOracleTests.captures)
    func everyVerdictIsTsharks(capture: String) throws {
        let pcap = try PcapFile(contentsOf: repositoryRoot.appendingPathComponent("Corpus/captures/\(capture)"))
        let root = try #require(bundledSchema.rootStruct(forLinkType: pcap.linkType))
        var options = Interpreter.Options()
        options.checksums = .all
        var everything = Interpreter(schema: bundledSchema, options: options)
        var byDefault = Interpreter(schema: bundledSchema)
        for row in Self.rows where row.capture == capture {
            let frame = pcap.frames[row.frame - 1]
            let context = "\(capture) frame \(row.frame)"
            let dissection = everything.dissect(frame, root: root)
            var ours: [String: [ChecksumResult]] = [:]
            for result in dissection.checksums {
                let path = dissection.path(of: result.node)
                try #require(path.hasSuffix(".checksum"), "\(context): \(path)")
                let layer = String(path.dropLast(".checksum".count))
                if Self.applicationChecksums.contains(layer) { continue }
                ours[layer, default: []].append(result)
            }
            #expect(Set(ours.keys).isSubset(of: Self.layers), "\(context): \(ours.keys)")
            // Past a TCP segment or UDP datagram whose own checksum is bad (offloaded, in captures from
            // veth pairs), tshark no longer verifies the checksums of a packet carried inside it (an
            // OpenFlow packet-in's, an sFlow sample's): "unverified [fragmented datagram]", or does not
            // read the payload ("Unreassembled Packet [incorrect TCP checksum]"). Ours does.
            let firstBadTransport = ["tcp", "udp"].compactMap { ours[$0]?.first { !$0.isCorrect }?.node }.min() ?? Int.max
            // Over 6LoWPAN with compressed addresses tshark verifies ICMPv6 and UDP checksums with IPv6
            // addresses it rebuilds from the 802.15.4 ones; no field holds them here, so no verdict.
            let overLoWPAN = dissection.nodes.indices.contains { dissection.path(of: $0) == "sixlowpan" }
            for layer in Self.layers {
                if overLoWPAN, layer == "icmpv6" || layer == "udp", ours[layer] == nil { continue }
                let theirs = row.layers[layer] ?? []
                let verified = theirs.filter { $0.verdict == .good || $0.verdict == .bad }
                let all = ours[layer] ?? []
                let mine = all.count > verified.count ? all.filter { $0.node <= firstBadTransport } : all
                let illegal = theirs.filter { $0.verdict == .illegal }
                #expect(illegal.allSatisfy { _ in layer == "udp" && row.expertMessages.contains("Illegal checksum value (0)") },
                        "\(context) \(layer)")
                try #require(mine.count == verified.count, "\(context) \(layer): ours \(mine), tshark \(theirs)")
                for (result, verdict) in zip(mine, verified) {
                    #expect(result.isCorrect == (verdict.verdict == .good), "\(context) \(layer)")
                    if let calculated = verdict.calculated {
                        #expect(result.expected == calculated, "\(context) \(layer): ours 0x\(String(result.expected, radix: 16))")
                    } else if !result.isCorrect {
                        #expect(row.expertMessages.contains("Bad checksum [should be 0x\(hex16(result.expected))]"),
                                "\(context) \(layer): ours 0x\(hex16(result.expected)), tshark: \(row.expertMessages)")
                    }
                }
            }
            // By default only the IPv4 header checksum is verified, with tshark's -o ip.check_checksum:TRUE verdict.
            let defaults = byDefault.dissect(frame, root: root)
            let ipVerdicts = (row.layers["ip"] ?? []).filter { $0.verdict == .good || $0.verdict == .bad }
            var internetChecksums = defaults.checksums.filter {
                !Self.applicationChecksums.contains(String(defaults.path(of: $0.node).dropLast(".checksum".count)))
            }
            if internetChecksums.count > ipVerdicts.count { internetChecksums.removeAll { $0.node > firstBadTransport } }
            #expect(internetChecksums.map { defaults.path(of: $0.node) } == ipVerdicts.map { _ in "ip.checksum" }, "\(context)")
            #expect(internetChecksums.map(\.isCorrect) == ipVerdicts.map { $0.verdict == .good }, "\(context)")
        }
    }

    /// C37.118's CRC-CCITT, verified by default as tshark verifies it: each frame's verdict is the
    /// `synphasor.checksum.status` of tshark's dissection (1 good, 2 bad).
    @Test func applicationChecksumVerdictsAreTsharks() throws {
        for layer in Self.applicationChecksums {
            let capture = "\(layer).pcap"
            let pcap = try PcapFile(contentsOf: repositoryRoot.appendingPathComponent("Corpus/captures/\(capture)"))
            let root = try #require(bundledSchema.rootStruct(forLinkType: pcap.linkType))
            let oracle = try JSONSerialization.jsonObject(with: Data(contentsOf: BundledSchemaOracleTests.oracle(capture)))
            let packets = try #require(oracle as? [Any])
            func statuses(in value: Any) -> [String] {
                if let object = value as? [String: Any] {
                    return object.flatMap { key, inner in key == "\(layer).checksum.status" ? [inner as? String ?? "?"] : statuses(in: inner) }
                }
                if let array = value as? [Any] { return array.flatMap(statuses(in:)) }
                return []
            }
            var interpreter = Interpreter(schema: bundledSchema)
            var verified = 0
            for (index, frame) in pcap.frames.enumerated() {
                let dissection = interpreter.dissect(frame, root: root)
                let ours = dissection.checksums.filter { dissection.path(of: $0.node) == "\(layer).checksum" }
                let theirs = statuses(in: packets[index])
                #expect(ours.map { $0.isCorrect ? "1" : "2" } == theirs, "\(capture) frame \(index + 1)")
                verified += ours.count
            }
            #expect(verified > 0, "\(capture) has no verified \(layer) checksum")
        }
    }

    /// What the corpus exercises, so a capture regenerated without its wrong checksums is noticed.
    @Test func theCorpusHoldsGoodAndBadVerdictsOfEveryLayer() {
        for layer in Self.layers {
            let verdicts = Self.rows.flatMap { $0.layers[layer] ?? [] }.map(\.verdict)
            #expect(verdicts.contains(.good) && verdicts.contains(.bad), "\(layer)")
        }
        #expect(Self.rows.contains { ($0.layers["udp"] ?? []).contains { $0.verdict == .notPresent } })
    }

    private func hex16(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
