extension BundledSchemaOracleTests {
    /// PPP and its framings (raw, HDLC-like, with direction, over Ethernet), Cisco HDLC, Frame Relay.
    static let serialMappings: [Mapping] = [
    ]
}
