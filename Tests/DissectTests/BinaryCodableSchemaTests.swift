import Foundation
import Testing

/// Schemas/examples/binarycodable.schema labels every byte of a blob BinaryCodableEncoder wrote
/// (Corpus/examples/binarycodable-sensor.bin, kept equal to the encoder's output by BinaryCodingTests).
@Suite struct BinaryCodableSchemaTests {
    @Test func theSchemaLabelsEveryByteOfTheEncodersBlob() throws {
        let result = try CommandLineTests().run([
            "hex", "--no-bundled", "--schema", "Schemas/examples/binarycodable.schema", "--root", "BinaryCodableContainer",
            "--file", "Corpus/examples/binarycodable-sensor.bin", "-f", "tree",
        ])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.isEmpty)
        for word in ["unclaimed", "unparsed", "error"] { #expect(!result.output.contains(word), "\(result.output)") }
        // Keys with their data types, string key text, varint and zig-zag values, the nested container.
        for line in ["name: \"location\"", "[data_type: 2]", "name: \"x\"", "value: 65533", "content: \"pump\"",
                     "[data_type: 5]", "value: 3735928559", "[1]: -21", "[2]: 300"] {
            #expect(result.output.contains(line), "no \(line) in \(result.output)")
        }
    }
}
