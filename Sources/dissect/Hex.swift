import ArgumentParser
import BinarySchema
import Dissector
import Foundation

struct Hex: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Dissect bytes given as hex text, one row per field.",
        discussion: """
            Bytes come from the HEX arguments, from --file (raw bytes), or from standard input \
            (hex text). Hex may be separated by spaces, colons, dashes or commas, with optional 0x.

            Each row shows the field's byte offset (with .bit for bit fields), its length in \
            bytes (or bits, with a b suffix), its path and its value. A malformed packet keeps \
            every field decoded before the error; the failing field is marked with ✗ and the reason.
            """
    )

    @OptionGroup var schemas: SchemaOptions

    @Option(help: "The struct to start at (see `dissect schema list`).")
    var root = "Ethernet"

    @Option(help: ArgumentHelp("Read raw bytes from this file instead of hex text.", valueName: "path"))
    var file: String?

    @Argument(help: ArgumentHelp("The bytes, as hex.", valueName: "hex"))
    var hex: [String] = []

    func run() throws {
        let schema = try schemas.load()
        guard let rootStruct = schema.structType(named: root) else {
            throw ValidationError("no struct named '\(root)'; known roots: \(schema.structNames.joined(separator: ", "))")
        }
        let bytes = try readBytes()
        var interpreter = Interpreter(schema: schema)
        let dissection = interpreter.dissect(bytes, root: rootStruct)
        print(FieldListRenderer().render(dissection))
    }

    private func readBytes() throws -> [UInt8] {
        if let file {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw ValidationError("cannot read '\(file)'")
            }
            return [UInt8](data)
        }
        let text: String
        if hex.isEmpty {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            text = String(decoding: data, as: UTF8.self)
        } else {
            text = hex.joined(separator: " ")
        }
        do {
            return try HexInput.parse(text)
        } catch {
            throw ValidationError(error.description)
        }
    }
}
