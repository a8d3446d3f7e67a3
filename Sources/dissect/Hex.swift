import ArgumentParser
import BinarySchema
import Dissector
import Foundation

struct Hex: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Dissect one frame given as hex: every byte labeled with its field.",
        discussion: """
            Bytes come from the HEX arguments, from --file (raw bytes), or from standard input \
            (hex text). Hex may be separated by spaces, colons, dashes or commas, with optional \
            0x; the output of xxd, hexdump -C, od -Ax -tx1 and tcpdump -xx/-X can be pasted as it \
            is (tcpdump -x and -X start at the IP layer: use --root IPv4 or IPv6).

            A malformed frame keeps every field decoded before the error; the failing field is \
            marked with ✗ and the exact reason, and the bytes after it are still shown. With \
            --original-length, the bytes are a capture cut short: a field that runs past them is \
            marked [|tcp], not as an error.

            Examples:
              dissect hex 'ffffffffffff 001122334455 0806 ...'
              xxd frame.bin | dissect hex --format tree
              dissect hex --file header.bin --no-bundled --schema bmp.schema --root BMPFile
            """
    )

    @OptionGroup var schemas: SchemaOptions
    @OptionGroup var view: ViewOptions
    @OptionGroup var checksums: ChecksumOptions

    @Option(help: "The struct to start at (see `dissect schema list`).")
    var root = "Ethernet"

    @Option(help: ArgumentHelp("Read raw bytes from this file instead of hex text.", valueName: "path"))
    var file: String?

    @Option(help: ArgumentHelp("The frame's length on the wire, when the bytes are a capture cut short by a snapshot length.", valueName: "bytes"))
    var originalLength: Int?

    @Argument(help: ArgumentHelp("The bytes, as hex.", valueName: "hex"))
    var hex: [String] = []

    func validate() throws {
        if let originalLength, originalLength < 0 { throw ValidationError("--original-length needs a length of 0 or more") }
    }

    func run() throws {
        let schema = try schemas.load()
        guard let rootStruct = schema.structType(named: root) else {
            throw ValidationError("no struct named '\(root)'; known roots: \(schema.structNames.joined(separator: ", "))")
        }
        var options = Interpreter.Options()
        options.checksums = try checksums.selection(for: schema)
        let bytes = try readBytes()
        var interpreter = Interpreter(schema: schema, options: options)
        let dissection = interpreter.dissect(bytes, root: rootStruct, originalLength: originalLength)
        let label = file.map { ($0 as NSString).lastPathComponent } ?? "frame"
        let text = Array((view.format.render(dissection, frame: FrameInfo(label: label), options: view.renderOptions) + "\n").utf8)
        var output: [UInt8] = []
        if view.symbols == .ascii {
            text.withUnsafeBufferPointer { SymbolSet.appendASCII(of: $0, to: &output) }
        } else {
            output = text
        }
        try output.withUnsafeBytes { try StandardStream.output.write($0) }
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
