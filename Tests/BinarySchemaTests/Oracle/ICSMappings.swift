extension BundledSchemaOracleTests {
    /// Industrial control over TCP and UDP on real loopback traffic (scripts/capture-ics.sh), read
    /// segment by segment (tshark with tcp.desegment_tcp_streams off): modbus.pcap (pymodbus),
    /// s7comm.pcap (python-snap7: TPKT, COTP, S7comm), enip.pcap (cpppo and pycomm3: EtherNet/IP, CIP).
    static let icsMappings: [Mapping] = [
        // Modbus/TCP: the MBAP header, then the PDU by function and direction
        map("mbtcp.trans_id", "mbtcp.trans_id"), map("mbtcp.prot_id", "mbtcp.prot_id"), map("mbtcp.len", "mbtcp.len"),
        map("mbtcp.unit_id", "mbtcp.unit_id"),
        map("modbus.func_code", "modbus.func_code"), map("modbus.exception_code", "modbus.exception_code"),
        map("modbus.reference_num", "modbus.body.reference_num"), map("modbus.bit_cnt", "modbus.body.bit_cnt"),
        map("modbus.word_cnt", "modbus.body.word_cnt"), map("modbus.byte_cnt", "modbus.body.byte_cnt"),
        map("modbus.byte_cnt_16", "modbus.body.byte_cnt_16"),
        map("modbus.regval_uint16", "modbus.body.registers[*]"),
        map("modbus.data", "modbus.body.data", as: .position),
        map("modbus.read_reference_num", "modbus.body.read_reference_num"),
        map("modbus.read_word_cnt", "modbus.body.read_word_cnt"),
        map("modbus.write_reference_num", "modbus.body.write_reference_num"),
        map("modbus.write_word_cnt", "modbus.body.write_word_cnt"),
        map("modbus.and_mask", "modbus.body.and_mask"), map("modbus.or_mask", "modbus.body.or_mask"),
        map("modbus.diagnostic_code", "modbus.body.diagnostic_code"),
        map("modbus.diagnostic.return_query_data.request", "modbus.body.request", as: .position),
        map("modbus.diagnostic.return_query_data.echo", "modbus.body.echo", as: .position),
        map("modbus.mei", "modbus.body.mei"), map("modbus.read_device_id", "modbus.body.read_device_id"),
        map("modbus.object_id", "modbus.body.object_id", "modbus.body.objects[*].object_id"),
        map("modbus.conformity_level", "modbus.body.conformity_level"), map("modbus.more_follows", "modbus.body.more_follows"),
        map("modbus.next_object_id", "modbus.body.next_object_id"), map("modbus.num_objects", "modbus.body.num_objects"),
        map("modbus.objects_len", "modbus.body.objects[*].objects_len"),
        map("modbus.object_str_value", "modbus.body.objects[*].object_str_value", as: .text),
    ]
}
