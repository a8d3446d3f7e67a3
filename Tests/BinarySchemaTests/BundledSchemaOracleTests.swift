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

    /// Every mapped tshark field, by area; each file in Oracle/ holds one area's list.
    static let mappings: [Mapping] = coreMappings + linkLayerMappings + l2Mappings + serialMappings + networkMappings
        + transportMappings + icmpMappings + udpApplicationMappings + mdnsMappings
        + bgpAndFriendsMappings + tcpApplicationMappings + tlsMappings + icsMappings + textProtocolMappings + databaseMappings
        + windowsMappings + rpcMappings + fixesMappings + directoryMappings + voiceMappings + remoteAccessMappings
        + messagingMappings + telemetryMappings + rdpAndNFSMappings + vpnMappings + transportVariantMappings
        + routingControlMappings + timeDataCentreMappings + switchingMappings + igpMappings
        + wlanMappings + linkTypeMappings + routingExtraMappings

    /// The first mapping of each tshark field name: looked up for every field of every frame,
    /// where a scan of the whole list made this suite the slowest of the run.
    static let mappingsByName: [String: Mapping] = Dictionary(mappings.map { ($0.tshark, $0) }, uniquingKeysWith: { first, _ in first })

    /// One occurrence of a tshark field: raw hex, offset, length, bitmask, and its shown value.
    struct OracleField {
        let name: String
        let hex: String
        let offset: Int
        let length: Int
        let mask: UInt64
        let shown: String
    }

    /// Every capture in Corpus/captures, by file name; the oracle for `x.pcap` is `x.json`. All of
    /// them: a capture added is compared, and one without its oracle fails.
    static let captures: [String] = {
        let folder = repositoryRoot.appendingPathComponent("Corpus/captures").path
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return files.filter { !$0.hasPrefix(".") }.sorted()
    }()

    @Test func everyCorpusCaptureHasItsOracle() throws {
        #expect(Self.captures.count >= 15)
        for capture in Self.captures {
            #expect(FileManager.default.fileExists(atPath: Self.oracle(capture).path), "\(capture) has no oracle")
        }
    }

    /// A tshark field mapped twice would be compared by its first mapping only.
    @Test func everyTsharkFieldIsMappedOnce() {
        var seen: Set<String> = []
        let repeated = Self.mappings.map(\.tshark).filter { !seen.insert($0).inserted }
        #expect(repeated.isEmpty, "mapped more than once: \(repeated)")
    }

    /// tshark fields of a capture that describe no bytes as tshark's own layers do, left out.
    /// tshark's LLDP (lldp.pcap, lldpd.pcap) reports its length 3 bytes short (the last TLV's last byte and End of LLDPDU):
    /// Ethernet then shows those bytes again as eth.trailer (and, past 64 bytes, eth.fcs), over
    /// the LLDP fields tshark shows there too.
    /// tcp.pcap, tcp6.pcapng and checksums.pcap were read with TCP reassembly on: tshark's HTTP response there is
    /// a reassembled body's lines, at offsets in the reassembled bytes.
    /// smtp-starttls.pcap: tshark takes an SMTP command's first four letters for the command, so
    /// STARTTLS is command STAR and parameter TLS (ours: command STARTTLS, no parameter).
    static let sixLoWPANRebuilt: Set<String> = ["ip.version", "ipv6.version", "ipv6.tclass", "ipv6.flow", "ipv6.plen",
        "ipv6.nxt", "ipv6.hlim", "ipv6.src", "ipv6.dst", "icmpv6.type", "icmpv6.code", "icmpv6.checksum", "icmpv6.reserved",
        "icmpv6.echo.identifier", "icmpv6.echo.sequence_number", "udp.srcport", "udp.dstport", "udp.length", "udp.checksum",
        // and what the rebuilt UDP carries (a DNS query), at offsets in that buffer
        "dns.id", "dns.flags.response", "dns.flags.opcode", "dns.flags.truncated", "dns.flags.recdesired", "dns.flags.z",
        "dns.flags.checkdisable", "dns.count.queries", "dns.count.answers", "dns.count.auth_rr", "dns.count.add_rr",
        "dns.qry.name", "dns.qry.type", "dns.qry.class"]

    static let tsharkArtifacts: [String: Set<String>] = [
        // tshark rebuilds the IPv6 and UDP headers 6LoWPAN compresses, in a buffer of its own: its
        // fields are at offsets no wire byte has. SLL's CAN ID word is little-endian, and this test
        // places bitmasks in big-endian words.
        "wpan.pcap": sixLoWPANRebuilt, "wpan-nofcs.pcap": sixLoWPANRebuilt, "wpan-frag.pcap": sixLoWPANRebuilt,
        "sll-linux.pcap": sixLoWPANRebuilt.union(["can.id", "can.flags.xtd", "can.flags.rtr", "can.flags.err"]),
        "lldp.pcap": ["eth.trailer", "eth.fcs"], "lldpd.pcap": ["eth.trailer"], "tcp.pcap": ["http.response.line"], "tcp6.pcapng": ["http.response.line"],
        "checksums.pcap": ["http.response.line"], "smtp-starttls.pcap": ["smtp.req.command", "smtp.req.parameter"],
        // tshark decodes the Upgrade request's base64 HTTP2-Settings header into a buffer of its own,
        // at offsets no wire byte has (the same fields are compared in http2.pcap).
        "http2-upgrade.pcap": ["http2.settings.id", "http2.settings.max_concurrent_streams", "http2.settings.initial_window_size",
                               "http2.settings.enable_push"],
    ]

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
            Self.collect(layers, into: &fields)
            let paths = dissection.nodes.indices.map { dissection.path(of: $0) }
            for field in fields where !(Self.tsharkArtifacts[capture]?.contains(field.name) ?? false) {
                guard let mapping = Self.mappingsByName[field.name] else { continue }
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
                Self.collect(((packet["_source"] as? [String: Any])?["layers"] as? [String: Any]) ?? [:], into: &fields)
                seen.formUnion(fields.map(\.name))
            }
        }
        let unused = Self.mappings.map(\.tshark).filter { !seen.contains($0) }
        #expect(unused.isEmpty, "mapped tshark fields never seen in the captures: \(unused)")
    }

    private func compare(_ field: OracleField, _ mapping: Mapping, _ dissection: Dissection, _ paths: [String],
                         frame: Int) throws {
        if let mismatch = Self.mismatch(field, mapping, dissection, paths) {
            Issue.record("frame \(frame), \(field.name) at \(field.offset): \(mismatch)")
        }
    }

    /// Why `dissection` does not hold tshark's `field` where tshark has it, with its bytes and
    /// value (by `mapping`), or nil when it does.
    static func mismatch(_ field: OracleField, _ mapping: Mapping, _ dissection: Dissection, _ paths: [String]) -> String? {
        let (bitStart, bitWidth) = Self.bits(of: field)
        // Position first: it is a comparison of integers, where a path is matched character by character.
        let index = dissection.nodes.indices.first { index in
            let node = dissection.nodes[index]
            let placed: Bool
            if let bitStart {
                placed = node.bitStart == bitStart && node.bitWidth == bitWidth
            } else if node.isBitField {
                placed = node.byteOffset >= field.offset && node.byteOffset < field.offset + field.length
            } else {
                placed = node.byteOffset == field.offset
            }
            return placed && mapping.patterns.contains { Self.path(paths[index], matches: $0) }
        }
        guard let index else {
            let candidates = dissection.nodes.indices.filter { index in mapping.patterns.contains { Self.path(paths[index], matches: $0) } }
            return "no \(mapping.patterns) there; candidates at \(candidates.map { dissection.nodes[$0].byteOffset })"
        }
        let node = dissection.nodes[index]
        if bitStart == nil, !node.isBitField {
            if node.byteLength != field.length { return "length \(node.byteLength), tshark \(field.length)" }
            if hex(dissection.rawBytes(of: index)) != field.hex { return "raw bytes differ" }
        }
        switch mapping.comparison {
        case .integer, .scaled:
            let factor: Int64
            if case .scaled(let scale) = mapping.comparison { factor = scale } else { factor = 1 }
            guard let expected = Self.integer(field.shown) else {
                // A u64 past Int64.max (OpenVPN's session IDs, Mobile IPv6's tokens in hex): compared as unsigned.
                let large = field.shown.hasPrefix("0x") ? UInt64(field.shown.dropFirst(2), radix: 16) : UInt64(field.shown)
                if factor == 1, let large, case .unsigned(let value) = node.value {
                    return value == large ? nil : "ours \(value), tshark \(large)"
                }
                return "tshark value '\(field.shown)' is not a number"
            }
            guard let ours = dissection.integer(of: index) else { return "ours has no integer value" }
            return ours * factor == expected ? nil : "ours \(ours), tshark \(expected)"
        case .text:
            var ours = ValueFormatter.valueText(dissection, index)
            if ours.hasPrefix("\""), ours.hasSuffix("\""), ours.count >= 2 { ours = String(ours.dropFirst().dropLast()) }
            // Or as the views show it: a struct whose @display is tshark's value (IGMPv3's
            // floating-point max response code, 352 from 0x96), as scripts/oracle-mappings-check compares.
            if ours != field.shown, ValueFormatter.displayText(dissection, index) == field.shown { return nil }
            return ours == field.shown ? nil : "ours '\(ours)', tshark '\(field.shown)'"
        case .position:
            return nil
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

    /// Whether a node's path is a mapping's pattern, where `*` in the pattern stands for an
    /// array index (one or more digits) and every other character is itself.
    static func path(_ path: String, matches pattern: String) -> Bool {
        let path = Array(path.utf8), pattern = Array(pattern.utf8)
        var at = 0
        for character in pattern {
            if character == UInt8(ascii: "*") {
                let start = at
                while at < path.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(path[at]) { at += 1 }
                if at == start { return false }
            } else {
                guard at < path.count, path[at] == character else { return false }
                at += 1
            }
        }
        return at == path.count
    }

    static func collect(_ object: [String: Any], into fields: inout [OracleField]) {
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
