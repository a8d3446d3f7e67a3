import BinarySchema
import Dissector
import Foundation
import Testing

/// The network example schemas (NTP, DHCP, TLS, MQTT, QUIC, radiotap) on real captures, against
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
        /// tshark 4.0 shows some signed bytes unsigned (ntp.precision: 230 for -26).
        case signedByte
        /// tshark's absolute time (`Nov 23, 2026 20:17:07.354500770 UTC`, or `NULL` for zero)
        /// against our NTP timestamp struct's computed unix_seconds and nanoseconds.
        case ntpTime
    }

    struct Column: Sendable {
        let path: String
        var comparison: Comparison = .value
    }

    struct Example: Sendable {
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
    ]

    @Test(arguments: ["ntp"])
    func matchesTshark(example name: String) throws {
        let example = try #require(Self.examples[name])
        let examples = repositoryRoot.appendingPathComponent("Corpus/examples")
        let schema = try Self.schema(name)
        let capture = try PcapFile(contentsOf: examples.appendingPathComponent("\(name).pcap"))
        let root = try #require(schema.rootStruct(forLinkType: capture.linkType))
        let table = try String(contentsOf: examples.appendingPathComponent("\(name).tshark.tsv"), encoding: .utf8)
        let rows = table.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        let header = try #require(rows.first)
        #expect(rows.count - 1 == capture.frames.count)
        #expect(Set(header) == Set(example.columns.keys), "every column is compared")
        var compared = 0
        var interpreter = Interpreter(schema: schema)
        for (frameIndex, (row, frame)) in zip(rows.dropFirst(), capture.frames).enumerated() {
            let dissection = interpreter.dissect(frame, root: root)
            #expect(dissection.error == nil, "frame \(frameIndex + 1): \(String(describing: dissection.error))")
            for (column, tsharkName) in header.enumerated() {
                guard let mapping = example.columns[tsharkName] else { continue }
                let cell = column < row.count ? row[column] : ""
                let expected = cell.isEmpty ? [] : cell.split(separator: example.aggregator).map(String.init)
                let nodes = dissection.nodes.indices.filter { dissection.path(of: $0) == mapping.path }
                let ours = nodes.map { Self.ours(dissection, $0, mapping.comparison) }
                let theirs = expected.map { Self.theirs($0, mapping.comparison) }
                #expect(ours == theirs, "frame \(frameIndex + 1) \(tsharkName) (\(mapping.path))")
                compared += theirs.count
            }
        }
        #expect(compared >= example.minimum, "\(compared) values compared")
    }

    /// The bundled schemas and the example's.
    static func schema(_ name: String) throws -> Schema {
        let bundled = repositoryRoot.appendingPathComponent("Schemas").path
        return try SchemaLoader.load(
            paths: [bundled, repositoryRoot.appendingPathComponent("Schemas/examples/\(name).schema").path],
            importDirectories: [bundled])
    }

    static func ours(_ dissection: Dissection, _ index: Int, _ comparison: Comparison) -> String {
        switch comparison {
        case .text:
            return ValueFormatter.displayText(dissection, index)
        case .value, .signedByte:
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
        case .text:
            return text
        case .value:
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
