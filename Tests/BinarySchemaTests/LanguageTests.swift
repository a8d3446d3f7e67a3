import BinarySchema
import Dissector
import Foundation
import Testing

/// Each feature of the schema language, on small schemas and hand-made bytes.
@Suite struct LanguageTests {
    @Test func integersOfEveryWidthWithFileDefaultAndPerFieldByteOrder() throws {
        let schema = """
            endian little
            struct Main {
              a: u8
              b: u16
              c: u16be
              d: u24
              e: i24
              f: u32be
              g: u48le
              h: i64
              i: i8
            }
            """
        let bytes: [UInt8] = [0x01, 0x34, 0x12, 0x12, 0x34, 0x03, 0x02, 0x01, 0xFE, 0xFF, 0xFF,
                              0xDE, 0xAD, 0xBE, 0xEF, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,
                              0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x80]
        let result = try dissect(schema, bytes)
        #expect(result.error == nil)
        #expect(try result.int("Main.a") == 1)
        #expect(try result.int("Main.b") == 0x1234)
        #expect(try result.int("Main.c") == 0x1234)
        #expect(try result.int("Main.d") == 0x010203)
        #expect(try result.int("Main.e") == -2)
        #expect(try result.int("Main.f") == 0xDEADBEEF)
        #expect(try result.int("Main.g") == 0x010203040506)
        #expect(try result.int("Main.h") == -1)
        #expect(try result.int("Main.i") == -128)
        #expect(try result.at("Main.g").byteOffset == 15)
        #expect(try result.at("Main.g").byteLength == 6)
    }

    /// Consecutive integer fields are read as one run when their bytes are all there; cut anywhere,
    /// every field that fits keeps its value and span and the first that does not is the error.
    @Test func runsOfIntegerFieldsMatchABitByBitReadingWhereverTheBytesEnd() throws {
        let schema = """
            enum Kind: u8 { one = 1 }
            struct Main {
              a: u8
              b: u4
              c: u12
              d: u16le
              e: i24
              f: u64
              g: u3
              h: u61
              k: Kind
              m: i7
              n: u1
              p: u32le
              q: u56
              r: u8
            }
            """
        let widths = [8, 4, 12, 16, 24, 64, 3, 61, 8, 7, 1, 32, 56, 8]
        let names = ["a", "b", "c", "d", "e", "f", "g", "h", "k", "m", "n", "p", "q", "r"]
        let bytes: [UInt8] = (0..<44).map { UInt8(truncatingIfNeeded: $0 &* 73 &+ 29) }
        // The reference: most significant bit first, then the two little-endian fields swapped, two signed extended.
        var expected: [Int64] = []
        var bit = 0
        for (index, width) in widths.enumerated() {
            var raw: UInt64 = 0
            for position in bit..<(bit + width) {
                raw = raw << 1 | UInt64(bytes[position / 8] >> (7 - position % 8) & 1)
            }
            if names[index] == "d" || names[index] == "p" {
                raw = (0..<(width / 8)).reduce(0) { $0 | (raw >> UInt64(8 * $1) & 0xFF) << UInt64(width - 8 - 8 * $1) }
            }
            if names[index] == "e" || names[index] == "m" {
                expected.append(Int64(bitPattern: raw << UInt64(64 - width)) >> Int64(64 - width))
            } else {
                expected.append(Int64(bitPattern: raw))
            }
            bit += width
        }
        let ends = widths.reduce(into: [0]) { $0.append($0[$0.count - 1] + $1) }
        for length in 0...bytes.count {
            let result = try dissect(schema, Array(bytes.prefix(length)))
            let firstMissing = (0..<widths.count).first { ends[$0 + 1] > length * 8 }
            for index in 0..<(firstMissing ?? widths.count) {
                let path = "Main." + names[index]
                #expect(try result.int(path) == expected[index], "\(path) with \(length) bytes")
                let node = try result.at(path)
                #expect(node.bitStart == ends[index] && node.bitEnd == ends[index + 1], "\(path) span with \(length) bytes")
                #expect(node.isBitField == (ends[index] % 8 != 0 || widths[index] % 8 != 0), "\(path) with \(length) bytes")
            }
            if let firstMissing {
                #expect(result.error?.path == "Main." + names[firstMissing], "error with \(length) bytes")
                #expect(result.error?.offset == ends[firstMissing] / 8, "error offset with \(length) bytes")
            } else {
                #expect(result.error == nil)
            }
        }
    }

