extension BundledSchemaOracleTests {
    /// Layer 3 and tunnels: GRE and ERSPAN, IP in IP, VXLAN, Geneve, IGMP, MLD, PIM, OSPF, VRRP, BFD, IPsec, ICMP errors.
    static let networkMappings: [Mapping] = [
    ]
}
