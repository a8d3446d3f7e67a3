import BinarySchema
import Dissector
import Foundation
import Testing

/// The bundled schemas on real captured bytes, field by field against tshark's dissection
/// of the same bytes (`Corpus/oracle/*.json`, from `tshark -T json -x`; see scripts/capture-samples.sh).
///
/// For every occurrence of a mapped tshark field, the field at the same position in our
/// dissection must exist, cover the same bytes (or bits, for bit fields) and hold the same value.
/// Frames a snapshot length cut short (snaplen.pcap) are dissected as such: the frames tshark
/// says are "limited during capture" are the ones whose dissection is cut, in the same layer.
@Suite struct BundledSchemaOracleTests {
    enum Comparison {
        /// Same integer value (tshark shows decimal or 0x-hex).
        case integer
        /// tshark's value is ours times a factor (header lengths shown in bytes, stored in words).
        case scaled(Int64)
        /// Same text (addresses, names), ours without quotes.
        case text
        /// Same position and raw bytes only.
        case position
    }

    struct Mapping {
        let tshark: String
        let patterns: [String]
        let comparison: Comparison
    }

    static func map(_ tshark: String, _ patterns: String..., as comparison: Comparison = .integer) -> Mapping {
        Mapping(tshark: tshark, patterns: patterns, comparison: comparison)
    }