    @Test func floatsInEitherByteOrder() throws {
        let result = try dissect("struct Main { a: f32  b: f64le }",
                                 [0x3F, 0xC0, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 0x04, 0xC0])
        #expect(try result.display("Main.a") == "1.5")
        #expect(try result.display("Main.b") == "-2.5")
    }

    @Test func boolIsStrictlyZeroOrOne() throws {
        let good = try dissect("struct Main { a: bool  b: bool }", [1, 0])
        #expect(try good.display("Main.a") == "true")
        #expect(try good.display("Main.b") == "false")
        let bad = try dissect("struct Main { a: bool  b: bool }", [1, 2])
        let error = try #require(bad.error)
        #expect(error.kind == .boolOutOfRange(2))
        #expect(error.path == "Main.b")
        #expect(error.offset == 1)
        #expect(try good.int("Main.a") == 1)
        #expect(bad.node(at: "Main.a") != nil, "fields before the error are kept")
    }

    @Test func varintsAndZigZag() throws {
        let result = try dissect("struct Main { a: varint  b: zigzag  c: u8 }", [0xAC, 0x02, 0x03, 0x07])
        #expect(try result.int("Main.a") == 300)
        #expect(try result.int("Main.b") == -2)
        #expect(try result.int("Main.c") == 7)
        #expect(try result.at("Main.a").byteLength == 2)
    }

    @Test func bitFieldsPackAcrossByteBoundaries() throws {
        let schema = """
            struct Main {
              version: u4
              ihl: u4
              flags: Flags
              fragment_offset: u13
              signed: i4
              rest: u4
            }
            struct Flags { reserved: u1  df: u1  mf: u1 }
            """
        let result = try dissect(schema, [0x45, 0x40, 0x05, 0xE3])
        #expect(result.error == nil)
        #expect(try result.int("Main.version") == 4)
        #expect(try result.int("Main.ihl") == 5)
        #expect(try result.int("Main.flags.df") == 1)
        #expect(try result.int("Main.flags.mf") == 0)
        #expect(try result.int("Main.fragment_offset") == 5)
        #expect(try result.int("Main.signed") == -2)
        let offset = try result.at("Main.fragment_offset")
        #expect(offset.bitStart == 11 && offset.bitWidth == 13 && offset.isBitField)
        #expect(try result.at("Main.flags").bitWidth == 3)
    }

    @Test func leastSignificantBitFirstOrder() throws {
        let result = try dissect("bit_order lsb\nstruct Main { low: u3  high: u5  next: u16le }", [0b1010_0110, 0x34, 0x12])
        #expect(try result.int("Main.low") == 0b110)
        #expect(try result.int("Main.high") == 0b10100)
        #expect(try result.int("Main.next") == 0x1234)
    }

    @Test func bytesOfFixedComputedAndRemainingLength() throws {
        let schema = """
            struct Main {
              fixed: bytes[2]
              length: u8
              computed: bytes[length * 2 - 1]
              rest: bytes[..]
            }
            """
        let result = try dissect(schema, [0xAA, 0xBB, 2, 1, 2, 3, 9, 9])
        #expect(try result.display("Main.fixed") == "aabb")
        #expect(try result.display("Main.computed") == "010203")
        #expect(try result.display("Main.rest") == "0909")
        #expect(try result.at("Main.rest").byteOffset == 6)
    }

    @Test func stringsOfFixedAndComputedLengthAndNulTerminated() throws {
        let valid = """
            struct Main {
              magic: string[4]
              length: u8
              name: string[length]
              comment: cstring
              tail: string[..]
            }
            """
        let bytes = Array("RIFF".utf8) + [5] + Array("héllo".utf8).prefix(5) + Array("hi".utf8) + [0] + Array("end".utf8)
        let result = try dissect(valid, Array(bytes))
        #expect(result.error == nil)
        #expect(try result.display("Main.magic") == "\"RIFF\"")
        #expect(try result.display("Main.name") == "\"héll\"")
        #expect(try result.display("Main.comment") == "\"hi\"")
        #expect(try result.at("Main.comment").byteLength == 3, "the NUL belongs to the field")
        #expect(try result.display("Main.tail") == "\"end\"")
    }

