extension BundledSchemaOracleTests {
    /// ICMP and ICMPv6 errors with their quoted datagram, MLD, fragments, jumbograms; SCTP, DNS over TCP, mDNS, LLMNR.
    static let transportMappings: [Mapping] = [
    ]
}
