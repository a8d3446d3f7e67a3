import BinarySchema
import Dissector
import Foundation
import Testing

/// Every filter name of the bundled schemas against Wireshark's (`tshark -G fields`, kept in
/// `Corpus/oracle/tshark-fields.tsv` by `scripts/tshark-fields`): a name tshark lacks must be
/// listed, with its reason, in `Corpus/oracle/filter-names/<schema file>.tsv`, and a listed name
/// must still be one of ours that tshark lacks.
@Suite struct FilterNameTests {
    /// Wireshark's names for the layers the bundled schemas have.
    static let tsharkNames: Set<String> = {
        let url = repositoryRoot.appendingPathComponent("Corpus/oracle/tshark-fields.tsv")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return Set(text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: "\t").first.map(String.init) })
    }()

    /// Each listed name, with its reason and the file that lists it.
    static let exceptions: [String: (reason: String, file: String)] = {
        let directory = repositoryRoot.appendingPathComponent("Corpus/oracle/filter-names")
        var found: [String: (String, String)] = [:]
        for file in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] where file.hasSuffix(".tsv") {
            let text = (try? String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n") where !line.hasPrefix("#") {
                let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
                found[parts[0]] = (parts.count > 1 ? parts[1] : "", file)
            }
        }
        return found
    }()

    @Test func theSnapshotOfTsharksNamesIsThere() {
        #expect(Self.tsharkNames.count > 10_000, "Corpus/oracle/tshark-fields.tsv: run scripts/tshark-fields")
        #expect(Self.tsharkNames.contains("tcp.srcport") && Self.tsharkNames.contains("dns.qry.name"))
    }

    /// A name of ours tshark does not have is listed with a reason, in the file of the schema
    /// that declares it.
    @Test func everyNameIsTsharksOrListedWithItsReason() {
        var unlisted: [String] = []
        var misplaced: [String] = []
        for field in bundledSchema.filterFields where !Self.tsharkNames.contains(field.name) {
            guard let listed = Self.exceptions[field.name], !listed.reason.trimmingCharacters(in: .whitespaces).isEmpty else {
                unlisted.append("\(field.name) (\(field.location))")
                continue
            }
            let schemaFile = (field.location.path as NSString).lastPathComponent.replacingOccurrences(of: ".schema", with: ".tsv")
            if listed.file != schemaFile { misplaced.append("\(field.name) is in \(listed.file), not \(schemaFile)") }
        }
        #expect(unlisted.isEmpty, "not in tshark -G fields and not listed with a reason:\n\(unlisted.joined(separator: "\n"))")
        #expect(misplaced.isEmpty, "\(misplaced.joined(separator: "\n"))")
    }

    /// A listed name that is tshark's, or no longer ours, is stale.
    @Test func noListedNameIsStale() {
        let ours = Set(bundledSchema.filterFields.map(\.name))
        let stale = Self.exceptions.keys.filter { !ours.contains($0) || Self.tsharkNames.contains($0) }.sorted()
        #expect(stale.isEmpty, "listed in Corpus/oracle/filter-names but tshark has it or no schema does:\n\(stale.joined(separator: "\n"))")
    }

    /// Only protocol fields are shown: every field any view shows of the repository's captures
    /// (the JSON view lists them all) is a protocol layer or has a name that tshark has or that is
    /// listed with its reason; none is a schema's working value (`hidden let`, a parameter).
    @Test func everyFieldTheViewsShowOfTheCapturesIsAProtocolField() throws {
        let layers = Set(bundledSchema.structs.compactMap(\.protocolAbbreviation))
        var unnamed: [String: String] = [:]
        let directory = repositoryRoot.appendingPathComponent("Corpus/captures")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".pcap") || $0.hasSuffix(".pcapng") }
        #expect(files.count > 40, "the loop below must check something")
        var fieldsSeen = 0
        for file in files.sorted() {
            let capture = try PcapFile(contentsOf: directory.appendingPathComponent(file))
            guard let root = bundledSchema.rootStruct(forLinkType: capture.linkType) else { continue }
            var interpreter = Interpreter(schema: bundledSchema)
            for (frame, original) in zip(capture.frames, capture.originalLengths) {
                let dissection = interpreter.dissect(frame, root: root, originalLength: original)
                let object = try #require(try JSONSerialization.jsonObject(with: Data(JSONRenderer().render(dissection).utf8)) as? [String: Any])
                for field in object["fields"] as? [[String: Any]] ?? [] {
                    guard field["error"] == nil, field["cut"] == nil, let name = field["filter"] as? String else { continue }
                    fieldsSeen += 1
                    if layers.contains(name) || Self.tsharkNames.contains(name) || Self.exceptions[name] != nil { continue }
                    unnamed[name] = "\(file): \(field["path"] as? String ?? "")"
                }
            }
        }
        #expect(fieldsSeen > 10_000)
        #expect(unnamed.isEmpty, "shown but neither tshark's nor listed with a reason:\n\(unnamed.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }.joined(separator: "\n"))")
    }

    /// The scaffolding the views used to show is gone from the bundled schemas: a zero-width
    /// `bytes[0]` anchor for a constraint (a struct's `@requires` says it), or a constant computed
    /// value made to carry a label (a `hidden let`).
    @Test func noBundledSchemaHasZeroWidthAnchorsOrShownConstantLabels() throws {
        let directory = repositoryRoot.appendingPathComponent("Schemas")
        var found: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: directory.path) where file.hasSuffix(".schema") {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                if code.contains(/:\s*bytes\[0\]/) || code.contains(/^\s*let \w+ = \d+\s*(@|$)/) {
                    found.append("\(file):\(number + 1): \(line)")
                }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    /// The names users type most, each checked by name.
    @Test func theCommonNamesAreWiresharks() {
        let ours = Set(bundledSchema.filterFields.map(\.name))
        let common = ["eth.src", "eth.dst", "eth.type", "ip.src", "ip.dst", "ip.ttl", "ip.proto", "ip.len", "ipv6.nxt", "ipv6.src",
                      "tcp.srcport", "tcp.dstport", "tcp.flags.syn", "udp.srcport", "udp.dstport", "udp.length", "dns.qry.name",
                      "dns.a", "http.request.method", "http.request.uri", "http.response.code",
                      "tls.handshake.extensions_server_name", "tls.handshake.type", "cdp.deviceid"]
        #expect(common.filter { !ours.contains($0) }.isEmpty)
    }
}
