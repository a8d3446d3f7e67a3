import BinarySchema
import Dissector
import Foundation
import Testing

/// The network example schemas (NTP, DHCP, TLS, MQTT, QUIC; radiotap's, now bundled) on real captures, against
/// tshark: every field in `Corpus/examples/<name>.tshark.tsv` (tshark's `-T fields` output, every
/// occurrence, in frame order; Corpus/examples/README.md has each command) is compared, every
/// occurrence, with the fields at the mapped path in our dissection with the bundled schemas plus
/// the example's.
@Suite struct NetworkExampleTests {
    /// How a tshark value and ours are brought to one text.
    enum Comparison: Sendable {
        /// Integers as numbers (tshark's `0x..` too), anything else as our display text.
        case value
        /// Text as it is: bytes in hex (`7f7f0101`), strings (tshark would read `00000000` as 0).
        case text
        /// A string (or bytes shown @ascii): ours without the view's quotes (tshark shows `dissect-client` bare).
        case string
        /// tshark 4.0 shows some signed bytes unsigned (ntp.precision: 230 for -26).
        case signedByte
        /// tshark's absolute time (`Nov 23, 2026 20:17:07.354500770 UTC`, or `NULL` for zero)
        /// against our NTP timestamp struct's computed unix_seconds and nanoseconds.
        case ntpTime
        /// A field tshark shows as a dotted quad and we as an integer (dhcp.cookie).
        case dottedQuad
        /// The field's bytes in hex, whatever it decodes to (dhcp.option.value).
        case rawHex
        /// A rate in 500 kb/s units against tshark's Mb/s (radiotap.datarate: `2`, `5.5`).
        case halfUnits
        /// tshark 4.0 gives the End option's dhcp.option.type the value 0 (its dhcp.option.end
        /// says 255): a frame's last 0 there is End's 255.
        case dhcpOptionType
    }

    struct Column: Sendable {
        /// Our paths for this tshark field: `[*]` matches any array index; the nodes at any of
        /// them, in dissection order, are the occurrences.
        let paths: [String]
        var comparison: Comparison = .value
        /// Which of our values tshark shows in this field (the others it shows in another, or not at all).
        var filter: Filter?
        /// tshark fills the field in from others when the packet lacks it (radiotap.datarate from the
        /// MCS fields): where we have no occurrence, its values are not compared.
        var derivedByTshark = false

        init(path: String, comparison: Comparison = .value) {
            paths = [path]
            self.comparison = comparison
        }

        init(paths: [String], comparison: Comparison = .value, filter: Filter? = nil) {
            self.paths = paths
            self.comparison = comparison
            self.filter = filter
        }

        init(path: String, comparison: Comparison = .value, filter: Filter) {
            self.init(paths: [path], comparison: comparison, filter: filter)
        }

        init(path: String, comparison: Comparison, derivedByTshark: Bool) {
            self.init(paths: [path], comparison: comparison)
            self.derivedByTshark = derivedByTshark
        }
    }

    enum Filter: Sendable {
        /// Values other than this one.
        case except(String)
        /// This value only.
        case only(String)
        /// Fields whose protocol layer has this value in this field (`mqtt.msgtype` 2: CONNACK's).
        case inLayer(field: String, value: Int64)
        /// Fields whose protocol layer has another value there, or none.
        case notInLayer(field: String, value: Int64)

        func keeps(_ dissection: Dissection, _ index: Int, _ value: String) -> Bool {
            switch self {
            case .except(let excluded): return value != excluded
            case .only(let kept): return value == kept
            case .inLayer(let field, let wanted):
                return Self.layerValue(dissection, index, field) == wanted
            case .notInLayer(let field, let unwanted):
                return Self.layerValue(dissection, index, field) != unwanted
            }
        }

        /// The integer in `field` of the protocol layer holding node `index`.
        static func layerValue(_ dissection: Dissection, _ index: Int, _ field: String) -> Int64? {
            var layer = index
            while layer >= 0, dissection.structType(of: layer)?.protocolAbbreviation == nil {
                layer = Int(dissection.nodes[layer].parent)
            }
            guard layer >= 0 else { return nil }
            let child = dissection.children(of: layer).first { dissection.name(of: $0) == field }
            return child.flatMap { dissection.integer(of: $0) }
        }
    }

    struct Example: Sendable {
        /// A decode-as (`dissect -d table==key,Struct`) for the run, as tshark's `-d`.
        var decodeAs: (table: String, key: Int64, structName: String)?
        /// The TSV's aggregator for several occurrences (`,`, or `|` where values hold commas).
        var aggregator: Character = ","
        let columns: [String: Column]
        /// At least this many values compared.
        let minimum: Int
    }

    static let ip: [String: Column] = [
        "ip.src": Column(path: "ip.src"), "ip.dst": Column(path: "ip.dst"),
    ]
    static let udp: [String: Column] = [
        "udp.srcport": Column(path: "udp.src_port"), "udp.dstport": Column(path: "udp.dst_port"),
    ]
    static let tcp: [String: Column] = [
        "tcp.srcport": Column(path: "tcp.src_port"), "tcp.dstport": Column(path: "tcp.dst_port"),
    ]

