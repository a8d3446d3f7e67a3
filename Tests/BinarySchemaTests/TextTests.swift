import BinarySchema
import Dissector
import Testing

/// Strings ended by terminators, in every encoding, invalid text kept and flagged, and byte
/// string literals compared with fields.
@Suite struct TextTests {
    private func text(_ dissection: Dissection, _ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String? {
        dissection.text(of: try #require(dissection.node(at: path), sourceLocation: sourceLocation))
    }

    // MARK: Terminators

    @Test func aTerminatorEndsTheTextAndBelongsToTheField() throws {
        let schema = """
            struct Main {
              method: string[until " "]
              name: string[until ":"]
              value: string[until "\\r\\n"]
              key: string[until 0x3D]
              rest: string[..]
            }
            """
        let result = try dissect(schema, Array("GET Host: example\r\nk=v".utf8))
        #expect(result.error == nil)
        #expect(try text(result, "Main.method") == "GET")
        #expect(try result.at("Main.method").byteLength == 4, "the space is part of the field")
        #expect(try text(result, "Main.name") == "Host")
        #expect(try text(result, "Main.value") == " example")
        #expect(try result.at("Main.value").byteLength == 10)
        #expect(try text(result, "Main.key") == "k")
        #expect(try text(result, "Main.rest") == "v")
        #expect(try result.display("Main.value") == "\" example\"", "views show the text, not the terminator")
    }

    @Test func lenCountsTheTextWithoutItsTerminator() throws {
        let schema = """
            struct Main {
              word: string[until "\\r\\n"]
              length: u8 @assert(length == len(word))
            }
            """
        #expect(try dissect(schema, Array("abc\r\n".utf8) + [3]).error == nil)
        #expect(try dissect(schema, Array("abc\r\n".utf8) + [5]).error?.kind == .constraintViolated(expression: "length == len(word)"))
    }

    @Test func anEmptyTextIsATerminatorAlone() throws {
        let result = try dissect("struct Main { a: string[until \"\\r\\n\"]  b: u8 }", [0x0D, 0x0A, 9])
        #expect(try text(result, "Main.a") == "")
        #expect(try result.at("Main.a").byteLength == 2)
        #expect(try result.int("Main.b") == 9)
    }

    @Test func aMissingTerminatorIsAnErrorSpanningTheBytesScanned() throws {
        let result = try dissect("struct Main { a: u8  line: string[until \"\\r\\n\"] }", [1] + Array("no end\r".utf8))
        let error = try #require(result.error)
        #expect(error.kind == .missingTerminator(terminator: [0x0D, 0x0A]))
        #expect(error.code == "missing_terminator")
        #expect(error.path == "Main.line" && error.offset == 1)
        #expect(error.description == #"premature end of data: Main.line has no terminator "\r\n" before the end of its scope, starting at offset 1"#)
        #expect(result.nodes[error.node].byteLength == 7, "the failing field covers what was scanned")
    }

    @Test func theSearchStopsAtTheEndOfTheScope() throws {
        // The ':' at offset 4 lies past the field's 3-byte size: it is not this field's terminator.
        let schema = "struct Main { key: string[until \":\"] @size(3)  rest: bytes[..] }"
        let result = try dissect(schema, Array("abcd:".utf8))
        #expect(result.error?.kind == .missingTerminator(terminator: [0x3A]))
        #expect(result.error?.path == "Main.key")
        let inside = try dissect(schema, Array("ab:d:".utf8))
        #expect(inside.error == nil)
        #expect(try text(inside, "Main.key") == "ab")
        #expect(try inside.at("Main.key").byteLength == 3)
    }

    @Test func linesUntilAnEmptyOneReadEachByteOnce() throws {
        // Ten thousand lines of a 200 KB buffer: each terminator search starts where the last ended.
        let schema = """
            struct Main { lines: Line[until len(it.text) == 0] }
            struct Line { text: string[until "\\r\\n"] }
            """
        let body = Array(repeating: Array("abcdefghijklmnopq\r\n".utf8), count: 10_000).joined()
        let result = try dissect(schema, Array(body) + [0x0D, 0x0A])
        #expect(result.error == nil)
        #expect(result.nodes.count == 1 + 1 + 10_001 * 2)
    }

    @Test func theTextFlagsFitInANodesPadding() {
        // Every field read is one node: the encoding and the invalid flag must not grow it past a cache line.
        #expect(MemoryLayout<FieldNode>.stride == 64)
    }

    @Test func aCStringIsAStringUntilANul() throws {
        let result = try dissect("struct Main { a: cstring  b: string[until 0] }", [0x61, 0, 0x62, 0])
        #expect(try text(result, "Main.a") == "a" && text(result, "Main.b") == "b")
        #expect(try result.at("Main.b").byteLength == 2)
    }

    // MARK: Encodings

    @Test func asciiTakesSevenBitsAndLatin1EveryByte() throws {
        let schema = """
            struct Main {
              a: string[4] @encoding("ascii")
              l: string[4] @encoding("latin1")
              after: u8
            }
            """
        let result = try dissect(schema, [0x63, 0x61, 0x66, 0xE9, 0x63, 0x61, 0x66, 0xE9, 1])
        #expect(result.error == nil, "invalid text does not stop the walk")
        #expect(try result.at("Main.a").isInvalidText)
        #expect(try text(result, "Main.a") == "caf\\xe9")
        #expect(try result.display("Main.a") == #""caf\xe9" [invalid ASCII]"#)
        #expect(try !result.at("Main.l").isInvalidText)
        #expect(try text(result, "Main.l") == "café")
        #expect(try result.display("Main.l") == "\"café\"")
        #expect(try result.at("Main.l").textEncoding == .latin1)
        #expect(try result.int("Main.after") == 1)
    }

    @Test func utf16TakesSurrogatePairsInEitherByteOrder() throws {
        // "hé😀", as Windows formats store names: a length in code units, then UTF-16LE.
        let schema = """
            struct Main {
              units: u16le
              name: string[units * 2] @encoding("utf-16le")
              big: string[..] @encoding("utf-16be")
            }
            """
        let little: [UInt8] = [0x68, 0x00, 0xE9, 0x00, 0x3D, 0xD8, 0x00, 0xDE]
        let big: [UInt8] = [0x00, 0x68, 0x00, 0xE9, 0xD8, 0x3D, 0xDE, 0x00]
        let result = try dissect(schema, [4, 0] + little + big)
        #expect(result.error == nil)
        #expect(try text(result, "Main.name") == "hé😀")
        #expect(try text(result, "Main.big") == "hé😀")
        #expect(try result.display("Main.name") == "\"hé😀\"")
        #expect(try !result.at("Main.name").isInvalidText && !result.at("Main.big").isInvalidText)
    }

    @Test func aLoneSurrogateOrAnOddByteIsInvalidUTF16() throws {
        let schema = "struct Main { a: string[4] @encoding(\"utf-16le\")  b: string[..] @encoding(\"utf-16le\") }"
        // a: "A" then a low surrogate with no high one; b: "B" and one byte left over.
        let result = try dissect(schema, [0x41, 0x00, 0x00, 0xDC, 0x42, 0x00, 0x43])
        #expect(result.error == nil)
        #expect(try result.at("Main.a").isInvalidText && result.at("Main.b").isInvalidText)
        #expect(try text(result, "Main.a") == "A\\x00\\xdc")
        #expect(try result.display("Main.b") == #""B\x43" [invalid UTF-16LE]"#)
    }

    @Test func aUTF16TerminatorIsACodeUnitAtACodeUnitBoundary() throws {
        // "AĀ" then NUL in UTF-16LE: 41 00 | 00 01 | 00 00. The 00 00 at offset 1 straddles two code units.
        let schema = """
            struct Main {
              name: cstring @encoding("utf-16le")
              line: string[until "\\r\\0\\n\\0"] @encoding("utf-16le")
              colon: string[until 0x3A] @encoding("utf-16be")
            }
            """
        let bytes: [UInt8] = [0x41, 0x00, 0x00, 0x01, 0x00, 0x00] + [0x78, 0x00, 0x0D, 0x00, 0x0A, 0x00] + [0x00, 0x79, 0x00, 0x3A]
        let result = try dissect(schema, bytes)
        #expect(result.error == nil)
        #expect(try text(result, "Main.name") == "AĀ")
        #expect(try result.at("Main.name").byteLength == 6)
        #expect(try text(result, "Main.line") == "x")
        #expect(try text(result, "Main.colon") == "y")
    }

    @Test func aU8ArrayWithTextIsAString() throws {
        let schema = """
            struct Main {
              code: u8[3] @text
              label: u8[..] @encoding("latin1")
            }
            """
        let result = try dissect(schema, Array("GET".utf8) + [0x6E, 0xE9])
        #expect(try result.at("Main.code").kind == .string)
        #expect(try result.display("Main.code") == "\"GET\"")
        #expect(try text(result, "Main.label") == "né")
    }

    // MARK: Literals

    @Test func aByteStringLiteralComparesWithBytes() throws {
        let schema = """
            struct Main {
              signature: bytes[8] == "\\x89PNG\\r\\n\\x1a\\n"
              kind: bytes[4] @assert(kind == x"49 48 44 52" || kind != "IEND")
            }
            """
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        #expect(try dissect(schema, png + Array("IHDR".utf8)).error == nil)
        let wrong = try dissect(schema, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x00] + Array("IHDR".utf8))
        #expect(wrong.error?.kind == .constraintViolated(expression: #"signature == "\x89PNG\r\n\x1a\n""#))
        #expect(try dissect(schema, png + Array("IEND".utf8)).error?.path == "Main.kind")
    }

    @Test func aStringComparesItsTextWithoutTheTerminator() throws {
        let simple = """
            struct Main {
              method: string[until " "]
              body: switch {
                method == "GET" => u8
                method != "POST" => u16
                _ => bytes[..]
              }
            }
            """
        #expect(try dissect(simple, Array("GET ".utf8) + [1]).at("Main.body").byteLength == 1)
        #expect(try dissect(simple, Array("PUT ".utf8) + [1, 2]).at("Main.body").byteLength == 2)
        #expect(try dissect(simple, Array("POST ".utf8) + [1, 2, 3]).at("Main.body").byteLength == 3)
    }

    @Test func literalsReachNestedAndEnclosingFields() throws {
        let schema = """
            struct Main {
              head: Head
              kind: u8 if head.tag == "AB"
              inner: Inner
            }
            struct Head { tag: string[2] }
            struct Inner { x: u8 @assert(parent.head.tag != "ZZ") }
            """
        let result = try dissect(schema, Array("AB".utf8) + [7, 8])
        #expect(result.error == nil)
        #expect(try result.int("Main.kind") == 7)
        #expect(try dissect(schema, Array("ZZ".utf8) + [8]).error?.path == "Main.inner.x")
    }

    @Test func anInvalidStringStillComparesByItsBytes() throws {
        let schema = "struct Main { a: string[2] == \"\\xff\\xfe\" @encoding(\"ascii\") }"
        let result = try dissect(schema, [0xFF, 0xFE])
        #expect(result.error == nil)
        #expect(try result.at("Main.a").isInvalidText)
    }
}
