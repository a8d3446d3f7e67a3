import BinarySchema
import Dissector
import Foundation
import Testing

/// What the protocol work of issue 29 found the language doing wrong, each kept as a test.
@Suite struct HelperReportedTests {
    /// A summary whose every group is absent leaves the label alone: `MBTCP ·`, not `MBTCP  ·`.
    @Test func anEmptySummaryLeavesNoSecondSpace() throws {
        let schema = try SchemaLoader.load(text: """
            @protocol("outer") @label("Outer") @summary("{?cont {n}}")
            struct Main { flag: u8  n: u8 if flag == 1  inner: Inner }
            @protocol("inner") @label("Inner") @summary("{v}")
            struct Inner { v: u8 }
            """)
        var interpreter = Interpreter(schema: schema)
        let root = try #require(schema.structType(named: "Main"))
        let absent = SummaryRenderer().render(interpreter.dissect([0, 7], root: root))
        #expect(absent == "Outer · Inner 7")
        let present = SummaryRenderer().render(interpreter.dissect([1, 5, 7], root: root))
        #expect(present == "Outer cont 5 · Inner 7")
    }

    /// `let c = parent.b` where `b` is a bool computed value is a bool too, as `let c = b` is.
    @Test func aParentsBoolComputedValueIsABool() throws {
        let result = try dissect("""
            struct Inner { let c = parent.b  let d = parent.header.set  x: u8 if c }
            struct Header { f: u8  let set = f != 0 }
            struct Main { a: u8  let b = a == 1  header: Header  inner: Inner }
            """, [1, 1, 9])
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(try result.at("Main.inner.c").value == .boolean(true))
        #expect(try result.at("Main.inner.d").value == .boolean(true))
        #expect(try result.int("Main.inner.x") == 9)
    }

    /// An enum's value takes part in arithmetic as its number (SMB2's command with the response bit).
    @Test func anEnumIsANumberInArithmetic() throws {
        let result = try dissect("""
            enum Command: u8 { negotiate = 0, close = 6 }
            struct Main {
              response: u8
              command: Command
              let key = (response == 1 ? 0x80 : 0) + command
              let shifted = command << 4 | 1
              body: switch key { 0x86 => u16  _ => u8 }
            }
            """, [1, 6, 0x12, 0x34])
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(try result.int("Main.key") == 0x86)
        #expect(try result.int("Main.shifted") == 0x61)
        #expect(try result.int("Main.body") == 0x1234)
        // A bool is still no number.
        #expect(diagnostics("struct Main { a: u8  let b = a == 1  let c = b + 1 }").contains {
            $0.message == "'+' needs integer operands, but got bool"
        })
    }

    /// `@display` after a switch whose cases have attributes applies to whichever case was read.
    @Test func aSwitchsDisplayReachesItsCasesWithAttributes() throws {
        let result = try dissect("""
            struct Main {
              k: u8
              v: switch k { 1 => u8 @name("x.one")  _ => u8 } @display("[{}]", k * 10)
            }
            """, [1, 2])
        #expect(try result.display("Main.v") == "[10]")
        let other = try dissect("""
            struct Main {
              k: u8
              v: switch k { 1 => u8 @name("x.one")  _ => u8 } @display("[{}]", k * 10)
            }
            """, [3, 2])
        #expect(try other.display("Main.v") == "[30]")
    }
}
