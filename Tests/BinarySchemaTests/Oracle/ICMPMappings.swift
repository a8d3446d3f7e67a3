extension BundledSchemaOracleTests {
    /// ICMP and ICMPv6 errors with their quoted datagram, MLD, fragments, jumbograms, TSO lengths.
    static let icmpMappings: [Mapping] = [
    ]
}
