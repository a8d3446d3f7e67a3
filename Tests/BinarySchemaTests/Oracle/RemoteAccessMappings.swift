extension BundledSchemaOracleTests {
    /// Remote access and HTTP/2 on real loopback traffic (scripts/capture-remote.sh), read segment by
    /// segment (tshark with tcp.desegment_tcp_streams off): http2.pcap (a Python h2 server with curl
    /// by prior knowledge and by Upgrade: h2c, and httpx).
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
    ]
}
