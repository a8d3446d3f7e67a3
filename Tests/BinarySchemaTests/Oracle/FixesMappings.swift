extension BundledSchemaOracleTests {
    /// Fields decoded where dissect once called real frames malformed (issue 29), on the captures of
    /// scripts/capture-fixes.sh: syslog-nopri.pcap (RFC 3164 messages with and without a PRI), gvrp.pcap
    /// (crafted by scripts/corpus/gvrp.py: GVRP PDUs, which share STP's LLC SAPs). The TLS 1.3 draft
    /// hellos of tls13-drafts.pcap (scripts/corpus/tls13-drafts.py) are compared by TLSMappings.
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
    ]
}