    static let mappings: [Mapping] = [
        map("eth.dst", "eth.dst", as: .text), map("eth.src", "eth.src", as: .text), map("eth.type", "eth.type"),
        map("vlan.priority", "vlan.priority"), map("vlan.dei", "vlan.dei"), map("vlan.id", "vlan.id"), map("vlan.etype", "vlan.type"),
        map("ieee8021ad.priority", "vlan.priority"), map("ieee8021ad.dei", "vlan.dei"), map("ieee8021ad.id", "vlan.id"),
        map("ieee8021ah.etype", "vlan.type"),
        map("sll.pkttype", "sll.packet_type", "sll2.packet_type"), map("sll.hatype", "sll.arphrd_type", "sll2.arphrd_type"),
        map("sll.halen", "sll.address_length", "sll2.address_length"), map("sll.etype", "sll.type", "sll2.type"),
        map("sll.ifindex", "sll2.interface_index"),
        map("null.family", "null.family", "loop.family"),
        map("ip.version", "ip.version", "ipv6.version"), map("ip.hdr_len", "ip.ihl", as: .scaled(4)),
        map("ip.dsfield.dscp", "ip.dscp"), map("ip.dsfield.ecn", "ip.ecn"), map("ip.len", "ip.total_length"),
        map("ip.id", "ip.identification"), map("ip.flags.rb", "ip.flags.reserved"), map("ip.flags.df", "ip.flags.df"),
        map("ip.flags.mf", "ip.flags.mf"), map("ip.frag_offset", "ip.fragment_offset"), map("ip.ttl", "ip.ttl"),
        map("ip.proto", "ip.protocol"), map("ip.checksum", "ip.checksum"),
        map("ip.src", "ip.src", as: .text), map("ip.dst", "ip.dst", as: .text),
        map("ip.opt.type", "ip.options[*].type"),
        map("ipv6.version", "ipv6.version"), map("ipv6.tclass", "ipv6.traffic_class"), map("ipv6.flow", "ipv6.flow_label"),
        map("ipv6.plen", "ipv6.payload_length"), map("ipv6.nxt", "ipv6.next_header"), map("ipv6.hlim", "ipv6.hop_limit"),
        map("ipv6.src", "ipv6.src", as: .text), map("ipv6.dst", "ipv6.dst", as: .text),
        map("ipv6.hopopts.nxt", "ipv6.hopopts.next_header"), map("ipv6.hopopts.len", "ipv6.hopopts.length"),
        map("ipv6.dstopts.nxt", "ipv6.dstopts.next_header"), map("ipv6.dstopts.len", "ipv6.dstopts.length"),
        map("ipv6.opt.type", "ipv6.hopopts.options[*].type", "ipv6.dstopts.options[*].type"),
        map("ipv6.opt.length", "ipv6.hopopts.options[*].length", "ipv6.dstopts.options[*].length"),
        map("ipv6.fraghdr.nxt", "ipv6.fragment.next_header"), map("ipv6.fraghdr.offset", "ipv6.fragment.offset"),
        map("ipv6.fraghdr.more", "ipv6.fragment.more_fragments"), map("ipv6.fraghdr.ident", "ipv6.fragment.identification"),
        map("icmp.type", "icmp.type"), map("icmp.code", "icmp.code"), map("icmp.checksum", "icmp.checksum"),
        map("icmp.ident", "icmp.body.identifier"), map("icmp.seq", "icmp.body.sequence"),
        map("icmpv6.type", "icmpv6.type"), map("icmpv6.code", "icmpv6.code"), map("icmpv6.checksum", "icmpv6.checksum"),
        map("icmpv6.echo.identifier", "icmpv6.body.identifier"), map("icmpv6.echo.sequence_number", "icmpv6.body.sequence"),
        map("udp.srcport", "udp.src_port"), map("udp.dstport", "udp.dst_port"), map("udp.length", "udp.length"),
        map("udp.checksum", "udp.checksum"),
        map("tcp.srcport", "tcp.src_port"), map("tcp.dstport", "tcp.dst_port"), map("tcp.seq_raw", "tcp.seq"),
        map("tcp.ack_raw", "tcp.ack"), map("tcp.hdr_len", "tcp.data_offset", as: .scaled(4)),
        map("tcp.flags.ae", "tcp.flags.ae"), map("tcp.flags.cwr", "tcp.flags.cwr"), map("tcp.flags.ece", "tcp.flags.ece"),
        map("tcp.flags.urg", "tcp.flags.urg"), map("tcp.flags.ack", "tcp.flags.ack"), map("tcp.flags.push", "tcp.flags.psh"),
        map("tcp.flags.reset", "tcp.flags.rst"), map("tcp.flags.syn", "tcp.flags.syn"), map("tcp.flags.fin", "tcp.flags.fin"),
        map("tcp.window_size_value", "tcp.window"), map("tcp.checksum", "tcp.checksum"),
        map("tcp.urgent_pointer", "tcp.urgent_pointer"),
        map("tcp.option_kind", "tcp.options[*].kind"), map("tcp.option_len", "tcp.options[*].length"),
        map("tcp.options.mss_val", "tcp.options[*].value"), map("tcp.options.wscale.shift", "tcp.options[*].value"),
        map("tcp.options.timestamp.tsval", "tcp.options[*].value.value"),
        map("tcp.options.timestamp.tsecr", "tcp.options[*].value.echo_reply"),
        map("tcp.payload", "tcp.payload", as: .position),
        map("dns.id", "dns.id"), map("dns.flags.response", "dns.flags.response"), map("dns.flags.opcode", "dns.flags.opcode"),
        map("dns.flags.authoritative", "dns.flags.authoritative"), map("dns.flags.truncated", "dns.flags.truncated"),
        map("dns.flags.recdesired", "dns.flags.recursion_desired"),
        map("dns.flags.recavail", "dns.flags.recursion_available"), map("dns.flags.z", "dns.flags.z"),
        map("dns.flags.authenticated", "dns.flags.authenticated"), map("dns.flags.checkdisable", "dns.flags.checking_disabled"),
        map("dns.flags.rcode", "dns.flags.rcode"),
        map("dns.count.queries", "dns.qdcount"), map("dns.count.answers", "dns.ancount"),
        map("dns.count.auth_rr", "dns.nscount"), map("dns.count.add_rr", "dns.arcount"),
        map("dns.qry.name", "dns.questions[*].name", as: .text), map("dns.qry.type", "dns.questions[*].type"),
        map("dns.qry.class", "dns.questions[*].class"),
        map("dns.resp.name", "dns.answers[*].name", "dns.authorities[*].name", "dns.additionals[*].name", as: .text),
        map("dns.resp.type", "dns.answers[*].type", "dns.authorities[*].type", "dns.additionals[*].type"),
        map("dns.resp.class", "dns.answers[*].class", "dns.authorities[*].class", "dns.additionals[*].class"),
        map("dns.resp.ttl", "dns.answers[*].ttl", "dns.authorities[*].ttl", "dns.additionals[*].ttl"),
        map("dns.resp.len", "dns.answers[*].rdlength", "dns.authorities[*].rdlength", "dns.additionals[*].rdlength"),
        map("dns.a", "dns.answers[*].rdata", as: .text), map("dns.aaaa", "dns.answers[*].rdata", as: .text),
        map("dns.cname", "dns.answers[*].rdata", as: .text),
        map("dns.ns", "dns.answers[*].rdata", "dns.authorities[*].rdata", as: .text),
        map("dns.ptr.domain_name", "dns.answers[*].rdata", as: .text),
        map("dns.mx.preference", "dns.answers[*].rdata.preference"),
        map("dns.mx.mail_exchange", "dns.answers[*].rdata.exchange", as: .text),
        map("dns.txt.length", "dns.answers[*].rdata[*].length"),
        map("dns.txt", "dns.answers[*].rdata[*].text", as: .text),
        map("dns.soa.mname", "dns.answers[*].rdata.mname", as: .text),
        map("dns.soa.rname", "dns.answers[*].rdata.rname", as: .text),
        map("dns.soa.serial_number", "dns.answers[*].rdata.serial"),
        map("dns.soa.refresh_interval", "dns.answers[*].rdata.refresh"),
        map("dns.soa.retry_interval", "dns.answers[*].rdata.retry"),
        map("dns.soa.expire_limit", "dns.answers[*].rdata.expire"),
        map("dns.soa.minimum_ttl", "dns.answers[*].rdata.minimum"),
    ]

