import BinarySchema
import Dissector
import Foundation
import Testing

/// What the views show is what the protocol defines: struct-level `@requires`, `hidden let`
/// values and parameters left out unless asked, filter names (`@name`), and summaries that
/// search an array (`[*]`, `len(path)`).
@Suite struct ProtocolFieldsTests {
    // MARK: @requires

    @Test func requiresIsCheckedBeforeTheFirstFieldAndStopsAtTheStruct() throws {
        let schema = """
            @requires(peek(0) == 0x7E)
            struct Main { marker: u8  value: u8 }
            """
        #expect(try dissect(schema, [0x7E, 5]).int("Main.value") == 5)
        let refused = try dissect(schema, [0x7F, 5])
        let error = try #require(refused.error)
        #expect(error.code == "constraint_violated")
        #expect(error.path == "Main" && error.offset == 0)
        #expect(refused.node(at: "Main.marker") == nil, "no field was read")
    }

    @Test func requiresSeesTheParameters() throws {
        let schema = """
            struct Main { kind: u8  inner: Inner(kind == 1) }
            @requires(accepted)
            struct Inner(accepted: bool) { value: u8 }
            """
        #expect(try dissect(schema, [1, 9]).int("Main.inner.value") == 9)
        #expect(try dissect(schema, [2, 9]).error?.path == "Main.inner")
    }

    /// A heuristic whose only constraint is its `@requires` claims its payload once it holds:
    /// an error after that is the frame's, and one before it leaves the payload as bytes.
    @Test func aHeuristicWithOnlyRequiresClaimsOnceTheyHold() throws {
        let schema = try loadWithBundled(["magic.schema": """
            register tcp.port { heuristic Magic }
            @requires(remaining() >= 2 && peek(0) == 0x4D && peek(1) == 0x47)
            @protocol("magic")
            struct Magic { magic: u16  length: u8  data: bytes[length] }
            """])
        let claimed = try dissectFrame(schema, tcpFrame(from: 50000, to: 7001, [0x4D, 0x47, 2, 1, 2]))
        #expect(claimed.error == nil)
        #expect(try claimed.int("magic.length") == 2)
        let broken = try dissectFrame(schema, tcpFrame(from: 50000, to: 7001, [0x4D, 0x47, 9, 1]))
        #expect(broken.error?.path == "magic.data", "claimed: its error is the frame's")
        let other = try dissectFrame(schema, tcpFrame(from: 50000, to: 7001, [0x4D, 0x48, 2, 1, 2]))
        #expect(other.error == nil)
        #expect(try other.at("tcp.payload").kind == .bytes)
    }

    @Test func requiresErrorsAreLocated() {
        let found = diagnostics("""
            @requires(later == 1)
            struct Main { later: u8 }
            @requires(3)
            struct Other { a: u8 }
            @requires
            struct Third { a: u8 }
            """)
        let lines = found.map { "\($0.location.line) \($0.kind)" }
        #expect(lines.contains("1 unknownField") || lines.contains("1 useBeforeDefinition"), "\(found)")
        #expect(lines.contains("3 typeMismatch"), "\(found)")
        #expect(lines.contains("5 invalidValue"), "\(found)")
    }

    // MARK: hidden let and parameters

    private static let hiding = """
        struct Main {
          hidden let wanted = peek(0) == 7
          kind: u8
          let doubled = kind * 2
          inner: Inner(kind)
        }
        struct Inner(tag: u8) { value: u8 }
        """

    @Test func hiddenValuesAndParametersAreLeftOutOfEveryViewUnlessAsked() throws {
        let dissection = try dissect(Self.hiding, [7, 9])
        #expect(dissection.error == nil)
        #expect(try dissection.int("Main.wanted") == 1, "still a value expressions and summaries use")
        for view in View.allCases where view != .summary {
            let shown = view.render(dissection)
            #expect(!shown.contains("wanted") && !shown.contains("tag"), "\(view): \(shown)")
            #expect(shown.contains("doubled"), "\(view) shows a computed value that is not hidden")
            let all = view.render(dissection, options: RenderOptions(showsHidden: true))
            #expect(all.contains("wanted") && all.contains("tag"), "\(view) with showsHidden: \(all)")
        }
    }