    /// A handshake message's body, and an extension's value in a hello.
    static let hello = "tls.record[*].handshake[*].body"
    static let value = "tls.record[*].handshake[*].body.extension[*].value"

    static let examples: [String: Example] = [
        "ntp": Example(
            aggregator: "|",
            columns: [
                "ntp.flags.li": Column(path: "ntp.flags.li"), "ntp.flags.vn": Column(path: "ntp.flags.vn"),
                "ntp.flags.mode": Column(path: "ntp.flags.mode"), "ntp.stratum": Column(path: "ntp.stratum"),
                "ntp.ppoll": Column(path: "ntp.ppoll"), "ntp.precision": Column(path: "ntp.precision", comparison: .signedByte),
                "ntp.rootdelay": Column(path: "ntp.rootdelay"), "ntp.rootdispersion": Column(path: "ntp.rootdispersion"),
                "ntp.refid": Column(path: "ntp.refid", comparison: .text),
                "ntp.reftime": Column(path: "ntp.reftime", comparison: .ntpTime), "ntp.org": Column(path: "ntp.org", comparison: .ntpTime),
                "ntp.rec": Column(path: "ntp.rec", comparison: .ntpTime), "ntp.xmt": Column(path: "ntp.xmt", comparison: .ntpTime),
            ].merging(ip) { a, _ in a }.merging(udp) { a, _ in a },
            minimum: 8 * 17),
        "dhcp": Example(
            columns: [
                "dhcp.type": Column(path: "dhcp.type"),
                // An RFC 4361 client identifier's type byte (255) has no field in tshark 4.0.
                "dhcp.hw.type": Column(paths: ["dhcp.hw_type", "dhcp.options[*].value.client_id.hw_type"], filter: .except("255")),
                "dhcp.hw.len": Column(path: "dhcp.hw_len"), "dhcp.hops": Column(path: "dhcp.hops"),
                "dhcp.id": Column(path: "dhcp.id"), "dhcp.secs": Column(path: "dhcp.secs"),
                "dhcp.flags.bc": Column(path: "dhcp.flags.bc"), "dhcp.flags.reserved": Column(path: "dhcp.flags.reserved"),
                "dhcp.ip.client": Column(path: "dhcp.ip.client"), "dhcp.ip.your": Column(path: "dhcp.ip.your"),
                "dhcp.ip.server": Column(path: "dhcp.ip.server"), "dhcp.ip.relay": Column(path: "dhcp.ip.relay"),
                "dhcp.hw.mac_addr": Column(paths: ["dhcp.hw.mac_addr", "dhcp.options[*].value.client_id.mac_addr"]),
                "dhcp.hw.addr_padding": Column(path: "dhcp.hw.addr_padding", comparison: .text),
                "dhcp.server": Column(path: "dhcp.server.name"), "dhcp.file": Column(path: "dhcp.file.name"),
                "dhcp.cookie": Column(path: "dhcp.cookie", comparison: .dottedQuad),
                "dhcp.option.type": Column(path: "dhcp.options[*].type", comparison: .dhcpOptionType),
                "dhcp.option.length": Column(path: "dhcp.options[*].length"),
                "dhcp.option.value": Column(path: "dhcp.options[*].value", comparison: .rawHex),
                "dhcp.option.padding": Column(path: "dhcp.padding", comparison: .text),
                "dhcp.option.dhcp": Column(path: "dhcp.options[*].value.dhcp"),
                "dhcp.option.subnet_mask": Column(path: "dhcp.options[*].value.subnet_mask"),
                "dhcp.option.router": Column(path: "dhcp.options[*].value.router[*]"),
                "dhcp.option.domain_name_server": Column(path: "dhcp.options[*].value.domain_name_server[*]"),
                "dhcp.option.hostname": Column(path: "dhcp.options[*].value.hostname", comparison: .string),
                "dhcp.option.domain_name": Column(path: "dhcp.options[*].value.domain_name", comparison: .string),
                "dhcp.option.broadcast_address": Column(path: "dhcp.options[*].value.broadcast_address"),
                "dhcp.option.requested_ip_address": Column(path: "dhcp.options[*].value.requested_ip_address"),
                "dhcp.option.ip_address_lease_time": Column(path: "dhcp.options[*].value.ip_address_lease_time"),
                "dhcp.option.dhcp_server_id": Column(path: "dhcp.options[*].value.dhcp_server_id"),
                "dhcp.option.request_list_item": Column(path: "dhcp.options[*].value.request_list_item[*]"),
                "dhcp.option.dhcp_max_message_size": Column(path: "dhcp.options[*].value.dhcp_max_message_size"),
                "dhcp.option.renewal_time_value": Column(path: "dhcp.options[*].value.renewal_time_value"),
                "dhcp.option.rebinding_time_value": Column(path: "dhcp.options[*].value.rebinding_time_value"),
                "dhcp.option.vendor_class_id": Column(path: "dhcp.options[*].value.vendor_class_id", comparison: .string),
                "dhcp.client_id.iaid": Column(path: "dhcp.options[*].value.client_id.iaid"),
                "dhcp.client_id.duid_type": Column(path: "dhcp.options[*].value.client_id.duid_type"),
                "dhcp.client_id.duid_llt_hw_type": Column(path: "dhcp.options[*].value.client_id.duid_llt_hw_type"),
                "dhcp.client_id.time": Column(path: "dhcp.options[*].value.client_id.time"),
                "dhcp.client_id.link_layer_address": Column(path: "dhcp.options[*].value.client_id.link_layer_address", comparison: .text),
                "dhcp.fqdn.mbz": Column(path: "dhcp.options[*].value.fqdn.flags.mbz"),
                "dhcp.fqdn.n": Column(path: "dhcp.options[*].value.fqdn.flags.n"),
                "dhcp.fqdn.e": Column(path: "dhcp.options[*].value.fqdn.flags.e"),
                "dhcp.fqdn.o": Column(path: "dhcp.options[*].value.fqdn.flags.o"),
                "dhcp.fqdn.s": Column(path: "dhcp.options[*].value.fqdn.flags.s"),
                "dhcp.fqdn.rcode1": Column(path: "dhcp.options[*].value.fqdn.rcode1"),
                "dhcp.fqdn.rcode2": Column(path: "dhcp.options[*].value.fqdn.rcode2"),
                "dhcp.fqdn.name": Column(path: "dhcp.options[*].value.fqdn.name", comparison: .string),
            ].merging(ip) { a, _ in a }.merging(udp) { a, _ in a },
            minimum: 500),
        // tshark reads the whole conversation as TLS from its hellos (README: -d tcp.port==4433,tls); the
        // bundled heuristic claims only segments that start with a hello: the same decode-as here.
        "tls": Example(
            decodeAs: ("tcp.port", 4433, "TLS"),
            columns: [
                // tshark 4.0 calls a TLS 1.3 record's type 23 its opaque_type, every other type its content_type.
                "tls.record.content_type": Column(path: "tls.record[*].content_type", filter: .except("23")),
                "tls.record.opaque_type": Column(path: "tls.record[*].content_type", filter: .only("23")),
                "tls.record.version": Column(path: "tls.record[*].version"),
                "tls.record.length": Column(path: "tls.record[*].length"),
                "tls.app_data": Column(path: "tls.record[*].app_data", comparison: .rawHex),
                "tls.handshake.type": Column(path: "tls.record[*].handshake[*].type"),
                "tls.handshake.length": Column(path: "tls.record[*].handshake[*].length"),
                "tls.handshake.version": Column(path: "\(hello).version"),
                "tls.handshake.random": Column(path: "\(hello).random", comparison: .rawHex),
                "tls.handshake.session_id_length": Column(path: "\(hello).session_id_length"),
                "tls.handshake.session_id": Column(path: "\(hello).session_id", comparison: .rawHex),
                "tls.handshake.cipher_suites_length": Column(path: "\(hello).cipher_suites_length"),
                "tls.handshake.ciphersuite": Column(paths: ["\(hello).ciphersuites[*]", "\(hello).ciphersuite"]),
                "tls.handshake.comp_methods_length": Column(path: "\(hello).comp_methods_length"),
                "tls.handshake.comp_method": Column(paths: ["\(hello).comp_methods[*]", "\(hello).comp_method"]),
                "tls.handshake.extensions_length": Column(path: "\(hello).extensions_length"),
                "tls.handshake.extension.type": Column(path: "\(hello).extension[*].type"),
                "tls.handshake.extension.len": Column(path: "\(hello).extension[*].len"),
                "tls.handshake.extensions_server_name_list_len": Column(path: "\(value).list_len"),
                "tls.handshake.extensions_server_name_type": Column(path: "\(value).names[*].type"),
                "tls.handshake.extensions_server_name_len": Column(path: "\(value).names[*].len"),
                "tls.handshake.extensions_server_name": Column(path: "\(value).names[*].name", comparison: .string),
                "tls.handshake.extensions_ec_point_formats_length": Column(path: "\(value).formats_length"),
                "tls.handshake.extensions_ec_point_format": Column(path: "\(value).formats[*]"),
                "tls.handshake.extensions_supported_groups_length": Column(path: "\(value).groups_length"),
                "tls.handshake.extensions_supported_group": Column(path: "\(value).groups[*]"),
                "tls.handshake.extensions_alpn_len": Column(path: "\(value).alpn_len"),
                "tls.handshake.extensions_alpn_str_len": Column(path: "\(value).protocols[*].len"),
                "tls.handshake.extensions_alpn_str": Column(path: "\(value).protocols[*].name", comparison: .string),
                "tls.handshake.sig_hash_alg_len": Column(path: "\(value).algorithms_length"),
                "tls.handshake.sig_hash_alg": Column(paths: ["\(value).algorithms[*]", "\(hello).sig_hash_alg"]),
                "tls.handshake.extensions.supported_versions_len": Column(path: "\(value).versions_len"),
                "tls.handshake.extensions.supported_version": Column(paths: ["\(value).versions[*]", "\(value).version"]),
                "tls.extension.psk_ke_modes_length": Column(path: "\(value).psk_ke_modes_length"),
                "tls.extension.psk_ke_mode": Column(path: "\(value).psk_ke_mode[*]"),
                "tls.handshake.extensions_key_share_client_length": Column(path: "\(value).client_shares_length"),
                "tls.handshake.extensions_key_share_group": Column(paths: ["\(value).shares[*].group", "\(value).group"]),
                "tls.handshake.extensions_key_share_key_exchange_length":
                    Column(paths: ["\(value).shares[*].key_exchange_length", "\(value).key_exchange_length"]),
                "tls.handshake.extensions_key_share_key_exchange":
                    Column(paths: ["\(value).shares[*].key_exchange", "\(value).key_exchange"], comparison: .rawHex),
                "tls.handshake.extensions_reneg_info_len": Column(path: "\(value).reneg_info_len"),
                "tls.handshake.certificates_length": Column(path: "\(hello).certificates_length"),
                "tls.handshake.certificate_length": Column(path: "\(hello).certificates[*].certificate_length"),
                "tls.handshake.certificate": Column(path: "\(hello).certificates[*].certificate", comparison: .rawHex),
                "tls.handshake.server_curve_type": Column(path: "\(hello).server_curve_type"),
                "tls.handshake.server_named_curve": Column(path: "\(hello).server_named_curve"),
                "tls.handshake.server_point_len": Column(path: "\(hello).server_point_len"),
                "tls.handshake.server_point": Column(path: "\(hello).server_point", comparison: .rawHex),
                "tls.handshake.sig_len": Column(path: "\(hello).sig_len"),
                "tls.handshake.sig": Column(path: "\(hello).sig", comparison: .rawHex),
                "tls.handshake.client_point_len": Column(path: "\(hello).client_point_len"),
                "tls.handshake.client_point": Column(path: "\(hello).client_point", comparison: .rawHex),
                "tls.handshake.session_ticket_lifetime_hint": Column(path: "\(hello).session_ticket_lifetime_hint"),
                "tls.handshake.session_ticket_length": Column(path: "\(hello).session_ticket_length"),
                "tls.handshake.session_ticket": Column(path: "\(hello).session_ticket", comparison: .rawHex),
            ].merging(ip) { a, _ in a }.merging(tcp) { a, _ in a },
            minimum: 400),
        "mqtt": Example(
            decodeAs: ("tcp.port", 1884, "MQTTv5"),
            columns: [
                "mqtt.msgtype": Column(path: "mqtt.msgtype"), "mqtt.dupflag": Column(path: "mqtt.dupflag"),
                "mqtt.qos": Column(path: "mqtt.qos"), "mqtt.retain": Column(path: "mqtt.retain"),
                "mqtt.hdr_reserved": Column(path: "mqtt.hdr_reserved"), "mqtt.len": Column(path: "mqtt.len"),
                "mqtt.proto_len": Column(path: "mqtt.body.proto_len"),
                "mqtt.protoname": Column(path: "mqtt.body.protoname", comparison: .string),
                "mqtt.ver": Column(path: "mqtt.body.ver"),
                "mqtt.conflag.uname": Column(path: "mqtt.body.conflag.uname"),
                "mqtt.conflag.passwd": Column(path: "mqtt.body.conflag.passwd"),
                "mqtt.conflag.retain": Column(path: "mqtt.body.conflag.retain"),
                "mqtt.conflag.qos": Column(path: "mqtt.body.conflag.qos"),
                "mqtt.conflag.willflag": Column(path: "mqtt.body.conflag.willflag"),
                "mqtt.conflag.cleansess": Column(path: "mqtt.body.conflag.cleansess"),
                "mqtt.conflag.reserved": Column(path: "mqtt.body.conflag.reserved"),
                "mqtt.kalive": Column(path: "mqtt.body.kalive"),
                "mqtt.clientid_len": Column(path: "mqtt.body.clientid_len"),
                "mqtt.clientid": Column(path: "mqtt.body.clientid", comparison: .string),
                "mqtt.willtopic_len": Column(path: "mqtt.body.willtopic_len"),
                "mqtt.willtopic": Column(path: "mqtt.body.willtopic", comparison: .string),
                "mqtt.willmsg_len": Column(path: "mqtt.body.willmsg_len"),
                "mqtt.willmsg": Column(path: "mqtt.body.willmsg", comparison: .rawHex),
                "mqtt.username_len": Column(path: "mqtt.body.username_len"),
                "mqtt.username": Column(path: "mqtt.body.username", comparison: .string),
                "mqtt.passwd_len": Column(path: "mqtt.body.passwd_len"),
                "mqtt.passwd": Column(path: "mqtt.body.passwd", comparison: .string),
                "mqtt.conack.flags.reserved": Column(path: "mqtt.body.flags.reserved"),
                "mqtt.conack.flags.sp": Column(path: "mqtt.body.flags.sp"),
                "mqtt.conack.val": Column(path: "mqtt.body.val"),
                "mqtt.connack.reason_code": Column(path: "mqtt.body.reason_code", filter: .inLayer(field: "msgtype", value: 2)),
                "mqtt.puback.reason_code": Column(path: "mqtt.body.reason_code", filter: .inLayer(field: "msgtype", value: 4)),
                "mqtt.topic_len": Column(paths: ["mqtt.body.topic_len", "mqtt.body.subscriptions[*].topic_len"]),
                "mqtt.topic": Column(paths: ["mqtt.body.topic", "mqtt.body.subscriptions[*].topic"], comparison: .string),
                "mqtt.msgid": Column(path: "mqtt.body.msgid"),
                "mqtt.msg": Column(path: "mqtt.body.msg", comparison: .rawHex),
                "mqtt.sub.qos": Column(path: "mqtt.body.subscriptions[*].options.qos"),
                "mqtt.suback.qos": Column(path: "mqtt.body.return_codes[*]"),
                "mqtt.property_len": Column(path: "mqtt.body.properties.property_len"),
                "mqtt.property_id": Column(path: "mqtt.body.properties.property[*].property_id"),
                "mqtt.prop_number": Column(path: "mqtt.body.properties.property[*].prop_number"),
                "mqtt.property.content_type": Column(path: "mqtt.body.properties.property[*].prop_string", comparison: .string),
                "mqtt.prop_key_len": Column(path: "mqtt.body.properties.property[*].prop_key_len"),
                "mqtt.prop_key": Column(path: "mqtt.body.properties.property[*].prop_key", comparison: .string),
                "mqtt.prop_value_len": Column(path: "mqtt.body.properties.property[*].prop_value_len"),
                "mqtt.prop_value": Column(path: "mqtt.body.properties.property[*].prop_value", comparison: .string),
            ].merging(ip) { a, _ in a }.merging(tcp) { a, _ in a },
            minimum: 200),
        "quic": Example(
            columns: [
                "quic.header_form": Column(path: "quic.header_form"),
                // tshark 4.0 shows no fixed bit in a Retry.
                "quic.fixed_bit": Column(path: "quic.fixed_bit", filter: .notInLayer(field: "long_packet_type", value: 3)),
                "quic.long.packet_type": Column(path: "quic.long_packet_type"),
                "quic.vn.unused": Column(path: "quic.unused"),
                "quic.version": Column(path: "quic.version"),
                "quic.dcil": Column(path: "quic.dcil"), "quic.dcid": Column(path: "quic.dcid", comparison: .rawHex),
                "quic.scil": Column(path: "quic.scil"), "quic.scid": Column(path: "quic.scid", comparison: .rawHex),
                "quic.token_length": Column(path: "quic.token_length.value"),
                "quic.token": Column(path: "quic.token", comparison: .rawHex),
                "quic.length": Column(path: "quic.length.value"),
                "quic.retry_token": Column(path: "quic.retry_token", comparison: .rawHex),
                "quic.retry_integrity_tag": Column(path: "quic.retry_integrity_tag", comparison: .rawHex),
                "quic.supported_version": Column(path: "quic.supported_version[*]"),
                "quic.spin_bit": Column(path: "quic.spin_bit"),
                "quic.remaining_payload": Column(path: "quic.remaining_payload", comparison: .rawHex),
            ].merging(ip) { a, _ in a }.merging(udp) { a, _ in a },
            minimum: 60),
        "radiotap": Example(
            columns: [
                "radiotap.version": Column(path: "radiotap.version"), "radiotap.pad": Column(path: "radiotap.pad"),
                "radiotap.length": Column(path: "radiotap.length"),
                "radiotap.present.word": Column(path: "radiotap.present[*].word"),
                "radiotap.present.tsft": Column(path: "radiotap.present[*].tsft"),
                "radiotap.present.flags": Column(path: "radiotap.present[*].flags"),
                "radiotap.present.rate": Column(path: "radiotap.present[*].rate"),
                "radiotap.present.channel": Column(path: "radiotap.present[*].channel"),
                "radiotap.present.fhss": Column(path: "radiotap.present[*].fhss"),
                "radiotap.present.dbm_antsignal": Column(path: "radiotap.present[*].dbm_antsignal"),
                "radiotap.present.dbm_antnoise": Column(path: "radiotap.present[*].dbm_antnoise"),
                "radiotap.present.lock_quality": Column(path: "radiotap.present[*].lock_quality"),
                "radiotap.present.tx_attenuation": Column(path: "radiotap.present[*].tx_attenuation"),
                "radiotap.present.db_tx_attenuation": Column(path: "radiotap.present[*].db_tx_attenuation"),
                "radiotap.present.dbm_tx_power": Column(path: "radiotap.present[*].dbm_tx_power"),
                "radiotap.present.antenna": Column(path: "radiotap.present[*].antenna"),
                "radiotap.present.db_antsignal": Column(path: "radiotap.present[*].db_antsignal"),
                "radiotap.present.db_antnoise": Column(path: "radiotap.present[*].db_antnoise"),
                "radiotap.present.rxflags": Column(path: "radiotap.present[*].rxflags"),
                "radiotap.present.txflags": Column(path: "radiotap.present[*].txflags"),
                "radiotap.present.data_retries": Column(path: "radiotap.present[*].data_retries"),
                "radiotap.present.xchannel": Column(path: "radiotap.present[*].xchannel"),
                "radiotap.present.mcs": Column(path: "radiotap.present[*].mcs"),
                "radiotap.present.ampdu": Column(path: "radiotap.present[*].ampdu"),
                "radiotap.present.vht": Column(path: "radiotap.present[*].vht"),
                "radiotap.present.timestamp": Column(path: "radiotap.present[*].timestamp"),
                "radiotap.present.he": Column(path: "radiotap.present[*].he"),
                "radiotap.present.he_mu": Column(path: "radiotap.present[*].he_mu"),
                "radiotap.present.l_sig": Column(path: "radiotap.present[*].l_sig"),
                "radiotap.present.tlv": Column(path: "radiotap.present[*].tlv"),
                "radiotap.present.rtap_ns": Column(path: "radiotap.present[*].rtap_ns"),
                "radiotap.present.vendor_ns": Column(path: "radiotap.present[*].vendor_ns"),
                "radiotap.present.ext": Column(path: "radiotap.present[*].ext"),
                "radiotap.present.0_length.psdu": Column(path: "radiotap.present[*].zero_length_psdu"),
                "radiotap.mactime": Column(path: "radiotap.mactime"),
                "radiotap.flags.cfp": Column(path: "radiotap.flags.cfp"),
                "radiotap.flags.preamble": Column(path: "radiotap.flags.preamble"),
                "radiotap.flags.wep": Column(path: "radiotap.flags.wep"),
                "radiotap.flags.frag": Column(path: "radiotap.flags.frag"),
                "radiotap.flags.fcs": Column(path: "radiotap.flags.fcs"),
                "radiotap.flags.datapad": Column(path: "radiotap.flags.datapad"),
                "radiotap.flags.badfcs": Column(path: "radiotap.flags.badfcs"),
                "radiotap.flags.shortgi": Column(path: "radiotap.flags.shortgi"),
                // tshark computes a data rate from the MCS fields when there is no rate field.
                "radiotap.datarate": Column(path: "radiotap.rate", comparison: .halfUnits, derivedByTshark: true),
                "radiotap.channel.freq": Column(path: "radiotap.channel.freq"),
                "radiotap.channel.flags.cck": Column(path: "radiotap.channel.flags.cck"),
                "radiotap.channel.flags.ofdm": Column(path: "radiotap.channel.flags.ofdm"),
                "radiotap.channel.flags.2ghz": Column(path: "radiotap.channel.flags.channel_2ghz"),
                "radiotap.channel.flags.5ghz": Column(path: "radiotap.channel.flags.channel_5ghz"),
                "radiotap.dbm_antsignal": Column(paths: ["radiotap.dbm_antsignal"] + (1...3).map { "radiotap.namespace_\($0).dbm_antsignal" }),
                "radiotap.dbm_antnoise": Column(paths: ["radiotap.dbm_antnoise"] + (1...3).map { "radiotap.namespace_\($0).dbm_antnoise" }),
                "radiotap.antenna": Column(paths: ["radiotap.antenna"] + (1...3).map { "radiotap.namespace_\($0).antenna" }),
                "radiotap.rxflags.badplcp": Column(path: "radiotap.rxflags.badplcp"),
                "radiotap.mcs.known": Column(path: "radiotap.mcs.known"), "radiotap.mcs.bw": Column(path: "radiotap.mcs.bw"),
                "radiotap.mcs.gi": Column(path: "radiotap.mcs.gi"), "radiotap.mcs.format": Column(path: "radiotap.mcs.format"),
                "radiotap.mcs.fec": Column(path: "radiotap.mcs.fec"), "radiotap.mcs.index": Column(path: "radiotap.mcs.index"),
                "radiotap.ampdu.reference": Column(path: "radiotap.ampdu.reference"),
                "radiotap.ampdu.flags": Column(path: "radiotap.ampdu.flags"),
                "radiotap.vht.bw": Column(path: "radiotap.vht.bw"), "radiotap.vht.gi": Column(path: "radiotap.vht.gi"),
                "radiotap.vht.mcs.0": Column(path: "radiotap.vht.users[0].mcs"),
                "radiotap.vht.nss.0": Column(path: "radiotap.vht.users[0].nss"),
                "radiotap.timestamp.ts": Column(path: "radiotap.timestamp.ts"),
                "radiotap.timestamp.accuracy": Column(path: "radiotap.timestamp.accuracy"),
                "radiotap.timestamp.unit": Column(path: "radiotap.timestamp.unit"),
                "radiotap.timestamp.samplingpos": Column(path: "radiotap.timestamp.samplingpos"),
                "radiotap.timestamp.flags.32bit": Column(path: "radiotap.timestamp.flags.bit32"),
                "radiotap.timestamp.flags.accuracy": Column(path: "radiotap.timestamp.flags.accuracy"),
            ],
            minimum: 300),
    ]

