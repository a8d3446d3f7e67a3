import BinarySchema
import Dissector
import Testing

/// `find(literal[, limit])`, `peek(n, literal)` and `peek_caseless(n, literal)`: looking ahead for
/// bytes without reading them, as line protocols need (a header's end, a method's name).
@Suite struct ByteSearchTests {
    static let line = """
        struct Main {
          hidden let end = find("\\r\\n", 16)
          hidden let colon = find(0x3A)
          hidden let status = peek(0, "SIP/")
          hidden let invite = peek_caseless(0, "invite ")
          hidden let via = end >= 0 && peek_caseless(end + 2, "VIA:")
          text: string[end] if end >= 0
          crlf: bytes[2] if end >= 0
          rest: bytes[..]
        }
        """

    @Test func findGivesTheDistanceOfTheFirstOccurrenceOrMinusOne() throws {
        let found = try dissect(Self.line, Array("InViTe sip:x\r\nvia: a\r\n".utf8))
        #expect(try found.int("Main.end") == 12)
        #expect(try found.int("Main.colon") == 10)
        #expect(try found.display("Main.text") == "\"InViTe sip:x\"")
        // Not within the limit: the first CRLF lies past byte 16.
        let far = try dissect(Self.line, Array("INVITE sip:abcdefghij\r\n".utf8))
        #expect(try far.int("Main.end") == -1)
        #expect(far.node(at: "Main.text") == nil && far.error == nil)
        // A literal cut by the end of the scope is not found; nothing is read past it.
        let cut = try dissect(Self.line, Array("SIP/2.0\r".utf8))
        #expect(try cut.int("Main.end") == -1)
        #expect(try cut.int("Main.colon") == -1)
    }

    /// `find_any`: the first byte of a set (a URI's host ends at ':', ';' or '?').
    @Test func findAnyGivesTheFirstByteOfASet() throws {
        let schema = """
            struct Main {
              hidden let h = find_any(":;?", 8)
              host: string[h] if h > 0
              rest: bytes[..]
            }
            """
        #expect(try dissect(schema, Array("example;lr".utf8)).display("Main.host") == "\"example\"")
        #expect(try dissect(schema, Array("a:5060".utf8)).display("Main.host") == "\"a\"")
        let none = try dissect(schema, Array("abcdefghij?".utf8))
        #expect(try none.int("Main.h") == -1)
    }

    @Test func peekComparesTheBytesAheadExactlyOrInEitherCase() throws {
        let request = try dissect(Self.line, Array("InViTe sip:x\r\nvia: a\r\n".utf8))
        #expect(try request.at("Main.status").value == .boolean(false))
        #expect(try request.at("Main.invite").value == .boolean(true))
        #expect(try request.at("Main.via").value == .boolean(true))
        let response = try dissect(Self.line, Array("SIP/2.0 200 OK\r\n".utf8))
        #expect(try response.at("Main.status").value == .boolean(true))
        #expect(try response.at("Main.invite").value == .boolean(false))
        // Fewer bytes than the literal: false, not an error (no `remaining() >= n &&` needed).
        let short = try dissect(Self.line, Array("SI".utf8))
        #expect(try short.at("Main.status").value == .boolean(false))
        #expect(short.error == nil)
        // Caseless folds ASCII letters only: '[' (0x5B) is not '{' (0x7B).
        let brackets = try dissect("struct Main { hidden let b = peek_caseless(0, \"[\")  rest: bytes[..] }", Array("{".utf8))
        #expect(try brackets.at("Main.b").value == .boolean(false))
    }

    @Test func aNegativeDistanceIsAnError() throws {
        let result = try dissect("struct Main { a: u8 if peek(0 - 1, \"x\")  rest: bytes[..] }", [0x78])
        #expect(result.error != nil)
    }

    @Test func misusesAreLocatedErrors() {
        let found = diagnostics("""
            struct Main {
              let a = find(x)
              let b = find("")
              let c = find(300)
              let d = peek(0, 1 + len(rest))
              x: u8
              rest: bytes[..]
            }
            """)
        #expect(found.map { "\($0.location.line):\($0.location.column) \($0.message)" } == [
            "2:16 find() looks for a literal: a string (\"\\r\\n\"), bytes (x\"0d0a\") or one byte (0x0D), not 'x'",
            "3:16 find() of an empty literal: give it the bytes to look for",
            "4:16 find() looks for a literal: a string (\"\\r\\n\"), bytes (x\"0d0a\") or one byte (0x0D), not '300'",
            "5:21 peek() looks for a literal: a string (\"\\r\\n\"), bytes (x\"0d0a\") or one byte (0x0D), not '1 + len(rest)'",
        ])
    }

    /// In a `@pdu` framing, a `find` that reaches past the stream's bytes so far asks for more.
    @Test func aFramingByLineEndsAsksForMoreUntilItFindsOne() throws {
        let schema = try SchemaLoader.load(text: """
            @pdu(Line, accept: !peek(0, x"00"), length: find("\\r\\n") + 2)
            struct Line { text: bytes[..] }
            """)
        let framing = try #require(schema.structType(named: "Line")?.pduFraming)
        func boundary(_ text: String) -> PDUFramingBoundary {
            Array(text.utf8).withUnsafeBufferPointer { framing.boundary(of: $0) }
        }
        #expect(boundary("USER x\r\nPASS") == .complete(length: 8))
        #expect(boundary("USER x\r") == .needMore(atLeast: 8))
        #expect(boundary("") == .needMore(atLeast: 1))
    }
}

/// `let name = value if condition`: a computed value that is there only where its condition
/// holds, as a conditional field (RPC's procedure named by its program's version).
@Suite struct ConditionalValueTests {
    static let schema = """
        enum ProcV2: u32 { null = 0, set = 1 }
        enum ProcV4: u32 { null = 0, getaddr = 3 }
        struct Main {
          version: u8
          procedure: u32
          let procedure_v2: ProcV2 = procedure if version == 2
          let procedure_v4: ProcV4 = procedure if version == 4
          let later = has(procedure_v4) ? procedure_v4 * 2 : 0
        }
        """

    @Test func aConditionalValueIsThereOnlyWhereItsConditionHolds() throws {
        let v4 = try dissect(Self.schema, [4, 0, 0, 0, 3])
        #expect(v4.node(at: "Main.procedure_v2") == nil)
        #expect(try v4.display("Main.procedure_v4") == "getaddr (3)")
        #expect(try v4.int("Main.later") == 6)
        let v2 = try dissect(Self.schema, [2, 0, 0, 0, 1])
        #expect(try v2.display("Main.procedure_v2") == "set (1)")
        #expect(v2.node(at: "Main.procedure_v4") == nil)
        #expect(try v2.int("Main.later") == 0)
        #expect(v2.error == nil && v4.error == nil)
    }

    @Test func itsConditionIsCheckedAsAFieldsIs() {
        let found = diagnostics("""
            struct Main {
              a: u8
              let b = a if a + 1
            }
            """)
        #expect(found.map { "\($0.location.line):\($0.location.column) \($0.message)" }
                == ["3:18 an 'if' condition must be a bool, but this is integer"])
        let misplaced = diagnostics("struct Main {\n  a: u8\n  let c = a @hex if a > 0\n}")
        #expect(misplaced.map(\.message) == ["the condition comes before the attributes: write 'let c = value if condition @attribute'"])
    }
}
