import BinarySchema
import Dissector
import Foundation
import Testing

/// `lazy name: T @at(offset)`: a field read when an expression of its struct first needs it, or at
/// the struct's end (unless `Interpreter.Options.readsLazyFields` is off), never where it stands.
@Suite struct LazyFieldTests {
    static let schema = """
        struct Name { length: u8  text: string[length] }
        struct Main {
          flag: u8
          ptr: u8
          lazy name: Name if flag != 0 @at(ptr)
          let size = flag == 2 ? name.length : 0
          let known = flag == 3 && has(name)
          rest: bytes[..]
        }
        """

    static func dissect(_ bytes: [UInt8], readsLazyFields: Bool = true, positionLimit: Int? = nil) throws -> Dissection {
        let schema = try SchemaLoader.load(text: Self.schema)
        var interpreter = Interpreter(schema: schema)
        interpreter.options.readsLazyFields = readsLazyFields
        if let positionLimit { interpreter.options.positionLimit = positionLimit }
        return interpreter.dissect(bytes, root: try #require(schema.structType(named: "Main")))
    }

    @Test func anExpressionThatNeedsItReadsItThere() throws {
        for reads in [true, false] {
            let result = try Self.dissect([0x02, 0x04, 0x58, 0x59, 0x03, 0x61, 0x62, 0x63], readsLazyFields: reads)
            #expect(result.error == nil)
            #expect(try result.int("Main.size") == 3)
            #expect(try result.display("Main.name.text") == "\"abc\"")
            #expect(try result.at("Main.name").byteOffset == 4)
            // Read when `size` needed it: before `size` in the walk's order, where the views list it.
            let name = try #require(result.node(at: "Main.name"))
            let size = try #require(result.node(at: "Main.size"))
            #expect(name < size)
        }
    }

    @Test func hasReadsItToAnswer() throws {
        let result = try Self.dissect([0x03, 0x04, 0x58, 0x59, 0x03, 0x61, 0x62, 0x63], readsLazyFields: false)
        #expect(result.error == nil)
        #expect(try result.at("Main.known").value == .boolean(true))
        #expect(result.node(at: "Main.name") != nil)
    }

    @Test func nothingNeedingItLeavesItForTheStructsEnd() throws {
        let bytes: [UInt8] = [0x01, 0x04, 0x58, 0x59, 0x03, 0x61, 0x62, 0x63]
        let all = try Self.dissect(bytes)
        #expect(all.error == nil)
        let name = try #require(all.node(at: "Main.name"))
        let rest = try #require(all.node(at: "Main.rest"))
        #expect(name > rest, "read at the struct's end, after the fields that follow it")
        #expect(try all.int("Main.name.length") == 3)

        let wanted = try Self.dissect(bytes, readsLazyFields: false)
        #expect(wanted.error == nil)
        #expect(wanted.node(at: "Main.name") == nil, "nothing needed it, and the caller asked for no more")
        #expect(wanted.node(at: "Main.rest") != nil)
    }

    @Test func aBadOffsetNobodyNeedsIsNoError() throws {
        // A pointer past the end, with its condition false: never evaluated.
        let off = try Self.dissect([0x00, 0xF0, 0x58])
        #expect(off.error == nil)
        #expect(off.node(at: "Main.name") == nil)
        // Condition true, not needed: with lazy reads off, never read; on, read at the end and located.
        #expect(try Self.dissect([0x01, 0xF0, 0x58], readsLazyFields: false).error == nil)
        let read = try Self.dissect([0x01, 0xF0, 0x58])
        #expect(read.error?.code == "position_out_of_range")
        #expect(read.error?.path == "Main.name")
        #expect(read.node(at: "Main.rest") != nil, "the fields before the struct's end are kept")
    }

    @Test func aFailedReadAnExpressionAskedForIsTheLazyFieldsError() throws {
        let result = try Self.dissect([0x02, 0xF0, 0x58])
        #expect(result.error?.code == "position_out_of_range")
        #expect(result.error?.path == "Main.name")
        #expect(result.node(at: "Main.size") == nil)
    }

    @Test func lazyReadsShareThePositionBudget() throws {
        let result = try Self.dissect([0x01, 0x04, 0x58, 0x59, 0x03, 0x61, 0x62, 0x63], positionLimit: 0)
        #expect(result.error?.code == "position_limit")
    }

    @Test func aReadThatWouldLandInsideAnOpenArrayIsRefused() throws {
        let schema = """
            struct Main {
              lazy stop: u8 @at(3)
              items: u8[until it == stop]
            }
            """
        let result = try BinarySchemaTests.dissect(schema, [0x01, 0x02, 0x03, 0x03])
        #expect(result.error?.code == "no_value")
        let fine = try BinarySchemaTests.dissect("""
            struct Main {
              lazy stop: u8 @at(3)
              let last = stop
              items: u8[until it == last]
            }
            """, [0x01, 0x02, 0x03, 0x03])
        #expect(fine.error == nil)
        #expect(try fine.int("Main.items[2]") == 3)
        #expect(fine.node(at: "Main.items[3]") == nil, "the array ends at its element equal to the lazy field, 3")
    }

    @Test func theCheckerSaysWhatALazyFieldNeeds() {
        let noOffset = diagnostics("struct Main { lazy a: u8 }")
        #expect(noOffset.contains { $0.message.contains("add @at(offset) to 'a'") })
        let computed = diagnostics("struct Main { lazy let a = 1 }")
        #expect(computed.contains { $0.message.contains("'lazy' applies to a field read at an offset") })
        let hidden = diagnostics("struct Main { hidden lazy a: u8 @at(0) }")
        #expect(hidden.contains { $0.message.contains("a lazy field cannot be hidden") })
        let fromChild = diagnostics("""
            struct Inner { let n = parent.a }
            struct Main { lazy a: u8 @at(0)  inner: Inner }
            """)
        #expect(fromChild.contains { $0.message.contains("'a' is a lazy field of 'Main', which is still being read") })
        let checksum = diagnostics("struct Main { data: bytes[2]  lazy sum: u16 @checksum(internet, data) @at(0) }")
        #expect(checksum.contains { $0.message.contains("a lazy field cannot hold a @checksum") })
    }
}
