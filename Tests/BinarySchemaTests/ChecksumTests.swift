@testable import BinarySchema
import Dissector
import Foundation
import Testing

/// The algorithms `@checksum` names, against their standard check values.
@Suite struct ChecksumAlgorithmTests {
    private func checksum(_ algorithm: ChecksumAlgorithm, _ text: String) -> UInt64 {
        var accumulator = ChecksumAccumulator(algorithm)
        accumulator.update(Array(text.utf8)[...])
        return accumulator.value
    }

    /// The CRC catalogue's check values: the CRC of the nine bytes "123456789".
    @Test func crcsAndAdlerGiveTheirCheckValues() {
        #expect(checksum(.crc32, "123456789") == 0xCBF4_3926)
        #expect(checksum(.crc32c, "123456789") == 0xE306_9283)
        #expect(checksum(.crc16CCITT, "123456789") == 0x29B1)  // CRC-16/CCITT-FALSE (IBM-3740)
        #expect(checksum(.crc16XMODEM, "123456789") == 0x31C3)
        #expect(checksum(.crc16KERMIT, "123456789") == 0x2189)
        #expect(checksum(.adler32, "123456789") == 0x091E_01DE)
        #expect(checksum(.adler32, "Wikipedia") == 0x11E6_0398)
        #expect(checksum(.crc32, "") == 0)
        #expect(checksum(.adler32, "") == 1)
    }

    /// Adler-32's sums are reduced once per 5552 bytes: a megabyte of 0xFF (the largest sums) is
    /// zlib's value.
    @Test func adlerStaysExactOverLongInput() {
        var accumulator = ChecksumAccumulator(.adler32)
        accumulator.update([UInt8](repeating: 0xFF, count: 1_000_000)[...])
        #expect(accumulator.value == 0x3843_E1BE)
    }

    /// RFC 1071's sum over the IPv4 header of Wikipedia's example (checksum 0xB861 once complemented).
    @Test func internetSumOfAnIPv4Header() {
        let header: [UInt8] = [0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, 0x00, 0x00,
                               0xC0, 0xA8, 0x00, 0x01, 0xC0, 0xA8, 0x00, 0xC7]
        var accumulator = ChecksumAccumulator(.internet)
        accumulator.update(header[...])
        #expect(~UInt16(accumulator.value) == 0xB861)
    }

    /// Fed in pieces of any length (an odd piece leaves half a word pending), byte by byte, or with
    /// zeros fed as a count, every algorithm gives the value of the whole.
    @Test(arguments: ChecksumAlgorithm.allCases)
    func piecesGiveTheValueOfTheWhole(algorithm: ChecksumAlgorithm) {
        let bytes = (0..<301).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) } + [UInt8](repeating: 0, count: 7) + [0xAB]
        var whole = ChecksumAccumulator(algorithm)
        whole.update(bytes[...])
        for cut in [1, 2, 3, 150, 301] {
            var pieces = ChecksumAccumulator(algorithm)
            pieces.update(bytes[0..<cut])
            pieces.update(bytes[cut..<301])
            pieces.updateZeros(7)
            pieces.update(byte: 0xAB)
            #expect(pieces.value == whole.value, "\(algorithm) cut at \(cut)")
        }
        var bytewise = ChecksumAccumulator(algorithm)
        for byte in bytes { bytewise.update(byte: byte) }
        #expect(bytewise.value == whole.value)
    }
}

