import BinarySchema
import Foundation
import Testing

extension BundledSchemaOracleTests {
    /// PPP and its framings (raw, HDLC-like, with direction, over Ethernet), Cisco HDLC, Frame Relay.
    static let serialMappings: [Mapping] = [
        map("ppp.address", "ppp.address"), map("ppp.control", "ppp.control"), map("ppp.protocol", "ppp.protocol", "ppp.compressed_protocol"),
        // Wireshark names the code, identifier and length of LCP, IPCP and IPV6CP alike.
        map("ppp.code", "lcp.code", "ipcp.code", "ipv6cp.code"),
        map("ppp.identifier", "lcp.identifier", "ipcp.identifier", "ipv6cp.identifier"),
        map("ppp.length", "lcp.length", "ipcp.length", "ipv6cp.length"),
        map("ppp.data", "lcp.data", as: .position), map("lcp.data", "lcp.data", as: .position),
        map("lcp.magic_number", "lcp.magic_number"),
        map("lcp.opt.type", "lcp.options[*].type"), map("lcp.opt.length", "lcp.options[*].length"),
        map("lcp.opt.mtu_bytes", "lcp.options[*]", as: .position), map("lcp.opt.mru", "lcp.options[*].value"),
        map("lcp.opt.asyncmap_bytes", "lcp.options[*]", as: .position), map("lcp.opt.asyncmap", "lcp.options[*].value"),
        map("lcp.opt.auth_protocol_bytes", "lcp.options[*]", as: .position),
        map("lcp.opt.auth_protocol", "lcp.options[*].value.protocol"),
        map("lcp.opt.algorithm", "lcp.options[*].value.algorithm"),
        map("lcp.opt.magic_number_bytes", "lcp.options[*]", as: .position),
        map("lcp.opt.magic_number", "lcp.options[*].value"),
        map("lcp.opt.field_compress", "lcp.options[*]", as: .position),
        map("lcp.opt.addr_field_compress", "lcp.options[*]", as: .position),
        map("lcp.opt.multilink_mrru", "lcp.options[*]", as: .position), map("lcp.opt.mrru", "lcp.options[*].value"),
        map("lcp.opt.callback", "lcp.options[*]", as: .position), map("lcp.opt.operation", "lcp.options[*].value.operation"),
        map("ipcp.opt.type", "ipcp.options[*].type"), map("ipcp.opt.length", "ipcp.options[*].length"),
        map("ipcp.opt.addr", "ipcp.options[*]", as: .position),
        map("ipcp.opt.compress", "ipcp.options[*]", as: .position),
        map("ipcp.opt.compress_proto", "ipcp.options[*].value.protocol"),
        map("ipcp.opt.max_slot_id", "ipcp.options[*].value.max_slot_id"),
        map("ipcp.opt.comp_slot_id", "ipcp.options[*].value.comp_slot_id"),
        map("ipcp.opt.ip_address", "ipcp.options[*].value", as: .text),
        map("ipcp.opt.pri_dns", "ipcp.options[*]", as: .position),
        map("ipcp.opt.pri_dns_address", "ipcp.options[*].value", as: .text),
        map("ipcp.opt.sec_dns", "ipcp.options[*]", as: .position),
        map("ipcp.opt.sec_dns_address", "ipcp.options[*].value", as: .text),
        map("ipv6cp.opt.type", "ipv6cp.options[*].type"), map("ipv6cp.opt.length", "ipv6cp.options[*].length"),
        map("ipv6cp.opt.interface_identifier", "ipv6cp.options[*]", as: .position),
        map("ipv6cp.interface_identifier", "ipv6cp.options[*].value", as: .position),
        map("pap.code", "pap.code"), map("pap.identifier", "pap.identifier"), map("pap.length", "pap.length"),
        map("pap.peer_id.length", "pap.peer_id_length"), map("pap.peer_id", "pap.peer_id", as: .text),
        map("pap.password.length", "pap.password_length"), map("pap.password", "pap.password", as: .text),
        map("pap.message.length", "pap.message_length"), map("pap.message", "pap.message", as: .text),
        map("chap.code", "chap.code"), map("chap.identifier", "chap.identifier"),
        map("chap.length", "chap.length"),
        map("chap.value_size", "chap.value_size"),
        map("chap.value", "chap.value", as: .position),
        map("chap.name", "chap.name", as: .text),
        map("chap.message", "chap.message", as: .text),
        map("pppoe.version", "pppoed.version", "pppoes.version"), map("pppoe.type", "pppoed.type", "pppoes.type"),
        map("pppoe.code", "pppoed.code", "pppoes.code"), map("pppoe.session_id", "pppoed.session_id", "pppoes.session_id"),
        map("pppoe.payload_length", "pppoed.payload_length", "pppoes.payload_length"),
        map("pppoed.tags", "pppoed.tags", as: .position),
        map("pppoed.tags.service_name", "pppoed.tags[*].value", as: .text),
        map("pppoed.tags.ac_name", "pppoed.tags[*].value", as: .text),
        map("pppoed.tags.host_uniq", "pppoed.tags[*].value", as: .position),
        map("pppoed.tags.ac_cookie", "pppoed.tags[*].value", as: .position),
        map("pppoed.tags.relay_session_id", "pppoed.tags[*].value", as: .position),
        map("pppoed.tags.generic_error", "pppoed.tags[*].value", as: .text),
        map("chdlc.address", "chdlc.address"),
        map("chdlc.control", "chdlc.control"),
        map("chdlc.protocol", "chdlc.protocol"),
        map("slarp.ptype", "slarp.ptype"), map("slarp.address", "slarp.address", as: .text),
        map("slarp.netmask", "slarp.netmask", as: .text), map("slarp.mysequence", "slarp.mysequence"),
        map("slarp.yoursequence", "slarp.yoursequence"), map("slarp.reliability", "slarp.reliability"),
        map("fr.first_addr_octet", "fr.first_addr_octet", as: .position),
        map("fr.upper_dlci", "fr.first_addr_octet.upper_dlci"), map("fr.cr", "fr.first_addr_octet.cr"),
        map("fr.ea", "fr.first_addr_octet.ea", "fr.second_addr_octet.ea"),
        map("fr.second_addr_octet", "fr.second_addr_octet", as: .position),
        map("fr.second_dlci", "fr.second_addr_octet.second_dlci"), map("fr.fecn", "fr.second_addr_octet.fecn"),
        map("fr.becn", "fr.second_addr_octet.becn"), map("fr.de", "fr.second_addr_octet.de"),
        map("fr.control", "fr.control"), map("fr.nlpid", "fr.nlpid", "fr.pad"),
        map("fr.snap.oui", "fr.oui"), map("fr.snaptype", "fr.snaptype"),
        map("fr.chdlctype", "fr.chdlctype"),
    ]

