extension BundledSchemaOracleTests {
    /// RDP's connection sequence on real traffic between namespaces (scripts/capture-rdp-nfs.sh),
    /// read segment by segment (tshark with tcp.desegment_tcp_streams off): rdp.pcap (xrdp with
    /// standard RDP security and xfreerdp: cookie, MCS domain PDUs, the security exchange and an
    /// encrypted client info PDU), rdp-tls.pcap (xrdp negotiating TLS with xfreerdp: negotiation
    /// request and response, then TLS as TPKT continuation bytes); nfs.pcap (nfs-ganesha and
    /// libnfs-utils' nfs-ls and nfs-cat: MOUNT, then NFSv3 calls and replies, the replies read by
    /// their shape). The RPC fields inside NFS (rpc.opaque_length, rpc.fill_bytes,
    /// rpc.value_follows) are in RPCMappings.
    static let rdpAndNFSMappings: [Mapping] = [
        // RDP's negotiation in the X.224 connection request and confirm
        map("rdp.rt_cookie", "rdp.rt_cookie", as: .text),
        map("rdp.neg_type", "rdp.neg_type"),
        map("rdp.negReq.flags", "rdp.req_flags", "rdp.other_flags"), map("rdp.negRsp.flags", "rdp.rsp_flags"),
        map("rdp.negReq.requestedProtocols", "rdp.requestedProtocols"),
        map("rdp.negReq.selectedProtocol", "rdp.selectedProtocol"),
        // rdp.negFailure.failureCode is not mapped: no capture holds a negotiation failure.
        // rdp.neg_length is not mapped: tshark gives the two-byte length a one-byte span.
        // T.125 MCS domain PDUs (Wireshark names their fields t124.*). Not mapped: t124.result (tshark
        // also names so GCC's conference create result inside the Connect-Response, which is part of
        // the t124.connectPDU bytes here), t124.subHeight and subInterval (tshark's span starts at PER's length byte), and the
        // Segmentation bits (tshark places PER bit fields at the PDU's first byte).
        map("t124.DomainMCSPDU", "t125.DomainMCSPDU"),
        map("t124.reason", "t125.reason"),
        map("t124.initiator", "t125.initiator"), map("t124.requested", "t125.requested"),
        map("t124.channelId", "t125.channelId"),
        map("t124.dataPriority", "t125.send.dataPriority"),
        // MCS Connect-Initial and Connect-Response (BER), GCC's ConnectData (T.124) and RDP's data blocks
        // (t125.ConnectMCSPDU is not mapped: tshark's span starts at the identifier octet, ours is the
        // tag number's octet after it; nor t124.connectPDU, whose span tshark takes from the PER length,
        // which xrdp's response writes short of the user data)
        map("t125.result", "t125.result"),
        map("t125.calledConnectId", "t125.calledConnectId"),
        map("t125.callingDomainSelector", "t125.initial.callingDomainSelector", as: .position),
        map("t125.calledDomainSelector", "t125.initial.calledDomainSelector", as: .position),
        map("t125.maxChannelIds", "t125.initial.targetParameters.maxChannelIds", "t125.initial.minimumParameters.maxChannelIds", "t125.initial.maximumParameters.maxChannelIds", "t125.domainParameters.maxChannelIds"),
        map("t125.maxUserIds", "t125.initial.targetParameters.maxUserIds", "t125.initial.minimumParameters.maxUserIds", "t125.initial.maximumParameters.maxUserIds", "t125.domainParameters.maxUserIds"),
        map("t125.maxTokenIds", "t125.initial.targetParameters.maxTokenIds", "t125.initial.minimumParameters.maxTokenIds", "t125.initial.maximumParameters.maxTokenIds", "t125.domainParameters.maxTokenIds"),
        map("t125.numPriorities", "t125.initial.targetParameters.numPriorities", "t125.initial.minimumParameters.numPriorities", "t125.initial.maximumParameters.numPriorities", "t125.domainParameters.numPriorities"),
        map("t125.minThroughput", "t125.initial.targetParameters.minThroughput", "t125.initial.minimumParameters.minThroughput", "t125.initial.maximumParameters.minThroughput", "t125.domainParameters.minThroughput"),
        map("t125.maxHeight", "t125.initial.targetParameters.maxHeight", "t125.initial.minimumParameters.maxHeight", "t125.initial.maximumParameters.maxHeight", "t125.domainParameters.maxHeight"),
        map("t125.maxMCSPDUsize", "t125.initial.targetParameters.maxMCSPDUsize", "t125.initial.minimumParameters.maxMCSPDUsize", "t125.initial.maximumParameters.maxMCSPDUsize", "t125.domainParameters.maxMCSPDUsize"),
        map("t125.protocolVersion", "t125.initial.targetParameters.protocolVersion", "t125.initial.minimumParameters.protocolVersion", "t125.initial.maximumParameters.protocolVersion", "t125.domainParameters.protocolVersion"),
        map("t124.object", "t124.object", as: .position),
        map("t124.h221NonStandard", "t124.connectPDU.h221NonStandard", as: .position),
        map("rdp.header.type", "rdp.blocks[*].type"), map("rdp.header.length", "rdp.blocks[*].length"),
        map("rdp.version.major", "rdp.blocks[*].body.version_major"), map("rdp.version.minor", "rdp.blocks[*].body.version_minor"),
        map("rdp.desktop.width", "rdp.blocks[*].body.width"), map("rdp.desktop.height", "rdp.blocks[*].body.height"),
        map("rdp.colorDepth", "rdp.blocks[*].body.colorDepth"), map("rdp.SASSequence", "rdp.blocks[*].body.SASSequence"),
        map("rdp.keyboardLayout", "rdp.blocks[*].body.keyboardLayout"), map("rdp.client.build", "rdp.blocks[*].body.build"),
        map("rdp.client.name", "rdp.blocks[*].body.client_name", as: .text),
        map("rdp.encryptionMethods", "rdp.blocks[*].body.encryptionMethods", as: .position),
        map("rdp.extEncryptionMethods", "rdp.blocks[*].body.extEncryptionMethods", as: .position),
        map("rdp.channelCount", "rdp.blocks[*].body.client_channelCount", "rdp.blocks[*].body.server_channelCount"),
        map("rdp.name", "rdp.blocks[*].body.channels[*].name", as: .text),
        map("rdp.options", "rdp.blocks[*].body.channels[*].options"),
        map("rdp.clusterFlags", "rdp.blocks[*].body.clusterFlags"),
        map("rdp.redirectedSessionId", "rdp.blocks[*].body.redirectedSessionId"),
        map("rdp.encryptionMethod", "rdp.blocks[*].body.encryptionMethod"),
        map("rdp.encryptionLevel", "rdp.blocks[*].body.encryptionLevel"),
        map("rdp.serverRandomLen", "rdp.blocks[*].body.serverRandomLen"), map("rdp.serverCertLen", "rdp.blocks[*].body.serverCertLen"),
        map("rdp.serverRandom", "rdp.blocks[*].body.serverRandom", as: .position),
        map("rdp.serverCertificate", "rdp.blocks[*].body.serverCertificate", as: .position),
        map("rdp.MCSChannelId", "rdp.blocks[*].body.MCSChannelId", "rdp.blocks[*].body.channelIds[*].id"),
        // The RDP security header of a send data request's user data (standard RDP security)
        map("rdp.flags", "rdp.flags"), map("rdp.flagsHi", "rdp.flagsHi"), map("rdp.length", "rdp.length"),
        map("rdp.encryptedClientRandom", "rdp.encryptedClientRandom", as: .position),
        map("rdp.dataSignature", "rdp.dataSignature", as: .position),
        // MOUNT's MNT answer
        map("mount.status", "mount.status"), map("mount.flavors", "mount.flavors"), map("mount.flavor", "mount.flavor_list[*].flavor"),
        // NFSv3 calls
        // nfs.procedure_v3 is not mapped: no tshark occurrence of it is compared in these captures.
        map("nfs.fh.length", "mount.fhandle.length", "nfs.object.length", "nfs.what.dir.length", "nfs.entries[*].name_handle.length"),
        map("nfs.fhandle", "mount.fhandle.fhandle", "nfs.object.fhandle", "nfs.what.dir.fhandle", "nfs.entries[*].name_handle.fhandle", as: .position),
        map("nfs.name", "nfs.what.name", as: .text),
        map("nfs.access_check", "nfs.access_check"),
        map("nfs.offset3", "nfs.offset3"), map("nfs.count3", "nfs.count3", "nfs.readdir_count"),
        map("nfs.cookie3", "nfs.cookie3"), map("nfs.count3_dircount", "nfs.dircount"), map("nfs.count3_maxcount", "nfs.maxcount"),
        // NFSv3 replies: the status, fattr3 (GETATTR's, or a post_op_attr's), and each procedure's results
        map("nfs.status", "nfs.status"),
        map("nfs.attributes_follow", "nfs.obj_attributes.attributes_follow", "nfs.dir_attributes.attributes_follow",
            "nfs.entries[*].name_attributes.attributes_follow"),
        map("nfs.fattr3.type", "nfs.attributes.type", "nfs.obj_attributes.attributes.type", "nfs.dir_attributes.attributes.type", "nfs.entries[*].name_attributes.attributes.type"),
        map("nfs.mode3", "nfs.attributes.mode3", "nfs.obj_attributes.attributes.mode3", "nfs.dir_attributes.attributes.mode3", "nfs.entries[*].name_attributes.attributes.mode3"),
        map("nfs.fattr3.nlink", "nfs.attributes.nlink", "nfs.obj_attributes.attributes.nlink", "nfs.dir_attributes.attributes.nlink", "nfs.entries[*].name_attributes.attributes.nlink"),
        map("nfs.fattr3.uid", "nfs.attributes.uid", "nfs.obj_attributes.attributes.uid", "nfs.dir_attributes.attributes.uid", "nfs.entries[*].name_attributes.attributes.uid"),
        map("nfs.fattr3.gid", "nfs.attributes.gid", "nfs.obj_attributes.attributes.gid", "nfs.dir_attributes.attributes.gid", "nfs.entries[*].name_attributes.attributes.gid"),
        map("nfs.fattr3.size", "nfs.attributes.size", "nfs.obj_attributes.attributes.size", "nfs.dir_attributes.attributes.size", "nfs.entries[*].name_attributes.attributes.size"),
        map("nfs.fattr3.used", "nfs.attributes.used", "nfs.obj_attributes.attributes.used", "nfs.dir_attributes.attributes.used", "nfs.entries[*].name_attributes.attributes.used"),
        map("nfs.specdata1", "nfs.attributes.specdata1", "nfs.obj_attributes.attributes.specdata1", "nfs.dir_attributes.attributes.specdata1", "nfs.entries[*].name_attributes.attributes.specdata1"),
        map("nfs.specdata2", "nfs.attributes.specdata2", "nfs.obj_attributes.attributes.specdata2", "nfs.dir_attributes.attributes.specdata2", "nfs.entries[*].name_attributes.attributes.specdata2"),
        map("nfs.fattr3.fsid", "nfs.attributes.fsid", "nfs.obj_attributes.attributes.fsid", "nfs.dir_attributes.attributes.fsid", "nfs.entries[*].name_attributes.attributes.fsid"),
        map("nfs.fattr3.fileid", "nfs.attributes.fileid", "nfs.obj_attributes.attributes.fileid", "nfs.dir_attributes.attributes.fileid", "nfs.entries[*].name_attributes.attributes.fileid"),
        map("nfs.atime.sec", "nfs.attributes.atime.sec", "nfs.obj_attributes.attributes.atime.sec", "nfs.dir_attributes.attributes.atime.sec", "nfs.entries[*].name_attributes.attributes.atime.sec"),
        map("nfs.atime.nsec", "nfs.attributes.atime.nsec", "nfs.obj_attributes.attributes.atime.nsec", "nfs.dir_attributes.attributes.atime.nsec", "nfs.entries[*].name_attributes.attributes.atime.nsec"),
        map("nfs.mtime.sec", "nfs.attributes.mtime.sec", "nfs.obj_attributes.attributes.mtime.sec", "nfs.dir_attributes.attributes.mtime.sec", "nfs.entries[*].name_attributes.attributes.mtime.sec"),
        map("nfs.mtime.nsec", "nfs.attributes.mtime.nsec", "nfs.obj_attributes.attributes.mtime.nsec", "nfs.dir_attributes.attributes.mtime.nsec", "nfs.entries[*].name_attributes.attributes.mtime.nsec"),
        map("nfs.ctime.sec", "nfs.attributes.ctime.sec", "nfs.obj_attributes.attributes.ctime.sec", "nfs.dir_attributes.attributes.ctime.sec", "nfs.entries[*].name_attributes.attributes.ctime.sec"),
        map("nfs.ctime.nsec", "nfs.attributes.ctime.nsec", "nfs.obj_attributes.attributes.ctime.nsec", "nfs.dir_attributes.attributes.ctime.nsec", "nfs.entries[*].name_attributes.attributes.ctime.nsec"),
        map("nfs.fsinfo.rtmax", "nfs.rtmax"), map("nfs.fsinfo.rtpref", "nfs.rtpref"), map("nfs.fsinfo.rtmult", "nfs.rtmult"),
        map("nfs.fsinfo.wtmax", "nfs.wtmax"), map("nfs.fsinfo.wtpref", "nfs.wtpref"), map("nfs.fsinfo.wtmult", "nfs.wtmult"),
        map("nfs.fsinfo.dtpref", "nfs.dtpref"), map("nfs.fsinfo.maxfilesize", "nfs.maxfilesize"),
        map("nfs.dtime.sec", "nfs.time_delta.sec"), map("nfs.dtime.nsec", "nfs.time_delta.nsec"),
        map("nfs.fsinfo.properties", "nfs.properties"),
        // PATHCONF's replies are not in the capture: nfs.pathconf.* is not mapped.
        map("nfs.access_rights", "nfs.access_rights"),
        map("nfs.read.eof", "nfs.eof"), map("nfs.data", "nfs.data", as: .position),
        map("nfs.verifier", "nfs.cookieverf3", "nfs.cookieverf", as: .position),
        map("nfs.readdirplus.entry.fileid", "nfs.entries[*].fileid"),
        map("nfs.readdirplus.entry.name", "nfs.entries[*].name", as: .text),
        map("nfs.readdirplus.entry.cookie", "nfs.entries[*].cookie"),
        map("nfs.readdir.eof", "nfs.readdir_eof"),
        // NFSv4 COMPOUND is not mapped: no NFSv4 capture yet (see scripts/capture-rdp-nfs.sh).
    ]
}