/// `@checksum` in schemas: what is covered, what the walk records, and when it verifies.
@Suite struct ChecksumLanguageTests {
    private func walk(_ text: String, _ bytes: [UInt8], root: String = "Main",
                      checksums: ChecksumSelection = .default) throws -> Dissection {
        let schema = try SchemaLoader.load(text: text)
        var options = Interpreter.Options()
        options.checksums = checksums
        var interpreter = Interpreter(schema: schema, options: options)
        return interpreter.dissect(bytes, root: try #require(schema.structType(named: root)))
    }

    private func result(_ dissection: Dissection, _ path: String) throws -> ChecksumResult? {
        dissection.checksum(of: try #require(dissection.node(at: path), "no \(path)"))
    }

    static let png = """
        struct Chunk {
          length: u32
          type: string[4]
          data: bytes[length]
          crc: u32 @hex @checksum(crc32, type, data)
        }
        struct Main { chunk: Chunk  after: u8 }
        """
    /// A PNG IHDR chunk (1×1 pixel, RGB): its CRC-32, 0x907753de, is Python's zlib.crc32(b"IHDR" + data).
    static let ihdr: [UInt8] = [0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]

    /// A struct's own internet checksum (the IPv4 header's) is verified as soon as its fields are
    /// read: an error later in the walk leaves it verified, and a heuristic that does not claim its
    /// payload takes its verification back with it.
    @Test func aHeaderChecksumIsVerifiedDuringTheWalkAndForgottenWithARolledBackHeuristic() throws {
        let schema = """
            table t: u8
            register t { heuristic H }
            struct H { a: u16  sum: u16 @hex @checksum(internet, a...b)  b: u8  c: u8 @assert(c == 7) }
            struct Main { p: dispatch t(0)  tail: u8 @assert(tail == 1) }
            """
        // a = 0x1234, b = 0x56: the sum of 0x1234 and 0x5600 is 0x6834, whose complement is 0x97CB.
        let header: [UInt8] = [0x12, 0x34, 0x97, 0xCB, 0x56]
        // H claims the payload (c == 7); Main's tail is then wrong: the checksum stays verified.
        let claimed = try walk(schema, header + [0x07, 0x00])
        #expect(claimed.error != nil)
        let verified = try #require(try result(claimed, "Main.p.sum"))
        #expect(verified.isCorrect)
        #expect(claimed.checksums.count == 1)
        // c != 7: H's attempt is rolled back after its checksum was verified; no mark is left.
        let rolledBack = try walk(schema, header + [0x08, 0x01])
        #expect(rolledBack.node(at: "Main.p.sum") == nil)
        #expect(rolledBack.checksums.isEmpty)
    }

    @Test func crc32OverTwoFieldsIsCorrectOrMarkedWithTheExpectedValue() throws {
        let good = try walk(Self.png, Self.ihdr + [0x90, 0x77, 0x53, 0xDE, 0x2A])
        #expect(good.error == nil)
        #expect(try result(good, "Main.chunk.crc") == ChecksumResult(node: try #require(good.node(at: "Main.chunk.crc")),
                                                                      isCorrect: true, expected: 0x9077_53DE))
        let bad = try walk(Self.png, Self.ihdr + [0x90, 0x77, 0x53, 0xDF, 0x2A])
        // Not an error: the walk goes on past the wrong checksum.
        #expect(bad.error == nil)
        #expect(try bad.int("Main.after") == 0x2A)
        let mark = try #require(try result(bad, "Main.chunk.crc"))
        #expect(!mark.isCorrect)
        #expect(mark.expected == 0x9077_53DE)
        #expect(bad.hasBadChecksum && !good.hasBadChecksum)
        #expect(bad.checksums == [mark])
        // Only the checksum field is marked.
        #expect(try result(bad, "Main.chunk.data") == nil)
    }

    /// RFC 1071: the checksum covers its own struct with its own bytes counted as zero; an odd
    /// last byte is padded with zero.
    @Test func internetChecksumOverItsOwnStructCountsItselfAsZero() throws {
        let schema = "struct Main { a: u16  sum: u16 @hex @checksum(internet, self)  b: u8 }"
        // 0x1234 + 0x0000 + 0x5600 = 0x6834; its complement is 0x97cb.
        #expect(try result(try walk(schema, [0x12, 0x34, 0x97, 0xCB, 0x56]), "Main.sum")?.isCorrect == true)
        let bad = try #require(try result(try walk(schema, [0x12, 0x34, 0x00, 0x00, 0x56]), "Main.sum"))
        #expect(!bad.isCorrect && bad.expected == 0x97CB)
        // A little-endian field holds the same bytes, so reads the value byte-swapped, and expects it so.
        let swapped = "struct Main { a: u16  sum: u16le @hex @checksum(internet, self)  b: u8 }"
        #expect(try result(try walk(swapped, [0x12, 0x34, 0x97, 0xCB, 0x56]), "Main.sum")?.isCorrect == true)
        #expect(try result(try walk(swapped, [0x12, 0x34, 0x00, 0x00, 0x56]), "Main.sum")?.expected == 0xCB97)
    }

    /// A checksum at an odd offset in what it covers straddles two words, so it is summed
    /// byte-swapped: 12 | ff ed sums to 0x12ff + 0xed00 = 0xffff.
    @Test func internetChecksumAtAnOddOffset() throws {
        let schema = "struct Main { a: u8  sum: u16 @hex @checksum(internet, self) }"
        #expect(try result(try walk(schema, [0x12, 0xFF, 0xED]), "Main.sum")?.isCorrect == true)
        let bad = try #require(try result(try walk(schema, [0x12, 0x00, 0x00]), "Main.sum"))
        #expect(!bad.isCorrect && bad.expected == 0xFFED)
    }

