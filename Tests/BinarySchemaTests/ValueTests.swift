import BinarySchema
import Dissector
import Foundation
import Testing

/// Computed values (`let name = expr`) and byte orders chosen at run time (`@little_endian`).
@Suite struct ValueTests {
    /// QUIC's variable-length integer (RFC 9000 §16), written once and used as a number.
    static let varint = """
        endian big
        struct VarInt {
          prefix: u2
          v6: u6 if prefix == 0
          v14: u14 if prefix == 1
          v30: u30 if prefix == 2
          v62: u62 if prefix == 3
          let value = prefix == 0 ? v6 : prefix == 1 ? v14 : prefix == 2 ? v30 : v62
          let is_long = prefix >= 2
        }
        struct Main {
          length: VarInt
          data: bytes[length.value]
          let doubled = length.value * 2 @hex
        }
        """

    @Test func aComputedValueIsANumberLaterFieldsUse() throws {
        // RFC 9000 appendix A.1's examples.
        let cases: [([UInt8], Int64)] = [
            ([0x25], 37), ([0x40, 0x25], 37), ([0x7B, 0xBD], 15293), ([0x9D, 0x7F, 0x3E, 0x7D], 494_878_333),
            ([0xC2, 0x19, 0x7C, 0x5E, 0xFF, 0x14, 0xE8, 0x8C], 151_288_809_941_952_652),
        ]
        for (bytes, expected) in cases {
            let result = try dissect(Self.varint, bytes, root: "VarInt")
            #expect(result.error == nil)
            #expect(try result.int("VarInt.value") == expected, "\(bytes)")
            #expect(try result.at("VarInt.is_long").value == .boolean(bytes.count >= 4))
        }
        let message = try dissect(Self.varint, [0x03, 0xAA, 0xBB, 0xCC, 0xDD])
        #expect(try result(message, "Main.data").byteLength == 3)
        #expect(try message.int("Main.doubled") == 6)
        #expect(try message.display("Main.doubled") == "0x6", "hex digits for the value, as it has no width")
        // Derived: at the cursor, with no bytes.
        let derived = try message.at("Main.length.value")
        #expect(derived.bitStart == 8 && derived.bitEnd == 8)
    }

    private func result(_ dissection: Dissection, _ path: String) throws -> FieldNode { try dissection.at(path) }

