extension BundledSchemaOracleTests {
    /// Layer 4 and what rides on it directly: SCTP, DNS over TCP, mDNS, LLMNR.
    static let transportMappings: [Mapping] = [
    ]
}