    @Test func invalidUTF8IsFlaggedAndTheWalkGoesOn() throws {
        let result = try dissect("struct Main { a: u8  name: string[3]  b: u8 }", [1, 0x61, 0xC3, 0x28, 7])
        #expect(result.error == nil)
        let name = try result.at("Main.name")
        #expect(name.isInvalidText && name.byteLength == 3)
        #expect(result.text(of: try #require(result.node(at: "Main.name"))) == "a\\xc3(")
        #expect(try result.int("Main.b") == 7)
        #expect(try !result.at("Main.a").isInvalidText)
    }

    @Test func arraysByCountToEndOfScopeAndUntilACondition() throws {
        let schema = """
            struct Main {
              count: u8
              counted: u16[count]
              labels: Label[until it.length == 0]
              rest: u8[..]
            }
            struct Label {
              length: u8
              text: string[length]
            }
            """
        let bytes: [UInt8] = [2, 0, 1, 0, 2, 2, 0x68, 0x69, 1, 0x61, 0, 7, 8]
        let result = try dissect(schema, bytes)
        #expect(result.error == nil)
        #expect(try result.display("Main.counted") == "2 elements")
        #expect(try result.int("Main.counted[1]") == 2)
        #expect(try result.display("Main.labels[0].text") == "\"hi\"")
        #expect(try result.int("Main.labels[2].length") == 0)
        #expect(result.node(at: "Main.labels[3]") == nil)
        #expect(try result.int("Main.rest[1]") == 8)
    }

    @Test func nestedStructsAndSizedSubstreams() throws {
        let schema = """
            struct Main {
              header: Header @size(4)
              tail: u8
            }
            struct Header {
              kind: u8
              body: bytes[..]
            }
            """
        let result = try dissect(schema, [1, 2, 3, 4, 5])
        #expect(result.error == nil)
        #expect(try result.display("Main.header.body") == "020304", "a sized struct bounds its contents")
        #expect(try result.int("Main.tail") == 5)
        let short = try dissect("struct Main { header: Header @size(2)  tail: u8 }\nstruct Header { a: u8 }", [1, 2, 3])
        #expect(try short.at("Main.header").byteLength == 2, "the field owns its whole size")
        #expect(try short.int("Main.tail") == 3)
        let tooLong = try dissect("struct Main { header: Inner @size(2) }\nstruct Inner { a: u32 }", [1, 2, 3, 4])
        #expect(tooLong.error?.kind == .exceedsScope(needed: 4, available: 2))
        #expect(tooLong.error?.path == "Main.header.a")
    }

    @Test func enumsKeepUnknownValues() throws {
        let schema = """
            enum Color: u8 { red = 1, green = 2 }
            struct Main { a: Color  b: Color }
            """
        let result = try dissect(schema, [2, 9])
        #expect(result.error == nil)
        #expect(try result.display("Main.a") == "green (2)")
        #expect(try result.display("Main.b") == "unknown (9)")
        #expect(try result.int("Main.b") == 9)
    }

    @Test func switchChoosesTheTypeWithADefault() throws {
        let schema = """
            enum Kind: u8 { small = 1, large = 2 }
            struct Main {
              kind: Kind
              value: switch kind {
                .small => u8
                .large => u32
                _ => bytes[..]
              }
            }
            """
        #expect(try dissect(schema, [1, 7]).int("Main.value") == 7)
        #expect(try dissect(schema, [2, 0, 0, 1, 0]).int("Main.value") == 256)
        #expect(try dissect(schema, [3, 0xAB]).display("Main.value") == "ab")
        let noDefault = try dissect("struct Main { k: u8  v: switch k { 1 => u8 } }", [5, 0])
        #expect(noDefault.error?.kind == .noMatchingCase(5))
        let noCondition = try dissect("struct Main { k: u8  v: switch { k == 1 => u8 } }", [5, 0])
        #expect(noCondition.error?.kind == .noMatchingCase(nil))
        #expect(noCondition.error?.description == "no matching case: Main.v at offset 1: none of the switch's conditions holds")
    }