    @Test func viewsShowComputedValuesAsDerived() throws {
        let message = try dissect(Self.varint, [0x02, 0xAA, 0xBB])
        let tree = TreeRenderer().render(message)
        #expect(tree.contains("\n        [value: 2]\n"), "\(tree)")
        #expect(tree.contains("\n    [doubled: 0x4]"), "\(tree)")
        let fields = FieldRowsRenderer().render(message)
        let row = try #require(fields.split(separator: "\n").first { $0.contains("Main.length.value") })
        #expect(row.hasSuffix("Main.length.value    [2]"), "\(row)")
        #expect(row.hasPrefix("        "), "no offset and no bytes: \(row)")
        let json = JSONRenderer().render(message)
        #expect(json.contains(#"{"path":"Main.length.value","name":"value","filter":"Main.length.value","parent":1,"kind":"integer","offset":1,"length":0,"derived":true,"value":2,"display":"2"}"#),
                "\(json)")
    }

    @Test func computedValuesInSummariesAndDisplays() throws {
        let schema = """
            @protocol("demo") @summary("total {total}")
            struct Main {
              a: u8
              b: u8
              let total = a + b @display("{} bytes", total)
            }
            """
        let message = try dissect(schema, [3, 4])
        #expect(try message.display("demo.total") == "7 bytes")
        #expect(SummaryRenderer().render(message).contains("total 7 bytes"))
    }

    /// `{?…}` shows its text only when every field it names was read; a plain `{field}` that was
    /// not read still shows `?`.
    @Test func optionalSummaryGroupsShowOnlyWithTheirFields() throws {
        let schema = """
            @protocol("demo") @summary("kind {kind}{?, value {value} of {total}}{? [flag {flag}]} next {next}")
            struct Main {
              kind: u8
              value: u8 if kind == 1
              total: u8 if kind != 3
              flag: u8 if kind == 2
              next: u8 if kind != 2
            }
            """
        #expect(SummaryRenderer().render(try dissect(schema, [1, 7, 9, 4])) == "Main kind 1, value 7 of 9 next 4")
        // Both fields of a group must be there: `total` alone does not show it.
        #expect(SummaryRenderer().render(try dissect(schema, [2, 9, 5])) == "Main kind 2 [flag 5] next ?")
        #expect(SummaryRenderer().render(try dissect(schema, [3, 8])) == "Main kind 3 next 8")
    }

    @Test func optionalSummaryGroupErrorsPointIntoTheString() {
        let found = diagnostics("""
            @protocol("a") @summary("x {?y {b}")
            struct A { b: u8 }
            @protocol("b") @summary("x{? no field}")
            struct B { b: u8 }
            @protocol("c") @summary("{?{b} {?{b}}}")
            struct C { b: u8 }
            @protocol("d") @summary("{b} {?{nope}}")
            struct D { b: u8 }
            """)
        #expect(found.map { "\($0.location.line):\($0.location.column) \($0.kind) \($0.message)" } == [
            "1:28 invalidValue @summary optional group '{?' has no closing '}'",
            "3:38 invalidValue @summary optional group '{?…}' names no field: it would always show, so write its text without '{?' and '}'",
            "5:32 invalidValue @summary optional groups do not nest: '{?' inside '{?…}' (plain {field} placeholders do)",
            "7:32 unknownField @summary placeholder '{nope}' names no field of this struct",
        ])
    }

    /// `@label` names a layer in the views; paths keep the protocol abbreviation.
    @Test func labelsNameLayersInTheViews() throws {
        let schema = """
            @protocol("demo") @summary("a {a}") @label("Demo v2")
            struct Main { a: u8  inner: Inner }
            @protocol("inner") @label("IPv4")
            struct Inner { b: u8 }
            """
        let message = try dissect(schema, [1, 2])
        #expect(SummaryRenderer().render(message) == "Demo v2 a 1 · IPv4")
        let tree = TreeRenderer().render(message)
        #expect(tree.contains("\nDemo v2 (demo), 1 byte: a 1\n"), "\(tree)")
        #expect(tree.contains("\nIPv4 (inner), 1 byte\n"), "\(tree)")
        #expect(tree.contains("Demo v2 › IPv4"), "\(tree)")
        #expect(try message.display("inner.b") == "2")
        #expect(diagnostics("@label(\"X\") struct Main { a: u8 }").map(\.message)
                == ["@label names a protocol layer in the views: add @protocol(\"name\") to 'Main'"])
        #expect(diagnostics("@protocol(\"m\") @label(\"\") struct Main { a: u8 }").first?.message.hasPrefix("@label takes one") == true)
    }

    /// `zeros(n)`: whether the next n bytes are all zero; past the scope, `peek`'s error.
    @Test func zerosTellsPaddingFromData() throws {
        let schema = """
            struct Main {
              kind: u8
              padding: bytes[..] if remaining() > 0 && zeros(remaining())
              trailer: bytes[..] if remaining() > 0
            }
            """
        let zeros = try dissect(schema, [1, 0, 0, 0])
        #expect(zeros.node(at: "Main.padding") != nil && zeros.node(at: "Main.trailer") == nil)
        let data = try dissect(schema, [1, 0, 5, 0])
        #expect(data.node(at: "Main.padding") == nil && data.node(at: "Main.trailer") != nil)
        let nothing = try dissect(schema, [1])
        #expect(nothing.node(at: "Main.padding") == nil && nothing.node(at: "Main.trailer") == nil && nothing.error == nil)
        let beyond = try dissect("struct Main { a: u8 if zeros(2)  rest: bytes[..] }", [0])
        #expect(beyond.error != nil)
        #expect(diagnostics("struct Main { a: u8 if zeros(true) }").count == 1)
    }

    @Test func misusedComputedValuesAreLocatedErrors() {
        let found = diagnostics("""
            struct Inner { a: u8 }
            struct Main {
              x: Inner
              let s = x
              let early = later + 1
              later: u8
              let f = later @flag
              let b = later == 1 @hex
            }
            """)
        #expect(found.map { "\($0.location.line):\($0.location.column) \($0.kind) \($0.message)" } == [
            "4:11 typeMismatch 'x' is struct Inner, not a number; name one of its fields (x.<field>)",
            "5:15 useBeforeDefinition field 'later' is used before its definition in 'Main'",
            "7:17 invalidValue '@flag' does not apply to a computed value (known: @hex, @dec, @bin, @display, @name)",
            "8:22 invalidValue '@hex' does nothing on a bool",
        ])
    }

    // MARK: - Byte order at run time

    /// ELF's EI_DATA decides the byte order of everything after the identification bytes.
    static let elfLike = """
        endian big
        enum Kind: u16 { relocatable = 1, executable = 2 }
        struct File {
          data: u8 @assert(data == 1 || data == 2)
          header: Header @little_endian(data == 1)
          trailer: u16
        }
        struct Header {
          kind: Kind
          flags: u32
          marker: u16be
          ratio: f32
          nested: Nested
        }
        struct Nested { value: u16 }
        """

    @Test func aFieldsContentsReadInTheByteOrderAnExpressionChooses() throws {
        let littleRatio = Array(withUnsafeBytes(of: Float(1.5).bitPattern.littleEndian) { Array($0) })
        let bigRatio = Array(withUnsafeBytes(of: Float(1.5).bitPattern.bigEndian) { Array($0) })
        let little = try dissect(Self.elfLike, [1, 0x02, 0x00, 0x78, 0x56, 0x34, 0x12, 0xAB, 0xCD] + littleRatio + [0x34, 0x12, 0x00, 0x05],
                                 root: "File")
        #expect(little.error == nil)
        #expect(try little.display("File.header.kind") == "executable (2)")
        #expect(try little.int("File.header.flags") == 0x1234_5678)
        #expect(try little.int("File.header.marker") == 0xABCD, "an explicit be suffix keeps its order")
        #expect(try little.display("File.header.ratio") == "1.5")
        #expect(try little.int("File.header.nested.value") == 0x1234, "structs inside follow the chosen order")
        #expect(try little.int("File.trailer") == 5, "after the field, the file's order again")
        let big = try dissect(Self.elfLike, [2, 0x00, 0x02, 0x12, 0x34, 0x56, 0x78, 0xAB, 0xCD] + bigRatio + [0x12, 0x34, 0x00, 0x05],
                              root: "File")
        #expect(try big.display("File.header.kind") == "executable (2)")
        #expect(try big.int("File.header.flags") == 0x1234_5678)
        #expect(try big.int("File.header.nested.value") == 0x1234)
    }

    /// An enum declared in a big-endian file is read in the byte order of the file that uses it.
    @Test func anEnumIsReadInTheByteOrderOfTheFieldUsingIt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("order-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "endian big\nenum Kind: u16 { one = 1 }\nenum Fixed: u16be { one = 1 }\n"
            .write(to: directory.appendingPathComponent("kinds.schema"), atomically: true, encoding: .utf8)
        try "endian little\nimport \"kinds.schema\"\nstruct Main { kind: Kind  fixed: Fixed }\n"
            .write(to: directory.appendingPathComponent("main.schema"), atomically: true, encoding: .utf8)
        let schema = try SchemaLoader.load(paths: [directory.appendingPathComponent("main.schema").path])
        var interpreter = Interpreter(schema: schema)
        let dissection = interpreter.dissect([0x01, 0x00, 0x00, 0x01], root: try #require(schema.structType(named: "Main")))
        #expect(try dissection.display("Main.kind") == "one (1)")
        #expect(try dissection.display("Main.fixed") == "one (1)", "an explicit be base keeps its order")
    }

    @Test func littleEndianTakesOneBoolExpression() {
        let found = diagnostics("struct Main {\n  a: u8\n  b: u16 @little_endian(a)\n  c: u16 @little_endian\n}")
        #expect(found.map { "\($0.location.line):\($0.location.column) \($0.message)" } == [
            "3:25 a @little_endian condition must be a bool, but this is integer",
            "4:10 @little_endian takes one bool expression: whether the field's contents are little-endian",
        ])
    }

    // MARK: - Parameters

    static let parameters = """
        enum Kind: u8 { short = 1, long = 2 }
        struct Option(length: u8, kind: Kind, big: bool) {
          data: bytes[length - 2]
          extra: u8 if big
        }
        struct Main {
          kind: u8
          len: u8
          opt: Option(len, kind, kind == 2)
          more: Option(3, 1, false)[2]
        }
        """

    @Test func aStructReadsTheArgumentsItsUserPasses() throws {
        let result = try dissect(Self.parameters, [0x02, 0x05, 0xAA, 0xBB, 0xCC, 0xDD, 0x11, 0x22])
        #expect(result.error == nil)
        #expect(try result.int("Main.opt.length") == 5)
        #expect(try result.display("Main.opt.kind") == "long (2)")
        #expect(try result.at("Main.opt.big").value == .boolean(true))
        #expect(try result.at("Main.opt.data").byteLength == 3)
        #expect(try result.int("Main.opt.extra") == 0xDD)
        #expect(try result.at("Main.more[1].data").byteOffset == 7)
        #expect(result.node(at: "Main.more[1].extra") == nil)
        // What the user passed is shown where it was read: a view shows it here only when asked.
        #expect(!TreeRenderer().render(result).contains("[length: 5]"))
        let tree = TreeRenderer(options: RenderOptions(showsHidden: true)).render(result)
        #expect(tree.contains("\n        [length: 5]\n        [kind: long (2)]\n        [big: true]\n"), "\(tree)")
        // A root has nothing to pass: the walk stops at the first parameter, located.
        let root = try dissect(Self.parameters, [1, 2, 3], root: "Option")
        #expect(root.error?.code == "missing_argument")
        #expect(root.error?.path == "Option.length")
    }

    @Test func parametersAreCheckedWhereTheStructIsUsed() {
        let found = diagnostics("""
            struct P(n: u8, s: string) { a: bytes[n] }
            struct Q(n: u8) { a: bytes[n] }
            struct Main {
              x: u8
              a: Q
              b: Q(1, 2)
              c: Q(x == 1)
              d: u8(3)
            }
            register t { 1 => Q }
            table t: u8
            """)
        #expect(found.map { "\($0.location.line):\($0.location.column) \($0.message)" } == [
            "1:20 a parameter is an integer type, bool or an enum",
            "5:6 struct 'Q' takes 1 argument: Q(n)",
            "6:6 struct 'Q' takes 1 argument (n), not 2",
            "7:10 argument 'n' of 'Q' is integer, not bool",
            "8:6 'u8' is a built-in type and takes no arguments",
            "10:19 struct 'Q' takes parameters, which a table cannot pass",
        ])
    }

    // MARK: - Reaching into arrays and switch results

    static let reaching = """
        struct TLV { kind: u8  len: u8  data: bytes[len] }
        struct A { tag: u8 == 1  x: u8 }
        struct B { tag: u8 == 2  x: u8  y: u8 }
        struct C { tag: u8 == 3 }
        struct Main {
          n: u8
          items: TLV[n]
          let first_kind = items[0].kind
          let last_len = items.last.len
          let first_data_len = len(items[0].data)
          body: switch peek(0) { 1 => A  2 => B  3 => C  _ => bytes[..] }
          let body_x = body.x
          tail: bytes[items[1].len]
        }
        """

    @Test func expressionsReachArrayElementsAndTheStructASwitchRead() throws {
        let result = try dissect(Self.reaching, [0x03, 0x07, 0x01, 0xAA, 0x08, 0x02, 0xBB, 0xCC, 0x09, 0x00, 0x02, 0x05, 0x02, 0xEE, 0xFF])
        #expect(result.error == nil)
        #expect(try result.int("Main.first_kind") == 7)
        #expect(try result.int("Main.last_len") == 0)
        #expect(try result.int("Main.first_data_len") == 1)
        #expect(try result.int("Main.body_x") == 5, "x of B, in its own slot")
        #expect(try result.at("Main.tail").byteLength == 2)
        let throughA = try dissect(Self.reaching, [0x01, 0x07, 0x00, 0x01, 0x09, 0xEE])
        #expect(try throughA.int("Main.body_x") == 9, "x of A")
        // An index past the end, or a struct without the field, is an absent field at the reader.
        let short = try dissect(Self.reaching, [0x01, 0x07, 0x00, 0x03])
        #expect(short.error?.code == "absent_field")
        #expect(short.error?.path == "Main.body_x")
    }

    @Test func misusedIndicesAndMembersAreLocatedErrors() {
        let found = diagnostics("""
            struct A { x: u8 }
            struct B { y: u8 }
            struct Main {
              n: u8
              items: u8[n]
              let a = items[n == 1]
              let b = n[0]
              let c = items[-1]
              body: switch n { 1 => A  _ => B }
              let d = body.z
            }
            """)
        #expect(found.map { "\($0.location.line):\($0.location.column) \($0.message)" } == [
            "6:19 an array index must be an integer, but this is bool",
            "7:12 an index applies to an array, not to a value of type integer",
            "8:16 an array index is at least 0 (write '.last' for the last element), not -1",
            "10:15 none of the structs this can be (A, B) has a field 'z'",
        ])
    }

    // MARK: - Positional reads and alignment

    static let positional = """
        struct Entry { offset: u8  length: u8  name: bytes[length] @at(offset) @ascii }
        @offset_base
        struct Archive { count: u8  entries: Entry[count]  tail: u8 }
        struct Radio { present: u8  a: u8  x: u8  b: u16le @align(2)  c: u32le @align(4) }
        struct Loop { next: u8  again: Loop if next != 255 @at(next) }
        struct Fan(depth: u8) { a: Fan(depth + 1) if depth < 40 @at(0)  b: Fan(depth + 1) if depth < 40 @at(0)  end: u8 }
        struct FanRoot { fan: Fan(0) }
        struct Inner { skip: u8  name: bytes[2] @at(1) }
        struct Outer { prefix: u8  inner: Inner @size(3) }
        @offset_base
        struct Based { prefix: u8  inner: Inner @size(3) }
        """

    @Test func aFieldIsReadAtAnOffsetAndTheCursorStaysWhereItWas() throws {
        let result = try dissect(Self.positional, [0x02, 0x05, 0x02, 0x07, 0x03, 0x68, 0x69, 0x61, 0x62, 0x63], root: "Archive")
        #expect(result.error == nil)
        #expect(try result.display("Archive.entries[0].name") == "\"hi\"")
        #expect(try result.at("Archive.entries[0].name").byteOffset == 5)
        #expect(try result.display("Archive.entries[1].name") == "\"abc\"")
        #expect(try result.at("Archive.entries[1].offset").byteOffset == 3, "the table goes on after the jump")
        #expect(try result.int("Archive.tail") == 0x68, "after the entries, the cursor is where the table ended")
        // Offsets count from the nearest @offset_base struct, else the input.
        let plain = try dissect(Self.positional, [0xAA, 0x01, 0x02, 0x03], root: "Outer")
        #expect(try plain.at("Outer.inner.name").byteOffset == 1, "from the input: beyond the @size scope is allowed")
        let based = try dissect(Self.positional, [0xAA, 0x01, 0x02, 0x03], root: "Based")
        #expect(try based.at("Based.inner.name").byteOffset == 1)
        let outside = try dissect(Self.positional, [0x01, 0x09, 0x02, 0x68, 0x69], root: "Archive")
        #expect(outside.error?.code == "position_out_of_range")
        #expect(outside.error?.path == "Archive.entries[0].name")
    }

    /// Offsets that point back make chains (stopped by the depth budget) and fan-outs (stopped by
    /// the budget of positioned reads), never a hang.
    @Test func hostileOffsetsMeetABudget() throws {
        let loop = try dissect(Self.positional, [0x00], root: "Loop")
        #expect(loop.error?.code == "depth_limit")
        // 2^40 reads of one byte without an error: the budget (65536 by default) ends it.
        let fan = try dissect(Self.positional, [0x00], root: "FanRoot")
        #expect(fan.error?.code == "position_limit")
        #expect(fan.nodes.count < 65536 * 8)
        let schema = try SchemaLoader.load(text: Self.positional)
        var interpreter = Interpreter(schema: schema)
        interpreter.options.positionLimit = 100
        let small = interpreter.dissect([0x00], root: try #require(schema.structType(named: "FanRoot")))
        #expect(small.error?.code == "position_limit")
        #expect(small.nodes.count < 100 * 8)
    }

    @Test func aFieldIsAlignedFromItsStructsStart() throws {
        let result = try dissect(Self.positional, [0x01, 0x02, 0x03, 0xEE, 0xFF, 0x03, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00], root: "Radio")
        #expect(result.error == nil)
        #expect(try result.at("Radio.b").byteOffset == 4)
        #expect(try result.int("Radio.b") == 0x03FF)
        #expect(try result.at("Radio.c").byteOffset == 8)
        #expect(try result.int("Radio.c") == 4)
        let short = try dissect(Self.positional, [0x01, 0x02, 0x03], root: "Radio")
        #expect(short.error?.code == "premature_end")
        #expect(short.error?.path == "Radio.b")
    }

    @Test func atAndAlignAreChecked() {
        let found = diagnostics("struct Main {\n  a: u8 @align(0)\n  b: u8 @align(a)\n  c: u8 @at(true)\n  d: u8 @at\n  e: u8 @align(\"4\")\n}")
        #expect(found.map { "\($0.location.line):\($0.location.column) \($0.message)" } == [
            "2:9 @align takes a byte count from 1 to 4096, not 0",
            "3:16 unknown field 'a'",
            "4:13 an @at offset must be an integer, but this is bool",
            "5:9 @at takes one integer expression: the byte offset from the start of the nearest @offset_base struct or the input",
            "6:9 @align takes one constant: the alignment in bytes from the struct's start",
        ])
    }
}
