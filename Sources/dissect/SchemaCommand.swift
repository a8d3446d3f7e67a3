import ArgumentParser
import BinarySchema
import CapturePipeline

struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Check and list schemas.",
        subcommands: [Check.self, List.self]
    )

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check schema files; list every error with file:line:column.",
            discussion: """
                Loads the files as the other commands load --schema files: with the files they \
                import, beside the bundled schemas (unless --no-bundled), all checked together. \
                Exits 0 when they are clean, 1 after printing every error (syntax, unknown types \
                and fields, use before definition, duplicate names, a name the bundled schemas \
                already declare, type mismatches, import cycles, structs that contain themselves). \
                Warnings (an expression C would read another way, as `a - 1 & mask`) are printed \
                too and do not change the exit status.
                """
        )

        @Argument(help: ArgumentHelp("Schema files or directories.", valueName: "file"))
        var files: [String]

        @Flag(help: "Check the files without the bundled schemas (see dissect --help for where they are found).")
        var noBundled = false

        func run() throws {
            // The same load as every other command's, so a file that checks here loads there.
            var schemas = SchemaOptions()
            schemas.schemaPaths = files
            schemas.noBundled = noBundled
            schemas.decodeAs = []
            let schema = try schemas.load(pathOptionName: nil)
            // Through write(2), like the views: print() buffers, so a failed write (a full disk)
            // would go unseen and the command exit 0.
            try StandardStream.output.writeLine("ok: \(schema.structs.count) structs, \(schema.enums.count) enums")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the structs that can be a --root, and every dispatch table with who registered each entry; or, with --fields, every filter name.",
            discussion: """
                Structs: name, protocol name, link types, file. Dispatch tables: each key (or range) \
                with the struct it selects and the file:line that registered it, in the order a key \
                is looked up: overrides (including --decode-as), exact values, ranges; then the \
                heuristics, tried in the order shown.
                """
        )

        @OptionGroup var schemas: SchemaOptions

        @Flag(help: ArgumentHelp(
            "List every filter name instead, as tshark -G fields does: one line each, tab-separated: the name, what it holds (u16, an enum's name, string, ipv4, struct, ...), its protocol layer, and the file:line of the field that declares it.",
            discussion: "The names -f json and -f fields show, the ones a Wireshark user types: tshark's wherever tshark has the field."))
        var fields = false

        func run() throws {
            let schema = try schemas.load()
            if fields {
                let lines = schema.filterFields.map {
                    "\($0.name)\t\($0.type)\t\($0.layer)\t\(Self.fileName($0.location)):\($0.location.line)\n"
                }
                try StandardStream.output.write(lines.joined())
                return
            }
            var lines: [String] = []
            for structure in schema.structs.sorted(by: { $0.name < $1.name }) {
                var line = structure.name
                if let abbreviation = structure.protocolAbbreviation { line += "  (\(abbreviation))" }
                if !structure.linkTypes.isEmpty {
                    line += "  linktype \(structure.linkTypes.map(String.init).joined(separator: ", "))"
                }
                line += "  \(Self.fileName(structure.location))"
                lines.append(line)
            }
            for table in schema.dispatchTables.sorted(by: { $0.name < $1.name }) {
                lines.append("")
                lines.append("table \(table.name): \(table.keyTypeName)  \(Self.fileName(table.location)):\(table.location.line)")
                let rows = table.lookupOrder.map { entry in
                    (Self.keys(entry, table, schema) + (entry.isOverride ? " (override)" : ""), entry)
                } + table.heuristics.map { ("heuristic", $0) }
                let width = rows.map(\.0.count).max() ?? 0
                for (keys, entry) in rows {
                    let target = schema.structs[entry.structID]
                    let name = target.name + (target.protocolAbbreviation.map { " (\($0))" } ?? "")
                    let padded = keys.padding(toLength: width, withPad: " ", startingAt: 0)
                    lines.append("  \(padded)  => \(name)  \(Self.fileName(entry.location)):\(entry.location.line)")
                }
                if rows.isEmpty { lines.append("  (nothing registered)") }
            }
            // One write(2), whose failure is an error, as for `check`.
            try StandardStream.output.write(lines.map { $0 + "\n" }.joined())
        }

        private static func fileName(_ location: SchemaLocation) -> String {
            location.path.split(separator: "/").last.map(String.init) ?? location.path
        }

        /// `53`, `8000...8100`, or for an enum key `ipv4 (0x0800)`.
        private static func keys(_ entry: DispatchTable.Entry, _ table: DispatchTable, _ schema: Schema) -> String {
            func key(_ value: Int64) -> String {
                guard let enumID = table.keyEnumID, schema.enums.indices.contains(enumID) else { return String(value) }
                let digits = String(UInt64(bitPattern: value), radix: 16)
                let width = (schema.enums[enumID].base.bits + 3) / 4
                let hex = "0x" + String(repeating: "0", count: max(0, width - digits.count)) + digits
                return schema.enums[enumID].caseName(for: value).map { "\($0) (\(hex))" } ?? hex
            }
            return entry.isRange ? "\(key(entry.low))...\(key(entry.high))" : key(entry.low)
        }
    }
}
