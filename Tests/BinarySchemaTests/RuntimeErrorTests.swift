import BinarySchema
import Testing

/// Each run-time error kind, with its path and byte offset, and the fields kept before it.
@Suite struct RuntimeErrorTests {
    @Test func prematureEndKeepsEarlierFieldsAndSaysWhatIsMissing() throws {
        let result = try dissect("struct Main { a: u16  b: u32  c: u8 }", [0, 1, 2, 3])
        let error = try #require(result.error)
        #expect(error.kind == .prematureEnd(needed: 4, available: 2))
        #expect(error.path == "Main.b")
        #expect(error.offset == 2)
        #expect(error.description == "premature end of data: Main.b needs 4 bytes at offset 2, 2 available")
        #expect(try result.int("Main.a") == 1)
        #expect(result.nodes[error.node].byteLength == 2, "the failing field spans the bytes it could see")
        #expect(result.node(at: "Main.c") == nil)
    }

    @Test func lengthLargerThanItsScope() throws {
        let result = try dissect("struct Main { inner: Inner @size(3)  tail: bytes[..] }\nstruct Inner { n: u8  data: bytes[n] }",
                                 [5, 1, 2, 3, 4, 5, 6])
        #expect(result.error?.kind == .exceedsScope(needed: 5, available: 2))
        #expect(result.error?.path == "Main.inner.data")
        #expect(result.error?.offset == 1)
    }

    @Test func negativeLength() throws {
        let result = try dissect("struct Main { n: u8  data: bytes[n - 4] }", [2, 0])
        #expect(result.error?.kind == .negativeLength(-2))
    }

    @Test func missingTerminatorAndVarintOverflow() throws {
        #expect(try dissect("struct Main { s: cstring }", [0x61, 0x62]).error?.kind == .missingTerminator(terminator: [0]))
        let varint = try dissect("struct Main { v: varint }", Array(repeating: 0xFF, count: 11))
        #expect(varint.error?.kind == .varintOverflow)
    }

    @Test func misalignedAtRunTime() throws {
        // A conditional bit field leaves the phase unknown to the checker; the interpreter catches it.
        let result = try dissect("struct Main { f: u8  a: u4 if f == 1  b: bytes[1] }", [1, 0xFF])
        #expect(result.error?.kind == .misaligned(bitOffset: 4))
        #expect(result.error?.path == "Main.b")
    }

    @Test func absentConditionalFieldInAnExpression() throws {
        let result = try dissect("struct Main { f: u8  n: u8 if f == 1  data: bytes[n] }", [0, 3])
        #expect(result.error?.kind == .absentField("n"))
    }

    @Test func emptyArrayElementStopsTheArray() throws {
        let result = try dissect("struct Main { items: Empty[..] }\nstruct Empty { x: u8 if false }", [1, 2])
        #expect(result.error?.kind == .emptyElement(index: 0))
        #expect(result.error?.path == "Main.items[0]")
    }

    @Test func hugeCountFailsAtOnceWithoutWork() throws {
        let result = try dissect("struct Main { n: u64  items: u8[n] }",
                                 [0x10, 0, 0, 0, 0, 0, 0, 0] + [1, 2])
        #expect(result.error?.kind == .prematureEnd(needed: Int(1 << 60), available: 2))
        #expect(result.nodes.count < 5, "no element was read")
    }