    @Test func switchWithoutSubjectTakesTheFirstCaseThatHolds() throws {
        let schema = """
            struct Main {
              port: u16
              payload: switch {
                port == 53 || port == 5353 => u8
                port < 1024 => u16
                _ => bytes[..]
              }
            }
            """
        #expect(try dissect(schema, [0, 53, 9]).int("Main.payload") == 9)
        #expect(try dissect(schema, [0, 80, 0, 9]).int("Main.payload") == 9)
        #expect(try dissect(schema, [0x1F, 0x90, 1, 2]).display("Main.payload") == "0102")
    }

    @Test func conditionalFieldsArePresentOnlyWhenTheirConditionHolds() throws {
        let schema = "struct Main { flag: u8  extra: u16 if flag != 0  last: u8 }"
        let with = try dissect(schema, [1, 0, 2, 3])
        #expect(try with.int("Main.extra") == 2)
        #expect(try with.int("Main.last") == 3)
        let without = try dissect(schema, [0, 3])
        #expect(without.node(at: "Main.extra") == nil)
        #expect(try without.int("Main.last") == 3)
    }

    /// `has(x)` tells whether a conditional field was read, so a later field can be read in its
    /// place (802.3's length instead of Ethernet II's EtherType) without repeating the condition,
    /// which after the first field would read other bytes.
    @Test func hasTellsWhetherAConditionalFieldWasRead() throws {
        let schema = """
            struct Main {
              length: u8 if peek(0) < 0x80
              type: u16 if !has(length)
              body: bytes[has(length) ? length : 1]
              let typed = has(type)
            }
            """
        let short = try dissect(schema, [2, 0xAA, 0xBB])
        #expect(short.error == nil)
        #expect(try short.int("Main.length") == 2)
        #expect(short.node(at: "Main.type") == nil)
        #expect(try short.display("Main.body") == "aabb")
        #expect(try short.display("Main.typed") == "false")
        let typed = try dissect(schema, [0x86, 0xDD, 0xCC])
        #expect(typed.node(at: "Main.length") == nil)
        #expect(try typed.int("Main.type") == 0x86DD)
        #expect(try typed.display("Main.body") == "cc")
        #expect(try typed.display("Main.typed") == "true")
        let messages = diagnostics("struct Main { a: u8  b: u8 if has(c)  c: u8  d: u8 if has(1) }").map(\.message)
        #expect(messages.count == 2, "\(messages)")
        #expect(messages.first?.contains("'c'") == true, "\(messages)")
    }

    @Test func constraintsValidateValues() throws {
        let schema = "struct Main { version: u4 == 4  ihl: u4 @assert(ihl >= 5) }"
        #expect(try dissect(schema, [0x45]).error == nil)
        let wrongVersion = try dissect(schema, [0x65])
        #expect(wrongVersion.error?.kind == .constraintViolated(expression: "version == 4"))
        #expect(wrongVersion.error?.path == "Main.version")
        let shortHeader = try dissect(schema, [0x44])
        #expect(shortHeader.error?.kind == .constraintViolated(expression: "ihl >= 5"))
        #expect(shortHeader.error?.bitOffset == 4)
    }

    @Test func displayHints() throws {
        let schema = """
            struct Main {
              mac: mac
              v4: ipv4
              v6: ipv6
              id: u16 @hex
              mask: u8 @bin
              flag: u1 @flag
              pad: u7
              ihl: u8 @display("{} ({} bytes)", ihl, ihl * 4)
              text: bytes[3] @ascii
            }
            """
        let bytes: [UInt8] = [0x3C, 0x22, 0xFB, 0x11, 0x22, 0x33, 10, 1, 2, 3,
                              0x20, 0x01, 0x0D, 0xB8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
                              0x00, 0x2A, 0b101, 0x80, 5, 0x61, 0x00, 0x62]
        let result = try dissect(schema, bytes)
        #expect(try result.display("Main.mac") == "3c:22:fb:11:22:33")
        #expect(try result.display("Main.v4") == "10.1.2.3")
        #expect(try result.display("Main.v6") == "2001:db8::10")
        #expect(try result.display("Main.id") == "0x002a")
        #expect(try result.display("Main.mask") == "0b00000101")
        #expect(try result.display("Main.flag") == "Set")
        #expect(try result.display("Main.ihl") == "5 (20 bytes)")
        #expect(try result.display("Main.text") == "\"a.b\"")
    }

