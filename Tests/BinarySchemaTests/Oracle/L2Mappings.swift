extension BundledSchemaOracleTests {
    /// Layer 2 on Ethernet: 802.3 with LLC/SNAP, STP, CDP, LLDP, LACP, EAPOL, MPLS, PPPoE, MACsec.
    static let l2Mappings: [Mapping] = [
    ]
}
