extension BundledSchemaOracleTests {
    /// Remote access and HTTP/2 on real loopback traffic (scripts/capture-remote.sh), read segment by
    /// segment (tshark with tcp.desegment_tcp_streams off): http2.pcap (a Python h2 server with curl,
    /// httpx, nghttp and an h2 client by prior knowledge), http2-upgrade.pcap (curl and nghttp by
    /// Upgrade: h2c), x11.pcap (Xvfb on TCP with xdpyinfo, xprop and xwininfo),
    /// rlogin.pcap and rsh.pcap (rsh-redone's clients and daemons).
    static let remoteAccessMappings: [Mapping] = [
        // HTTP/2: the preface, each frame's header (its flags byte a struct of the type's bits here)
        // and payload. tshark's http2.header.name and value come from its HPACK state (the dynamic
        // table, Huffman decoding) in a data source of their own: out of reach, not mapped; each
        // representation (http2.header) and its index are compared where they are on the wire.
        map("http2.magic", "http2.magic", as: .position),
        map("http2.length", "http2.frames[*].length"),
        map("http2.type", "http2.frames[*].type"),
        map("http2.flags", "http2.frames[*].flags", as: .position),
        map("http2.flags.end_stream", "http2.frames[*].flags.end_stream"),
        map("http2.flags.eh", "http2.frames[*].flags.eh"),
        map("http2.flags.padded", "http2.frames[*].flags.padded"),
        map("http2.flags.priority", "http2.frames[*].flags.priority"),
        map("http2.flags.ack.settings", "http2.frames[*].flags.ack"),
        map("http2.flags.ack.ping", "http2.frames[*].flags.ack"),
        map("http2.r", "http2.frames[*].r"),
        map("http2.streamid", "http2.frames[*].streamid"),
        map("http2.data.data", "http2.frames[*].payload.data", as: .position),
        map("http2.headers", "http2.frames[*].payload.headers", as: .position),
        map("http2.exclusive", "http2.frames[*].payload.exclusive"),
        map("http2.stream_dependency", "http2.frames[*].payload.stream_dependency"),
        map("http2.headers.weight", "http2.frames[*].payload.weight"),
        map("http2.header", "http2.frames[*].payload.headers.header[*]", "http2.frames[*].payload.header.header[*]",
            "http2.frames[*].payload.header[*]", as: .position),
        map("http2.rst_stream.error", "http2.frames[*].payload.error"),
        map("http2.settings.id", "http2.frames[*].payload[*].id"),
        map("http2.settings.enable_push", "http2.frames[*].payload[*].value"),
        map("http2.settings.max_concurrent_streams", "http2.frames[*].payload[*].value"),
        map("http2.settings.initial_window_size", "http2.frames[*].payload[*].value"),
        map("http2.ping", "http2.frames[*].payload.ping", as: .position),
        map("http2.pong", "http2.frames[*].payload.pong", as: .position),
        map("http2.goaway.last_stream_id", "http2.frames[*].payload.last_stream_id"),
        map("http2.goaway.error", "http2.frames[*].payload.error"),
        map("http2.goaway.addata", "http2.frames[*].payload.addata", as: .position),
        map("http2.window_update.r", "http2.frames[*].payload.r"),
        map("http2.window_update.window_size_increment", "http2.frames[*].payload.window_size_increment"),
        // X11: the client's connection setup, each request's header and the common requests'
        // fields, and the server's replies, events and errors by their common header. The server's
        // setup reply comes in two segments (its 8-byte header, then the rest): tshark reads the rest
        // as a run of setup replies (x11.success, x11.protocol-*-version, x11.replylength, ... at
        // every 8 bytes, with BoundErrors), so those names, shared with the true header, are not
        // compared. Nor are the names tshark also gives a reply's fields, which it decodes by the
        // request it answers and which are bytes here (x11.atom, x11.get-property-type, x11.width,
        // x11.height, x11.drawable).
        map("x11.byte-order", "x11.setup_request.byte_order", as: .position),
        map("x11.authorization-protocol-name-length", "x11.setup_request.name_length"),
        map("x11.authorization-protocol-data-length", "x11.setup_request.data_length"),
        map("x11.opcode", "x11.requests[*].opcode"),
        map("x11.request-length", "x11.requests[*].request_length"),
        map("x11.extension-minor", "x11.requests[*].data"),
        map("x11.only-if-exists", "x11.requests[*].data"),
        map("x11.delete", "x11.requests[*].data"),
        map("x11.class", "x11.requests[*].data"),
        map("x11.name-length", "x11.requests[*].body.name_length"),
        map("x11.name", "x11.requests[*].body.name", as: .text),
        map("x11.window", "x11.requests[*].body.window"),
        map("x11.property", "x11.requests[*].body.property"),
        map("x11.long-offset", "x11.requests[*].body.long_offset"),
        map("x11.long-length", "x11.requests[*].body.long_length"),
        map("x11.gc", "x11.requests[*].body.gc"),
        map("x11.cid", "x11.requests[*].body.cid"),
        map("x11.gc-value-mask", "x11.requests[*].body.gc_value_mask"),
        map("x11.src-window", "x11.requests[*].body.src_window"),
        map("x11.dst-window", "x11.requests[*].body.dst_window"),
        map("x11.src-x", "x11.requests[*].body.src_x"),
        map("x11.src-y", "x11.requests[*].body.src_y"),
        map("x11.reply", "x11.messages[*].body.reply"),
        map("x11.reply-sequencenumber", "x11.messages[*].body.sequencenumber"),
        map("x11.eventcode", "x11.messages[*].body.eventcode"),
        map("x11.event-sequencenumber", "x11.messages[*].body.event_sequencenumber"),
        map("x11.errorcode", "x11.messages[*].body.errorcode"),
        map("x11.error_sequencenumber", "x11.messages[*].body.error_sequencenumber"),
        // rlogin: the startup, its acknowledgment, control messages, the window size, the data.
        // The terminal type's field here ends with its '/' (tshark's stops before it): compared by
        // nothing, the speed after it is.
        map("rlogin.client_startup_flag", "rlogin.client_startup_flag"),
        map("rlogin.user_info", "rlogin.user_info", as: .position),
        map("rlogin.client_user_name", "rlogin.user_info.client_user_name", as: .text),
        map("rlogin.server_user_name", "rlogin.user_info.server_user_name", as: .text),
        map("rlogin.terminal_speed", "rlogin.user_info.terminal_speed", as: .text),
        map("rlogin.startup_info_received_flag", "rlogin.startup_info_received_flag"),
        map("rlogin.control_message", "rlogin.control_message"),
        map("rlogin.window_size", "rlogin.window_size", as: .position),
        map("rlogin.magic_cookie", "rlogin.window_size.magic_cookie"),
        map("rlogin.window_size.ss", "rlogin.window_size.ss", as: .text),
        map("rlogin.window_size.rows", "rlogin.window_size.rows"),
        map("rlogin.window_size.cols", "rlogin.window_size.cols"),
        map("rlogin.window_size.x_pixels", "rlogin.window_size.x_pixels"),
        map("rlogin.window_size.y_pixels", "rlogin.window_size.y_pixels"),
        map("rlogin.data", "rlogin.data", "rlogin.long_data", as: .position),
        // rsh: the request's four strings (each with its NUL, as tshark's), the data both ways.
        map("rsh.stderr_port", "rsh.request.stderr_port", as: .text),
        map("rsh.client_username", "rsh.request.client_username", as: .text),
        map("rsh.server_username", "rsh.request.server_username", as: .text),
        map("rsh.command", "rsh.request.command", as: .text),
        map("rsh.server_client_data", "rsh.server_client_data", as: .position),
        map("rsh.client_server_data", "rsh.client_server_data", as: .position),
    ]
}
