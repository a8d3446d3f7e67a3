extension BundledSchemaOracleTests {
    /// SCTP, DNS over TCP, mDNS, LLMNR, the Ethernet trailer.
    static let transportMappings: [Mapping] = [
    ]
}
