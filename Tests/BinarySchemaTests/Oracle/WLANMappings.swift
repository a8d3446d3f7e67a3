extension BundledSchemaOracleTests {
    /// IEEE 802.11 beyond the header (issue 30): the information elements of management frames
    /// (country, ERP, HT capabilities and operation, extended capabilities, VHT capabilities and
    /// operation, HE capabilities and operation, WMM, WPS), TKIP, A-MSDU subframes.
    ///
    /// Not mapped: bits inside little-endian words of two bytes or more (wlan.ht.capabilities.*,
    /// wlan.vht.capabilities.*, wlan.ht.info.dualbeacon, wlan.ext_tag.he_operation.twt_required, the
    /// MCS maps' per-stream fields, ...): the test reads a bitmask as over big-endian bytes, so the
    /// whole words are mapped and their bits are computed values; wlan.ext_tag.length (the tag's
    /// length less one, on the same byte); wlan.ext_tag.he_phy_cap.fbytes (masked 0xfe over a byte
    /// read whole here); tshark's computed wlan.wfa.ie.wme.acp.cw.max and .cw.min.
    static let wlanMappings: [Mapping] = [
        // Country, ERP
        map("wlan.country_info.code", "wlan.tagged[*].country.code", as: .text),
        map("wlan.country_info.environment", "wlan.tagged[*].country.environment"),
        map("wlan.country_info.fnm.fcn", "wlan.tagged[*].country.fnm[*].fcn"),
        map("wlan.country_info.fnm.nc", "wlan.tagged[*].country.fnm[*].nc"),
        map("wlan.country_info.fnm.mtpl", "wlan.tagged[*].country.fnm[*].mtpl"),
        map("wlan.country_info.padding", "wlan.tagged[*].country.padding", as: .position),
        map("wlan.erp_info.erp_present", "wlan.tagged[*].erp_info.erp_present"),
        map("wlan.erp_info.use_protection", "wlan.tagged[*].erp_info.use_protection"),
        map("wlan.erp_info.barker_preamble_mode", "wlan.tagged[*].erp_info.barker_preamble_mode"),
        map("wlan.erp_info.reserved", "wlan.tagged[*].erp_info.reserved"),
        // HT capabilities and operation
        map("wlan.ht.capabilities", "wlan.tagged[*].ht.capabilities"),
        map("wlan.ht.ampduparam.maxlength", "wlan.tagged[*].ht.ampduparam.maxlength"),
        map("wlan.ht.ampduparam.mpdudensity", "wlan.tagged[*].ht.ampduparam.mpdudensity"),
        map("wlan.ht.ampduparam.reserved", "wlan.tagged[*].ht.ampduparam.reserved"),
        map("wlan.htex.capabilities", "wlan.tagged[*].ht.htex"), map("wlan.txbf", "wlan.tagged[*].ht.txbf"),
        map("wlan.asel.capable", "wlan.tagged[*].ht.asel.capable"), map("wlan.asel.txcsi", "wlan.tagged[*].ht.asel.txcsi"),
        map("wlan.asel.txif", "wlan.tagged[*].ht.asel.txif"), map("wlan.asel.csi", "wlan.tagged[*].ht.asel.csi"),
        map("wlan.asel.if", "wlan.tagged[*].ht.asel.if_"), map("wlan.asel.rx", "wlan.tagged[*].ht.asel.rx"),
        map("wlan.asel.sppdu", "wlan.tagged[*].ht.asel.sppdu"), map("wlan.asel.reserved", "wlan.tagged[*].ht.asel.reserved"),
        map("wlan.ht.info.primarychannel", "wlan.tagged[*].ht_info.primarychannel"),
        map("wlan.ht.info.secchanoffset", "wlan.tagged[*].ht_info.delim1.secchanoffset"),
        map("wlan.ht.info.chanwidth", "wlan.tagged[*].ht_info.delim1.chanwidth"),
        map("wlan.ht.info.rifs", "wlan.tagged[*].ht_info.delim1.rifs"),
        map("wlan.ht.info.reserved_b4_b7", "wlan.tagged[*].ht_info.delim1.reserved_b4_b7"),
        map("wlan.ht.info.delim2", "wlan.tagged[*].ht_info.delim2"),
        map("wlan.ht.info.delim3", "wlan.tagged[*].ht_info.delim3"),
        // Extended capabilities
        map("wlan.extcap", "wlan.tagged[*].extcap.extcap[*]", "wlan.tagged[*].extcap.extcap_8_9"),
        // VHT capabilities and operation
        map("wlan.vht.capabilities", "wlan.tagged[*].vht.capabilities"),
        map("wlan.vht.mcsset.rxmcsmap", "wlan.tagged[*].vht.rxmcsmap"),
        map("wlan.vht.mcsset.txmcsmap", "wlan.tagged[*].vht.txmcsmap"),
        map("wlan.vht.op.channelwidth", "wlan.tagged[*].vht_op.channelwidth"),
        map("wlan.vht.op.channelcenter0", "wlan.tagged[*].vht_op.channelcenter0"),
        map("wlan.vht.op.channelcenter1", "wlan.tagged[*].vht_op.channelcenter1"),
        map("wlan.vht.op.basicmcsmap", "wlan.tagged[*].vht_op.basicmcsmap"),
        // Element ID extension: HE capabilities and operation
        map("wlan.ext_tag.number", "wlan.tagged[*].ext_tag.number"),
        map("wlan.ext_tag.he_mac_caps", "wlan.tagged[*].ext_tag.he_mac_caps"),
        map("wlan.ext_tag.he_phy_cap.bits_8_to_23", "wlan.tagged[*].ext_tag.he_phy_cap.bits_8_to_23"),
        map("wlan.ext_tag.he_phy_cap.bits_24_to_39", "wlan.tagged[*].ext_tag.he_phy_cap.bits_24_to_39"),
        map("wlan.ext_tag.he_phy_cap.bits_40_to_55", "wlan.tagged[*].ext_tag.he_phy_cap.bits_40_to_55"),
        map("wlan.ext_tag.he_phy_cap.bits_56_to_71", "wlan.tagged[*].ext_tag.he_phy_cap.bits_56_to_71"),
        map("wlan.ext_tag.he_phy_cap.bits_72_to_87", "wlan.tagged[*].ext_tag.he_phy_cap.bits_72_to_87"),
        map("wlan.ext_tag.he_mcs_map.rx_he_mcs_map_lte_80", "wlan.tagged[*].ext_tag.he_mcs_map.rx_he_mcs_map_lte_80"),
        map("wlan.ext_tag.he_mcs_map.tx_he_mcs_map_lte_80", "wlan.tagged[*].ext_tag.he_mcs_map.tx_he_mcs_map_lte_80"),
        map("wlan.ext_tag.he_operation.params", "wlan.tagged[*].ext_tag.he_operation.params"),
        map("wlan.ext_tag.he_operation.basic_he_mcs_and_nss", "wlan.tagged[*].ext_tag.he_operation.basic_he_mcs_and_nss"),
        map("wlan.ext_tag.bss_color_information.bss_color_disabled",
            "wlan.tagged[*].ext_tag.he_operation.bss_color_information.bss_color_disabled"),
        map("wlan.ext_tag.bss_color_information.partial_bss_color",
            "wlan.tagged[*].ext_tag.he_operation.bss_color_information.partial_bss_color"),
        map("wlan.ext_tag.bss_color_information.bss_color",
            "wlan.tagged[*].ext_tag.he_operation.bss_color_information.bss_color"),
        // WMM (Wi-Fi Alliance vendor element, type 2)
        map("wlan.wfa.ie.type", "wlan.tagged[*].vendor.oui_type"),
        map("wlan.wfa.ie.wme.subtype", "wlan.tagged[*].vendor.wme.subtype"),
        map("wlan.wfa.ie.wme.version", "wlan.tagged[*].vendor.wme.version"),
        map("wlan.wfa.ie.wme.qos_info", "wlan.tagged[*].vendor.wme.qos_info"),
        map("wlan.wfa.ie.wme.reserved", "wlan.tagged[*].vendor.wme.reserved", as: .position),
        map("wlan.wfa.ie.wme.acp.aci", "wlan.tagged[*].vendor.wme.acp[*].aci_aifsn.aci"),
        map("wlan.wfa.ie.wme.acp.acm", "wlan.tagged[*].vendor.wme.acp[*].aci_aifsn.acm"),
        map("wlan.wfa.ie.wme.acp.aifsn", "wlan.tagged[*].vendor.wme.acp[*].aci_aifsn.aifsn"),
        map("wlan.wfa.ie.wme.acp.reserved", "wlan.tagged[*].vendor.wme.acp[*].aci_aifsn.reserved"),
        map("wlan.wfa.ie.wme.acp.ecw.max", "wlan.tagged[*].vendor.wme.acp[*].ecw.max"),
        map("wlan.wfa.ie.wme.acp.ecw.min", "wlan.tagged[*].vendor.wme.acp[*].ecw.min"),
        map("wlan.wfa.ie.wme.acp.txop_limit", "wlan.tagged[*].vendor.wme.acp[*].txop_limit"),
        // WPS (Wi-Fi Alliance vendor element, type 4)
        map("wps.type", "wlan.tagged[*].vendor.wps[*].type"), map("wps.length", "wlan.tagged[*].vendor.wps[*].length"),
        map("wps.version", "wlan.tagged[*].vendor.wps[*].value"),
        map("wps.wifi_protected_setup_state", "wlan.tagged[*].vendor.wps[*].value"),
        map("wps.selected_registrar", "wlan.tagged[*].vendor.wps[*].value"),
        map("wps.response_type", "wlan.tagged[*].vendor.wps[*].value"),
        map("wps.uuid_e", "wlan.tagged[*].vendor.wps[*].value", as: .position),
        map("wps.manufacturer", "wlan.tagged[*].vendor.wps[*].value", as: .text),
        map("wps.model_name", "wlan.tagged[*].vendor.wps[*].value", as: .text),
        map("wps.model_number", "wlan.tagged[*].vendor.wps[*].value", as: .text),
        map("wps.serial_number", "wlan.tagged[*].vendor.wps[*].value", as: .text),
        map("wps.device_name", "wlan.tagged[*].vendor.wps[*].value", as: .text),
        map("wps.config_methods", "wlan.tagged[*].vendor.wps[*].value"),
        map("wps.primary_device_type", "wlan.tagged[*].vendor.wps[*].value", as: .position),
        map("wps.primary_device_type.category", "wlan.tagged[*].vendor.wps[*].value.category"),
        map("wps.vendor_extension", "wlan.tagged[*].vendor.wps[*].value", as: .position),
        map("wps.vendor_id", "wlan.tagged[*].vendor.wps[*].value.vendor_id"),
        map("wps.ext.id", "wlan.tagged[*].vendor.wps[*].value.ext[*].id"),
        map("wps.ext.len", "wlan.tagged[*].vendor.wps[*].value.ext[*].len"),
        map("wps.ext.version2", "wlan.tagged[*].vendor.wps[*].value.ext[*].version2"),
        // TKIP, A-MSDU
        map("wlan.tkip.extiv", "wlan.tkip", as: .position),
        map("wlan_aggregate.a_mdsu.subframe", "wlan.amsdu[*]", as: .position),
        map("wlan_aggregate.a_mdsu.length", "wlan.amsdu[*].length"),
    ]
}