    /// `guid` (Microsoft's, first three groups little-endian) and `uuid` (RFC 9562, in order).
    @Test func guidsAndUUIDsShowAsTheirText() throws {
        let schema = "struct Main { g: guid  u: uuid }"
        let wire: [UInt8] = [0x78, 0x57, 0x34, 0x12, 0x34, 0x12, 0xCD, 0xAB, 0xEF, 0x00, 0x01, 0x23, 0x45, 0x67, 0x89, 0xAC]
        let result = try dissect(schema, wire + wire)
        #expect(try result.display("Main.g") == "12345778-1234-abcd-ef00-0123456789ac")
        #expect(try result.display("Main.u") == "78573412-3412-cdab-ef00-0123456789ac")
        let short = try dissect(schema, Array(wire.prefix(10)))
        #expect(short.error != nil)
    }

    @Test func expressionsFollowSwiftPrecedenceInCheckedArithmetic() throws {
        let schema = """
            struct Main {
              a: u8
              b: u8
              x: bytes[1 + a * 2]
              y: bytes[a & 0x0F == 3 ? 1 : 2]
              z: bytes[(b << 2) >> 3]
              w: bytes[-a + 4 - a % 2]
              v: bytes[b / 2 - (a != 3 || b == 4 ? 1 : 2)]
            }
            """
        // a = 3: x is 7 bytes; a & 0x0F == 3 (bitwise and binds tighter) → y is 1; b = 4: z is 2; w is 0; v is 1.
        let bytes: [UInt8] = [3, 4] + Array(repeating: 0xEE, count: 7) + [0x11] + [0x22, 0x22] + [0x33]
        let result = try dissect(schema, bytes)
        #expect(result.error == nil)
        #expect(try result.at("Main.x").byteLength == 7)
        #expect(try result.at("Main.y").byteLength == 1)
        #expect(try result.at("Main.z").byteLength == 2)
        #expect(try result.at("Main.w").byteLength == 0)
        #expect(try result.at("Main.v").byteLength == 1)
    }

    @Test(arguments: [(UInt8(1), true, false), (2, false, true), (3, true, true), (7, false, false)])
    func comparisonsJoinedByAndAndOr(value: UInt8, eitherOneOrThree: Bool, betweenTwoAndSix: Bool) throws {
        let schema = """
            struct Main {
              a: u8
              x: u8 if a == 1 || a == 3
              y: u8 if a >= 2 && a < 7
              z: u8 if !(a == 1 || a == 3)
            }
            """
        let result = try dissect(schema, [value, 0, 0, 0])
        #expect(result.error == nil)
        #expect((result.node(at: "Main.x") != nil) == eitherOneOrThree)
        #expect((result.node(at: "Main.y") != nil) == betweenTwoAndSix)
        #expect((result.node(at: "Main.z") != nil) == !eitherOneOrThree)
    }

    @Test func shortCircuitLogicSkipsTheRightSide() throws {
        // Without short-circuit, 10 / a would divide by zero.
        let result = try dissect("struct Main { a: u8  b: u8 if a != 0 && 10 / a > 1 }", [0, 9])
        #expect(result.error == nil)
        #expect(result.node(at: "Main.b") == nil)
    }

    @Test func referencesToNestedAndEnclosingStructFields() throws {
        let schema = """
            struct Main {
              header: Header
              body: Body
            }
            struct Header { length: u8  flags: Flags }
            struct Flags { big: u1  pad: u7 }
            struct Body {
              value: switch parent.header.flags.big { 1 => u16  _ => u8 }
              data: bytes[parent.header.length - 2]
            }
            """
        let result = try dissect(schema, [4, 0x80, 0x01, 0x02, 0xAA, 0xBB])
        #expect(result.error == nil)
        #expect(try result.int("Main.body.value") == 0x0102)
        #expect(try result.display("Main.body.data") == "aabb")
    }

    @Test func lengthOfBytesStringsAndArrays() throws {
        let schema = """
            struct Main {
              name: cstring
              items: u16[2]
              raw: bytes[len(name) + len(items)]
              tail: u8
            }
            """
        // The string counts without its NUL, the array in elements (2), not bytes (4): any other
        // count moves `tail` off the 0x55.
        let result = try dissect(schema, [0x61, 0x62, 0, 0, 1, 0, 2, 9, 9, 9, 9, 0x55])
        #expect(result.error == nil)
        #expect(try result.at("Main.raw").byteLength == 4)
        #expect(try result.int("Main.tail") == 0x55)
    }

