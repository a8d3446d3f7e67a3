@testable import BinarySchema
import Testing

/// The loader's text handling done a byte at a time for speed (field names to Swift names, builtin
/// type names, summary formats) gives what the character-by-character reading gave.
@Suite struct LoaderTextTests {
    @Test(arguments: [
        ("total_length", "totalLength"), ("src", "src"), ("_private_key", "_privateKey"), ("__x", "__x"),
        ("a__b", "aB"), ("trailing_", "trailing"), ("ipv6_2_addr", "ipv62Addr"), ("already_Upper", "alreadyUpper"),
        ("___", "___"), ("été_été", "étéÉté"),
    ])
    func fieldNamesBecomeCamelCase(name: String, expected: String) {
        #expect(Field.camelCase(name) == expected)
    }

    @Test func builtinTypeNamesParse() {
        func parsed(_ name: String) -> String {
            BuiltinType.parse(name).map { "\($0)" } ?? "nil"
        }
        #expect(parsed("u8") == "integer(bits: 8, signed: false, endianness: nil)")
        #expect(parsed("i32le") == "integer(bits: 32, signed: true, endianness: Optional(BinaryIO.Endianness.little))")
        #expect(parsed("u16be") == "integer(bits: 16, signed: false, endianness: Optional(BinaryIO.Endianness.big))")
        #expect(parsed("u007") == "integer(bits: 7, signed: false, endianness: nil)")
        #expect(parsed("f64le") == "float(bits: 64, endianness: Optional(BinaryIO.Endianness.little))")
        #expect(parsed("ipv4") == "address(bytes: 4, display: BinarySchema.DisplayHint.ipv4)")
        for invalid in ["u0", "u65", "u12le", "u8be", "f16"] {
            #expect(parsed(invalid).hasPrefix("invalid("), "\(invalid)")
        }
        for other in ["u", "ule", "u1234", "x8", "u٣", "uint", "Mystery", "", "i"] {
            #expect(parsed(other) == "nil", "\(other)")
        }
    }

    /// Summary tokens' offsets count characters: a two-byte character in front of a format moves
    /// every offset by one.
    @Test func summaryTokenOffsetsCountCharacters() {
        func describe(_ tokens: [SummarySegment.Token]) -> [String] {
            tokens.map { token in
                switch token {
                case .literal(let text): return "L\(text)"
                case .placeholder(let text, let offset): return "P\(text)@\(offset)"
                case .unterminatedPlaceholder(let offset): return "U@\(offset)"
                case .groupOpen(let offset): return "O@\(offset)"
                case .groupClose(let offset): return "C@\(offset)"
                }
            }
        }
        for format in ["{src} > {dst}{?{flags.mf?} frag {identification}:{fragment_offset}+}", "a {b", "{?x}}{y}", "{}{?}", ""] {
            let ascii = describe(SummarySegment.tokens(format))
            // "·" is one character but two bytes: offsets after it count characters.
            let wide = describe(SummarySegment.tokens("·" + format)).map { token in
                token.replacingOccurrences(of: "L·", with: "L").replacing(/@(\d+)/) { "@\(Int($0.1)! - 1)" }
            }.filter { $0 != "L" }
            #expect(ascii == wide, "\(format)")
        }
        #expect(describe(SummarySegment.tokens("ab{c}")) == ["Lab", "Pc@2"])
    }
}
