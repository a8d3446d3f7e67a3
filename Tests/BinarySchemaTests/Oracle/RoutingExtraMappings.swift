extension BundledSchemaOracleTests {
    /// Routing and control protocols of the sixth round (scripts/capture-routing2.sh):
    /// igmp-mld.pcap (the kernel's IGMPv1/v2/v3 and MLDv1/v2 between a receiver and a Linux bridge
    /// querier; its other IGMP and MLD fields are in NetworkMappings and ICMPMappings),
    /// rpki-rtr.pcap (FRR's bgpd with its RPKI module against a small RFC 8210 cache: prefixes,
    /// a router key, serial notify and query, cache reset, end of data, an error report).
    /// rpki-rtr.reserved is not mapped: tshark shows a router key's one zero byte as two bytes
    /// reaching into the length.
    static let routingExtraMappings: [Mapping] = [
        // IGMPv3 query: a floating-point max response code
        map("igmp.max_resp.exp", "igmp.max_resp_fp.exp"), map("igmp.max_resp.mant", "igmp.max_resp_fp.mant"),
        // RPKI-RTR header
        map("rpki-rtr.version", "rpkirtr.version"), map("rpki-rtr.pdu_type", "rpkirtr.pdu_type"),
        map("rpki-rtr.session_id", "rpkirtr.session_id"), map("rpki-rtr.error_code", "rpkirtr.error_code"),
        map("rpki-rtr.length", "rpkirtr.length"),
        map("rpki-rtr.flags", "rpkirtr.flags", "rpkirtr.body.flags", as: .position),
        map("rpki-rtr.flags.aw", "rpkirtr.body.flags.aw"), map("rpki-rtr.flags.rk", "rpkirtr.flags.rk"),
        // RPKI-RTR bodies
        map("rpki-rtr.serial_number", "rpkirtr.body.serial_number"),
        map("rpki-rtr.prefix_length", "rpkirtr.body.prefix_length"), map("rpki-rtr.max_length", "rpkirtr.body.max_length"),
        map("rpki-rtr.ipv4_prefix", "rpkirtr.body.ipv4_prefix", as: .text),
        map("rpki-rtr.ipv6_prefix", "rpkirtr.body.ipv6_prefix", as: .text),
        map("rpki-rtr.as_number", "rpkirtr.body.as_number"),
        map("rpki-rtr.refresh_interval", "rpkirtr.body.refresh_interval"),
        map("rpki-rtr.retry_interval", "rpkirtr.body.retry_interval"),
        map("rpki-rtr.expire_interval", "rpkirtr.body.expire_interval"),
        map("rpki-rtr.subject_key_identifier", "rpkirtr.body.subject_key_identifier", as: .position),
        map("rpki-rtr.subject_public_key_info", "rpkirtr.body.subject_public_key_info", as: .position),
        map("rpki-rtr.length_pdu", "rpkirtr.body.length_pdu"),
        map("rpki-rtr.error_pdu", "rpkirtr.body.error_pdu", as: .position),
        map("rpki-rtr.length_text", "rpkirtr.body.length_text"),
        map("rpki-rtr.error_text", "rpkirtr.body.error_text", as: .text),
    ]
}
