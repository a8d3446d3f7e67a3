extension BundledSchemaOracleTests {
    /// UDP application protocols (udp-apps.pcap: real NTP, DHCP, syslog and SNMP traffic).
    static let udpApplicationMappings: [Mapping] = [
        // NTP: timestamps are compared by position (tshark shows them as dates).
        map("ntp.flags.li", "ntp.flags.li"), map("ntp.flags.vn", "ntp.flags.vn"), map("ntp.flags.mode", "ntp.flags.mode"),
        map("ntp.stratum", "ntp.stratum"), map("ntp.ppoll", "ntp.ppoll"), map("ntp.precision", "ntp.precision", as: .position),
        map("ntp.rootdelay", "ntp.rootdelay", as: .position), map("ntp.rootdispersion", "ntp.rootdispersion", as: .position),
        map("ntp.refid", "ntp.refid", as: .position),
        map("ntp.reftime", "ntp.reftime", as: .position), map("ntp.org", "ntp.org", as: .position),
        map("ntp.rec", "ntp.rec", as: .position), map("ntp.xmt", "ntp.xmt", as: .position),
        // DHCPv4
        map("dhcp.type", "dhcp.type"), map("dhcp.hw.type", "dhcp.hw_type", "dhcp.options[*].value.client_id.hw_type"),
        map("dhcp.hw.len", "dhcp.hw_len"), map("dhcp.hops", "dhcp.hops"), map("dhcp.id", "dhcp.id"),
        map("dhcp.secs", "dhcp.secs"), map("dhcp.flags.bc", "dhcp.flags.bc"), map("dhcp.flags.reserved", "dhcp.flags.reserved"),
        map("dhcp.ip.client", "dhcp.ip.client", as: .text), map("dhcp.ip.your", "dhcp.ip.your", as: .text),
        map("dhcp.ip.server", "dhcp.ip.server", as: .text), map("dhcp.ip.relay", "dhcp.ip.relay", as: .text),
        map("dhcp.hw.mac_addr", "dhcp.hw.mac_addr", "dhcp.options[*].value.client_id.mac_addr", as: .text),
        map("dhcp.hw.addr_padding", "dhcp.hw.addr_padding", as: .position),
        map("dhcp.server", "dhcp.server", as: .position), map("dhcp.file", "dhcp.file", as: .position),
        map("dhcp.cookie", "dhcp.cookie", as: .position),
        map("dhcp.option.type", "dhcp.options[*]", as: .position),  // tshark: the whole option
        map("dhcp.option.length", "dhcp.options[*].length"),
        map("dhcp.option.value", "dhcp.options[*].value", as: .position),
        map("dhcp.option.padding", "dhcp.padding", as: .position),
        map("dhcp.option.dhcp", "dhcp.options[*].value.dhcp"),
        map("dhcp.option.subnet_mask", "dhcp.options[*].value.subnet_mask", as: .text),
        map("dhcp.option.router", "dhcp.options[*].value.router[*]", as: .text),
        map("dhcp.option.domain_name_server", "dhcp.options[*].value.domain_name_server[*]", as: .text),
        map("dhcp.option.broadcast_address", "dhcp.options[*].value.broadcast_address", as: .text),
        map("dhcp.option.requested_ip_address", "dhcp.options[*].value.requested_ip_address", as: .text),
        map("dhcp.option.ip_address_lease_time", "dhcp.options[*].value.ip_address_lease_time"),
        map("dhcp.option.dhcp_server_id", "dhcp.options[*].value.dhcp_server_id", as: .text),
        map("dhcp.option.request_list_item", "dhcp.options[*].value.request_list_item[*]"),
        map("dhcp.option.dhcp_max_message_size", "dhcp.options[*].value.dhcp_max_message_size"),
        map("dhcp.option.renewal_time_value", "dhcp.options[*].value.renewal_time_value"),
        map("dhcp.option.rebinding_time_value", "dhcp.options[*].value.rebinding_time_value"),
        map("dhcp.option.vendor_class_id", "dhcp.options[*].value.vendor_class_id", as: .text),
        // Syslog: facility and level are computed from the PRI's digits (tshark's bitmask is of the number);
        // timestamp, hostname, appname and procid include their terminating space here.
        map("syslog.msg", "syslog.msg", as: .position), map("syslog.version", "syslog.msg.version", as: .text),
        map("syslog.msgid", "syslog.msg.msgid", as: .position),
        // SNMP: tshark's fields are a BER value's contents; snmp.data is the whole PDU, its *_element the PDU's contents.
        map("snmp.version", "snmp.version.value"), map("snmp.community", "snmp.community.value", as: .text),
        map("snmp.data", "snmp.data", as: .position),
        map("snmp.get_request_element", "snmp.data.body", as: .position),
        map("snmp.get_response_element", "snmp.data.body", as: .position),
        map("snmp.request_id", "snmp.data.body.request_id.value"),
        map("snmp.error_status", "snmp.data.body.error_status.value"),
        map("snmp.error_index", "snmp.data.body.error_index.value"),
        map("snmp.variable_bindings", "snmp.data.body.variable_bindings[*]", as: .position),
        map("snmp.name", "snmp.data.body.variable_bindings[*].name", as: .position),
        map("snmp.value.octets", "snmp.data.body.variable_bindings[*].value", as: .position),
        map("snmp.var-bind_str", "snmp.data.body.variable_bindings[*].value", as: .position),
    ]

    /// Multicast DNS (mdns.pcap): the flag in the top bit of a question's or record's class; the
    /// rest of the message is DNS's, mapped with `dnsMap` in CoreMappings.
    static let mdnsMappings: [Mapping] = [
        map("dns.qry.qu", "mdns.questions[*].unicast_response"),
        map("dns.resp.cache_flush", "mdns.answers[*].cache_flush", "mdns.authorities[*].cache_flush",
            "mdns.additionals[*].cache_flush"),
    ]
}
