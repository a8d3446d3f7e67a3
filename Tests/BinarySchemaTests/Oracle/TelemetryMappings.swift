extension BundledSchemaOracleTests {
    /// Building automation and telemetry on real traffic between two network namespaces
    /// (scripts/capture-telemetry.sh): bacnet.pcap (bacpypes3: BVLC, NPDU, APDU).
    static let telemetryMappings: [Mapping] = [
        // BACnet/IP: the virtual link header, the NPDU and its control bits
        map("bvlc.type", "bvlc.type"), map("bvlc.function", "bvlc.function"),
        // (bvlc.length is the BVLC's whole length on the wire and ours; tshark's value is 4, the
        // header's, with the wire's in its text: "4 of 21 bytes BACnet packet length")
        map("bacnet.version", "bacnet.version"), map("bacnet.control", "bacnet.control", as: .position),
        map("bacnet.control_net", "bacnet.control.control_net"), map("bacnet.control_res1", "bacnet.control.control_res1"),
        map("bacnet.control_dest", "bacnet.control.control_dest"), map("bacnet.control_res2", "bacnet.control.control_res2"),
        map("bacnet.control_src", "bacnet.control.control_src"), map("bacnet.control_expect", "bacnet.control.control_expect"),
        map("bacnet.control_prio_high", "bacnet.control.control_prio_high"),
        map("bacnet.control_prio_low", "bacnet.control.control_prio_low"),
        map("bacnet.dnet", "bacnet.dnet"), map("bacnet.dlen", "bacnet.dlen"), map("bacnet.hopc", "bacnet.hopc"),
        // The APDU's header by type
        map("bacapp.type", "bacapp.type"),
        map("bacapp.pduflags", "bacapp.pduflags", "bacapp.ack_flags", as: .position),
        map("bacapp.segmented_request", "bacapp.pduflags.segmented_request", "bacapp.ack_flags.segmented_request"),
        map("bacapp.more_segments", "bacapp.pduflags.more_segments", "bacapp.ack_flags.more_segments"),
        map("bacapp.SA", "bacapp.pduflags.SA"),
        map("bacapp.response_segments", "bacapp.response_segments"), map("bacapp.max_adpu_size", "bacapp.max_adpu_size"),
        map("bacapp.invoke_id", "bacapp.invoke_id"), map("bacapp.confirmed_service", "bacapp.confirmed_service"),
        map("bacapp.unconfirmed_service", "bacapp.unconfirmed_service"),
        // Each tag, and the values named by the service and the property they belong to
        map("bacapp.tag_class", "bacapp.tags[*].tag_class"),
        map("bacapp.application_tag_number", "bacapp.tags[*].application_tag_number"),
        map("bacapp.context_tag_number", "bacapp.tags[*].context_tag_number"),
        map("bacapp.named_tag", "bacapp.tags[*].named_tag"),
        map("bacapp.LVT", "bacapp.tags[*].LVT", "bacapp.tags[*].extended_length"),
        map("bacapp.objectType", "bacapp.tags[*].value.object_id.objectType"),
        map("bacapp.instance_number", "bacapp.tags[*].value.object_id.instance_number"),
        map("bacapp.property_identifier", "bacapp.tags[*].value.property_identifier"),
        map("bacapp.vendor_identifier", "bacapp.tags[*].value.vendor_identifier"),
        map("bacapp.who_is.low_limit", "bacapp.tags[*].value.low_limit"),
        map("bacapp.who_is.high_limit", "bacapp.tags[*].value.high_limit"),
        // (tshark's error class and code, and a present value, span the tag and its value: ours is
        // the value, inside the tag)
        map("bacapp.error_class", "bacapp.tags[*]", as: .position), map("bacapp.error_code", "bacapp.tags[*]", as: .position),
        map("bacapp.string_character_set", "bacapp.tags[*].value.string_character_set"),
        map("bacapp.object_name", "bacapp.tags[*].value.object_name", as: .text),
        map("bacapp.unused_bits", "bacapp.tags[*].value.unused_bits"),
        map("bacapp.present_value.real", "bacapp.tags[*]", as: .position),
        map("bacapp.present_value.enum_index", "bacapp.tags[*]", as: .position),
    ]
}
