extension BundledSchemaOracleTests {
    /// Transport variants (scripts/capture-transport.sh): MPTCP options from the kernel's MPTCP
    /// (mptcp.pcap) and crafted (mptcp-crafted.pcap); UDP-Lite from the kernel (udplite.pcap); IPv6
    /// routing headers from the kernel's SRv6 (seg6.pcap) and crafted (ipv6-ext-full.pcap).
    static let transportVariantMappings: [Mapping] = [
        // UDP-Lite (udplite.pcap, the kernel's, over IPv4 and IPv6): tshark names its fields as UDP's;
        // udp.srcport, udp.dstport and udp.checksum are mapped in CoreMappings with UDP's.
        map("udp.checksum_coverage", "udplite.checksum_coverage"),
        // IPv6 routing headers (seg6.pcap, the kernel's SRv6; ipv6-ext-full.pcap, crafted): the common
        // part, then by type (0: source route, 2: Mobile IPv6's home address, 4: segment routing).
        map("ipv6.routing.nxt", "ipv6.routing.next_header"), map("ipv6.routing.len", "ipv6.routing.length"),
        map("ipv6.routing.type", "ipv6.routing.routing_type"), map("ipv6.routing.segleft", "ipv6.routing.segments_left"),
        map("ipv6.routing.src.reserved", "ipv6.routing.data.reserved", as: .position),
        map("ipv6.routing.src.addr", "ipv6.routing.data.addresses[*]", as: .text),
        map("ipv6.routing.mipv6.reserved", "ipv6.routing.data.reserved", as: .position),
        map("ipv6.routing.mipv6.home_address", "ipv6.routing.data.home_address", as: .text),
        map("ipv6.routing.srh.last_entry", "ipv6.routing.data.last_entry"),
        map("ipv6.routing.srh.flags", "ipv6.routing.data.flags"),
        map("ipv6.routing.srh.tag", "ipv6.routing.data.tag", as: .position),
        map("ipv6.routing.srh.addr", "ipv6.routing.data.segments[*]", as: .text),
        // MPTCP: each option is a layer of its own ("mptcp"), its fields named tcp.options.mptcp.*.
        // Not mapped: tshark's tcp.options.mptcp.flags (the whole flags byte, over our bit fields),
        // mptcp.rm_addr.count (a count tshark places on the subtype's byte), and the relative
        // numbers it works out across the connection (mptcp.ack, mptcp.dsn, ...).
        map("tcp.options.mptcp.subtype", "mptcp.body.subtype"),
        map("tcp.options.mptcp.version", "mptcp.body.version"),
        map("tcp.options.mptcp.checksumreq.flags", "mptcp.body.flags.checksum_required"),
        map("tcp.options.mptcp.extensibility.flag", "mptcp.body.flags.extensibility"),
        map("tcp.options.mptcp.nomoresubflows.flag", "mptcp.body.flags.no_more_subflows"),
        map("tcp.options.mptcp.sha256.flag", "mptcp.body.flags.hmac"),
        map("tcp.options.mptcp.sha1.flag", "mptcp.body.flags.hmac"),
        map("tcp.options.mptcp.reserved.flag", "mptcp.body.flags.reserved"),
        map("tcp.options.mptcp.sendkey", "mptcp.body.sender_key"),
        map("tcp.options.mptcp.recvkey", "mptcp.body.receiver_key"),
        map("tcp.options.mptcp.datalvllen", "mptcp.body.data_level_length"),
        map("tcp.options.mptcp.checksum", "mptcp.body.checksum"),
        map("tcp.options.mptcp.backup.flag", "mptcp.body.backup"),
        map("tcp.options.mptcp.addrid", "mptcp.body.address_id", "mptcp.body.address_ids[*]"),
        map("tcp.options.mptcp.recvtok", "mptcp.body.receiver_token"),
        map("tcp.options.mptcp.sendrand", "mptcp.body.sender_random"),
        map("tcp.options.mptcp.sendtrunchmac", "mptcp.body.sender_truncated_hmac"),
        map("tcp.options.mptcp.sendhmac", "mptcp.body.sender_hmac", as: .position),
        map("tcp.options.mptcp.reserved", "mptcp.body.reserved", "mptcp.body.reserved_ack"),
        map("tcp.options.mptcp.datafin.flag", "mptcp.body.flags.data_fin"),
        map("tcp.options.mptcp.dseqn8.flag", "mptcp.body.flags.dsn_8"),
        map("tcp.options.mptcp.dseqnpresent.flag", "mptcp.body.flags.dsn_present"),
        map("tcp.options.mptcp.dataack8.flag", "mptcp.body.flags.data_ack_8"),
        map("tcp.options.mptcp.dataackpresent.flag", "mptcp.body.flags.data_ack_present"),
        map("tcp.options.mptcp.rawdataack", "mptcp.body.data_ack"),
        map("tcp.options.mptcp.rawdataseqno", "mptcp.body.data_sequence_number"),
        map("tcp.options.mptcp.subflowseqno", "mptcp.body.subflow_sequence_number"),
        map("tcp.options.mptcp.echo", "mptcp.body.echo"),
        map("tcp.options.mptcp.ipv4", "mptcp.body.ipv4", as: .text),
        map("tcp.options.mptcp.ipv6", "mptcp.body.ipv6", as: .text),
        map("tcp.options.mptcp.port", "mptcp.body.port"),
        map("tcp.options.mptcp.addaddrtrunchmac", "mptcp.body.truncated_hmac"),
        map("tcp.options.mptcp.flag_U.flag", "mptcp.body.flag_u"),
        map("tcp.options.mptcp.flag_V.flag", "mptcp.body.flag_v"),
        map("tcp.options.mptcp.flag_W.flag", "mptcp.body.flag_w"),
        map("tcp.options.mptcp.flag_T.flag", "mptcp.body.transient"),
        map("tcp.options.mptcp.rst_reason", "mptcp.body.reason"),
    ]
}
