extension BundledSchemaOracleTests {
    /// Remote procedure calls and remote desktop (scripts/capture-rpc.sh), between two network
    /// namespaces, read segment by segment (tshark with tcp.desegment_tcp_streams off):
    /// onc-rpc.pcap (rpcbind, rpc.mountd, rpcinfo and showmount: portmap V2 DUMP over TCP with record
    /// marking, NULL calls V2 to V4 and rpcbind V4 GETADDR over UDP and TCP, MOUNT NULL and EXPORT
    /// with AUTH_UNIX credentials), dcerpc.pcap (samba and rpcclient: DCE/RPC
    /// over SMB2 named pipes and over TCP, the endpoint mapper on 135, an NTLMSSP-signed bind, auth3 and
    /// request answered by a fault), vnc.pcap (Xtigervnc and
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
        map("rpc.value_follows", "portmap.entries[*].value_follows", "mount.exports[*].value_follows",
            "mount.exports[*].entry.groups[*].value_follows", "nfs.entries[*].value_follows"),
        map("rpc.auth.stamp", "rpc.call.credentials.unix.stamp"),
        map("rpc.auth.machinename", "rpc.call.credentials.unix.machinename", as: .text),
        map("rpc.auth.uid", "rpc.call.credentials.unix.uid"),
        map("rpc.auth.gid", "rpc.call.credentials.unix.gid", "rpc.call.credentials.unix.gids[*]"),
        map("rpc.opaque_length", "rpc.call.credentials.unix.machinename_length", "mount.exports[*].entry.directory_length",
            "mount.exports[*].entry.groups[*].group_length", "mount.path_length", "portmap.rpcb.netid_length", "portmap.rpcb.addr_length", "portmap.rpcb.owner_length",
            "portmap.uaddr_length", "nfs.what.name_length", "nfs.data_length", "nfs.entries[*].name_length",
            "nfs.compound.tag_length", "nfs.compound.ops[*].component_length", "nfs.tag_length"),
        map("rpc.fill_bytes", "rpc.call.credentials.unix.machinename_fill", "mount.exports[*].entry.directory_fill",
            "mount.exports[*].entry.groups[*].group_fill", "mount.path_fill", "portmap.rpcb.netid_fill", "portmap.rpcb.addr_fill", "portmap.rpcb.owner_fill",
            "portmap.uaddr_fill", "nfs.what.name_fill", "nfs.data_fill", "nfs.entries[*].name_fill", "nfs.object.fill",
            "nfs.what.dir.fill", "nfs.entries[*].name_handle.fill", "nfs.compound.tag_fill", "nfs.compound.ops[*].component_fill",
            "nfs.tag_fill", as: .position),
        // Portmap and rpcbind
        map("portmap.prog", "portmap.entries[*].map.prog", "portmap.prog"),
        map("portmap.version", "portmap.entries[*].map.version", "portmap.version"),
        map("portmap.proto", "portmap.entries[*].map.proto", "portmap.proto"),
        map("portmap.port", "portmap.entries[*].map.port", "portmap.port"),
        map("portmap.rpcb", "portmap.rpcb", as: .position),
        map("portmap.rpcb.prog", "portmap.rpcb.prog"), map("portmap.rpcb.version", "portmap.rpcb.version"),
        map("portmap.rpcb.netid", "portmap.rpcb.netid", as: .text), map("portmap.rpcb.addr", "portmap.rpcb.addr", as: .text),
        map("portmap.rpcb.owner", "portmap.rpcb.owner", as: .text), map("portmap.uaddr", "portmap.uaddr", as: .text),
        // DCE/RPC (connection-oriented), on TCP and in SMB2 pipe transactions. tshark's
        // dcerpc.drep.byteorder and .character are the data representation's nibbles, read
        // from the whole byte: compared by position. A response's opnum is tshark's state.
        map("dcerpc.ver", "dcerpc.ver"), map("dcerpc.ver_minor", "dcerpc.ver_minor"),
        map("dcerpc.pkt_type", "dcerpc.pkt_type"), map("dcerpc.cn_flags", "dcerpc.cn_flags", as: .position),
        map("dcerpc.cn_flags.object", "dcerpc.cn_flags.object"), map("dcerpc.cn_flags.maybe", "dcerpc.cn_flags.maybe"),
        map("dcerpc.cn_flags.dne", "dcerpc.cn_flags.dne"), map("dcerpc.cn_flags.mpx", "dcerpc.cn_flags.mpx"),
        map("dcerpc.cn_flags.reserved", "dcerpc.cn_flags.reserved"),
        map("dcerpc.cn_flags.cancel_pending", "dcerpc.cn_flags.cancel_pending"),
        map("dcerpc.cn_flags.last_frag", "dcerpc.cn_flags.last_frag"),
        map("dcerpc.cn_flags.first_frag", "dcerpc.cn_flags.first_frag"),
        map("dcerpc.drep", "dcerpc.drep", as: .position), map("dcerpc.drep.byteorder", "dcerpc.drep.byteorder", as: .position),
        map("dcerpc.drep.character", "dcerpc.drep.character", as: .position), map("dcerpc.drep.fp", "dcerpc.drep.fp"),
        map("dcerpc.cn_frag_len", "dcerpc.header.cn_frag_len"), map("dcerpc.cn_auth_len", "dcerpc.header.cn_auth_len"),
        map("dcerpc.cn_call_id", "dcerpc.header.cn_call_id"),
        map("dcerpc.cn_max_xmit", "dcerpc.header.body.cn_max_xmit"), map("dcerpc.cn_max_recv", "dcerpc.header.body.cn_max_recv"),
        map("dcerpc.cn_assoc_group", "dcerpc.header.body.cn_assoc_group"),
        map("dcerpc.cn_num_ctx_items", "dcerpc.header.body.cn_num_ctx_items"),
        map("dcerpc.cn_ctx_item", "dcerpc.header.body.cn_ctx_item[*]", as: .position),
        map("dcerpc.cn_ctx_id", "dcerpc.header.body.cn_ctx_item[*].cn_ctx_id", "dcerpc.header.body.cn_ctx_id"),
        map("dcerpc.cn_num_trans_items", "dcerpc.header.body.cn_ctx_item[*].cn_num_trans_items"),
        map("dcerpc.cn_bind_abstract_syntax", "dcerpc.header.body.cn_ctx_item[*].cn_bind_abstract_syntax", as: .position),
        map("dcerpc.cn_bind_to_uuid", "dcerpc.header.body.cn_ctx_item[*].cn_bind_abstract_syntax.cn_bind_to_uuid", as: .position),
        map("dcerpc.cn_bind_if_ver", "dcerpc.header.body.cn_ctx_item[*].cn_bind_abstract_syntax.cn_bind_if_ver"),
        map("dcerpc.cn_bind_if_ver_minor", "dcerpc.header.body.cn_ctx_item[*].cn_bind_abstract_syntax.cn_bind_if_ver_minor"),
        map("dcerpc.cn_bind_trans", "dcerpc.header.body.cn_ctx_item[*].cn_bind_trans[*]", as: .position),
        map("dcerpc.cn_bind_trans_id", "dcerpc.header.body.cn_ctx_item[*].cn_bind_trans[*].cn_bind_trans_id", as: .position),
        map("dcerpc.cn_bind_trans_ver", "dcerpc.header.body.cn_ctx_item[*].cn_bind_trans[*].cn_bind_trans_ver"),
        map("dcerpc.cn_sec_addr_len", "dcerpc.header.body.cn_sec_addr_len"),
        map("dcerpc.cn_sec_addr", "dcerpc.header.body.cn_sec_addr", as: .position),  // text views escape its backslashes
        map("dcerpc.cn_num_results", "dcerpc.header.body.cn_num_results"),
        map("dcerpc.cn_ack_result", "dcerpc.header.body.results[*].cn_ack_result"),
        map("dcerpc.cn_ack_trans_id", "dcerpc.header.body.results[*].cn_ack_trans_id", as: .position),
        map("dcerpc.cn_ack_trans_ver", "dcerpc.header.body.results[*].cn_ack_trans_ver"),
        map("dcerpc.cn_alloc_hint", "dcerpc.header.body.cn_alloc_hint"), map("dcerpc.opnum", "dcerpc.header.body.opnum"),
        map("dcerpc.cn_cancel_count", "dcerpc.header.body.cn_cancel_count"),
        map("dcerpc.cn_fault_flags", "dcerpc.header.body.cn_fault_flags"), map("dcerpc.cn_status", "dcerpc.header.body.cn_status"),
        // The auth verifier (bind, bind_ack and auth3 with NTLMSSP; a signed request). tshark's
        // dcerpc.payload_stub_data is the NDR its interface decoder read, which in a signed request
        // stops before the verification trailer; ours is the whole stub: not compared.
        map("dcerpc.auth_info", "dcerpc.header.auth", as: .position),
        map("dcerpc.auth_type", "dcerpc.header.auth.auth_type"), map("dcerpc.auth_level", "dcerpc.header.auth.auth_level"),
        map("dcerpc.auth_pad_len", "dcerpc.header.auth.auth_pad_len"), map("dcerpc.auth_rsrvd", "dcerpc.header.auth.auth_rsrvd"),
        map("dcerpc.auth_ctx_id", "dcerpc.header.auth.auth_ctx_id"),
        // VNC (RFB). tshark reads only the first client message of a segment (ours: all of them),
        // and ClientInit's shared flag, one byte, reads here as a chosen security type: not compared.
        // So KeyEvents and FramebufferUpdateRequests (after SetEncodings and PointerEvents in
        // vnc.pcap) are not in the oracle, nor mapped.
        map("vnc.server_proto_ver", "vnc.server_proto_ver", as: .text), map("vnc.client_proto_ver", "vnc.client_proto_ver", as: .text),
        map("vnc.num_security_types", "vnc.num_security_types"), map("vnc.security_type", "vnc.security_type[*]"),
        map("vnc.client_security_type", "vnc.client_security_type"), map("vnc.auth_result", "vnc.auth_result"),
        map("vnc.width", "vnc.server_init.width"), map("vnc.height", "vnc.server_init.height"),
        map("vnc.server_bits_per_pixel", "vnc.server_init.server_bits_per_pixel"),
        map("vnc.server_depth", "vnc.server_init.server_depth"),
        map("vnc.server_big_endian_flag", "vnc.server_init.server_big_endian_flag"),
        map("vnc.server_true_color_flag", "vnc.server_init.server_true_color_flag"),
        map("vnc.server_red_max", "vnc.server_init.server_red_max"), map("vnc.server_green_max", "vnc.server_init.server_green_max"),
        map("vnc.server_blue_max", "vnc.server_init.server_blue_max"),
        map("vnc.server_red_shift", "vnc.server_init.server_red_shift"),
        map("vnc.server_green_shift", "vnc.server_init.server_green_shift"),
        map("vnc.server_blue_shift", "vnc.server_init.server_blue_shift"),
        map("vnc.padding", "vnc.server_init.padding", "vnc.client[*].body.padding", "vnc.server[*].body.padding", as: .position),
        map("vnc.desktop_name_len", "vnc.server_init.desktop_name_len"),
        map("vnc.desktop_name", "vnc.server_init.desktop_name", as: .text),
        map("vnc.client_message_type", "vnc.client[*].client_message_type"),
        map("vnc.client_set_encodings_num", "vnc.client[*].body.client_set_encodings_num"),
        map("vnc.client_set_encodings_encoding_type", "vnc.client[*].body.client_set_encodings_encoding_type[*]"),
        map("vnc.button_1_pos", "vnc.client[*].body.button_1_pos"), map("vnc.button_2_pos", "vnc.client[*].body.button_2_pos"),
        map("vnc.button_3_pos", "vnc.client[*].body.button_3_pos"), map("vnc.button_4_pos", "vnc.client[*].body.button_4_pos"),
        map("vnc.button_5_pos", "vnc.client[*].body.button_5_pos"), map("vnc.button_6_pos", "vnc.client[*].body.button_6_pos"),
        map("vnc.button_7_pos", "vnc.client[*].body.button_7_pos"), map("vnc.button_8_pos", "vnc.client[*].body.button_8_pos"),
        map("vnc.pointer_x_pos", "vnc.client[*].body.pointer_x_pos"), map("vnc.pointer_y_pos", "vnc.client[*].body.pointer_y_pos"),
        map("vnc.server_message_type", "vnc.server[*].server_message_type"),
        map("vnc.fb_update_num_rects", "vnc.server[*].body.fb_update_num_rects"),
        map("vnc.fb_update_x_pos", "vnc.server[*].body.rects[*].fb_update_x_pos"),
        map("vnc.fb_update_y_pos", "vnc.server[*].body.rects[*].fb_update_y_pos"),
        map("vnc.fb_update_width", "vnc.server[*].body.rects[*].fb_update_width"),
        map("vnc.fb_update_height", "vnc.server[*].body.rects[*].fb_update_height"),
        map("vnc.fb_update_encoding_type", "vnc.server[*].body.rects[*].fb_update_encoding_type"),
        map("vnc.raw_pixel_data", "vnc.server[*].body.rects[*].raw_pixel_data", as: .position),
    ]
}
