extension BundledSchemaOracleTests {
    /// RDP's connection sequence on real traffic between namespaces (scripts/capture-rdp-nfs.sh),
    /// read segment by segment (tshark with tcp.desegment_tcp_streams off): rdp.pcap (xrdp with
    /// standard RDP security and xfreerdp: cookie, MCS domain PDUs, the security exchange and an
    /// encrypted client info PDU), rdp-tls.pcap (xrdp negotiating TLS with xfreerdp: negotiation
    /// request and response, then TLS as TPKT continuation bytes).
    static let rdpAndNFSMappings: [Mapping] = [
        // RDP's negotiation in the X.224 connection request and confirm
        map("rdp.rt_cookie", "rdp.rt_cookie", as: .text),
        map("rdp.neg_type", "rdp.neg_type"),
        map("rdp.negReq.flags", "rdp.req_flags", "rdp.other_flags"), map("rdp.negRsp.flags", "rdp.rsp_flags"),
        map("rdp.negReq.requestedProtocols", "rdp.requestedProtocols"),
        map("rdp.negReq.selectedProtocol", "rdp.selectedProtocol"),
        map("rdp.negFailure.failureCode", "rdp.failureCode"),
        // rdp.neg_length is not mapped: tshark gives the two-byte length a one-byte span.
        // T.125 MCS domain PDUs (Wireshark names their fields t124.*). Not mapped: t124.result (tshark
        // also names so GCC's conference create result inside the Connect-Response, which is bytes
        // here), t124.subHeight and subInterval (tshark's span starts at PER's length byte), and the
        // Segmentation bits (tshark places PER bit fields at the PDU's first byte).
        map("t124.DomainMCSPDU", "t125.DomainMCSPDU"),
        map("t124.reason", "t125.reason"),
        map("t124.initiator", "t125.initiator"), map("t124.requested", "t125.requested"),
        map("t124.channelId", "t125.channelId"),
        map("t124.dataPriority", "t125.send.dataPriority"),
        // The RDP security header of a send data request's user data (standard RDP security)
        map("rdp.flags", "rdp.flags"), map("rdp.flagsHi", "rdp.flagsHi"), map("rdp.length", "rdp.length"),
        map("rdp.encryptedClientRandom", "rdp.encryptedClientRandom", as: .position),
        map("rdp.dataSignature", "rdp.dataSignature", as: .position),
    ]
}
