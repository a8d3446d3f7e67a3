extension BundledSchemaOracleTests {
    /// Link types other than Ethernet: 802.11 and radiotap, PPP and its framings, Cisco HDLC, Frame Relay, NFLOG.
    static let linkLayerMappings: [Mapping] = [
    ]
}
