extension BundledSchemaOracleTests {
    /// ICMP and ICMPv6 errors with their quoted datagram, MLD, fragments, jumbograms, TSO lengths.
    static let icmpMappings: [Mapping] = [
        map("icmp.unused", "icmp.body.unused", as: .position), map("icmp.pointer", "icmp.body.pointer"),
        map("icmp.redir_gw", "icmp.body.gateway", as: .text),
        map("icmpv6.reserved", "icmpv6.body.reserved", as: .position), map("icmpv6.mtu", "icmpv6.body.mtu"),
        map("icmpv6.pointer", "icmpv6.body.pointer"),
        map("icmpv6.mld.maximum_response_delay", "icmpv6.body.maximum_response_delay"),
        map("icmpv6.mld.maximum_response_code", "icmpv6.body.maximum_response_code"),
        map("icmpv6.mld.multicast_address", "icmpv6.body.multicast_address", as: .text),
        map("icmpv6.mld.flag.reserved", "icmpv6.body.flag.reserved"), map("icmpv6.mld.flag.s", "icmpv6.body.flag.s"),
        map("icmpv6.mld.flag.qrv", "icmpv6.body.flag.qrv"), map("icmpv6.mld.qqi", "icmpv6.body.qqi"),
        map("icmpv6.mld.nb_sources", "icmpv6.body.nb_sources"),
        map("icmpv6.mld.source_address", "icmpv6.body.source_address[*]", as: .text),
        map("icmpv6.mldr.nb_mcast_records", "icmpv6.body.nb_mcast_records"),
        map("icmpv6.mldr.mar.record_type", "icmpv6.body.mar[*].record_type"),
        map("icmpv6.mldr.mar.aux_data_len", "icmpv6.body.mar[*].aux_data_len"),
        map("icmpv6.mldr.mar.nb_sources", "icmpv6.body.mar[*].nb_sources"),
        map("icmpv6.mldr.mar.multicast_address", "icmpv6.body.mar[*].multicast_address", as: .text),
        map("icmpv6.mldr.mar.source_address", "icmpv6.body.mar[*].source_address[*]", as: .text),
        map("icmpv6.mldr.mar.auxiliary_data", "icmpv6.body.mar[*].auxiliary_data", as: .position),
        map("ipv6.opt.jumbo", "ipv6.hopopts.options[*].jumbo"),
    ]
}
