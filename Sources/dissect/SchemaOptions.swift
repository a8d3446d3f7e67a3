import ArgumentParser
import BinarySchema
import Foundation

/// Options shared by every command that needs schemas.
struct SchemaOptions: ParsableArguments {
    @Option(name: .customLong("schema"),
            help: ArgumentHelp("A schema file or directory of *.schema files to load besides the bundled ones (repeatable).",
                               valueName: "file|dir"))
    var schemaPaths: [String] = []

    @Flag(help: "Do not load the bundled schemas (Schemas/ in the source tree, or $DISSECT_SCHEMAS).")
    var noBundled = false

    /// Loads the schemas, printing every error and exiting 1 if there are any.
    func load() throws -> Schema {
        let paths = (noBundled ? [] : [SchemaLoader.bundledDirectory]) + schemaPaths
        guard !paths.isEmpty else { throw ValidationError("--no-bundled needs at least one --schema") }
        do {
            return try SchemaLoader.load(paths: paths, importDirectories: [SchemaLoader.bundledDirectory])
        } catch {
            printError(error.description)
            throw ExitCode(1)
        }
    }
}
