extension BundledSchemaOracleTests {
    /// Remote procedure calls and remote desktop (scripts/capture-rpc.sh), between two network
    /// namespaces, read segment by segment (tshark with tcp.desegment_tcp_streams off):
    /// onc-rpc.pcap (rpcbind and rpcinfo: portmap V2 DUMP over TCP with record marking, NULL calls
    /// V2 to V4 and rpcbind V4 GETADDR over UDP and TCP), dcerpc.pcap (samba and rpcclient: DCE/RPC
    /// over SMB2 named pipes and over TCP, the endpoint mapper on 135), vnc.pcap (Xtigervnc and
    /// vncdotool).
    static let rpcMappings: [Mapping] = [
        // ONC RPC. In a reply tshark adds rpc.program, rpc.programversion and rpc.procedure from the
        // call it matched (generated, no bytes): not compared.
        map("rpc.lastfrag", "rpc.lastfrag"), map("rpc.fraglen", "rpc.fraglen"),
        map("rpc.xid", "rpc.xid"), map("rpc.msgtyp", "rpc.msgtyp"),
        map("rpc.version", "rpc.call.version"), map("rpc.program", "rpc.call.program"),
        map("rpc.programversion", "rpc.call.programversion"), map("rpc.procedure", "rpc.call.procedure"),
        map("rpc.auth.flavor", "rpc.call.credentials.flavor", "rpc.call.verifier.flavor", "rpc.reply.verifier.flavor"),
        map("rpc.auth.length", "rpc.call.credentials.length", "rpc.call.verifier.length", "rpc.reply.verifier.length"),
        map("rpc.replystat", "rpc.reply.replystat"), map("rpc.state_accept", "rpc.reply.state_accept"),
        map("rpc.value_follows", "portmap.entries[*].value_follows"),
        map("rpc.opaque_length", "portmap.rpcb.netid_length", "portmap.rpcb.addr_length", "portmap.rpcb.owner_length",
            "portmap.uaddr_length"),
        map("rpc.fill_bytes", "portmap.rpcb.netid_fill", "portmap.rpcb.addr_fill", "portmap.rpcb.owner_fill",
            "portmap.uaddr_fill", as: .position),
        // Portmap and rpcbind
        map("portmap.prog", "portmap.entries[*].map.prog", "portmap.prog"),
        map("portmap.version", "portmap.entries[*].map.version", "portmap.version"),
        map("portmap.proto", "portmap.entries[*].map.proto", "portmap.proto"),
        map("portmap.port", "portmap.entries[*].map.port", "portmap.port"),
        map("portmap.rpcb", "portmap.rpcb", as: .position),
        map("portmap.rpcb.prog", "portmap.rpcb.prog"), map("portmap.rpcb.version", "portmap.rpcb.version"),
        map("portmap.rpcb.netid", "portmap.rpcb.netid", as: .text), map("portmap.rpcb.addr", "portmap.rpcb.addr", as: .text),
        map("portmap.rpcb.owner", "portmap.rpcb.owner", as: .text), map("portmap.uaddr", "portmap.uaddr", as: .text),
    ]
}