    @Test func arithmeticOverflowAndDivisionByZeroAreErrors() throws {
        let overflow = try dissect("struct Main { a: u64  b: bytes[a * 2] }", Array(repeating: 0x7F, count: 8))
        #expect(overflow.error?.kind == .arithmeticOverflow(expression: "a * 2"))
        #expect(overflow.error?.path == "Main.b")
        #expect(overflow.error?.offset == 8)
        let divide = try dissect("struct Main { a: u8  b: bytes[4 / a] }", [0])
        #expect(divide.error?.kind == .divisionByZero(expression: "4 / a"))
        let tooLarge = try dissect("struct Main { a: u64  b: bytes[a] }", Array(repeating: 0xFF, count: 8))
        #expect(tooLarge.error?.code == "arithmetic_overflow")
    }

    @Test func peekLooksAheadWithoutConsuming() throws {
        let schema = "struct Main { body: switch peek(0) >> 4 { 4 => Four  _ => bytes[..] } }\nstruct Four { v: u4  rest: u4 }"
        let result = try dissect(schema, [0x45])
        #expect(try result.int("Main.body.v") == 4)
    }

    @Test func typeAliasesExpandWhereUsed() throws {
        let schema = """
            typealias Payload = switch kind { 1 => u8  _ => bytes[..] }
            struct Main { kind: u8  payload: Payload  other: Other }
            struct Other { kind: u8  payload: Payload }
            """
        let result = try dissect(schema, [1, 7, 2, 0xAA, 0xBB])
        #expect(try result.int("Main.payload") == 7)
        #expect(try result.display("Main.other.payload") == "aabb")
    }

    @Test func protocolStructsStartTheirOwnPaths() throws {
        let schema = """
            @protocol("outer") struct Main { a: u8  inner: Inner  list: Item[2] }
            @protocol("in") struct Inner { b: u8 }
            struct Item { c: u8 }
            """
        let result = try dissect(schema, [1, 2, 3, 4])
        #expect(result.node(at: "outer.a") != nil)
        #expect(result.node(at: "in.b") != nil)
        #expect(try result.int("outer.list[1].c") == 4)
    }

    @Test func linkTypesPickTheRootStruct() throws {
        #expect(bundledSchema.rootStruct(forLinkType: 1)?.name == "Ethernet")
        #expect(bundledSchema.rootStruct(forLinkType: 113)?.name == "SLL")
        #expect(bundledSchema.rootStruct(forLinkType: 276)?.name == "SLL2")
        #expect(bundledSchema.rootStruct(forLinkType: 0)?.name == "Null")
        #expect(bundledSchema.rootStruct(forLinkType: 108)?.name == "Loop")
        #expect(bundledSchema.rootStruct(forLinkType: 101)?.name == "RawIP")
        #expect(bundledSchema.rootStruct(forLinkType: 12)?.name == "RawIP")
        #expect(bundledSchema.rootStruct(forLinkType: 228)?.name == "IPv4")
        #expect(bundledSchema.rootStruct(forLinkType: 229)?.name == "IPv6")
        #expect(bundledSchema.rootStruct(forLinkType: 9999) == nil)
    }

    @Test func importsBringDeclarationsOfOtherFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dissect-import-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "enum Color: u8 { red = 1 }\nstruct Pair { a: u8  b: u8 }".write(
            to: directory.appendingPathComponent("common.schema"), atomically: true, encoding: .utf8)
        try "import \"common.schema\"\nstruct Main { color: Color  pair: Pair }".write(
            to: directory.appendingPathComponent("main.schema"), atomically: true, encoding: .utf8)
        let schema = try SchemaLoader.load(paths: [directory.appendingPathComponent("main.schema").path])
        var interpreter = Interpreter(schema: schema)
        let result = interpreter.dissect([1, 2, 3], root: try #require(schema.structType(named: "Main")))
        #expect(try result.display("Main.color") == "red (1)")
        #expect(try result.int("Main.pair.b") == 3)
    }
}