    /// 0x0000 and 0xFFFF are both zero in one's complement: where the rest sums to 0xFFFF, either verifies.
    @Test func internetChecksumAcceptsBothZeros() throws {
        let schema = "struct Main { a: u16  sum: u16 @checksum(internet, self) }"
        #expect(try result(try walk(schema, [0xFF, 0xFF, 0x00, 0x00]), "Main.sum")?.isCorrect == true)
        #expect(try result(try walk(schema, [0xFF, 0xFF, 0xFF, 0xFF]), "Main.sum")?.isCorrect == true)
        #expect(try result(try walk(schema, [0xFF, 0xFF, 0x00, 0x01]), "Main.sum")?.isCorrect == false)
    }

    /// `first...last` covers from the first byte of one field to the last of another.
    @Test func spanOfFields() throws {
        let schema = "struct Main { a: u8  b: u8  c: u8  sum: u16 @hex @checksum(crc16_ccitt, a...b)  d: u8 }"
        // CRC-16/CCITT-FALSE of "12" is 0x3dba (Python's binascii.crc_hqx(b"12", 0xffff)).
        let good = try walk(schema, [0x31, 0x32, 0x33, 0x3D, 0xBA, 0x00])
        #expect(try result(good, "Main.sum")?.isCorrect == true)
    }

