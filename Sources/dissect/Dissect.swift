import ArgumentParser
import BinarySchema
import Dissector
import Foundation

@main
struct Dissect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dissect",
        abstract: "Dissect binary packets and formats with schemas: every byte labeled with its field.",
        discussion: """
            Schemas (the bundled ones in Schemas/, plus your own with --schema) describe binary \
            layouts; dissect walks them over bytes and shows each field's path, offset, length and value.

            Examples:
              dissect hex --root Ethernet 'ff ff ff ff ff ff 00 11 22 33 44 55 08 06 ...'
              dissect schema check Schemas/*.schema my-format.schema
              dissect schema list
            """,
        subcommands: [Hex.self, SchemaCommand.self]
    )
}
