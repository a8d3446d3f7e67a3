import BinarySchema
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

    /// The names users type most, each checked by name.
    @Test func theCommonNamesAreWiresharks() {
        let ours = Set(bundledSchema.filterFields.map(\.name))
        let common = ["eth.src", "eth.dst", "ip.src", "ip.dst", "ip.ttl", "tcp.flags.syn", "udp.length"]
        #expect(common.filter { !ours.contains($0) }.isEmpty)
    }
}
