extension BundledSchemaOracleTests {
    /// TCP application protocols on real loopback traffic, read segment by segment (tshark with
    /// tcp.desegment_tcp_streams off): http.pcap (curl and python3 -m http.server), ssh.pcap (ssh and
    /// sshd: banners, KEXINITs, key exchange, encrypted packets), mqtt.pcap (mosquitto, 3.1.1 and 5.0).
    static let tcpApplicationMappings: [Mapping] = [
        // HTTP: a start line's parts hold their terminator here (tshark's do not), so the header
        // lines (with their CRLF) are what cover the same bytes; tshark's http.file_data is also a
        // continued body, which is tcp.payload bytes here.
        map("http.request.line", "http.headers[*]", as: .position), map("http.response.line", "http.headers[*]", as: .position),
        // SSH
        map("ssh.protocol", "ssh.protocol", as: .text),
        map("ssh.packet_length", "ssh.packet[*].packet_length"), map("ssh.padding_length", "ssh.packet[*].padding_length"),
        map("ssh.message_code", "ssh.packet[*].message_code"),
        map("ssh.padding_string", "ssh.packet[*].padding_string", as: .position),
        map("ssh.cookie", "ssh.packet[*].body.cookie", as: .position),
        map("ssh.kex_algorithms_length", "ssh.packet[*].body.kex_algorithms_length"),
        map("ssh.kex_algorithms", "ssh.packet[*].body.kex_algorithms", as: .text),
        map("ssh.server_host_key_algorithms_length", "ssh.packet[*].body.server_host_key_algorithms_length"),
        map("ssh.server_host_key_algorithms", "ssh.packet[*].body.server_host_key_algorithms", as: .text),
        map("ssh.encryption_algorithms_client_to_server_length", "ssh.packet[*].body.encryption_algorithms_client_to_server_length"),
        map("ssh.encryption_algorithms_client_to_server", "ssh.packet[*].body.encryption_algorithms_client_to_server", as: .text),
        map("ssh.encryption_algorithms_server_to_client_length", "ssh.packet[*].body.encryption_algorithms_server_to_client_length"),
        map("ssh.encryption_algorithms_server_to_client", "ssh.packet[*].body.encryption_algorithms_server_to_client", as: .text),
        map("ssh.mac_algorithms_client_to_server_length", "ssh.packet[*].body.mac_algorithms_client_to_server_length"),
        map("ssh.mac_algorithms_client_to_server", "ssh.packet[*].body.mac_algorithms_client_to_server", as: .text),
        map("ssh.mac_algorithms_server_to_client_length", "ssh.packet[*].body.mac_algorithms_server_to_client_length"),
        map("ssh.mac_algorithms_server_to_client", "ssh.packet[*].body.mac_algorithms_server_to_client", as: .text),
        map("ssh.compression_algorithms_client_to_server_length", "ssh.packet[*].body.compression_algorithms_client_to_server_length"),
        map("ssh.compression_algorithms_client_to_server", "ssh.packet[*].body.compression_algorithms_client_to_server", as: .text),
        map("ssh.compression_algorithms_server_to_client_length", "ssh.packet[*].body.compression_algorithms_server_to_client_length"),
        map("ssh.compression_algorithms_server_to_client", "ssh.packet[*].body.compression_algorithms_server_to_client", as: .text),
        map("ssh.languages_client_to_server_length", "ssh.packet[*].body.languages_client_to_server_length"),
        map("ssh.languages_server_to_client_length", "ssh.packet[*].body.languages_server_to_client_length"),
        map("ssh.first_kex_packet_follows", "ssh.packet[*].body.first_kex_packet_follows"),
        map("ssh.kex.reserved", "ssh.packet[*].body.reserved", as: .position),
        // MQTT, 3.1.1 and 5.0 (the version guessed packet by packet, as tshark knows it from CONNECT)
        map("mqtt.msgtype", "mqtt.msgtype"), map("mqtt.dupflag", "mqtt.dupflag"), map("mqtt.qos", "mqtt.qos"),
        map("mqtt.retain", "mqtt.retain"), map("mqtt.hdr_reserved", "mqtt.hdr_reserved"), map("mqtt.len", "mqtt.len"),
        map("mqtt.proto_len", "mqtt.body.proto_len"), map("mqtt.protoname", "mqtt.body.protoname", as: .text),
        map("mqtt.ver", "mqtt.body.ver"),
        map("mqtt.conflag.uname", "mqtt.body.conflag.uname"), map("mqtt.conflag.passwd", "mqtt.body.conflag.passwd"),
        map("mqtt.conflag.retain", "mqtt.body.conflag.retain"), map("mqtt.conflag.qos", "mqtt.body.conflag.qos"),
        map("mqtt.conflag.willflag", "mqtt.body.conflag.willflag"),
        map("mqtt.conflag.cleansess", "mqtt.body.conflag.cleansess"),
        map("mqtt.conflag.reserved", "mqtt.body.conflag.reserved"),
        map("mqtt.kalive", "mqtt.body.kalive"), map("mqtt.clientid_len", "mqtt.body.clientid_len"),
        map("mqtt.clientid", "mqtt.body.clientid", as: .text),
        map("mqtt.conack.flags.reserved", "mqtt.body.flags.reserved"), map("mqtt.conack.flags.sp", "mqtt.body.flags.sp"),
        map("mqtt.conack.val", "mqtt.body.val"), map("mqtt.connack.reason_code", "mqtt.body.reason_code"),
        map("mqtt.topic_len", "mqtt.body.topic_len", "mqtt.body.subscriptions[*].topic_len"),
        map("mqtt.topic", "mqtt.body.topic", "mqtt.body.subscriptions[*].topic", as: .text),
        map("mqtt.msgid", "mqtt.body.msgid"), map("mqtt.msg", "mqtt.body.msg", as: .position),
        map("mqtt.sub.qos", "mqtt.body.subscriptions[*].options.qos"),
        map("mqtt.subscription_options_reserved", "mqtt.body.subscriptions[*].options.reserved"),
        map("mqtt.subscription_options_retain", "mqtt.body.subscriptions[*].options.retain_handling"),
        map("mqtt.subscription_options_rap", "mqtt.body.subscriptions[*].options.rap"),
        map("mqtt.subscription_options_nl", "mqtt.body.subscriptions[*].options.nl"),
        map("mqtt.subscription_options_qos", "mqtt.body.subscriptions[*].options.qos"),
        map("mqtt.suback.qos", "mqtt.body.return_codes[*]"), map("mqtt.suback.reason_code", "mqtt.body.return_codes[*]"),
        map("mqtt.property_len", "mqtt.body.properties.property_len"),
        map("mqtt.property_id", "mqtt.body.properties.property[*].property_id"),
        map("mqtt.prop_number", "mqtt.body.properties.property[*].prop_number"),
    ]
}
