extension BundledSchemaOracleTests {
    /// Routing and control protocols of the sixth round (scripts/capture-routing2.sh):
    /// igmp-mld.pcap (the kernel's IGMPv1/v2/v3 and MLDv1/v2 between a receiver and a Linux bridge
    /// querier; its other IGMP and MLD fields are in NetworkMappings and ICMPMappings).
    static let routingExtraMappings: [Mapping] = [
        // IGMPv3 query: a floating-point max response code
        map("igmp.max_resp.exp", "igmp.max_resp_fp.exp"), map("igmp.max_resp.mant", "igmp.max_resp_fp.mant"),
    ]
}