    /// A checksum is verified after the whole walk: a struct's checksum may cover a struct nested
    /// before it that has its own, and the results stay in node order.
    @Test func nestedChecksumsAreEachVerifiedAndListedInNodeOrder() throws {
        let schema = """
            struct Inner { x: u8  sum: u16 @checksum(crc16_xmodem, x) }
            struct Main { inner: Inner  crc: u16 @checksum(crc16_kermit, inner) }
            """
        // XMODEM of 07 is 0x70e7; KERMIT of 07 70 e7 is 0xef70.
        let dissection = try walk(schema, [0x07, 0x70, 0xE7, 0xEF, 0x70])
        let nodes = try ["Main.inner.sum", "Main.crc"].map { try #require(dissection.node(at: $0)) }
        #expect(dissection.checksums.map(\.node) == nodes)
        #expect(dissection.checksums.allSatisfy { $0.isCorrect })
    }

    /// `when(condition)` verifies only when it holds, and may name fields after the checksum.
    @Test func whenConditionDecides() throws {
        let schema = "struct Main { sum: u16 @checksum(internet, self, when(kind == 1))  kind: u8 }"
        #expect(try result(try walk(schema, [0, 0, 1]), "Main.sum")?.isCorrect == false)
        #expect(try result(try walk(schema, [0, 0, 2]), "Main.sum") == nil)
    }

    /// `on_request` checksums are verified only when selected: by their layer's name, or all.
    @Test func onRequestChecksumsNeedSelecting() throws {
        let schema = """
            @protocol("demo") struct Main { a: u8  sum: u16 @checksum(crc16_ccitt, a, on_request)  b: Plain }
            struct Plain { c: u8  sum: u16 @checksum(crc16_ccitt, c) }
            """
        let bytes: [UInt8] = [1, 0, 0, 2, 0, 0]
        func verified(_ selection: ChecksumSelection) throws -> [String] {
            let dissection = try walk(schema, bytes, checksums: selection)
            return dissection.checksums.map { dissection.path(of: $0.node) }
        }
        #expect(try verified(.default) == ["demo.b.sum"])
        #expect(try verified(.all) == ["demo.sum", "demo.b.sum"])
        #expect(try verified(.none) == [])
        #expect(try verified(ChecksumSelection(includesDefaults: false, names: ["demo"])) == ["demo.sum"])
        #expect(try verified(ChecksumSelection(names: ["demo"])) == ["demo.sum", "demo.b.sum"])
        #expect(try verified(ChecksumSelection(includesDefaults: false, names: ["Plain"])) == ["demo.b.sum"])
        #expect(try SchemaLoader.load(text: schema).checksumNames == ["Plain", "demo"])
    }

    /// Bytes the walk did not read are not what the checksum covers: a walk that stops inside the
    /// covered bytes leaves the checksum unverified; one that stops after them does not.
    @Test func aWalkStoppedInsideTheCoveredBytesLeavesItUnverified() throws {
        let inside = try walk("struct Main { sum: u16 @checksum(internet, self)  n: u8  data: bytes[n] }", [0, 0, 5, 1, 2])
        #expect(inside.error?.code == "premature_end")
        #expect(inside.checksums.isEmpty)
        let after = try walk("struct Main { a: u8  sum: u16 @checksum(crc16_xmodem, a)  n: u8  data: bytes[n] }",
                             [0x07, 0x70, 0xE7, 5, 1, 2])
        #expect(after.error?.code == "premature_end")
        #expect(after.checksums.map(\.isCorrect) == [true])
        // An absent field covered (or an absent checksum field) is not verified either.
        let absent = try walk("struct Main { f: u8  a: u8 if f == 1  sum: u16 @checksum(crc16_xmodem, a) }", [0, 0x70, 0xE7])
        #expect(absent.error == nil && absent.checksums.isEmpty)
    }

    /// A heuristic that does not claim its payload is forgotten with its checksum; the one that
    /// claims it is verified once.
    @Test func aHeuristicThatDoesNotClaimLeavesNoChecksum() throws {
        let schema = """
            table t: u8
            register t { heuristic First  heuristic Second }
            struct Main { k: u8  p: dispatch t(k) }
            struct First { a: u8  sum: u16 @checksum(crc16_xmodem, a)  tag: u8 == 1 }
            struct Second { a: u8  sum: u16 @checksum(crc16_xmodem, a)  tag: u8 == 2 }
            """
        let dissection = try walk(schema, [0, 0x07, 0x70, 0xE7, 2])
        #expect(dissection.error == nil)
        #expect(dissection.checksums.map { dissection.path(of: $0.node) } == ["Main.p.sum"])
        #expect(dissection.structType(of: try #require(dissection.node(at: "Main.p")))?.name == "Second")
        #expect(dissection.checksums.map(\.isCorrect) == [true])
    }

    /// `ip_pseudo(n)` prepends the pseudo-header of the nearest enclosing struct with `src` and
    /// `dst` addresses: 12 bytes for IPv4, 40 for IPv6, the length being what else is covered.
    @Test(arguments: [4, 16])
    func pseudoHeaderFromTheEnclosingAddresses(addressBytes: Int) throws {
        let address = addressBytes == 4 ? "ipv4" : "ipv6"
        let schema = """
            @protocol("net") struct Net { src: \(address)  dst: \(address)  next: Wrapper }
            struct Wrapper { pad: u8  segment: Segment }
            @protocol("seg") struct Segment { port: u16  sum: u16 @hex @checksum(internet, ip_pseudo(17), self)  data: bytes[..] }
            """
        let source = (0..<addressBytes).map { UInt8(0x10 + $0) }
        let destination = (0..<addressBytes).map { UInt8(0xA0 + $0) }
        let segment: [UInt8] = [0x12, 0x34, 0, 0, 0x61, 0x62, 0x63]
        let pseudo = addressBytes == 4
            ? source + destination + [0, 17, 0, UInt8(segment.count)]
            : source + destination + [0, 0, 0, UInt8(segment.count), 0, 0, 0, 17]
        // The reference, summed word by word here.
        let words = pseudo + segment + [0]
        var sum = 0
        for index in stride(from: 0, to: words.count - 1, by: 2) { sum += Int(words[index]) << 8 | Int(words[index + 1]) }
        while sum > 0xFFFF { sum = (sum & 0xFFFF) + (sum >> 16) }
        let expected = ~UInt16(sum)
        var bytes = source + destination + [0] + segment
        let good = try walk(schema, bytes, root: "Net")
        #expect(try result(good, "seg.sum") == ChecksumResult(node: try #require(good.node(at: "seg.sum")), isCorrect: false,
                                                               expected: UInt64(expected)))
        bytes[addressBytes * 2 + 3] = UInt8(expected >> 8)
        bytes[addressBytes * 2 + 4] = UInt8(expected & 0xFF)
        #expect(try result(try walk(schema, bytes, root: "Net"), "seg.sum")?.isCorrect == true)
        // Read on its own there are no addresses to take: not verified.
        #expect(try walk(schema, segment, root: "Segment").checksums.isEmpty)
    }
}

