extension BundledSchemaOracleTests {
    /// Layer 2 on Ethernet: 802.3 with LLC/SNAP, STP, CDP, LLDP, LACP, EAPOL, MPLS, PPPoE, MACsec.
    static let l2Mappings: [Mapping] = [
        map("eth.len", "eth.len"), map("eth.padding", "eth.padding", as: .position),
        map("llc.dsap", "llc.dsap"), map("llc.ssap", "llc.ssap"), map("llc.control", "llc.control"),
        map("llc.oui", "llc.oui"), map("llc.type", "llc.type"), map("llc.cisco_pid", "llc.cisco_pid"),
    ]
}
