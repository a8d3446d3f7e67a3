extension BundledSchemaOracleTests {
    /// Link types other than Ethernet and the serial ones: 802.11 and radiotap, Linux NFLOG, IPoIB, SLIP.
    static let linkLayerMappings: [Mapping] = [
    ]
}
