import ArgumentParser
import BinarySchema

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
                already declare, type mismatches, import cycles, structs that contain themselves).
                """
        )

        @Argument(help: ArgumentHelp("Schema files or directories.", valueName: "file"))
        var files: [String]

        @Flag(help: "Check the files without the bundled schemas (Schemas/ in the source tree, or $DISSECT_SCHEMAS).")
        var noBundled = false

        func run() throws {
            // The same load as every other command's, so a file that checks here loads there.
            var schemas = SchemaOptions()
            schemas.schemaPaths = files
            schemas.noBundled = noBundled
            let schema = try schemas.load()
            // Through write(2), like the views: print() buffers, so a failed write (a full disk)
            // would go unseen and the command exit 0.
            try StandardStream.output.writeLine("ok: \(schema.structs.count) structs, \(schema.enums.count) enums")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the structs that can be a --root, with their protocol names and link types."
        )

        @OptionGroup var schemas: SchemaOptions

        func run() throws {
            let schema = try schemas.load()
            var lines: [String] = []
            for structure in schema.structs.sorted(by: { $0.name < $1.name }) {
                var line = structure.name
                if let abbreviation = structure.protocolAbbreviation { line += "  (\(abbreviation))" }
                if !structure.linkTypes.isEmpty {
                    line += "  linktype \(structure.linkTypes.map(String.init).joined(separator: ", "))"
                }
                line += "  \(structure.location.path.split(separator: "/").last.map(String.init) ?? "")"
                lines.append(line)
            }
            // One write(2), whose failure is an error, as for `check`.
            try StandardStream.output.write(lines.map { $0 + "\n" }.joined())
        }
    }
}