    /// Link type 204 (PPP with a direction byte) is not in the corpus: tshark's file reader moves the
    /// direction byte into the frame's pseudo-header, so its bytes and offsets would not be the file's.
    /// Instead, every frame of ppp.pcap with a direction byte in front must read as the same PPP
    /// frame one byte later: every field at the same path, one byte on, with the same value.
    @Test func pppWithDirectionIsPPPAfterTheDirectionByte() throws {
        let pcap = try PcapFile(contentsOf: repositoryRoot.appendingPathComponent("Corpus/captures/ppp.pcap"))
        let plainRoot = try #require(bundledSchema.rootStruct(forLinkType: 9))
        let directedRoot = try #require(bundledSchema.rootStruct(forLinkType: 204))
        var plainInterpreter = Interpreter(schema: bundledSchema)
        var directedInterpreter = Interpreter(schema: bundledSchema)
        for (number, frame) in pcap.frames.enumerated() {
            let direction = UInt8(number % 2)
            let plain = plainInterpreter.dissect(frame, root: plainRoot)
            let directed = directedInterpreter.dissect([direction] + frame, root: directedRoot)
            #expect(plain.error == nil && directed.error == nil, "frame \(number + 1)")
            let directionNode = try #require(directed.node(at: "ppp.direction"), "frame \(number + 1)")
            #expect(directed.integer(of: directionNode) == Int64(direction))
            var directedPaths: [String: Int] = [:]
            for index in directed.nodes.indices { directedPaths[directed.path(of: index)] = directedPaths[directed.path(of: index)] ?? index }
            for index in plain.nodes.indices where plain.path(of: index).contains(".") {
                let path = plain.path(of: index)
                let other = try #require(directedPaths[path], "frame \(number + 1): no \(path)")
                #expect(directed.nodes[other].byteOffset == plain.nodes[index].byteOffset + 1, "frame \(number + 1): \(path)")
                #expect(directed.integer(of: other) == plain.integer(of: index), "frame \(number + 1): \(path)")
            }
        }
    }
}
