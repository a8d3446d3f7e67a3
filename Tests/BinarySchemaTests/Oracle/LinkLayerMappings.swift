extension BundledSchemaOracleTests {
    /// Link types other than Ethernet and the serial ones: 802.11 and radiotap, Linux NFLOG, IPoIB, SLIP.
    ///
    /// Not mapped: fields whose bitmask lies in a little-endian word of two bytes or more
    /// (wlan.duration, wlan.seq, wlan.frag, wlan.qos.tid, wlan.fixed.aid, nflog.tlv_type, radiotap.present.tsft,
    /// radiotap.channel.flags.cck, ...): the test reads a bitmask as over big-endian bytes, so no
    /// node can match it; the whole words are mapped instead, their bits are computed values.
    static let linkLayerMappings: [Mapping] = [
        // Radiotap
        map("radiotap.version", "radiotap.version"), map("radiotap.pad", "radiotap.pad"),
        map("radiotap.length", "radiotap.length"), map("radiotap.present.word", "radiotap.present[*].word"),
        map("radiotap.mactime", "radiotap.mactime"),
        map("radiotap.flags.cfp", "radiotap.flags.cfp"), map("radiotap.flags.preamble", "radiotap.flags.preamble"),
        map("radiotap.flags.wep", "radiotap.flags.wep"), map("radiotap.flags.frag", "radiotap.flags.frag"),
        map("radiotap.flags.fcs", "radiotap.flags.fcs"), map("radiotap.flags.datapad", "radiotap.flags.datapad"),
        map("radiotap.flags.badfcs", "radiotap.flags.badfcs"), map("radiotap.flags.shortgi", "radiotap.flags.shortgi"),
        map("radiotap.channel.freq", "radiotap.channel.freq"), map("radiotap.channel.flags", "radiotap.channel.flags.value"),
        map("radiotap.dbm_antsignal", "radiotap.dbm_antsignal", "radiotap.namespace_*.dbm_antsignal"),
        map("radiotap.dbm_antnoise", "radiotap.dbm_antnoise"), map("radiotap.antenna", "radiotap.antenna"),
        map("radiotap.rxflags", "radiotap.rxflags.value"),
        map("wlan.fcs", "radiotap.fcs"),
        // IEEE 802.11: the header
        map("wlan.fc.version", "wlan.fc.version"), map("wlan.fc.type", "wlan.fc.type"), map("wlan.fc.subtype", "wlan.fc.subtype"),
        map("wlan.fc.tods", "wlan.fc.tods"), map("wlan.fc.fromds", "wlan.fc.fromds"), map("wlan.fc.frag", "wlan.fc.frag"),
        map("wlan.fc.retry", "wlan.fc.retry"), map("wlan.fc.pwrmgt", "wlan.fc.pwrmgt"),
        map("wlan.fc.moredata", "wlan.fc.moredata"), map("wlan.fc.protected", "wlan.fc.protected"),
        map("wlan.fc.order", "wlan.fc.order"),
        map("wlan.ra", "wlan.ra", as: .text), map("wlan.ta", "wlan.ta", as: .text),
        map("wlan.da", "wlan.ra", "wlan.da", as: .text), map("wlan.sa", "wlan.ta", "wlan.sa", "wlan.addr4", as: .text),
        map("wlan.bssid", "wlan.ra", "wlan.ta", "wlan.bssid", as: .text),
        map("wlan.staa", "wlan.ra", "wlan.ta", as: .text),
        map("wlan.addr", "wlan.ra", "wlan.ta", "wlan.bssid", "wlan.da", "wlan.sa", "wlan.addr4", as: .text),
        map("wlan.qos", "wlan.qos.value"), map("wlan.htc", "wlan.htc"),
        // Management frames
        map("wlan.fixed.timestamp", "wlan.fixed.timestamp"), map("wlan.fixed.beacon", "wlan.fixed.beacon"),
        map("wlan.fixed.capabilities", "wlan.fixed.capabilities.value"),
        map("wlan.fixed.listen_ival", "wlan.fixed.listen_ival"), map("wlan.fixed.auth.alg", "wlan.fixed.auth_alg"),
        map("wlan.fixed.auth_seq", "wlan.fixed.auth_seq"), map("wlan.fixed.status_code", "wlan.fixed.status_code"),
        map("wlan.fixed.current_ap", "wlan.fixed.current_ap", as: .text),
        map("wlan.fixed.reason_code", "wlan.fixed.reason_code"), map("wlan.fixed.category_code", "wlan.fixed.category_code"),
        map("wlan.fixed.action_code", "wlan.fixed.action_code"), map("wlan.fixed.dialog_token", "wlan.fixed.dialog_token"),
        map("wlan.fixed.baparams", "wlan.fixed.baparams"), map("wlan.fixed.batimeout", "wlan.fixed.batimeout"),
        map("wlan.tag.number", "wlan.tagged[*].number"), map("wlan.tag.length", "wlan.tagged[*].length"),
        map("wlan.ssid", "wlan.tagged[*].ssid", as: .position),
        map("wlan.supported_rates", "wlan.tagged[*].supported_rates[*]"),
        map("wlan.extended_supported_rates", "wlan.tagged[*].supported_rates[*]"),
        map("wlan.tag.oui", "wlan.tagged[*].vendor.oui"), map("wlan.tag.vendor.oui.type", "wlan.tagged[*].vendor.oui_type"),
        map("wlan.ds.current_channel", "wlan.tagged[*].current_channel"),
        map("wlan.tim.dtim_count", "wlan.tagged[*].tim.dtim_count"), map("wlan.tim.dtim_period", "wlan.tagged[*].tim.dtim_period"),
        map("wlan.tim.bmapctl.multicast", "wlan.tagged[*].tim.bmapctl.multicast"),
        map("wlan.tim.bmapctl.offset", "wlan.tagged[*].tim.bmapctl.offset"),
        map("wlan.tim.partial_virtual_bitmap", "wlan.tagged[*].tim.partial_virtual_bitmap", as: .position),
        map("wlan.rsn.version", "wlan.tagged[*].rsn.version"),
        map("wlan.rsn.gcs.oui", "wlan.tagged[*].rsn.gcs.oui"), map("wlan.rsn.gcs.type", "wlan.tagged[*].rsn.gcs.type"),
        map("wlan.rsn.pcs.count", "wlan.tagged[*].rsn.pcs_count"),
        map("wlan.rsn.pcs.oui", "wlan.tagged[*].rsn.pcs[*].oui"), map("wlan.rsn.pcs.type", "wlan.tagged[*].rsn.pcs[*].type"),
        map("wlan.rsn.akms.count", "wlan.tagged[*].rsn.akms_count"),
        map("wlan.rsn.akms.oui", "wlan.tagged[*].rsn.akms[*].oui"), map("wlan.rsn.akms.type", "wlan.tagged[*].rsn.akms[*].type"),
        map("wlan.rsn.capabilities", "wlan.tagged[*].rsn.capabilities"),
        // Control frames
        map("wlan.ba.control", "wlan.ba.control"), map("wlan.fixed.ssc", "wlan.ba.ssc.value", "wlan.fixed.ssc.value"),
        map("wlan.ba.bm", "wlan.ba.bm", as: .position),
        // Protected frames
        map("wlan.ccmp.extiv", "wlan.ccmp", as: .position), map("wlan.wep.key", "wlan.ccmp.key_id", "wlan.wep.key"),
        map("wlan.wep.iv", "wlan.wep.iv"), map("wlan.wep.icv", "wlan.icv"),
        // Linux NFLOG (nflog.tlv spans a TLV without its padding, ours with it: not mapped)
        map("nflog.family", "nflog.family"), map("nflog.version", "nflog.version"), map("nflog.res_id", "nflog.res_id"),
        map("nflog.tlv_length", "nflog.tlvs[*].length"),
        map("nflog.tlv_value", "nflog.tlvs[*].value", as: .position),
        map("nflog.protocol", "nflog.tlvs[*].value.protocol"), map("nflog.hook", "nflog.tlvs[*].value.hook"),
        map("nflog.ifindex_indev", "nflog.tlvs[*].value.ifindex_indev"),
        map("nflog.ifindex_outdev", "nflog.tlvs[*].value.ifindex_outdev"),
        map("nflog.prefix", "nflog.tlvs[*].value.prefix", as: .text),
        map("nflog.uid", "nflog.tlvs[*].value.uid"), map("nflog.gid", "nflog.tlvs[*].value.gid"),
        map("nflog.timestamp", "nflog.tlvs[*].value.timestamp", as: .position),
        // IP over InfiniBand
        map("ipoib.grh.ipver", "ipoib.grh.ipver"), map("ipoib.grh.tclass", "ipoib.grh.tclass"),
        map("ipoib.grh.flowlabel", "ipoib.grh.flowlabel"), map("ipoib.grh.sqpn", "ipoib.grh.sqpn"),
        map("ipoib.grh.sgid", "ipoib.grh.sgid", as: .text),
        map("ipoib.dgid", "ipoib.grh.dgid", "ipoib.daddr.dgid", as: .text), map("ipoib.daddr.qpn", "ipoib.daddr.qpn"),
        map("ipoib.type", "ipoib.type"), map("ipoib.reserved", "ipoib.reserved"),
    ]
}