/// Every misuse of `@checksum` is a located checker error.
@Suite struct ChecksumDiagnosticTests {
    private func check(_ fields: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let found = diagnostics("struct Main { a: u8  b: u8\n\(fields) }")
        #expect(found.map { "\($0.kind) \($0.location.line):\($0.location.column) \($0.message)" } == [expected],
                sourceLocation: sourceLocation)
    }

    @Test func algorithmAndField() {
        let algorithms = "internet, crc32, crc32c, crc16_ccitt, crc16_xmodem, crc16_kermit, adler32"
        check("sum: u16 @checksum",
              "invalidValue 2:10 @checksum takes an algorithm (\(algorithms)), then what it covers, e.g. @checksum(crc32, type, data)")
        check("sum: u16 @checksum(\"crc32\", a)",
              "invalidValue 2:10 @checksum takes an algorithm (\(algorithms)), then what it covers, e.g. @checksum(crc32, type, data)")
        check("sum: u16 @checksum(md5, a)", "invalidValue 2:20 unknown checksum algorithm 'md5' (known: \(algorithms))")
        check("sum: u16 @checksum(crc32, a)", "typeMismatch 2:10 @checksum(crc32) needs a u32 field: 'sum' is u16")
        check("sum: i16 @checksum(internet, a)", "typeMismatch 2:10 @checksum(internet) needs a u16 field: 'sum' is i16")
        check("sum: bytes[4] @checksum(crc32c, a)", "typeMismatch 2:15 @checksum(crc32c) needs a u32 field: 'sum' is bytes")
        check("sum: u16[1] @checksum(internet, a)",
              "typeMismatch 2:13 @checksum(internet) needs a u16 field: 'sum' is an array of u16")
        check("sum: u16 @checksum(internet, a) @checksum(internet, b)",
              "duplicateName 2:33 a field holds one checksum: 'sum' already has a @checksum")
    }

    @Test func coveredPieces() {
        check("sum: u16 @checksum(internet, c)",
              "unknownField 2:30 @checksum: 'c' is not a field of 'Main' (fields: a, b, sum), nor self or on_request")
        check("sum: u16 @checksum(internet, a.b)",
              "invalidValue 2:31 @checksum covers self, fields of 'Main' (name, first...last) and ip_pseudo(protocol); 'a.b' is none of these")
        check("sum: u16 @checksum(internet, b...a)", "invalidValue 2:30 the span 'b...a' is empty: 'b' comes after 'a'")
        check("sum: u16 @checksum(internet, a...zz)",
              "unknownField 2:34 @checksum: 'zz' is not a field of 'Main' (fields: a, b, sum), nor self or on_request")
        check("sum: u16 @checksum(internet)",
              "invalidValue 2:10 @checksum(internet) covers nothing: name what it covers after the algorithm (self, fields, first...last)")
        check("sum: u16 @checksum(internet, on_request)",
              "invalidValue 2:10 @checksum(internet) covers nothing: name what it covers after the algorithm (self, fields, first...last)")
        check("sum: u16 @checksum(internet, self, \"a\")", "typeMismatch 2:36 @checksum takes names, spans and calls, not strings")
        // A span is @checksum's alone.
        check("sum: u16 @size(a...b)", "syntax 2:17 expected ',' or ')' in the arguments of '@size'")
    }

    @Test func options() {
        check("sum: u16 @checksum(internet, self, unless(a == 0))",
              "invalidValue 2:36 unknown @checksum option 'unless' with 1 argument (known: when(condition), ip_pseudo(protocol))")
        check("sum: u16 @checksum(internet, self, when(a))",
              "typeMismatch 2:41 a @checksum when() condition must be a bool, but this is integer")
        check("sum: u16 @checksum(internet, self, when(a == 1, b == 1))",
              "invalidValue 2:36 when() takes one bool expression: the checksum is verified only when it holds")
        check("sum: u16 @checksum(internet, self, when(a == 1), when(b == 1))", "invalidValue 2:50 @checksum has one when()")
        check("sum: u16 @checksum(internet, self, when(nothing == 1))",
              "unknownField 2:41 unknown field 'nothing' (fields defined so far: a, b, sum)")
    }

    @Test func pseudoHeader() {
        check("sum: u32 @checksum(crc32, ip_pseudo(6), self)",
              "invalidValue 2:27 ip_pseudo() belongs to the internet checksum, not crc32")
        check("sum: u16 @checksum(internet, ip_pseudo(300), self)",
              "invalidValue 2:40 protocol number 300 does not fit a byte (0...255)")
        check("sum: u16 @checksum(internet, ip_pseudo(), self)",
              "invalidValue 2:30 ip_pseudo() takes one constant: the upper-layer protocol number, e.g. ip_pseudo(6) for TCP")
        check("sum: u16 @checksum(internet, ip_pseudo(a), self)", "unknownField 2:40 unknown field 'a'")
        check("sum: u16 @checksum(internet, ip_pseudo(6), self)",
              "invalidValue 2:30 ip_pseudo() takes its addresses from an enclosing struct with 'src' and 'dst' fields of type ipv4 or ipv6, and no struct that can contain 'Main' has them")
        let twice = diagnostics("""
            struct IP { src: ipv4  dst: ipv4  next: Main }
            struct Main { sum: u16 @checksum(internet, ip_pseudo(6), ip_pseudo(6), self) }
            """)
        #expect(twice.map { "\($0.kind) \($0.location.line):\($0.location.column) \($0.message)" }
                == ["duplicateName 2:58 @checksum has one ip_pseudo()"])
    }
}
