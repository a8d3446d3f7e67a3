extension BundledSchemaOracleTests {
    /// Fields decoded where dissect once called real frames malformed (issue 29), on the captures of
    /// scripts/capture-fixes.sh: syslog-nopri.pcap (RFC 3164 messages with and without a PRI), gvrp.pcap
    /// (crafted by scripts/corpus/gvrp.py: GVRP PDUs, which share STP's LLC SAPs). The TLS 1.3 draft
    /// hellos of tls13-drafts.pcap (scripts/corpus/tls13-drafts.py) are compared by TLSMappings. gquic.pcap
    /// (scripts/corpus/gquic.py): gQUIC Q043 and Q046 client hellos.
    static let fixesMappings: [Mapping] = [
        // Syslog (RFC 3164): the timestamp as Wireshark 4.0 reads it. syslog.procid and
        // syslog.hostname are not compared: in an RFC 5424 message (udp-apps.pcap) they hold their
        // terminating space here, Wireshark's do not.
        map("syslog.timestamp_rfc3164", "syslog.msg.timestamp", as: .text),
        // GVRP
        map("gvrp.protocol_id", "gvrp.protocol_id"), map("gvrp.attribute_type", "gvrp.message[*].attribute_type"),
        map("gvrp.attribute_length", "gvrp.message[*].attribute[*].attribute_length"),
        map("gvrp.attribute_event", "gvrp.message[*].attribute[*].attribute_event"),
        map("gvrp.attribute_value", "gvrp.message[*].attribute[*].attribute_value"),
        map("gvrp.end_of_mark", "gvrp.end_of_mark", "gvrp.message[*].end_of_mark", as: .position),
        // gQUIC: the frames of a client's first packets (STREAM, the CHLO's tags) are payload bytes here.
        map("gquic.puflags", "gquic.puflags", as: .position),   // Q043's flags; Q046's first byte
        map("gquic.puflags.version", "gquic.puflags.version"), map("gquic.puflags.reset", "gquic.puflags.reset"),
        map("gquic.puflags.nonce", "gquic.puflags.nonce"), map("gquic.puflags.cid", "gquic.puflags.cid"),
        map("gquic.puflags.pkn", "gquic.puflags.pkn"), map("gquic.puflags.mpth", "gquic.puflags.mpth"),
        map("gquic.puflags.rsv", "gquic.puflags.rsv"),
        map("gquic.cid", "gquic.cid", "gquic.dcid", "gquic.scid"), map("gquic.version", "gquic.version", as: .text),
        map("gquic.packet_number", "gquic.packet_number"),
        map("gquic.message_authentication_hash", "gquic.message_authentication_hash", as: .position),
        map("gquic.header_form", "gquic.puflags.header_form"), map("gquic.fixed_bit", "gquic.puflags.fixed_bit"),
        map("gquic.long.packet_type", "gquic.puflags.long_packet_type"), map("gquic.long.reserved", "gquic.puflags.reserved"),
        map("gquic.packet_number_length", "gquic.puflags.packet_number_length"),
        map("gquic.dcil", "gquic.dcil"), map("gquic.scil", "gquic.scil"), map("gquic.payload", "gquic.payload", as: .position),
    ]
}