    /// JSON and HTML number their fields: a hidden node takes no number, and every parent
    /// reference points at the field it names.
    @Test func jsonNumbersOnlyTheShownFields() throws {
        let dissection = try dissect(Self.hiding, [7, 9])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(JSONRenderer().render(dissection).utf8)) as? [String: Any])
        let fields = try #require(object["fields"] as? [[String: Any]])
        #expect(fields.map { $0["path"] as? String ?? "" } == ["Main", "Main.kind", "Main.doubled", "Main.inner", "Main.inner.value"])
        let value = try #require(fields.last)
        #expect(fields[value["parent"] as? Int ?? -1]["path"] as? String == "Main.inner")
    }

    @Test func onlyComputedValuesAndSecondLooksCanBeHidden() {
        let found = diagnostics("struct Main { hidden let a = 1  hidden b: u8 }")
        #expect(found.map(\.message).contains { $0.contains("only a computed value, or a field read with @at over bytes other fields show, can be hidden") },
                "\(found)")
        let whole = diagnostics("struct Main { a: u8  hidden b: Inner @at(0) }  struct Inner { c: u8 }")
        #expect(whole.map(\.message).contains { $0.contains("a hidden field reads one value (an integer, an address or bytes), not a struct") },
                "\(whole)")
    }

    /// `hidden name: T @at(offset)`: a second look at bytes other fields show (an IPv6 routing
    /// header's final destination, for a checksum): used as a field, shown by no view unless asked,
    /// and its bytes stay the first field's.
    @Test func aHiddenSecondLookIsUsedButNotShown() throws {
        let dissection = try dissect("""
            struct Main {
              pair: u16 @hex
              hidden low: u8 @at(1)
              let twice = low * 2
            }
            """, [0x12, 0x34])
        #expect(dissection.error == nil)
        #expect(try dissection.int("Main.low") == 0x34)
        #expect(try dissection.int("Main.twice") == 0x68)
        for view in View.allCases where view != .summary {
            #expect(!view.render(dissection).contains("low"), "\(view)")
            #expect(view.render(dissection, options: RenderOptions(showsHidden: true)).contains("low"), "\(view) with showsHidden")
        }
        #expect(!View.fields.render(dissection).contains("unclaimed"))
    }

    // MARK: filter names

    @Test func filterNamesFollowTheStructsWithoutIndicesAndTakeNameAttributes() throws {
        let schema = """
            @protocol("demo")
            struct Main {
              src_port: u16 @name("srcport")
              items: Item[2]
              body: Body @name("")
              whole: u8 @name("other.thing")
            }
            struct Item { kind: u8 }
            struct Body { flag: u8 }
            """
        let dissection = try dissect(schema, [0, 80, 1, 2, 3, 4])
        #expect(try name(dissection, "demo.src_port") == "demo.srcport")
        #expect(try name(dissection, "demo.items[1].kind") == "demo.items.kind")
        #expect(try name(dissection, "demo.items[0]") == "demo.items")
        #expect(try name(dissection, "demo.body.flag") == "demo.flag")
        #expect(try name(dissection, "demo.whole") == "other.thing")
        let listed = try SchemaLoader.load(text: schema).filterFields.map(\.name)
        #expect(listed == ["demo.flag", "demo.items", "demo.items.kind", "demo.srcport", "other.thing"])
        // The views use the same names: JSON's "filter", the fields view where it is not the path.
        #expect(JSONRenderer().render(dissection).contains(#""path":"demo.src_port","name":"src_port","filter":"demo.srcport""#))
        let rows = FieldRowsRenderer().render(dissection).split(separator: "\n")
        #expect(rows.contains { $0.contains("demo.src_port") && $0.hasSuffix("80 · demo.srcport") }, "\(rows)")
        #expect(rows.contains { $0.contains("demo.items[1].kind") && !$0.contains("·") }, "the path without indices needs no second name")
    }

    /// A switch case's attributes name and show its value; the path stays the field's.
    @Test func switchCasesTakeTheirOwnNamesAndHints() throws {
        let schema = """
            @protocol("demo")
            struct Main {
              kind: u8
              value: switch kind {
                1 => u16 @name("demo.mss") @hex
                2 => string[3] @encoding("latin1") @name("label")
                3 => Pair @name("demo.pair")
                _ => bytes[..]
              }
            }
            struct Pair { a: u8  b: u8 }
            """
        let mss = try dissect(schema, [1, 0x05, 0xB4])
        #expect(try name(mss, "demo.value") == "demo.mss")
        #expect(try mss.display("demo.value") == "0x05b4", "the case's @hex")
        let label = try dissect(schema, [2, 0x41, 0xE9, 0x42])
        #expect(try name(label, "demo.value") == "demo.label")
        #expect(try label.display("demo.value") == "\"AéB\"", "the case's @encoding")
        let pair = try dissect(schema, [3, 7, 8])
        #expect(try name(pair, "demo.value.b") == "demo.pair.b")
        let other = try dissect(schema, [9, 7])
        #expect(try name(other, "demo.value") == "demo.value", "a case without attributes is named as the field")
        let listed = Set(try SchemaLoader.load(text: schema).filterFields.map(\.name))
        #expect(listed.isSuperset(of: ["demo.mss", "demo.label", "demo.pair", "demo.pair.a", "demo.value"]), "\(listed)")
    }

    /// A case with attributes is read as a field of its own, which keeps its switch's `@size`: in a
    /// frame the capture cut right after the sized value, a `T[..]` case stops at the size, as a
    /// case without attributes does (it read on into a cut element).
    @Test func aCaseWithAttributesKeepsItsSwitchsSizeInACutFrame() throws {
        for caseAttributes in ["", #"@name("demo.list")"#] {
            let schema = """
                struct Main { kind: u8  len: u8  value: switch kind { 1 => u16[..] \(caseAttributes) } @size(len)  tail: u8 }
                """
            let dissection = try dissect(schema, [1, 4, 0, 1, 0, 2], originalLength: 7)
            #expect(dissection.node(at: "Main.value[1]") != nil, "\(caseAttributes)")
            #expect(dissection.node(at: "Main.value[2]") == nil, "no element past the size: \(caseAttributes)")
            #expect(dissection.cut?.path == "Main.tail", "\(caseAttributes)")
        }
    }

    @Test func attributesThatDoNotApplyToACaseAreLocated() {
        let found = diagnostics("""
            struct Main {
              kind: u8
              value: switch kind {
                1 => u16 @size(2)
                2 => u8 @encoding("ascii")
              }
            }
            """)
        #expect(found.map(\.location.line) == [4, 5], "\(found)")
        #expect(found.first?.message.contains("write it after the switch's closing brace") == true)
    }

    @Test func aConditionWrittenAfterTheAttributesSaysWhereItGoes() {
        let found = diagnostics("struct Main { version: u8  options: bytes[4] @hex if version == 2 }")
        #expect(found.first?.message == "the condition comes before the attributes: write 'options: Type if condition @attribute'",
                "\(found)")
        #expect(found.first?.location.column == 51, "at the 'if'")
    }

    private func name(_ dissection: Dissection, _ path: String) throws -> String {
        dissection.filterName(of: try #require(dissection.node(at: path)))
    }

    @Test func badFilterNamesAreLocated() {
        let found = diagnostics("""
            struct Main {
              a: u8 @name("a..b")
              b: u8 @name("sp ace")
              c: u8 @name(3)
            }
            """)
        #expect(found.map(\.location.line) == [2, 3, 4], "\(found)")
    }

    // MARK: summaries that search

    @Test func aSummarySearchesAnArrayAndCountsIt() throws {
        let schema = """
            @protocol("demo") @summary("{len(options)} options{? first wide {options[*].wide}}")
            struct Main { options: Option[..] }
            struct Option { kind: u8  wide: u16 if kind == 2  narrow: u8 if kind == 1 }
            """
        let line = SummaryRenderer().render(try dissect(schema, [1, 5, 2, 0x01, 0x00, 1, 0]))
        #expect(line.hasSuffix("Main 3 options first wide 256"), "\(line)")
        let without = SummaryRenderer().render(try dissect(schema, [1, 5]))
        #expect(without.hasSuffix("Main 1 options"), "\(without)")
    }
}

/// Imports by a bundled schema's name, and a byte order that stays with its field.
@Suite struct ImportAndByteOrderTests {
    @Test func aBundledSchemaIsImportedByItsName() throws {
        let schema = try loadWithBundled(["mine.schema": """
            import "ip"
            struct Tunnel { id: u8  inner: IPv4 }
            """])
        #expect(schema.structType(named: "Tunnel") != nil)
    }

    /// `@little_endian` on a payload field is not the byte order of the layer a table chooses there.
    @Test func aByteOrderDoesNotLeakThroughADispatch() throws {
        let schema = """
            table demo.kind: u8
            register demo.kind 1 => Inner
            struct Main { kind: u8  direct: Inner @little_endian(true)  payload: dispatch demo.kind(kind) @little_endian(true) }
            struct Inner { value: u16 }
            """
        let dissection = try dissect(schema, [1, 0x12, 0x34, 0x12, 0x34])
        #expect(try dissection.int("Main.direct.value") == 0x3412, "a struct in place follows its field's byte order")
        #expect(try dissection.int("Main.payload.value") == 0x1234, "a dispatched one reads in its own")
    }
}
