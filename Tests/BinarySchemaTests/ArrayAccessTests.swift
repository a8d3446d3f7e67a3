import BinaryCoding
import BinarySchema
import Dissector
import Foundation
import Testing

/// Arrays that look at themselves (`index()`, earlier elements, computed indices, aggregates),
/// bytes of a field, padded strings, enum-typed computed values, switches of integers as numbers.
@Suite struct ArrayAccessTests {
    /// A constant pool as Java's: each entry takes one slot, a long two, and names its first slot.
    static let pool = """
        enum Tag: u8 { utf8 = 1, long = 5 }
        struct Entry {
          tag: Tag
          text: string[2] if tag == .utf8
          high: u32 if tag == .long
          low: u32 if tag == .long
          let slot = index() == 0 ? 1 : parent.pool[index() - 1].next
          hidden let next = slot + (tag == .long ? 2 : 1)
        }
        struct Main {
          count: u8
          pool: Entry[until it.next >= count]
          name_slot: u8
          let name_tag: Tag = pool[first(pool, it.slot == name_slot)].tag
          let longs = count(pool, it.tag == .long)
          let any_long = any(pool, it.tag == .long)
          let all_long = all(pool, it.tag == .long)
          let slots = sum(pool, it.next - it.slot)
          let widest = max(pool, it.next - it.slot)
          let first_letter = pool[0].text[0]
          let has_far = has(pool[name_slot * 10])
        }
        """

    @Test func anElementSeesItsIndexAndTheElementsBeforeIt() throws {
        // count 5: slots 1 (utf8 "ab"), 2-3 (long), 4 (utf8 "cd"); the name is in slot 4.
        let bytes: [UInt8] = [0x05, 0x01, 0x61, 0x62, 0x05, 0, 0, 0, 1, 0, 0, 0, 2, 0x01, 0x63, 0x64, 0x04]
        let result = try dissect(Self.pool, bytes)
        #expect(result.error == nil)
        #expect(try result.int("Main.pool[0].slot") == 1)
        #expect(try result.int("Main.pool[1].slot") == 2)
        #expect(try result.int("Main.pool[2].slot") == 4, "the long before it took two slots")
        #expect(try result.int("Main.name_tag") == 1)
        #expect(try result.display("Main.name_tag") == "utf8 (1)", "a computed value typed as an enum shows its case")
        #expect(try result.int("Main.longs") == 1)
        #expect(try result.at("Main.any_long").value == .boolean(true))
        #expect(try result.at("Main.all_long").value == .boolean(false))
        #expect(try result.int("Main.slots") == 4)
        #expect(try result.int("Main.widest") == 2)
        #expect(try result.int("Main.first_letter") == 0x61)
        #expect(try result.at("Main.has_far").value == .boolean(false), "has() of an index out of range is false")
    }

    @Test func aComputedIndexOutOfRangeIsALocatedError() throws {
        let schema = """
            struct Main { n: u8  items: u8[n]  i: u8  let picked = items[i] }
            """
        let fine = try dissect(schema, [2, 10, 20, 1])
        #expect(try fine.int("Main.picked") == 20)
        let outside = try dissect(schema, [2, 10, 20, 2])
        let error = try #require(outside.error)
        #expect(error.code == "index_out_of_range")
        #expect(error.path == "Main.picked")
        #expect(error.kind == .indexOutOfRange(reference: "items[i]", index: 2, count: 2, isBeingRead: false))
        #expect(error.description.contains("with index 2, outside 0..<2"), "\(error)")
        let negative = try dissect("struct Main { items: u8[2]  let x = items[items[0] - 2] }", [1, 2])
        #expect(negative.error?.code == "index_out_of_range")
    }

    @Test func anElementReadingItselfOrLaterElementsSaysTheArrayIsBeingRead() throws {
        let schema = """
            struct Item { v: u8  let ahead = parent.items[index()].v }
            struct Main { items: Item[2] }
            """
        let result = try dissect(schema, [1, 2])
        let error = try #require(result.error)
        #expect(error.code == "index_out_of_range")
        #expect(error.path == "Main.items[0].ahead")
        #expect(error.description.contains("read so far of an array still being read"), "\(error)")
    }

    @Test func anUntilConditionAddsUpTheArrayItEnds() throws {
        let schema = """
            struct Item { v: u8 }
            struct Main { items: Item[until sum(items, it.v) >= 10]  rest: bytes[..] }
            """
        let result = try dissect(schema, [3, 4, 5, 6, 7])
        #expect(result.error == nil)
        #expect(try result.at("Main.items").value == .unsigned(3))
        #expect(try result.at("Main.rest").byteLength == 2)
    }

