extension BundledSchemaOracleTests {
    /// Voice and discovery over UDP on real loopback traffic (scripts/capture-voice.sh): sip.pcap (SIPp
    /// UAC and UAS: INVITE with SDP, 180, 200 with SDP, ACK, G.711 RTP and RFC 4733 events echoed,
    /// BYE), sip-tcp.pcap (the same call over TCP, read segment by segment), stun.pcap (coturn and turnutils_stunclient), ssdp.pcap (SSDP search, answers and
    /// notifications; its fields are HTTP's, mapped with HTTP), tftp.pcap (tftpd-hpa and tftp-hpa: get,
    /// put, a missing file); and the RTP and RTCP interleaved in rtsp.pcap's RTSP connection.
    static let voiceMappings: [Mapping] = [
        // SIP: the start line and its parts, the message header and each header line (CRLF included, as
        // tshark's; compared by position: tshark's value is the header's value alone), CSeq's parts.
        map("sip.Request-Line", "sip.message.request_line", as: .position),
        map("sip.Method", "sip.message.request_line.method", as: .text),
        map("sip.r-uri", "sip.message.request_line.uri", as: .text),
        map("sip.Status-Line", "sip.message.status_line", as: .position),
        map("sip.Status-Code", "sip.message.status_line.code", as: .text),
        map("sip.msg_hdr", "sip.message.msg_hdr", as: .position),
        map("sip.msg_body", "sip.message.msg_body", as: .position),
        map("sip.Via", "sip.message.msg_hdr.header[*].line", as: .position),
        map("sip.From", "sip.message.msg_hdr.header[*].line", as: .position),
        map("sip.To", "sip.message.msg_hdr.header[*].line", as: .position),
        map("sip.Call-ID", "sip.message.msg_hdr.header[*].line", as: .position),
        map("sip.CSeq", "sip.message.msg_hdr.header[*].line", as: .position),
        map("sip.Contact", "sip.message.msg_hdr.header[*].line", as: .position),
        map("sip.Max-Forwards", "sip.message.msg_hdr.header[*].line", as: .position),
        map("sip.Subject", "sip.message.msg_hdr.header[*].line", as: .position),
        map("sip.Content-Type", "sip.message.msg_hdr.header[*].line", as: .position),
        map("sip.Content-Length", "sip.message.msg_hdr.header[*].line", as: .position),
        map("sip.CSeq.seq", "sip.message.msg_hdr.header[*].line.seq", as: .text),
        map("sip.CSeq.method", "sip.message.msg_hdr.header[*].line.method", as: .text),
        // SDP: each line without its CRLF (by position: tshark's value is the line's value), and the
        // parts of the origin, connection, timing, media and rtpmap and fmtp attribute lines.
        map("sdp.version", "sdp.line[*].item", as: .position),
        map("sdp.owner", "sdp.line[*].item", as: .position),
        map("sdp.session_name", "sdp.line[*].item", as: .position),
        map("sdp.connection_info", "sdp.line[*].item", as: .position),
        map("sdp.time", "sdp.line[*].item", as: .position),
        map("sdp.media", "sdp.line[*].item", as: .position),
        map("sdp.media_attr", "sdp.line[*].item", as: .position),
        map("sdp.owner.username", "sdp.line[*].item.username", as: .text),
        map("sdp.owner.sessionid", "sdp.line[*].item.sessionid", as: .text),
        map("sdp.owner.version", "sdp.line[*].item.version", as: .text),
        map("sdp.owner.network_type", "sdp.line[*].item.network_type", as: .text),
        map("sdp.owner.address_type", "sdp.line[*].item.address_type", as: .text),
        map("sdp.owner.address", "sdp.line[*].item.address", as: .text),
        map("sdp.connection_info.network_type", "sdp.line[*].item.network_type", as: .text),
        map("sdp.connection_info.address_type", "sdp.line[*].item.address_type", as: .text),
        map("sdp.connection_info.address", "sdp.line[*].item.address", as: .text),
        map("sdp.time.start", "sdp.line[*].item.start", as: .text),
        map("sdp.time.stop", "sdp.line[*].item.stop", as: .text),
        map("sdp.media.media", "sdp.line[*].item.media", as: .text),
        map("sdp.media.port_string", "sdp.line[*].item.port", as: .text),
        map("sdp.media.proto", "sdp.line[*].item.proto", as: .text),
        // The port as a number (tshark's sdp.media.port, over the same bytes as its text).
        map("sdp.media.port", "sdp.line[*].item.port", as: .text),
        // A media line's formats and an rtpmap's or fmtp's format: tshark shows a codec's name, here the number.
        map("sdp.media.format", "sdp.line[*].item.format[*].format", "sdp.line[*].item.value.format", as: .position),
        map("sdp.media_attribute.field", "sdp.line[*].item.field", as: .text),
        map("sdp.mime.type", "sdp.line[*].item.value.mime_type", as: .text),
        map("sdp.sample_rate", "sdp.line[*].item.value.sample_rate", as: .text),
        map("sdp.fmtp.parameter", "sdp.line[*].item.value.parameter", as: .text),
        // RTP (tshark follows the SDP; here the heuristic) and RFC 4733 events.
        map("rtp.version", "rtp.version"), map("rtp.padding", "rtp.padding"), map("rtp.ext", "rtp.ext"),
        map("rtp.cc", "rtp.cc"), map("rtp.marker", "rtp.marker"), map("rtp.p_type", "rtp.p_type"),
        map("rtp.seq", "rtp.seq"), map("rtp.timestamp", "rtp.timestamp"), map("rtp.ssrc", "rtp.ssrc"),
        map("rtp.payload", "rtp.payload", "rtpevent", as: .position),
        map("rtpevent.event_id", "rtpevent.event_id"), map("rtpevent.end_of_event", "rtpevent.end_of_event"),
        map("rtpevent.reserved", "rtpevent.reserved"), map("rtpevent.volume", "rtpevent.volume"),
        map("rtpevent.duration", "rtpevent.duration"),
        // RTCP (rtsp.pcap: a sender report interleaved in the RTSP connection, channel 1).
        map("rtcp.version", "rtcp.packet[*].version"), map("rtcp.padding", "rtcp.packet[*].padding"),
        map("rtcp.rc", "rtcp.packet[*].rc"), map("rtcp.pt", "rtcp.packet[*].pt"), map("rtcp.length", "rtcp.packet[*].length"),
        map("rtcp.senderssrc", "rtcp.packet[*].body.senderssrc"),
        map("rtcp.timestamp.ntp.msw", "rtcp.packet[*].body.ntp_msw"), map("rtcp.timestamp.ntp.lsw", "rtcp.packet[*].body.ntp_lsw"),
        map("rtcp.timestamp.rtp", "rtcp.packet[*].body.rtp_timestamp"),
        map("rtcp.sender.packetcount", "rtcp.packet[*].body.packetcount"),
        map("rtcp.sender.octetcount", "rtcp.packet[*].body.octetcount"),
        // STUN: the header, each attribute (tshark's stun.attribute is the attribute's type over the
        // whole attribute), the address attributes (a XOR-ed port or address is tshark's stun.att.port
        // or stun.att.ipv4 too, over the same bytes, shown decoded: compared by position).
        map("stun.type", "stun.type"), map("stun.length", "stun.length"),
        map("stun.cookie", "stun.cookie", as: .position), map("stun.id", "stun.id", as: .position),
        map("stun.attribute", "stun.attribute[*]", as: .position),
        map("stun.att.type", "stun.attribute[*].type"), map("stun.att.length", "stun.attribute[*].length"),
        map("stun.att.reserved", "stun.attribute[*].value.reserved", as: .position),
        map("stun.att.family", "stun.attribute[*].value.family"),
        map("stun.att.port", "stun.attribute[*].value.port", "stun.attribute[*].value.port_xord", as: .position),
        map("stun.att.ipv4", "stun.attribute[*].value.ipv4", "stun.attribute[*].value.ipv4_xord", as: .position),
        map("stun.att.port-xord", "stun.attribute[*].value.port_xord", as: .position),
        map("stun.att.ipv4-xord", "stun.attribute[*].value.ipv4_xord", as: .position),
        map("stun.att.software", "stun.attribute[*].value", as: .text),
        map("stun.att.change-ip", "stun.attribute[*].value.change_ip"),
        map("stun.att.change-port", "stun.attribute[*].value.change_port"),
        // TFTP
        map("tftp.opcode", "tftp.opcode"), map("tftp.source_file", "tftp.source_file", as: .text),
        map("tftp.destination_file", "tftp.destination_file", as: .text), map("tftp.type", "tftp.type", as: .text),
        map("tftp.block", "tftp.block"), map("tftp.error.code", "tftp.error_code"),
        map("tftp.error.message", "tftp.error_message", as: .text),
    ]
}
