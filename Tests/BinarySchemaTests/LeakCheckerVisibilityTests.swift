@testable import BinarySchema
import Testing

/// valgrind and LeakSanitizer call a block lost when no word of live memory holds its address.
/// A schema kept until exit (the fuzz targets keep theirs in statics) must therefore hold every
/// object it owns by a plain pointer, not one with a tag in its high bits, as Swift stores the
/// payload of an enum whose every payload is a reference.
@Suite struct LeakCheckerVisibilityTests {
    private static let text = """
        struct Main {
          n: u8
          name: cstring
          line: string[until "\\r\\n"]
          wide: string[until 0] @encoding("utf-16le")
          counted: string[n]
          items: u8[until it == 0]
          rest: bytes[..]
        }
        """

    /// The 64-bit words of `value` as it is stored.
    private func words<T>(of value: T) -> [UInt] {
        withUnsafeBytes(of: value) { raw in
            stride(from: 0, through: raw.count - MemoryLayout<UInt>.size, by: MemoryLayout<UInt>.stride).map {
                raw.loadUnaligned(fromByteOffset: $0, as: UInt.self)
            }
        }
    }

    /// The address a scanner must find for the reference an extent holds, or nil for `.rest`.
    private func address(of extent: Extent) -> UInt? {
        switch extent.form {
        case .expression(let program), .until(let program):
            return UInt(bitPattern: Unmanaged.passUnretained(program).toOpaque())
        case .terminator(let bytes):
            // An array is one word: the address of its storage object.
            return unsafeBitCast(bytes, to: UInt.self)
        case .rest:
            return nil
        }
    }

    /// Fails before `Extent` became a struct: the `until` condition's program and the terminators'
    /// bytes were held by words with bit 62 or 63 set, and valgrind reported them definitely lost.
    @Test func extentsHoldTheirProgramsAndTerminatorsByPlainPointers() throws {
        let schema = try SchemaLoader.load(text: Self.text, path: "visibility.schema")
        var checked: [String] = []
        for field in schema.fields {
            switch field.type {
            case .string(let extent, _, _), .bytes(let extent):
                // Stored inside the field's type: the words of the type as the field keeps it.
                guard let address = address(of: extent) else { continue }
                #expect(words(of: field.type).contains(address),
                        "\(field.name): \(String(address, radix: 16)) not among \(words(of: field.type).map { String($0, radix: 16) })")
                checked.append(field.name)
            case .array(_, let extent):
                // Stored in the indirect case's box, laid out as an `Extent` on its own.
                guard let address = address(of: extent) else { continue }
                #expect(words(of: extent).contains(address),
                        "\(field.name): \(String(address, radix: 16)) not among \(words(of: extent).map { String($0, radix: 16) })")
                checked.append(field.name)
            default:
                continue
            }
        }
        #expect(checked == ["name", "line", "wide", "counted", "items"])
    }

    /// Ownership is balanced: a schema dropped after use frees its fields and programs (what
    /// the `schema` fuzz target's LeakSanitizer runs saw), so what valgrind reported of a kept
    /// schema was memory it could not see, not memory never released.
    @Test func aDroppedSchemaFreesItsFieldsAndPrograms() throws {
        weak var schemaReference: Schema?
        weak var fieldReference: Field?
        weak var programReference: Program?
        do {
            let schema = try SchemaLoader.load(text: Self.text, path: "visibility.schema")
            var interpreter = Interpreter(schema: schema)
            // n = 3, "a" NUL, "b" CRLF, UTF-16LE "c" and its NUL, "xyz", items 1 0, the rest.
            let dissection = interpreter.dissect([3] + Array("a\0b\r\nc\0\0\0xyz\u{1}\0tail".utf8), root: schema.structs[0])
            #expect(dissection.error == nil, "\(String(describing: dissection.error))")
            #expect(Array(dissection.rawBytes(of: try #require(dissection.node(at: "Main.rest")))) == Array("tail".utf8))
            let items = try #require(schema.fields.first { $0.name == "items" })
            guard case .array(_, let extent) = items.type, case .until(let program) = extent.form else {
                Issue.record("items is not an array read until a condition: \(items.type)")
                return
            }
            schemaReference = schema
            fieldReference = items
            programReference = program
        }
        #expect(schemaReference == nil)
        #expect(fieldReference == nil)
        #expect(programReference == nil)
    }
}
