extension BundledSchemaOracleTests {
    /// Databases and caches on real loopback traffic (scripts/capture-db.sh), read segment by
    /// segment (tshark with tcp.desegment_tcp_streams off): pgsql.pcap (PostgreSQL 15, psql and
    /// pgbench).
    static let databaseMappings: [Mapping] = [
        // PostgreSQL: tshark's pgsql.type is the type byte's name (a string), ours the byte as an
        // enum of the direction's types; an error or notice field (pgsql.severity, pgsql.code, ...)
        // spans its type byte and string, which is our element body.fields[i].
        map("pgsql.type", "pgsql.fe_type", "pgsql.be_type", as: .position), map("pgsql.length", "pgsql.length"),
        map("pgsql.version_major", "pgsql.version_major"), map("pgsql.version_minor", "pgsql.version_minor"),
        map("pgsql.parameter_name", "pgsql.parameters[*].parameter_name", "pgsql.be_body.parameter_name", as: .text),
        map("pgsql.parameter_value", "pgsql.parameters[*].parameter_value", "pgsql.be_body.parameter_value", as: .text),
        map("pgsql.authtype", "pgsql.be_body.authtype"), map("pgsql.salt", "pgsql.be_body.salt", as: .position),
        map("pgsql.auth.sasl.mech", "pgsql.be_body.mechanisms[*]", "pgsql.fe_body.mech", as: .text),
        map("pgsql.auth.sasl.data.length", "pgsql.fe_body.data_length"),
        map("pgsql.auth.sasl.data", "pgsql.fe_body.data", "pgsql.fe_body.response", "pgsql.be_body.sasl_data", as: .position),
        map("pgsql.password", "pgsql.fe_body.password", as: .text),
        map("pgsql.pid", "pgsql.be_body.pid", "pgsql.pid"), map("pgsql.key", "pgsql.be_body.key", "pgsql.key"),
        map("pgsql.status", "pgsql.be_body.status"),
        map("pgsql.query", "pgsql.fe_body.query", as: .text), map("pgsql.tag", "pgsql.be_body.tag", as: .text),
        map("pgsql.statement", "pgsql.fe_body.statement", as: .text), map("pgsql.portal", "pgsql.fe_body.portal", as: .text),
        map("pgsql.returns", "pgsql.fe_body.returns"),
        map("pgsql.field.count", "pgsql.be_body.count"),
        map("pgsql.col.name", "pgsql.be_body.columns[*].name", as: .text),
        map("pgsql.oid.table", "pgsql.be_body.columns[*].table_oid"),
        map("pgsql.col.index", "pgsql.be_body.columns[*].column_index"),
        map("pgsql.oid.type", "pgsql.be_body.columns[*].type_oid", "pgsql.fe_body.parameter_types[*]",
            "pgsql.be_body.parameter_types[*]"),
        map("pgsql.col.typemod", "pgsql.be_body.columns[*].type_modifier"),
        map("pgsql.format", "pgsql.be_body.columns[*].format", "pgsql.be_body.format", "pgsql.be_body.formats[*]",
            "pgsql.fe_body.formats[*]", "pgsql.fe_body.result_formats[*]"),
        map("pgsql.val.length", "pgsql.be_body.columns[*].length", "pgsql.be_body.values[*].length",
            "pgsql.fe_body.values[*].length", "pgsql.be_body.length"),
        map("pgsql.val.data", "pgsql.be_body.values[*].data", "pgsql.fe_body.values[*].data", "pgsql.be_body.data",
            as: .position),
        map("pgsql.copydata", "pgsql.be_body.copydata", "pgsql.fe_body.copydata", as: .position),
        map("pgsql.severity", "pgsql.be_body.fields[*]", as: .position), map("pgsql.text", "pgsql.be_body.fields[*]", as: .position),
        map("pgsql.code", "pgsql.be_body.fields[*]", as: .position), map("pgsql.message", "pgsql.be_body.fields[*]", as: .position),
        map("pgsql.position", "pgsql.be_body.fields[*]", as: .position), map("pgsql.file", "pgsql.be_body.fields[*]", as: .position),
        map("pgsql.line", "pgsql.be_body.fields[*]", as: .position), map("pgsql.routine", "pgsql.be_body.fields[*]", as: .position),
    ]
}