    @Test(arguments: ["ntp", "dhcp", "tls", "mqtt", "quic", "radiotap"])
    func matchesTshark(example name: String) throws {
        let example = try #require(Self.examples[name])
        var schema = try Self.schema(name)
        if let rule = example.decodeAs {
            let target = try #require(schema.structType(named: rule.structName))
            schema = try #require(schema.overriding(table: rule.table, keys: rule.key...rule.key, with: target.id))
        }
        let (capture, rows) = try exampleCapture(name)
        let root = try #require(schema.rootStruct(forLinkType: capture.linkType))
        let header = try #require(rows.first)
        #expect(rows.count - 1 == capture.frames.count)
        #expect(Set(header) == Set(example.columns.keys), "every column is compared")
        var compared = 0
        var interpreter = Interpreter(schema: schema)
        for (frameIndex, (row, frame)) in zip(rows.dropFirst(), capture.frames).enumerated() {
            let dissection = interpreter.dissect(frame, root: root)
            #expect(dissection.error == nil, "frame \(frameIndex + 1): \(String(describing: dissection.error))")
            let paths = dissection.nodes.indices.map { dissection.path(of: $0) }
            for (column, tsharkName) in header.enumerated() {
                guard let mapping = example.columns[tsharkName] else { continue }
                let cell = column < row.count ? row[column] : ""
                let expected = cell.isEmpty ? [] : cell.split(separator: example.aggregator).map(String.init)
                // An array's node shares its path with a single field's (body.ciphersuite): values only.
                let nodes = paths.indices.filter { index in
                    dissection.nodes[index].kind != .array && mapping.paths.contains { Self.matches(paths[index], $0) }
                }
                let ours = nodes.compactMap { index -> String? in
                    let value = Self.ours(dissection, index, mapping.comparison)
                    return mapping.filter?.keeps(dissection, index, value) ?? true ? value : nil
                }
                var theirs = expected.map { Self.theirs($0, mapping.comparison) }
                if mapping.comparison == .dhcpOptionType, let last = theirs.lastIndex(of: "0") { theirs[last] = "255" }
                if mapping.derivedByTshark, ours.isEmpty { continue }
                #expect(ours == theirs, "frame \(frameIndex + 1) \(tsharkName) (\(mapping.paths))")
                compared += theirs.count
            }
        }
        #expect(compared >= example.minimum, "\(compared) values compared")
    }

