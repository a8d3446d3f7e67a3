import ArgumentParser
import BinarySchema
import CapturePipeline
import Dissector
import Foundation

@main
struct Dissect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dissect",
        abstract: "Dissect binary packets and formats with schemas: every byte labeled with its field.",
        discussion: """
            Schemas (the bundled ones, plus your own with --schema) describe binary \
            layouts; dissect walks them over bytes and shows each field's path, offset, length and value.

            The bundled schemas are read from the first of: $DISSECT_SCHEMAS (when set and not \
            empty), <prefix>/share/dissect/schemas for <prefix>/bin/dissect, schemas/ beside the \
            binary, Schemas/ of the source tree it was built from.

            Without a subcommand, dissect reads a capture file or an interface: `dissect capture --help` \
            shows -r, -i, -c, -w, -q and filters.

            Outside a UTF-8 locale (the first of LC_ALL, LC_CTYPE and LANG set and not empty; none \
            means C) the views write -, >, ! and ... for their symbols ·, ›, ✗ and …; JSON is \
            UTF-8 always.

            Examples:
              dissect -r capture.pcapng -f hex 'tcp port 80'
              dissect -i eth0 -c 10 -f summary
              dissect hex --root Ethernet 'ff ff ff ff ff ff 00 11 22 33 44 55 08 06 ...'
              dissect schema check Schemas/*.schema my-format.schema
              dissect schema list
            """,
        version: DissectVersion.current,
        subcommands: [CaptureCommand.self, Hex.self, SchemaCommand.self],
        defaultSubcommand: CaptureCommand.self
    )

    /// Runs with tcpdump's short-option habits (`-c10`, `-nnvX`) rewritten for the parser.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let refusal = ShortOptions.refusal(in: arguments) {
            printError("Error: \(refusal)")
            Foundation.exit(ExitCode.validationFailure.rawValue)
        }
        main(ShortOptions.normalized(arguments))
    }
}
