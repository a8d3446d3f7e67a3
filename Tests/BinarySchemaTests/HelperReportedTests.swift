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
