extension BundledSchemaOracleTests {
    /// Layer 3 and tunnels: GRE and ERSPAN, IP in IP, VXLAN, Geneve, IGMP, PIM, OSPF, VRRP, BFD, IPsec.
    static let networkMappings: [Mapping] = [
        // gre.pcap
        map("gre.flags.checksum", "gre.flags.checksum"), map("gre.flags.routing", "gre.flags.routing"),
        map("gre.flags.key", "gre.flags.key"), map("gre.flags.sequence_number", "gre.flags.sequence_number"),
        map("gre.flags.strict_source_route", "gre.flags.strict_source_route"),
        map("gre.flags.recursion_control", "gre.flags.recursion_control"), map("gre.flags.reserved", "gre.flags.reserved"),
        map("gre.flags.version", "gre.flags.version"), map("gre.proto", "gre.proto"), map("gre.checksum", "gre.checksum"),
        map("gre.offset", "gre.offset"), map("gre.key", "gre.key"), map("gre.sequence_number", "gre.sequence_number"),
        map("gre.routing.address_family", "gre.routing[*].address_family"),
        map("gre.routing.sre_offset", "gre.routing[*].sre_offset"), map("gre.routing.src_length", "gre.routing[*].sre_length"),
        map("gre.routing.information", "gre.routing[*].information", as: .position),
        map("erspan.version", "erspan.version"), map("erspan.vlan", "erspan.vlan"), map("erspan.cos", "erspan.cos"),
        map("erspan.encap", "erspan.encap"), map("erspan.bso", "erspan.bso"), map("erspan.truncated", "erspan.truncated"),
        map("erspan.spanid", "erspan.spanid"), map("erspan.reserved", "erspan.reserved"), map("erspan.index", "erspan.index"),
        map("erspan.timestamp", "erspan.timestamp"), map("erspan.sgt", "erspan.sgt"), map("erspan.p", "erspan.p"),
        map("erspan.ft", "erspan.ft"), map("erspan.hw", "erspan.hw"), map("erspan.direction", "erspan.direction"),
        map("erspan.gra", "erspan.gra"), map("erspan.o", "erspan.o"), map("erspan.platid", "erspan.platform.id"),
        map("erspan.pid3.rsvd1", "erspan.platform.reserved"), map("erspan.pid3.port_index", "erspan.platform.port_index"),
        map("erspan.pid3.timestamp", "erspan.platform.timestamp"),
        // vxlan.pcap (vxlan.flags_reserved's bits are not contiguous: four fields here)
        map("vxlan.flag_g", "vxlan.flags.flag_g"), map("vxlan.flag_i", "vxlan.flags.flag_i"),
        map("vxlan.flag_d", "vxlan.flags.flag_d"), map("vxlan.flag_a", "vxlan.flags.flag_a"),
        map("vxlan.gbp", "vxlan.gbp"), map("vxlan.vni", "vxlan.vni"), map("vxlan.reserved8", "vxlan.reserved8"),
        // geneve.pcap. tshark's geneve.option.length is the header's options length in bytes and each option's
        // length including its 4-byte header, in bytes: compared by position only.
        map("geneve.version", "geneve.version"),
        map("geneve.option.length", "geneve.opt_len", "geneve.options[*].length", as: .position),
        map("geneve.flags.oam", "geneve.flags.oam"), map("geneve.flags.critical", "geneve.flags.critical"),
        map("geneve.flags.reserved", "geneve.flags.reserved"), map("geneve.proto_type", "geneve.proto_type"),
        map("geneve.vni", "geneve.vni"), map("geneve.reserved", "geneve.reserved"),
        map("geneve.options", "geneve.options", as: .position), map("geneve.option", "geneve.options[*]", as: .position),
        map("geneve.option.class", "geneve.options[*].class"), map("geneve.option.type", "geneve.options[*].type"),
        map("geneve.option.flags.reserved", "geneve.options[*].reserved"),
        map("geneve.option.unknown.data", "geneve.options[*].data", as: .position),
        // igmp.pcap
        map("igmp.type", "igmp.type"), map("igmp.reserved", "igmp.reserved", "igmp.report_reserved", as: .position),
        map("igmp.max_resp", "igmp.max_resp"), map("igmp.checksum", "igmp.checksum"),
        map("igmp.maddr", "igmp.maddr", "igmp.records[*].maddr", as: .text),
        map("igmp.s", "igmp.s"), map("igmp.qrv", "igmp.qrv"), map("igmp.qqic", "igmp.qqic"),
        map("igmp.num_src", "igmp.num_src", "igmp.records[*].num_src"),
        map("igmp.saddr", "igmp.saddr[*]", "igmp.records[*].saddr[*]", as: .text),
        map("igmp.num_grp_recs", "igmp.num_grp_recs"), map("igmp.record_type", "igmp.records[*].record_type"),
        map("igmp.aux_data_len", "igmp.records[*].aux_data_len"),
        map("igmp.aux_data", "igmp.records[*].aux_data", as: .position),
    ]
}
