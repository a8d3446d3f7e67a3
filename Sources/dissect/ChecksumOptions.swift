import ArgumentParser
import BinarySchema
import CapturePipeline

/// `--checksums`: which `@checksum` fields are verified, for every command that dissects.
struct ChecksumOptions: ParsableArguments {
    @Option(name: .customLong("checksums"), help: ArgumentHelp(
        "Checksums to verify, comma-separated: layer names (ip, icmp, icmpv6, tcp, udp, or a schema's @protocol or struct name), default, all or none. By default only the IPv4 header checksum: TCP, UDP and ICMP are verified on request (default,tcp,udp,icmp), as in tshark, since a capture on the sending host holds checksums the network card fills in later. A wrong checksum is not an error: the field shows [incorrect, should be 0x…].",
        valueName: "list"))
    var checksums: String = "default"

    func validate() throws {
        _ = try words()
    }

    private func words() throws -> [String] {
        let words = checksums.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard !words.contains(where: \.isEmpty) else {
            throw ValidationError("--checksums '\(checksums)': expected names separated by commas, as in default,tcp,udp")
        }
        return words
    }

    /// The selection the list names, checked against the schema's checksums: an unknown name is a
    /// usage error, printed, that lists the known ones.
    func selection(for schema: Schema) throws -> ChecksumSelection {
        do {
            var selection = ChecksumSelection(includesDefaults: false)
            let known = schema.checksumNames
            for word in try words() {
                switch word {
                case "default": selection.includesDefaults = true
                case "all": selection.includesAll = true
                case "none": break
                default:
                    guard known.contains(word) else {
                        let names = (["default", "all", "none"] + known).joined(separator: ", ")
                        throw ValidationError("--checksums '\(checksums)': no checksum named '\(word)' (known: \(names))")
                    }
                    selection.names.insert(word)
                }
            }
            return selection
        } catch let error as ValidationError {
            // Checked against the schemas, so past ArgumentParser's validation: reported as -d's mistakes are.
            printError("Error: \(error.message)")
            throw ExitCode.validationFailure
        }
    }
}