    @Test func indexInAnElementsArgumentsIsTheElements() throws {
        // A record's values typed by the list before it (SQLite's serial types): a NULL takes no byte.
        let schema = """
            struct Value(size: u8) { data: bytes[size] }
            struct Main { n: u8  sizes: u8[n]  values: Value(sizes[index()])[n] }
            """
        let result = try dissect(schema, [3, 0, 2, 1, 0xAA, 0xBB, 0xCC])
        #expect(result.error == nil)
        #expect(try result.at("Main.values[0].data").byteLength == 0, "a counted struct element may read nothing")
        #expect(try result.at("Main.values[1].data").byteLength == 2)
        #expect(try result.at("Main.values[2].data").byteLength == 1)
        // A list to the end of its scope still stops at an element that reads nothing.
        let endless = try dissect("struct Empty { } struct Main { items: Empty[..] }", [1])
        #expect(endless.error?.code == "empty_element")
        #expect(endless.error?.description.contains("Main.items[0] at offset 0 consumed no bytes") == true,
                "\(String(describing: endless.error))")
    }

    @Test func expressionsWithoutAValueSayWhy() throws {
        let notAnElement = try dissect("struct Main { x: u8  let i = index() }", [1])
        #expect(notAnElement.error?.kind == .noValue(expression: "index()", reason: "this struct is not an array element"))
        let noMatch = try dissect("struct Main { items: u8[2]  let i = first(items, it == 9) }", [1, 2])
        #expect(noMatch.error?.code == "no_value")
        #expect(noMatch.error?.description.contains("first(items, it == 9)") == true, "\(String(describing: noMatch.error))")
        let empty = try dissect("struct Main { items: u8[0]  let m = max(items) }", [])
        #expect(empty.error?.code == "no_value")
        #expect(try dissect("struct Main { items: u8[0]  let s = sum(items)  let c = count(items, it > 1) }", []).error == nil)
    }

    @Test func aByteOfAFieldIsAnInteger() throws {
        let schema = """
            struct Main { id: bytes[3]  name: string[2]  let first = id[0]  let last = name[1]  let past = id[3] }
            """
        let result = try dissect(schema, [0x10, 0x20, 0x30, 0x41, 0x42])
        #expect(try result.int("Main.first") == 0x10)
        #expect(try result.int("Main.last") == 0x42)
        #expect(result.error?.kind == .indexOutOfRange(reference: "id", index: 3, count: 3, isBeingRead: false))
    }

    @Test func aPaddedStringLeavesItsPaddingOutOfTheText() throws {
        let schema = """
            struct Main {
              tag: string[4] @pad(0x20)
              name: string[6] @pad(0)
              wide: string[6] @encoding("utf-16le") @pad(0)
            }
            """
        let bytes: [UInt8] = [0x63, 0x76, 0x74, 0x20, 0x61, 0x20, 0x62, 0, 0, 0, 0x68, 0, 0x69, 0, 0, 0]
        let result = try dissect(schema, bytes)
        #expect(result.error == nil)
        #expect(try result.display("Main.tag") == "\"cvt\"")
        #expect(try result.display("Main.name") == "\"a b\"", "padding inside the text stays")
        #expect(try result.display("Main.wide") == "\"hi\"")
        #expect(try result.at("Main.name").byteLength == 6, "the padding bytes stay in the field")
        let misplaced = diagnostics("struct Main { n: u8 @pad(0) }")
        #expect(misplaced.map(\.message) == ["'@pad' does nothing on u8: it applies to strings of a length (string[n], string[..], u8[n] @text)"])
    }

    struct Padded: Codable, Equatable {
        var tag: String
        var count: UInt8
    }

    @Test func theEncoderPadsAStringAndTheDecoderStripsIt() throws {
        let schema = try SchemaLoader.load(text: "struct Padded { tag: string[4] @pad(0x20)  count: u8 }")
        let bytes = try SchemaEncoder(schema: schema, root: "Padded").encode(Padded(tag: "ab", count: 7))
        #expect(bytes == [0x61, 0x62, 0x20, 0x20, 7])
        #expect(try SchemaDecoder(schema: schema, root: "Padded").decode(Padded.self, from: bytes) == Padded(tag: "ab", count: 7))
        #expect(throws: EncodingError.self, "a text ending with its pad byte would not read back") {
            _ = try SchemaEncoder(schema: schema, root: "Padded").encode(Padded(tag: "ab ", count: 7))
        }
    }

    struct Sized: Codable {
        var size: UInt64
        var tag: String
    }

    @Test func paddingPastTheOutputLimitIsAnErrorNotAnAllocation() throws {
        let schema = try SchemaLoader.load(text: "struct Sized { size: u64  tag: string[size] @pad(0) }")
        #expect(throws: EncodingError.self) {
            _ = try SchemaEncoder(schema: schema, root: "Sized").encode(Sized(size: 1 << 62, tag: "ab"))
        }
    }

    @Test func aSwitchOfIntegersIsANumber() throws {
        let schema = """
            enum Kind: u8 { a = 1, b = 2 }
            struct Main {
              wide: u8
              offset: switch wide { 0 => u8  _ => u16 }
              let doubled = offset * 2
              kind: switch wide { 0 => Kind  _ => Kind }
              let is_b = kind == .b
            }
            """
        let result = try dissect(schema, [1, 0x01, 0x00, 2])
        #expect(try result.int("Main.doubled") == 512)
        #expect(try result.at("Main.is_b").value == .boolean(true))
        let mixed = diagnostics("struct A { x: u8 } struct Main { f: u8  v: switch f { 0 => u8  _ => A }  let y = v + 1 }")
        #expect(mixed.map(\.message) == [
            "'v' is switch (varying type), not a number; a switch is a number only when its cases are all integers (or all one enum); name a field of the struct it read (v.<field>)",
        ])
    }

    @Test func aSizedBytesValueIsOnlyTheBytesItReads() throws {
        // Found porting ext2: `bytes[2] @size(4)` gave a 4-byte value.
        let schema = """
            struct Main { k: u8  a: switch k { 1 => bytes[2]  _ => u8 } @size(4)  b: bytes[2] @size(4)  s: string[2] @size(4)  c: u8 }
            """
        let result = try dissect(schema, [1, 0xAA, 0xBB, 0xCC, 0xDD, 0x11, 0x22, 0x33, 0x44, 0x61, 0x62, 0, 0, 5])
        #expect(result.error == nil)
        #expect(try result.at("Main.a").byteLength == 2)
        #expect(try result.at("Main.b").byteLength == 2)
        #expect(try result.display("Main.s") == "\"ab\"")
        #expect(try result.at("Main.s").byteLength == 4, "a string owns its whole size")
        #expect(try result.int("Main.c") == 5)
    }

    @Test func messagesNameWhatWasWritten() {
        let found = diagnostics("""
            struct Attr { k: u8  let x = parent.parent.parent.items[k] }
            struct Member { a: Attr }
            struct R(code: u8) { code: u8 }
            struct Top { m: Member  r: R(1) }
            """)
        #expect(found.map(\.message) == [
            "'Attr' is not contained in any struct 3 levels up, so 'parent.parent.parent.items' refers to nothing",
            "struct 'R' already has a parameter 'code'",
        ])
    }

    @Test func anExpressionCReadsOtherwiseIsAWarningThatLetsTheSchemaLoad() throws {
        let schema = try SchemaLoader.load(text: """
            struct Main { a: u8  mask: u8  let x = a - 1 & mask  let y = (a - 1) & mask  let z = 1 << a - 1  let w = a & 15 == 3 }
            """, path: "warn.schema")
        #expect(schema.warnings.map { "\($0.location.line):\($0.location.column) \($0.severity) \($0.message)" } == [
            "1:42 warning '&' binds tighter than '-' here, as in Swift, but not in C: add parentheses to say which is meant",
            "1:93 warning '<<' binds tighter than '-' here, as in Swift, but not in C: add parentheses to say which is meant",
        ])
        #expect(schema.warnings.first?.description.hasPrefix("warn.schema:1:42: warning: ") == true)
        #expect(bundledSchema.warnings.isEmpty, "\(bundledSchema.warnings)")
    }

    @Test func misusedArrayConstructsAreLocatedErrors() {
        let found = diagnostics("""
            struct Main {
              n: u8
              items: u8[n]
              let a = count(n, it > 1)
              let b = sum(items, it > 1)
              let c = any(items, it + 1)
              let d = items[n][n]
              let e: Missing = n
              let f = it
            }
            """)
        #expect(found.map { "\($0.location.line):\($0.location.column) \($0.message)" } == [
            "4:17 count() takes an array first, but 'n' is integer",
            "5:25 sum() adds up or compares integers, but this is bool",
            "6:25 the condition of any() must be a bool, but this is integer",
            "7:19 an index applies to an array, not to a value of type integer",
            "8:10 a computed value's type is an enum; 'Missing' is not one (write 'let e = …' for an integer)",
            "9:11 'it' means the array element at hand, and is only available in an 'until' condition and in an aggregate (count(a, it.x == 1))",
        ])
    }
}
