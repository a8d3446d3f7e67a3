extension BundledSchemaOracleTests {
    /// ICMP and ICMPv6 errors with their quoted datagram, MLD, fragments, jumbograms, TSO lengths.
    static let icmpMappings: [Mapping] = [
        map("icmp.unused", "icmp.body.unused", as: .position), map("icmp.pointer", "icmp.body.pointer"),
        map("icmp.redir_gw", "icmp.body.gateway", as: .text),
        map("icmpv6.reserved", "icmpv6.body.reserved", as: .position), map("icmpv6.mtu", "icmpv6.body.mtu"),
        map("icmpv6.pointer", "icmpv6.body.pointer"),
    ]
}
