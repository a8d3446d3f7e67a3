extension BundledSchemaOracleTests {
    /// VPNs and key exchange between two network namespaces (scripts/capture-vpn.sh): ikev2.pcap
    /// (strongSwan, a pre-shared key: IKE_SA_INIT on UDP 500, IKE_AUTH, CREATE_CHILD_SA and
    /// INFORMATIONAL on UDP 4500 behind the non-ESP marker, ESP in UDP 4500), openvpn-udp.pcap and
    /// openvpn-tcp.pcap (OpenVPN with TLS and tls-auth), wireguard.pcap (wireguard-go).
    static let vpnMappings: [Mapping] = [
        // ISAKMP header (version and flags are bit structs: their byte is compared by position)
        map("isakmp.ispi", "isakmp.ispi", as: .position), map("isakmp.rspi", "isakmp.rspi", as: .position),
        map("isakmp.version", "isakmp.version", as: .position),
        map("isakmp.mjver", "isakmp.version.mjver"), map("isakmp.mnver", "isakmp.version.mnver"),
        map("isakmp.exchangetype", "isakmp.exchangetype"),
        map("isakmp.flags", "isakmp.flags", as: .position),
        map("isakmp.flag_i", "isakmp.flags.i"), map("isakmp.flag_v", "isakmp.flags.v"), map("isakmp.flag_r", "isakmp.flags.r"),
        map("isakmp.messageid", "isakmp.messageid"), map("isakmp.length", "isakmp.length"),
        // The payload chain: tshark's "typepayload" spans a payload, proposal or transform
        map("isakmp.typepayload", "isakmp.payloads[*]", "isakmp.payloads[*].body.proposals[*]",
            "isakmp.payloads[*].body.proposals[*].body.transform[*]", as: .position),
        map("isakmp.nextpayload", "isakmp.nextpayload", "isakmp.payloads[*].nextpayload",
            "isakmp.payloads[*].body.proposals[*].nextpayload",
            "isakmp.payloads[*].body.proposals[*].body.transform[*].nextpayload"),
        map("isakmp.criticalpayload", "isakmp.payloads[*].criticalpayload"),
        map("isakmp.reserved7", "isakmp.payloads[*].reserved7"),
        map("isakmp.payloadlength", "isakmp.payloads[*].payloadlength",
            "isakmp.payloads[*].body.proposals[*].payloadlength",
            "isakmp.payloads[*].body.proposals[*].body.transform[*].payloadlength"),
        map("isakmp.reserved", "isakmp.payloads[*].body.reserved", "isakmp.payloads[*].body.proposals[*].reserved",
            "isakmp.payloads[*].body.proposals[*].body.transform[*].reserved",
            "isakmp.payloads[*].body.proposals[*].body.transform[*].body.reserved", as: .position),
        // Security Association: proposals, transforms, attributes
        map("isakmp.prop.number", "isakmp.payloads[*].body.proposals[*].body.number"),
        map("isakmp.prop.protoid", "isakmp.payloads[*].body.proposals[*].body.protoid"),
        map("isakmp.spisize", "isakmp.payloads[*].body.proposals[*].body.spisize", "isakmp.payloads[*].body.spisize"),
        map("isakmp.prop.transforms", "isakmp.payloads[*].body.proposals[*].body.transforms"),
        map("isakmp.tf.type", "isakmp.payloads[*].body.proposals[*].body.transform[*].body.type"),
        map("isakmp.tf.id.encr", "isakmp.payloads[*].body.proposals[*].body.transform[*].body.id"),
        map("isakmp.tf.id.prf", "isakmp.payloads[*].body.proposals[*].body.transform[*].body.id"),
        map("isakmp.tf.id.integ", "isakmp.payloads[*].body.proposals[*].body.transform[*].body.id"),
        map("isakmp.tf.id.dh", "isakmp.payloads[*].body.proposals[*].body.transform[*].body.id"),
        map("isakmp.ike2.attr", "isakmp.payloads[*].body.proposals[*].body.transform[*].body.attr[*]", as: .position),
        map("isakmp.ike2.attr.format", "isakmp.payloads[*].body.proposals[*].body.transform[*].body.attr[*].format"),
        map("isakmp.ike2.attr.type", "isakmp.payloads[*].body.proposals[*].body.transform[*].body.attr[*].type"),
        map("isakmp.ike2.attr.value", "isakmp.payloads[*].body.proposals[*].body.transform[*].body.attr[*].value",
            "isakmp.payloads[*].body.proposals[*].body.transform[*].body.attr[*].data", as: .position),
        map("isakmp.ike2.attr.key_length", "isakmp.payloads[*].body.proposals[*].body.transform[*].body.attr[*].value"),
        // Key Exchange, Nonce, Notify, Encrypted
        map("isakmp.key_exchange.dh_group", "isakmp.payloads[*].body.dh_group"),
        map("isakmp.key_exchange.data", "isakmp.payloads[*].body.data", as: .position),
        map("isakmp.nonce", "isakmp.payloads[*].body", as: .position),
        map("isakmp.notify.protoid", "isakmp.payloads[*].body.protoid"),
        map("isakmp.notify.msgtype", "isakmp.payloads[*].body.msgtype"),
        map("isakmp.notify.data", "isakmp.payloads[*].body.data", as: .position),
        map("isakmp.notify.data.signature_hash_algorithms", "isakmp.payloads[*].body.data.algorithms[*]"),
        map("isakmp.enc.iv", "isakmp.payloads[*].body.iv", as: .position),
        map("isakmp.enc.data", "isakmp.payloads[*].body.data", as: .position),
        // UDP 4500
        map("udpencap.non_esp_marker", "udpencap.non_esp_marker", as: .position),
        // OpenVPN (over TCP after openvpn.plen); the type byte is a bit struct: compared by position
        map("openvpn.plen", "openvpn.plen"),
        map("openvpn.type", "openvpn.type", as: .position),
        map("openvpn.opcode", "openvpn.type.opcode"), map("openvpn.keyid", "openvpn.type.keyid"),
        map("openvpn.sessionid", "openvpn.body.sessionid"), map("openvpn.hmac", "openvpn.body.hmac", as: .position),
        map("openvpn.pid", "openvpn.body.pid"), map("openvpn.net_time", "openvpn.body.net_time", as: .position),
        map("openvpn.mpidarraylength", "openvpn.body.mpidarraylength"),
        map("openvpn.mpidarrayelement", "openvpn.body.mpidarrayelement[*]"),
        map("openvpn.rsessionid", "openvpn.body.rsessionid"), map("openvpn.mpid", "openvpn.body.mpid"),
        map("openvpn.peerid", "openvpn.body.peerid"),
        map("openvpn.data", "openvpn.body.data", "openvpn.body.rest", as: .position),
        // WireGuard (little-endian; tshark shows wg.ephemeral as base64 text: compared by position)
        map("wg.type", "wg.type"), map("wg.reserved", "wg.reserved", as: .position),
        map("wg.sender", "wg.sender"), map("wg.receiver", "wg.receiver"),
        map("wg.ephemeral", "wg.ephemeral", as: .position),
        map("wg.encrypted_static", "wg.encrypted_static", as: .position),
        map("wg.encrypted_timestamp", "wg.encrypted_timestamp", as: .position),
        map("wg.encrypted_empty", "wg.encrypted_empty", as: .position),
        map("wg.mac1", "wg.mac1", as: .position), map("wg.mac2", "wg.mac2", as: .position),
        map("wg.counter", "wg.counter"), map("wg.encrypted_packet", "wg.encrypted_packet", as: .position),
    ]
}
