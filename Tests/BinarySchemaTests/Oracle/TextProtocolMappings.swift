extension BundledSchemaOracleTests {
    /// Text protocols on real loopback traffic (scripts/capture-text.sh), read segment by segment
    /// (tshark with tcp.desegment_tcp_streams off): ftp.pcap (vsftpd with curl and tnftp, passive
    /// and active, ftp-data from port 20), smtp.pcap (swaks and aiosmtpd, AUTH LOGIN and STARTTLS),
    /// pop.pcap and imap.pcap (dovecot with curl, poplib and imaplib), telnet.pcap (inetutils
    /// telnet and telnetd: option negotiation and a failed login), irc.pcap (two clients through ngircd),
    /// rtsp.pcap (ffmpeg to ffmpeg as an RTSP server, RTP over UDP and interleaved).
    static let textProtocolMappings: [Mapping] = [
        // FTP: each line's parts (tshark's codes and ports are numbers shown as text, as here). An
        // argument may hold quotes (257 "/" is the current directory), which the views escape: its
        // bytes are compared. tshark's ftp-data, on a passive data connection it follows from the
        // control connection, is out of reach (TCP payload here): not mapped.
        map("ftp.request.command", "ftp.line[*].command", as: .text),
        map("ftp.request.arg", "ftp.line[*].arg", as: .position),
        map("ftp.response.code", "ftp.line[*].code", as: .text),
        map("ftp.response.arg", "ftp.line[*].arg", as: .position),
        // The address and port as written on the wire ("127,0,0,1", "142,243"), which @display shows as
        // tshark does (127.0.0.1, 36595): compared by their bytes.
        map("ftp.passive.ip", "ftp.line[*].passive.ip", as: .position),
        map("ftp.passive.port", "ftp.line[*].passive.port", as: .position),
        map("ftp.active.cip", "ftp.line[*].active.ip", as: .position),
        map("ftp.active.port", "ftp.line[*].active.port", as: .position),
        map("ftp.eprt.af", "ftp.line[*].extended.af", as: .text),
        map("ftp.eprt.ip", "ftp.line[*].extended.ip", as: .text),
        map("ftp.eprt.port", "ftp.line[*].extended.port", as: .text),
        map("ftp.epsv.port", "ftp.line[*].epsv_port", as: .text),
        // SMTP: the lines (with their CRLF, as tshark's) and their parts. On STARTTLS tshark's command
        // is STAR and its parameter TLS (it takes four letters): smtp-starttls.pcap lists those two
        // fields among tshark's artifacts.
        map("smtp.command_line", "smtp.line[*].command_line", as: .position),
        map("smtp.req.command", "smtp.line[*].command", as: .text),
        map("smtp.req.parameter", "smtp.line[*].parameter", as: .position),
        map("smtp.response", "smtp.line[*].response", as: .position),
        map("smtp.response.code", "smtp.line[*].code", as: .text),
        map("smtp.rsp.parameter", "smtp.line[*].parameter", as: .position),
        // POP
        map("pop.request", "pop.line[*].request", as: .position),
        map("pop.request.command", "pop.line[*].command", as: .text),
        map("pop.request.parameter", "pop.line[*].parameter", as: .position),
        map("pop.response", "pop.line[*].response", as: .position),
        map("pop.response.indicator", "pop.line[*].indicator", as: .text),
        map("pop.response.description", "pop.line[*].description", as: .position),
        map("pop.response.data", "pop.line[*].data", as: .position),
        // IMAP: each line (with its CRLF), a request's or tagged response's parts (tshark's
        // imap.tag and imap.command name the same bytes as the request's or response's own fields; UID FETCH
        // is imap.command UID and imap.request.command FETCH).
        map("imap.line", "imap.line[*].line", as: .position),
        map("imap.request", "imap.line[*].request", as: .position),
        map("imap.request_tag", "imap.line[*].request.tag", as: .text),
        map("imap.request.command", "imap.line[*].request.command", as: .text),
        map("imap.request.folder", "imap.line[*].request.folder", as: .text),
        map("imap.request.username", "imap.line[*].request.username", as: .text),
        map("imap.request.password", "imap.line[*].request.password", as: .position),
        map("imap.response", "imap.line[*].response", as: .position),
        map("imap.response_tag", "imap.line[*].response.tag", as: .text),
        map("imap.response.status", "imap.line[*].response.status", as: .text),
        map("imap.response.command", "imap.line[*].response.command", as: .text),
        map("imap.tag", "imap.line[*].request.tag", "imap.line[*].response.tag", as: .text),
        map("imap.command", "imap.line[*].request.command", "imap.line[*].request.uid", "imap.line[*].response.command", as: .text),
        // Telnet: each command and negotiation, the suboptions tshark decodes, and the text between
        // (a NUL in the text, which tshark shows as nothing, is compared by its bytes).
        map("telnet.cmd", "telnet.item[*].cmd"),
        map("telnet.subcmd", "telnet.item[*].option", "telnet.item[*].suboption.command"),
        map("telnet.option_data", "telnet.item[*].suboption", "telnet.item[*].suboption.data", as: .position),
        map("telnet.string_subopt.value", "telnet.item[*].suboption.value", as: .text),
        map("telnet.naws_subopt.width", "telnet.item[*].suboption.width"),
        map("telnet.naws_subopt.height", "telnet.item[*].suboption.height"),
        map("telnet.rfc_subopt.cmd", "telnet.item[*].suboption.command"),
        map("telnet.enc.cmd", "telnet.item[*].suboption.command"),
        map("telnet.data", "telnet.item[*].data", as: .position),
        // IRC: each line's message (without its CRLF) and its parts; a numeric reply's command is
        // irc.response.num_command too (the same bytes).
        map("irc.request", "irc.line[*].request", as: .position),
        map("irc.request.command", "irc.line[*].request.command", as: .text),
        map("irc.request.command_parameter", "irc.line[*].request.parameter[*].value", as: .text),
        map("irc.request.trailer", "irc.line[*].request.trailer", as: .position),
        map("irc.response", "irc.line[*].response", as: .position),
        map("irc.response.prefix", "irc.line[*].response.prefix", as: .text),
        map("irc.response.command", "irc.line[*].response.command", as: .text),
        // The numeric reply as written ("001"); tshark's is the number (1).
        map("irc.response.num_command", "irc.line[*].response.num_command", as: .position),
        map("irc.response.command_parameter", "irc.line[*].response.parameter[*].value", as: .text),
        map("irc.response.trailer", "irc.line[*].response.trailer", as: .position),
        map("irc.ctcp", "irc.line[*].request.ctcp", "irc.line[*].response.ctcp", as: .text),
        // RTSP: the start lines (with their CRLF), their parts, the headers tshark names (each its
        // line without CRLF), a continued body, the interleaved frames' headers.
        map("rtsp.request", "rtsp.item[*].request", as: .position),
        map("rtsp.method", "rtsp.item[*].method", as: .text),
        map("rtsp.url", "rtsp.item[*].url", as: .text),
        map("rtsp.response", "rtsp.item[*].response", as: .position),
        map("rtsp.status", "rtsp.item[*].status", as: .text),
        map("rtsp.content-type", "rtsp.item[*].header[*].line", as: .position),
        map("rtsp.content-length", "rtsp.item[*].header[*].line", as: .position),
        map("rtsp.transport", "rtsp.item[*].header[*].line", as: .position),
        map("rtsp.session", "rtsp.item[*].header[*].line", as: .position),
        map("rtsp.data", "rtsp.item[*].data", "rtsp.item[*].body", as: .position),
        map("rtsp.magic", "rtsp.item[*].magic"),
        map("rtsp.channel", "rtsp.item[*].channel"),
        map("rtsp.length", "rtsp.item[*].length"),
    ]
}