    /// One occurrence of a tshark field: raw hex, offset, length, bitmask, and its shown value.
    struct OracleField {
        let name: String
        let hex: String
        let offset: Int
        let length: Int
        let mask: UInt64
        let shown: String
    }

    /// Every capture in Corpus/captures, by file name; the oracle for `x.pcap` is `x.json`.
    static let captures = ["icmp.pcap", "dns.pcap", "dns-nsec.pcap", "tcp.pcap", "tcp6.pcapng", "sll.pcap", "sll2.pcap",
                           "null.pcap", "loop.pcap", "raw.pcap", "vlan.pcap", "ipv6-ext.pcap", "options-eol.pcap",
                           "snaplen.pcap", "checksums.pcap"]

    /// A capture added to the corpus must be added above, or it would be compared with nothing.
    @Test func everyCorpusCaptureIsCompared() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: repositoryRoot.appendingPathComponent("Corpus/captures").path)
        #expect(Self.captures.sorted() == files.filter { !$0.hasPrefix(".") }.sorted())
    }

    static func oracle(_ capture: String) -> URL {
        repositoryRoot.appendingPathComponent("Corpus/oracle/\((capture as NSString).deletingPathExtension).json")
    }

    @Test(arguments: captures)
    func matchesTshark(capture: String) throws {
        let pcap = try PcapFile(contentsOf: repositoryRoot.appendingPathComponent("Corpus/captures/\(capture)"))
        let oracleData = try Data(contentsOf: Self.oracle(capture))
        let packets = try #require(try JSONSerialization.jsonObject(with: oracleData) as? [[String: Any]])
        try #require(packets.count == pcap.frames.count)
        let root = try #require(bundledSchema.rootStruct(forLinkType: pcap.linkType), "no root for link type \(pcap.linkType)")
        var interpreter = Interpreter(schema: bundledSchema)
        var compared = 0
        for (number, frame) in pcap.frames.enumerated() {
            let layers = try #require(((packets[number]["_source"] as? [String: Any])?["layers"]) as? [String: Any])
            let frameHex = try #require((layers["frame_raw"] as? [Any])?.first as? String)
            #expect(frameHex == hex(frame[...]), "frame \(number + 1) differs from tshark's bytes")
            let dissection = interpreter.dissect(frame, root: root, originalLength: pcap.originalLengths[number])
            #expect(dissection.error == nil, "frame \(number + 1): \(dissection.error.map(String.init(describing:)) ?? "")")
            // "[Packet size limited during capture: TCP truncated]"
            let short = (layers["_ws.short"] as? String)?.firstMatch(of: #/capture: (\S+) truncated/#).map { String($0.1) }
            #expect(short.map(Self.layer) == dissection.cut?.layer,
                    "frame \(number + 1): tshark \(short ?? "whole"), ours \(dissection.cut.map(String.init(describing:)) ?? "whole")")
            var fields: [OracleField] = []
            collect(layers, into: &fields)
            let paths = dissection.nodes.indices.map { dissection.path(of: $0) }
            for field in fields {
                guard let mapping = Self.mappings.first(where: { $0.tshark == field.name }) else { continue }
                compared += 1
                try compare(field, mapping, dissection, paths, frame: number + 1)
            }
        }
        #expect(compared > 0)
    }

    /// Options end at EOL (kind 0); what is left of the options area is padding, read as the
    /// EOL option's `padding` (tshark: "Non-zero header padding", not an option).
    @Test func optionsEndAtEndOfOptionListAndTheRestIsPadding() throws {
        let pcap = try PcapFile(contentsOf: repositoryRoot.appendingPathComponent("Corpus/captures/options-eol.pcap"))
        let root = try #require(bundledSchema.rootStruct(forLinkType: pcap.linkType))
        var interpreter = Interpreter(schema: bundledSchema)
        for (frame, (layer, eolIndex, padding)) in zip(pcap.frames, [("tcp", 3, String(repeating: "ab", count: 11)),
                                                                     ("ip", 1, "cdcd")]) {
            let dissection = interpreter.dissect(frame, root: root)
            #expect(dissection.error == nil, "\(dissection.error.map(String.init(describing:)) ?? "")")
            let options = try #require(dissection.node(at: "\(layer).options"))
            #expect(dissection.children(of: options).count == eolIndex + 1, "\(layer): the options stop at EOL")
            #expect(dissection.integer(of: try #require(dissection.node(at: "\(layer).options[\(eolIndex)].\(layer == "ip" ? "type" : "kind")"))) == 0)
            let paddingNode = try #require(dissection.node(at: "\(layer).options[\(eolIndex)].padding"))
            #expect(hex(dissection.rawBytes(of: paddingNode)) == padding)
        }
    }

    @Test func everyMappingIsExercisedByTheCaptures() throws {
        var seen: Set<String> = []
        for capture in Self.captures {
            let data = try Data(contentsOf: Self.oracle(capture))
            let packets = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
            for packet in packets {
                var fields: [OracleField] = []
                collect(((packet["_source"] as? [String: Any])?["layers"] as? [String: Any]) ?? [:], into: &fields)
                seen.formUnion(fields.map(\.name))
            }
        }
        let unused = Self.mappings.map(\.tshark).filter { !seen.contains($0) }
        #expect(unused.isEmpty, "mapped tshark fields never seen in the captures: \(unused)")
    }

    private func compare(_ field: OracleField, _ mapping: Mapping, _ dissection: Dissection, _ paths: [String],
                         frame: Int) throws {
        let regexes = mapping.patterns.map(Self.regex)
        let candidates = dissection.nodes.indices.filter { index in
            regexes.contains { paths[index].wholeMatch(of: $0) != nil }
        }
        let context = "frame \(frame), \(field.name) at \(field.offset)"
        let (bitStart, bitWidth) = Self.bits(of: field)
        let matches = candidates.filter { index in
            let node = dissection.nodes[index]
            if let bitStart { return node.bitStart == bitStart && node.bitWidth == bitWidth }
            if node.isBitField { return node.byteOffset >= field.offset && node.byteOffset < field.offset + field.length }
            return node.byteOffset == field.offset
        }
        guard let index = matches.first else {
            Issue.record("\(context): no \(mapping.patterns) there; candidates at \(candidates.map { dissection.nodes[$0].byteOffset })")
            return
        }
        let node = dissection.nodes[index]
        if bitStart == nil, !node.isBitField {
            #expect(node.byteLength == field.length, "\(context): length \(node.byteLength), tshark \(field.length)")
            #expect(hex(dissection.rawBytes(of: index)) == field.hex, "\(context): raw bytes differ")
        }
        switch mapping.comparison {
        case .integer, .scaled:
            let factor: Int64
            if case .scaled(let scale) = mapping.comparison { factor = scale } else { factor = 1 }
            let expected = try #require(Self.integer(field.shown), "\(context): tshark value '\(field.shown)' is not a number")
            let ours = try #require(dissection.integer(of: index), "\(context): ours has no integer value")
            #expect(ours * factor == expected, "\(context): ours \(ours), tshark \(expected)")
        case .text:
            var ours = ValueFormatter.valueText(dissection, index)
            if ours.hasPrefix("\""), ours.hasSuffix("\""), ours.count >= 2 { ours = String(ours.dropFirst().dropLast()) }
            #expect(ours == field.shown, "\(context): ours '\(ours)', tshark '\(field.shown)'")
        case .position:
            break
        }
    }

    /// The absolute bit span tshark's bitmask denotes, or nil for a byte-granular field.
    static func bits(of field: OracleField) -> (Int?, Int) {
        guard field.mask != 0 else { return (nil, 0) }
        let highest = 63 - field.mask.leadingZeroBitCount
        let lowest = field.mask.trailingZeroBitCount
        let width = max(field.length, (highest + 8) / 8)
        return (field.offset * 8 + (width * 8 - highest - 1), highest - lowest + 1)
    }

    /// Our name for a layer tshark names in "TCP truncated".
    static func layer(_ tshark: String) -> String {
        tshark == "IPv4" ? "ip" : tshark.lowercased()
    }

    /// snaplen.pcap: every frame tshark says the capture cut is cut where tshark says, and every
    /// field tshark shows of the cut frames is ours too (`matchesTshark`), so they are counted.
    @Test func framesCutByTheSnapshotLengthAreTheOnesTsharkSaysAre() throws {
        let pcap = try PcapFile(contentsOf: repositoryRoot.appendingPathComponent("Corpus/captures/snaplen.pcap"))
        let packets = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.oracle("snaplen.pcap")))
                                   as? [[String: Any]])
        let root = try #require(bundledSchema.rootStruct(forLinkType: pcap.linkType))
        var interpreter = Interpreter(schema: bundledSchema)
        var cut = 0, short = 0, truncated = 0
        for (number, frame) in pcap.frames.enumerated() {
            let dissection = interpreter.dissect(frame, root: root, originalLength: pcap.originalLengths[number])
            if dissection.cut != nil { cut += 1 }
            if dissection.isTruncated { truncated += 1 }
            if ((packets[number]["_source"] as? [String: Any])?["layers"] as? [String: Any])?["_ws.short"] != nil { short += 1 }
        }
        #expect(pcap.frames.count == 16 && truncated == 15)
        #expect(cut == 13 && short == 13, "two frames cut in their data are not marked, by tshark or us")
    }

    static func integer(_ text: String) -> Int64? {
        if text.hasPrefix("0x") { return Int64(text.dropFirst(2), radix: 16) }
        return Int64(text)
    }

    static func regex(_ pattern: String) -> Regex<Substring> {
        var escaped = ""
        for character in pattern {
            switch character {
            case ".": escaped += "\\."
            case "[": escaped += "\\["
            case "]": escaped += "\\]"
            case "*": escaped += "\\d+"
            default: escaped.append(character)
            }
        }
        // Patterns are fixed strings in this file: a failure here is a bug in the test itself.
        return (try? Regex(escaped)) ?? Regex(verbatim: pattern)
    }

    private func collect(_ object: [String: Any], into fields: inout [OracleField]) {
        for (key, value) in object {
            if key.hasSuffix("_raw"), let raw = value as? [Any] {
                let name = String(key.dropLast(4))
                if let occurrences = raw as? [[Any]] {
                    let shown = object[name] as? [String] ?? []
                    for (position, occurrence) in occurrences.enumerated() {
                        if let field = Self.field(name, occurrence, shown.indices.contains(position) ? shown[position] : "") {
                            fields.append(field)
                        }
                    }
                } else if let field = Self.field(name, raw, object[name] as? String ?? "") {
                    fields.append(field)
                }
            } else if let nested = value as? [String: Any] {
                collect(nested, into: &fields)
            } else if let list = value as? [[String: Any]] {
                for nested in list { collect(nested, into: &fields) }
            }
        }
    }

    private static func field(_ name: String, _ raw: [Any], _ shown: String) -> OracleField? {
        guard raw.count >= 4, let hex = raw[0] as? String, let offset = raw[1] as? Int, let length = raw[2] as? Int,
              let mask = raw[3] as? Int else { return nil }
        return OracleField(name: name, hex: hex, offset: offset, length: length, mask: UInt64(truncatingIfNeeded: mask),
                           shown: shown)
    }
}

func hex(_ bytes: ArraySlice<UInt8>) -> String {
    bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
}
