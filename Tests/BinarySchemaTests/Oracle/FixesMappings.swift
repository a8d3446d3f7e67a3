extension BundledSchemaOracleTests {
    /// Fields decoded where dissect once called real frames malformed (issue 29), on the captures of
    /// scripts/capture-fixes.sh: syslog-nopri.pcap (RFC 3164 messages with and without a PRI).
    static let fixesMappings: [Mapping] = [
        // Syslog (RFC 3164): the timestamp as Wireshark 4.0 reads it. syslog.procid and
        // syslog.hostname are not compared: in an RFC 5424 message (udp-apps.pcap) they hold their
        // terminating space here, Wireshark's do not.
        map("syslog.timestamp_rfc3164", "syslog.msg.timestamp", as: .text),
    ]
}
