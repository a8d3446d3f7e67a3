extension BundledSchemaOracleTests {
    /// SCTP, DNS over TCP, LLMNR.
    static let transportMappings: [Mapping] = [
        // SCTP: the common header, then chunks. tshark shows TSNs relative to the first it saw;
        // sctp.data_tsn_raw and sctp.sack_cumulative_tsn_ack_raw are the values on the wire.
        map("sctp.srcport", "sctp.srcport"), map("sctp.dstport", "sctp.dstport"),
        map("sctp.verification_tag", "sctp.verification_tag"), map("sctp.checksum", "sctp.checksum"),
        map("sctp.chunk_type", "sctp.chunks[*].type"), map("sctp.chunk_flags", "sctp.chunks[*].flags"),
        map("sctp.chunk_length", "sctp.chunks[*].length"),
        map("sctp.chunk_value", "sctp.chunks[*].value", as: .position),
        map("sctp.chunk_padding", "sctp.chunks[*].padding", as: .position),
        map("sctp.data_tsn_raw", "sctp.chunks[*].value.tsn"), map("sctp.data_sid", "sctp.chunks[*].value.stream_id"),
        map("sctp.data_ssn", "sctp.chunks[*].value.stream_seq"),
        map("sctp.data_payload_proto_id", "sctp.chunks[*].value.payload_proto_id"),
        map("sctp.init_initiate_tag", "sctp.chunks[*].value.initiate_tag"),
        map("sctp.initack_initiate_tag", "sctp.chunks[*].value.initiate_tag"),
        map("sctp.initiate_tag", "sctp.chunks[*].value.initiate_tag"),
        map("sctp.init_credit", "sctp.chunks[*].value.a_rwnd"), map("sctp.initack_credit", "sctp.chunks[*].value.a_rwnd"),
        map("sctp.init_nr_out_streams", "sctp.chunks[*].value.outbound_streams"),
        map("sctp.initack_nr_out_streams", "sctp.chunks[*].value.outbound_streams"),
        map("sctp.init_nr_in_streams", "sctp.chunks[*].value.inbound_streams"),
        map("sctp.initack_nr_in_streams", "sctp.chunks[*].value.inbound_streams"),
        map("sctp.init_initial_tsn", "sctp.chunks[*].value.initial_tsn"),
        map("sctp.initack_initial_tsn", "sctp.chunks[*].value.initial_tsn"),
        map("sctp.parameter_type", "sctp.chunks[*].value.parameters[*].type", "sctp.chunks[*].value[*].type"),
        map("sctp.parameter_length", "sctp.chunks[*].value.parameters[*].length", "sctp.chunks[*].value[*].length"),
        map("sctp.parameter_ipv4_address", "sctp.chunks[*].value.parameters[*].value", as: .text),
        map("sctp.parameter_supported_address_type", "sctp.chunks[*].value.parameters[*].value[*]"),
        map("sctp.parameter_state_cookie", "sctp.chunks[*].value.parameters[*].value", as: .position),
        map("sctp.parameter_heartbeat_information", "sctp.chunks[*].value[*].value", as: .position),
        map("sctp.cookie", "sctp.chunks[*].value.cookie", as: .position),
        map("sctp.sack_cumulative_tsn_ack_raw", "sctp.chunks[*].value.cumulative_tsn_ack"),
        map("sctp.shutdown_cumulative_tsn_ack", "sctp.chunks[*].value.cumulative_tsn_ack"),
        map("sctp.sack_a_rwnd", "sctp.chunks[*].value.a_rwnd"),
        map("sctp.sack_number_of_gap_blocks", "sctp.chunks[*].value.gap_block_count"),
        map("sctp.sack_number_of_duplicated_tsns", "sctp.chunks[*].value.duplicate_tsn_count"),
        map("sctp.sack_gap_block_start", "sctp.chunks[*].value.gap_blocks[*].start"),
        map("sctp.sack_gap_block_end", "sctp.chunks[*].value.gap_blocks[*].end"),
        map("sctp.sack_duplicate_tsn", "sctp.chunks[*].value.duplicate_tsns[*]"),
        map("sctp.cause_code", "sctp.chunks[*].value[*].code"), map("sctp.cause_length", "sctp.chunks[*].value[*].length"),
        map("sctp.cause_information", "sctp.chunks[*].value[*].information", as: .position),
        map("sctp.cause_stream_identifier", "sctp.chunks[*].value[*].information.stream_id"),
        map("sctp.cause_reserved", "sctp.chunks[*].value[*].information.reserved"),
        // DNS over TCP: the length before each message (the message's dns.* fields are in CoreMappings).
        map("dns.length", "tcp.payload.length"),
        // LLMNR's flags where DNS has AA and RD (the message is DNS's struct).
        map("dns.flags.conflict", "dns.flags.authoritative"), map("dns.flags.tentative", "dns.flags.recursion_desired"),
    ]
}
