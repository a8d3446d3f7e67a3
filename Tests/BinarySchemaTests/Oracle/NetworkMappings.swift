extension BundledSchemaOracleTests {
    /// Layer 3 and tunnels: GRE and ERSPAN, IP in IP, VXLAN, Geneve, IGMP, PIM, OSPF, VRRP, BFD, IPsec.
    static let networkMappings: [Mapping] = [
    ]
}
