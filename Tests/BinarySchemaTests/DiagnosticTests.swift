import BinarySchema
import Dissector
import Foundation
import Testing

/// Every kind of schema error is reported with file:line:column, the line and a caret.
@Suite struct DiagnosticTests {
    private func only(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Diagnostic? {
        let found = diagnostics(text)
        #expect(found.count == 1, "expected one diagnostic, got \(found.map(\.description))", sourceLocation: sourceLocation)
        return found.first
    }

    @Test func syntaxErrorPointsAtTheToken() throws {
        let diagnostic = try #require(only("struct Main {\n  a u8\n}"))
        #expect(diagnostic.kind == .syntax)
        #expect(diagnostic.location.line == 2 && diagnostic.location.column == 5)
        #expect(diagnostic.description == "test.schema:2:5: error: expected ':', found 'u8'\n  a u8\n    ^")
    }

    @Test func unknownType() throws {
        let diagnostic = try #require(only("struct Main {\n  a: u8\n  b: Mystery\n}"))
        #expect(diagnostic.kind == .unknownType)
        #expect(diagnostic.message == "unknown type 'Mystery'")
        #expect((diagnostic.location.line, diagnostic.location.column) == (3, 6))
    }

    @Test func invalidIntegerWidths() {
        let found = diagnostics("struct Main { a: u65  b: u12le  c: f16 }")
        #expect(found.map(\.kind) == [.unknownType, .unknownType, .unknownType])
    }

    @Test func unknownField() throws {
        let diagnostic = try #require(only("struct Main {\n  a: u8\n  b: bytes[c]\n}"))
        #expect(diagnostic.kind == .unknownField)
        #expect((diagnostic.location.line, diagnostic.location.column) == (3, 12))
    }

    @Test func useBeforeDefinition() throws {
        let diagnostic = try #require(only("struct Main {\n  data: bytes[length]\n  length: u8\n}"))
        #expect(diagnostic.kind == .useBeforeDefinition)
        #expect(diagnostic.message == "field 'length' is used before its definition in 'Main'")
        #expect((diagnostic.location.line, diagnostic.location.column) == (2, 15))
    }

    @Test func duplicateNames() {
        let found = diagnostics("""
            struct Main { a: u8  a: u16 }
            struct Main { b: u8 }
            enum Color: u8 { red = 1, red = 2 }
            """)
        #expect(found.map(\.kind) == [.duplicateName, .duplicateName, .duplicateName])
        #expect(found.map(\.location.line) == [1, 2, 3])
    }

    @Test func typeMismatches() {
        let found = diagnostics("""
            enum Color: u8 { red = 1 }
            struct Main {
              name: cstring
              color: Color
              a: bytes[name]
              b: u8 if 3
              c: u8 if color == 2 + true
              d: bytes[..] @size(color == .blue)
            }
            """)
        #expect(found.map(Self.summary) == [
            "typeMismatch 5:12 'name' is string, not a number; use len(name) for its length",
            "typeMismatch 6:12 an 'if' condition must be a bool, but this is integer",
            "typeMismatch 7:23 '+' needs integer operands, but got bool",
            "typeMismatch 8:28 a @size must be an integer, but this is bool",
            "unknownField 8:31 enum 'Color' has no case 'blue'",
        ])
    }

    /// Every misuse of text: encodings, terminators, `@text` and byte string literals.
    @Test func textMisusesAreLocatedErrors() {
        let found = diagnostics(#"""
            struct Main {
              a: string[4] @encoding("ebcdic")
              b: u16 @encoding("ascii")
              c: bytes[until "\r\n"]
              d: u8[until "\r\n"]
              e: u8 == "A"
              f: string[2] @assert(f < "AB")
              g: string[until ""]
              h: string[until "\0"] @encoding("utf-16le")
              i: string[until 256]
              j: string[until len(a) == 0]
              k: u8[len(a) + "x"]
              l: u16[2] @text
              m: u8[until it == 0] @text
              n: string[2] @assert("AB" == "AB")
              o: u8 if "x"
              p: string[2] @encoding(utf8)
            }
            """#)
        #expect(found.map(Self.summary) == [
            "invalidValue 2:26 unknown encoding 'ebcdic' (known: utf-8, ascii, latin1, utf-16le, utf-16be)",
            "invalidValue 3:10 '@encoding' does nothing on u16: it applies to strings, bytes and u8 arrays",
            #"typeMismatch 4:11 'until' on bytes: bytes take a length or '..'; a terminator ends a string, as in string[until "\r\n"] (@encoding("latin1") takes every byte)"#,
            #"typeMismatch 5:15 a terminator ends a string, not an array: write string[until "..."]; an array's 'until' takes a condition on 'it'"#,
            "typeMismatch 6:12 cannot compare integer with a string literal using '==': a literal compares with bytes and strings",
            "typeMismatch 7:26 a string literal compares only by '==' and '!=', not '<'",
            "invalidValue 8:19 a terminator needs at least one byte",
            #"invalidValue 9:19 a UTF-16LE terminator is whole 2-byte code units, not 1 bytes: write "\0\0" or a number such as 0"#,
            "invalidValue 10:19 terminator 256 is not one UTF-8 code unit (at most 255)",
            #"typeMismatch 11:26 a string's 'until' takes a terminator: a string literal such as "\r\n" or a code unit such as 0x3A"#,
            #"typeMismatch 12:18 a string literal is compared with bytes or a string field by '==' or '!=', or ends a string (string[until "\r\n"])"#,
            "invalidValue 13:13 '@text' does nothing on an array of u16: it applies to strings, bytes and u8 arrays",
            "typeMismatch 14:8 @text reads a u8 array of a count or '..' as a string; for text up to a terminator write string[until ...]",
            "typeMismatch 15:29 cannot compare two literals: one side of '==' must be a bytes or string field",
            #"typeMismatch 16:12 a string literal is compared with bytes or a string field by '==' or '!=', or ends a string (string[until "\r\n"])"#,
            #"invalidValue 17:16 @encoding takes one string: the encoding's name, e.g. @encoding("utf-16le")"#,
        ])
    }

    /// A diagnostic's kind, line:column and message, to compare a whole list at once.
    static func summary(_ diagnostic: Diagnostic) -> String {
        "\(diagnostic.kind) \(diagnostic.location.line):\(diagnostic.location.column) \(diagnostic.message)"
    }

    @Test func importCycle() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dissect-cycle-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "import \"b.schema\"\nstruct A { x: u8 }".write(to: directory.appendingPathComponent("a.schema"), atomically: true, encoding: .utf8)
        try "\nimport \"a.schema\"\nstruct B { y: u8 }".write(to: directory.appendingPathComponent("b.schema"), atomically: true, encoding: .utf8)
        do {
            _ = try SchemaLoader.load(paths: [directory.appendingPathComponent("a.schema").path])
            Issue.record("an import cycle must fail")
        } catch {
            let cycle = try #require(error.diagnostics.first { $0.kind == .importCycle })
            #expect(cycle.message == "import cycle: a.schema → b.schema → a.schema")
            #expect(cycle.location.path.hasSuffix("b.schema") && cycle.location.line == 2 && cycle.location.column == 1)
        }
    }

    @Test func missingImport() throws {
        let diagnostic = try #require(only("import \"nowhere.schema\"\nstruct Main { a: u8 }"))
        #expect(diagnostic.kind == .importNotFound)
    }

    @Test func typeNotVisibleWithoutImport() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dissect-vis-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "struct A { x: u8 }".write(to: directory.appendingPathComponent("a.schema"), atomically: true, encoding: .utf8)
        try "struct B { y: A }".write(to: directory.appendingPathComponent("b.schema"), atomically: true, encoding: .utf8)
        do {
            _ = try SchemaLoader.load(paths: [directory.path])
            Issue.record("a type from a file that is not imported must not resolve")
        } catch {
            #expect(error.diagnostics.count == 1)
            #expect(error.diagnostics.first?.message.contains("which this file does not import") == true)
        }
    }

    @Test func structThatContainsItselfWithNoWayToEnd() throws {
        let diagnostic = try #require(only("struct A { b: B }\nstruct B { a: A }"))
        #expect(diagnostic.kind == .infiniteRecursion)
        #expect(diagnostic.message.contains("A → B → A"))
        // Recursion through a switch, a condition or an array can end, so it is allowed.
        #expect(throws: Never.self) {
            try SchemaLoader.load(text: "struct A { n: u8  next: A if n != 0 }\nstruct B { k: u8  v: switch k { 1 => B  _ => u8 } }")
        }
    }

    @Test func longChainsOfStructsAndAliasesDoNotExhaustTheStack() {
        let count = 20_000
        var text = (0..<count).map { "struct S\($0) { next: S\($0 + 1) }" }.joined(separator: "\n")
        text += "\nstruct S\(count) { last: S0 }"
        let found = diagnostics(text)
        #expect(found.count == 1 && found.first?.kind == .infiniteRecursion)
        let aliases = (0..<200).map { "typealias A\($0) = A\($0 + 1)" }.joined(separator: "\n") + "\ntypealias A200 = u8\nstruct Main { a: A0 }"
        #expect(diagnostics(aliases).first?.message.contains("more than 64 aliases") == true)
    }

    @Test func aliasThatRefersToItself() {
        let found = diagnostics("typealias Loop = Loop[2]\nstruct Main { a: Loop }")
        #expect(found.contains { $0.kind == .infiniteRecursion && $0.message == "typealias 'Loop' refers to itself" })
    }

    @Test func byteFieldInsideAByteIsMisaligned() throws {
        let diagnostic = try #require(only("struct Main { a: u4  b: bytes[2] }"))
        #expect(diagnostic.kind == .misaligned)
    }

    @Test func reportsEveryErrorOfTheFileNotOnlyTheFirst() {
        let found = diagnostics("""
            struct Main {
              a u8
              b: Nothing
              c: bytes[zzz]
            }
            struct Other {
              x: : u8
              y: u8
              y: u16
            }
            """)
        #expect(found.map(\.location.line) == [2, 3, 4, 7, 9])
    }

    /// Expressions are 64-bit signed: a literal above Int64.max would wrap negative, so it is an
    /// error at the literal. A u64 enum's cases keep the whole unsigned range (matched by bit pattern).
    @Test func integerLiteralsAboveInt64MaxAreLocatedErrors() throws {
        let diagnostic = try #require(only("struct Main {\n  x: u64\n  y: u8 if x < 0x8000000000000000\n}"))
        #expect(diagnostic.kind == .invalidValue)
        #expect((diagnostic.location.line, diagnostic.location.column) == (3, 16))
        #expect(diagnostic.message.contains("9223372036854775808") && diagnostic.message.contains("64-bit signed"),
                "\(diagnostic.message)")
        let decimal = try #require(only("struct Main { x: u64 @assert(x != 18446744073709551615) }"))
        #expect(decimal.location.column == 35)
        #expect(try #require(only("struct Main { x: u8  y: bytes[-(9223372036854775808 + 0)] }")).kind == .invalidValue)
        #expect(throws: Never.self) {
            try SchemaLoader.load(text: "struct Main { x: i64 @assert(x < 0x7FFFFFFFFFFFFFFF && x > -9223372036854775808) }")
        }
        let magic = try dissect("enum Magic: u64 { high = 0xFFFFFFFFFFFFFFFF, one = 1 }\nstruct Main { m: Magic }",
                                [UInt8](repeating: 0xFF, count: 8))
        #expect(magic.error == nil)
        #expect(ValueFormatter.valueText(magic, 1) == "high (18446744073709551615)")
        #expect(try #require(only("enum Magic: u64 { minus = -1 }\nstruct Main { m: Magic }")).kind == .invalidValue)
        #expect(try #require(only("enum Small: i64 { big = 0x8000000000000000 }\nstruct Main { m: Small }")).kind == .invalidValue)
    }

    /// An attribute that would change nothing is an error at the attribute, not silently ignored.
    @Test func attributesThatDoNothingAreLocatedErrors() throws {
        let cases: [(schema: String, column: Int, words: String)] = [
            ("struct Main { name: string[4] @hex }", 31, "@hex"),
            ("struct Main { count: u16 @flag }", 26, "@flag"),
            ("struct Main { data: u8[..] @ascii }", 28, "@ascii"),
            ("struct Main { ok: bool @hex }", 24, "@hex"),
            ("enum E: u8 { a = 1 }\nstruct Main { e: E @bin }", 20, "@bin"),
            ("struct Main { f: Inner @dec }\nstruct Inner { a: u8 }", 24, "@dec"),
            ("struct Main { a: u8 @display(\"{}\", a / 0) }", 38, "division by zero"),
            ("struct Main { a: u8 @display(\"{}\", a % (2 - 2)) }", 38, "division by zero"),
        ]
        for entry in cases {
            let diagnostic = try #require(only(entry.schema))
            #expect(diagnostic.kind == .invalidValue, "\(entry.schema)")
            #expect(diagnostic.location.column == entry.column, "\(entry.schema): \(diagnostic.description)")
            #expect(diagnostic.message.contains(entry.words), "\(entry.schema): \(diagnostic.message)")
        }
        let summary = try #require(only("struct Main {\n  a: u8\n}\n@summary(\"{b}\") struct Other { b: u8 }"))
        #expect((summary.location.line, summary.location.column) == (4, 1))
        #expect(summary.message.contains("@protocol"), "\(summary.message)")
        #expect(summary.description.hasSuffix("@summary(\"{b}\") struct Other { b: u8 }\n^"))
        // What the hints do apply to still checks.
        #expect(throws: Never.self) {
            try SchemaLoader.load(text: """
                enum E: u8 { a = 1 }
                @protocol("p") @summary("{e}")
                struct Main {
                  e: E @hex
                  f: u1 @flag
                  g: u7 @bin
                  h: u32 @ipv4
                  i: bytes[4] @ascii
                  j: u16[2] @hex
                  k: ipv4 @hex
                  l: switch e { .a => u8  _ => bytes[..] } @hex
                  m: u8 @display("{}", m / (1 + 1))
                  n: u8 @display("{}", 10 / m)
                }
                """)
        }
    }

    @Test func attributeErrors() {
        let found = diagnostics("@protocol struct Main { a: u8 @bogus  b: u8 @display(\"{} {}\", b) }")
        #expect(found.map(Self.summary) == [
            "invalidValue 1:1 @protocol takes one string: the short name that starts field paths, e.g. @protocol(\"ip\")",
            "invalidValue 1:31 unknown field attribute '@bogus' (known: @size, @hex, @dec, @bin, @mac, @ipv4, @ipv6, @flag, @ascii, @text, @encoding, @display, @assert, @little_endian, @at, @align, @checksum, @name, @scale)",
            "invalidValue 1:45 @display format has 2 '{}' but 1 arguments",
        ])
    }

    @Test func protocolNamesArePlainNames() {
        for bad in ["a\\\"b", "ip v4", "9p", "eth ", "é"] {
            let found = diagnostics("@protocol(\"\(bad)\") struct Main { a: u8 }")
            #expect(found.count == 1, "\(bad)")
            #expect(found.first?.message.contains("must start with a letter") == true, "\(bad)")
        }
        #expect((try? SchemaLoader.load(text: "@protocol(\"ipv6.hop-by-hop_2\") struct Main { a: u8 }")) != nil)
    }
}
