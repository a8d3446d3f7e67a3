import BinarySchema
import Dissector

/// Schema text: the front end gives a schema or located errors, nothing else; a schema that
/// checks is then walked over the text's own bytes from each of its first structs, and one
/// input in eight is also rendered in every view.
enum SchemaTarget {
    static let renderingSample: UInt32 = 8

    static func run(_ bytes: [UInt8]) throws(InvariantViolation) {
        let text = String(decoding: bytes, as: UTF8.self)
        // Counted on bytes: Swift's String takes "\r\n" as one Character, not a "\n". Any line
        // break the lexer might honour (LF, CR) raises the bound.
        let lineCount = 1 + bytes.reduce(0) { $0 + ($1 == 0x0A || $1 == 0x0D ? 1 : 0) }
        let schema: Schema
        do {
            schema = try SchemaLoader.load(text: text, path: "fuzz.schema")
        } catch {
            try require(!error.diagnostics.isEmpty, "a failed load without diagnostics")
            for diagnostic in error.diagnostics {
                let location = diagnostic.location
                try require(location.line >= 1 && location.line <= lineCount + 1 && location.column >= 1,
                            "diagnostic at \(location) outside the \(lineCount)-line text: \(diagnostic.message)")
                try require(!diagnostic.message.isEmpty, "a diagnostic without a message at \(location)")
            }
            return
        }
        // Rendering costs several times the walk: every view is checked on one input in
        // `renderingSample`, picked by a hash of the bytes so a replay renders the same inputs.
        let renders = bytes.reduce(UInt32(2_166_136_261)) { ($0 ^ UInt32($1)) &* 16_777_619 } % renderingSample == 0
        var interpreter = Interpreter(schema: schema, options: DissectionInvariants.walkOptions)
        for root in schema.structs.prefix(3) {
            let dissection = interpreter.dissect(bytes, root: root)
            try DissectionInvariants.check(dissection, root: root.name)
            if renders { try ViewsTarget.renderEveryView(dissection, root: root.name) }
        }
    }
}