    /// The same Initial on UDP port 8443 is bytes until a decode-as (`-d udp.port==8443,QUICDatagram`) reads it.
    @Test func quicByDecodeAs() throws {
        let schema = try Self.schema("quic")
        let capture = try PcapFile(contentsOf: repositoryRoot.appendingPathComponent("Corpus/examples/quic.pcap"))
        var frame = try #require(capture.frames.first)
        frame[36] = 0x20
        frame[37] = 0xFB                                    // destination port 8443
        let root = try #require(schema.rootStruct(forLinkType: capture.linkType))
        var interpreter = Interpreter(schema: schema)
        let asBytes = interpreter.dissect(frame, root: root)
        #expect(asBytes.node(at: "quic.version") == nil)
        #expect(try asBytes.at("udp.payload").kind == .bytes)

        let datagram = try #require(schema.structType(named: "QUICDatagram"))
        let overridden = try #require(schema.overriding(table: "udp.port", keys: 8443...8443, with: datagram.id))
        var decodeAs = Interpreter(schema: overridden)
        let quic = decodeAs.dissect(frame, root: try #require(overridden.rootStruct(forLinkType: capture.linkType)))
        #expect(quic.error == nil)
        #expect(try quic.int("quic.version") == 1)
        #expect(try quic.int("quic.length.value") == 1182)
        #expect(try quic.display("quic.dcid") == "8394c8f03e515708")
    }

    /// An MQTT 5 PUBLISH read as 3.1.1 takes its properties for the start of the message: nothing
    /// in the packet tells, so the v5 session needs `-d tcp.port==1884,MQTTv5`.
    @Test func mqtt5PublishNeedsTheVersion() throws {
        let schema = try Self.schema("mqtt")
        let capture = try PcapFile(contentsOf: repositoryRoot.appendingPathComponent("Corpus/examples/mqtt.pcap"))
        let publish = capture.frames[14]
        func message(readingAs name: String) throws -> Dissection {
            let target = try #require(schema.structType(named: name))
            let overridden = try #require(schema.overriding(table: "tcp.port", keys: 1884...1884, with: target.id))
            var interpreter = Interpreter(schema: overridden)
            return interpreter.dissect(publish, root: try #require(overridden.rootStruct(forLinkType: capture.linkType)))
        }
        let v5 = try message(readingAs: "MQTTv5")
        #expect(v5.error == nil)
        #expect(try v5.int("mqtt.body.properties.property_len") == 26)
        #expect(try Array(v5.rawBytes(of: #require(v5.node(at: "mqtt.body.msg")))) == Array("hello 5".utf8))
        let v311 = try message(readingAs: "MQTTv311")
        #expect(v311.error == nil)
        #expect(v311.node(at: "mqtt.body.properties") == nil)
        #expect(try v311.rawBytes(of: #require(v311.node(at: "mqtt.body.msg"))).first == 26)
    }

    /// Examples whose schema is now bundled (Schemas/radiotap.schema, ntp.schema, dhcp.schema, quic.schema,
    /// mqtt.schema, tls.schema): their captures are still compared here, with the bundled schemas alone.
    static let bundledExamples: Set<String> = ["radiotap", "ntp", "dhcp", "quic", "mqtt", "tls"]

    /// The bundled schemas and the example's.
    static func schema(_ name: String) throws -> Schema {
        let bundled = repositoryRoot.appendingPathComponent("Schemas").path
        let example = repositoryRoot.appendingPathComponent("Schemas/examples/\(name).schema").path
        return try SchemaLoader.load(paths: bundledExamples.contains(name) ? [bundled] : [bundled, example],
                                     importDirectories: [bundled])
    }

    /// Whether `path` is `pattern`, where the pattern's `[*]` stands for any `[digits]`.
    static func matches(_ path: String, _ pattern: String) -> Bool {
        guard pattern.contains("[*]") else { return path == pattern }
        var path = Substring(path)
        var rest = Substring(pattern)
        while let star = rest.range(of: "[*]") {
            let before = rest[..<star.lowerBound]
            guard path.hasPrefix(before) else { return false }
            path = path.dropFirst(before.count)
            guard path.first == "[" else { return false }
            let digits = path.dropFirst().prefix { $0.isNumber }
            guard !digits.isEmpty, path.dropFirst(1 + digits.count).first == "]" else { return false }
            path = path.dropFirst(2 + digits.count)
            rest = rest[star.upperBound...]
        }
        return path == rest
    }

    static func ours(_ dissection: Dissection, _ index: Int, _ comparison: Comparison) -> String {
        switch comparison {
        case .text:
            return ValueFormatter.displayText(dissection, index)
        case .string:
            if let text = dissection.text(of: index) { return text }
            // Bytes shown @ascii: the text between the view's quotes.
            let shown = ValueFormatter.displayText(dissection, index)
            return shown.count >= 2 && shown.hasPrefix("\"") && shown.hasSuffix("\"") ? String(shown.dropFirst().dropLast()) : shown
        case .rawHex:
            return dissection.rawBytes(of: index).map { String(format: "%02x", $0) }.joined()
        case .halfUnits:
            let units = dissection.integer(of: index) ?? -1
            return units % 2 == 0 ? String(units / 2) : "\(units / 2).5"
        case .value, .signedByte, .dottedQuad, .dhcpOptionType:
            if let value = dissection.integer(of: index) { return String(value) }
            return ValueFormatter.displayText(dissection, index)
        case .ntpTime:
            var parts: [String: Int64] = [:]
            for child in dissection.children(of: index) { parts[dissection.name(of: child)] = dissection.integer(of: child) }
            if parts["seconds"] == 0, parts["fraction"] == 0 { return "NULL" }
            let nanoseconds = String(parts["nanoseconds"] ?? -1)
            return "\(parts["unix_seconds"] ?? -1).\(String(repeating: "0", count: max(0, 9 - nanoseconds.count)))\(nanoseconds)"
        }
    }

    static func theirs(_ text: String, _ comparison: Comparison) -> String {
        switch comparison {
        case .text, .rawHex, .string, .halfUnits:
            return text
        case .dottedQuad:
            let octets = text.split(separator: ".").compactMap { Int64($0) }
            return octets.count == 4 ? String(octets.reduce(0) { $0 << 8 | $1 }) : text
        case .value, .dhcpOptionType:
            return BundledSchemaOracleTests.integer(text).map(String.init) ?? text
        case .signedByte:
            return BundledSchemaOracleTests.integer(text).map { String(Int8(truncatingIfNeeded: $0)) } ?? text
        case .ntpTime:
            return unixTime(text) ?? text
        }
    }

    /// `Nov 23, 2026 20:17:07.354500770 UTC` as `1795465027.354500770`; nil if not that shape.
    static func unixTime(_ text: String) -> String? {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let words = text.replacingOccurrences(of: ",", with: "").split(separator: " ")
        guard words.count == 5, words[4] == "UTC", let month = months.firstIndex(of: String(words[0])),
              let day = Int64(words[1]), let year = Int64(words[2]) else { return nil }
        let clock = words[3].split(separator: ".")
        let hms = clock[0].split(separator: ":").compactMap { Int64($0) }
        guard clock.count == 2, hms.count == 3 else { return nil }
        // Days from 1970-01-01 to the date (Howard Hinnant's days_from_civil).
        let m = Int64(month + 1)
        let y = m <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return "\(days * 86400 + hms[0] * 3600 + hms[1] * 60 + hms[2]).\(clock[1])"
    }
}