    @Test func fieldLimitBoundsTheNodesOfOneWalk() throws {
        let schema = try SchemaLoader.load(text: "struct Main { bits: u1[..] }")
        var options = Interpreter.Options()
        options.fieldLimit = 100
        var interpreter = Interpreter(schema: schema, options: options)
        let result = interpreter.dissect(Array(repeating: 0xFF, count: 64), root: try #require(schema.structType(named: "Main")))
        #expect(result.error?.kind == .fieldLimit(100))
        #expect(result.nodes.count <= 102)
    }

    @Test func recursionDepthLimit() throws {
        let schema = "struct Main { kind: u8  inner: switch kind { 1 => Main  _ => u8 } }"
        let deep = try dissect(schema, Array(repeating: 1, count: 300))
        #expect(deep.error?.kind == .depthLimit(Interpreter.Options.defaultNestingLimit))
        let allowed = try dissect(schema, Array(repeating: 1, count: 200) + [0, 9])
        #expect(allowed.error == nil, "200 nested structs are within the default budget")
        let shallow = try dissect(schema, [1, 1, 0, 9])
        #expect(shallow.error == nil)
    }

    // MARK: - DNS names

    private let dnsSchema = """
        @offset_base
        struct Main { first: dns_name  second: dns_name }
        """

    @Test func dnsNamesFollowCompressionPointers() throws {
        let bytes: [UInt8] = [3, 0x77, 0x77, 0x77, 7] + Array("example".utf8) + [0, 0xC0, 4]
        let result = try dissect(dnsSchema, bytes)
        #expect(result.error == nil)
        #expect(try result.display("Main.first") == "www.example")
        #expect(try result.display("Main.second") == "example")
        #expect(try result.at("Main.second").byteLength == 2, "a pointer ends the name's bytes in place")
    }

    @Test func dnsPointerLoop() throws {
        let result = try dissect(dnsSchema, [1, 0x61, 0xC0, 0])
        #expect(result.error?.kind == .pointerLoop)
        #expect(result.error?.path == "Main.first")
        let selfPointer = try dissect(dnsSchema, [0xC0, 0])
        #expect(selfPointer.error?.kind == .pointerLoop)
    }

    @Test func dnsPointerOutOfRangeInvalidLabelAndTooLong() throws {
        #expect(try dissect(dnsSchema, [0xC0, 0x40]).error?.kind == .pointerOutOfRange(0x40))
        #expect(try dissect(dnsSchema, [0x41, 0]).error?.kind == .invalidLabel(0x41))
        let label: [UInt8] = [63] + Array(repeating: 0x61, count: 63)
        let long: [UInt8] = Array(Array(repeating: label, count: 5).joined()) + [0]
        #expect(try dissect(dnsSchema, long).error?.kind == .nameTooLong)
        #expect(try dissect(dnsSchema, [3, 0x61]).error?.code == "premature_end")
    }

    @Test func dnsPointersCountFromTheOffsetBaseStruct() throws {
        let schema = """
            struct Main { prefix: u16  message: Message }
            @offset_base struct Message { name: dns_name  again: dns_name }
            """
        let result = try dissect(schema, [0xFF, 0xFF, 1, 0x61, 0, 0xC0, 0])
        #expect(try result.display("Main.message.again") == "a")
    }

    @Test func theFailingNodeLiesInsideItsParents() throws {
        // Found by fuzzing: one byte through Ethernet gave eth.dst (failing, the byte it saw)
        // bits 0..<8 inside a root that ended at 0.
        let root = try #require(bundledSchema.structType(named: "Ethernet"))
        var interpreter = Interpreter(schema: bundledSchema)
        let result = interpreter.dissect([0], root: root)
        #expect(result.nodes[0].bitEnd == 8)
        #expect(result.error?.path == "eth.dst")
    }

    @Test func everyNodeSpanLiesInsideTheBufferAndItsParent() throws {
        // Random bytes through the bundled Ethernet root: no trap, and spans are consistent. The
        // seed is fixed, so a failure replays; its message names the seed, the case and the bytes.
        let seed: UInt64 = 0x5EA7_0000_0000_0001
        var generator = SplitMix64(seed: seed)
        let root = try #require(bundledSchema.structType(named: "Ethernet"))
        var interpreter = Interpreter(schema: bundledSchema)
        for number in 0..<300 {
            var bytes = (0..<Int.random(in: 0..<120, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if bytes.count > 14, Bool.random(using: &generator) {
                bytes[12] = 0x08
                bytes[13] = 0x00
                bytes[14] = 0x45
            }
            let input: Comment = "seed 0x\(String(seed, radix: 16)), case \(number): \(bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined(separator: " "))"
            let result = interpreter.dissect(bytes, root: root)
            for node in result.nodes {
                #expect(node.bitStart <= node.bitEnd && node.bitEnd <= bytes.count * 8, input)
                if node.parent >= 0 {
                    let parent = result.nodes[Int(node.parent)]
                    #expect(parent.bitStart <= node.bitStart && node.bitEnd <= parent.bitEnd, input)
                }
            }
            if let error = result.error { #expect(error.offset <= bytes.count, input) }
        }
    }
}

/// A dissection and the interpreter's limits stay what the public API promises, however they are used.
@Suite struct InterpreterLifetimeTests {
    @Test func aDissectionKeptPastTheNextWalkKeepsItsOwnValues() throws {
        let schema = try SchemaLoader.load(text: "struct Main { a: u8  b: u16  rest: bytes[..] }")
        let root = try #require(schema.structType(named: "Main"))
        var interpreter = Interpreter(schema: schema)
        let kept = interpreter.withDissection(of: [1, 0, 2, 9, 9], root: root) { $0 }
        // Walks over other bytes, one with fewer nodes and one that fails, must not show through.
        let second = interpreter.withDissection(of: [7, 0, 8], root: root) { dissection in
            (try? dissection.int("Main.a"), dissection.nodes.count)
        }
        #expect(second.0 == 7 && second.1 == 4)
        _ = interpreter.withDissection(of: [3], root: root) { $0.error }
        #expect(try kept.int("Main.a") == 1)
        #expect(try kept.int("Main.b") == 2)
        #expect(try kept.at("Main.rest").byteLength == 2)
        #expect(kept.nodes.count == 4)
        #expect(kept.error == nil)
        let copy = interpreter
        var other = copy
        // Copies of an interpreter walk on their own memory too.
        let fromCopy = other.dissect([5, 0, 6], root: root)
        _ = interpreter.withDissection(of: [4, 0, 4], root: root) { $0.nodes.count }
        #expect(try fromCopy.int("Main.a") == 5)
        #expect(try kept.int("Main.a") == 1)
    }

    @Test func optionsSetPastTheirBoundsAreClamped() throws {
        let schema = try SchemaLoader.load(text: "struct Main { a: u8 }")
        var interpreter = Interpreter(schema: schema)
        interpreter.options.fieldLimit = Int.max
        #expect(interpreter.options.fieldLimit == Int(Int32.max) / 2)
        interpreter.options.fieldLimit = -5
        #expect(interpreter.options.fieldLimit == 16)
        var options = Interpreter.Options()
        options.fieldLimit = Int.max
        interpreter.options = options
        #expect(interpreter.options.fieldLimit == Int(Int32.max) / 2)
        interpreter.options.nestingLimit = -1
        #expect(interpreter.options.nestingLimit == 0)
        interpreter.options.nestingLimit = .max
        #expect(interpreter.options.nestingLimit == Interpreter.Options.maximumNestingLimit)
        interpreter.options.pointerLimit = -1
        #expect(interpreter.options.pointerLimit == 0)
    }
}
