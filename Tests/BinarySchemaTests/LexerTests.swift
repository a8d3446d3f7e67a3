@testable import BinarySchema
import Testing

@Suite struct LexerTests {
    func kinds(_ text: String) -> [Token.Kind] {
        var lexer = Lexer(source: SourceFile(path: "test.schema", text: text))
        return lexer.tokenize().map(\.kind)
    }

    @Test(arguments: Lexer.symbols)
    func everySymbolLexesAsItselfAloneAndBetweenWords(symbol: String) {
        #expect(kinds(symbol) == [.symbol(symbol), .endOfFile])
        #expect(kinds("a \(symbol) b") == [.identifier("a"), .symbol(symbol), .identifier("b"), .endOfFile])
    }

    /// The parser tells operators by their bytes; every symbol the lexer makes is the operator
    /// its text names, or none.
    @Test(arguments: Lexer.symbols)
    func aSymbolIsTheBinaryOperatorItSpells(symbol: String) {
        #expect(BinaryOperator(symbol: symbol) == BinaryOperator(rawValue: symbol))
        #expect(BinaryOperator(symbol: symbol + symbol) == BinaryOperator(rawValue: symbol + symbol))
    }

    @Test func everyBinaryOperatorIsALexerSymbol() {
        for op in BinaryOperator.allCases {
            #expect(Lexer.symbols.contains(op.rawValue), "\(op)")
            #expect(BinaryOperator(symbol: op.rawValue) == op)
        }
        #expect(BinaryOperator(symbol: "") == nil)
        #expect(BinaryOperator(symbol: "<<=") == nil)
    }

    @Test func theLongestSymbolWinsAndNothingIsLostAtTheEnd() {
        #expect(kinds("a...b..c.d") == [.identifier("a"), .symbol("..."), .identifier("b"), .symbol(".."), .identifier("c"),
                                        .symbol("."), .identifier("d"), .endOfFile])
        #expect(kinds("<<=>>=") == [.symbol("<<"), .symbol("=>"), .symbol(">="), .endOfFile])
        #expect(kinds("x=") == [.identifier("x"), .symbol("="), .endOfFile])
        #expect(kinds("x.") == [.identifier("x"), .symbol("."), .endOfFile])
        #expect(kinds("..") == [.symbol(".."), .endOfFile])
    }

    @Test func stringLiteralsTakeByteEscapesAndStayTextWhenTheyAreUTF8() {
        #expect(kinds(#""a\r\n\t\0\x41\"\\""#) == [.string("a\r\n\t\0A\"\\"), .endOfFile])
        #expect(kinds(#""\x89PNG""#) == [.byteString([0x89, 0x50, 0x4E, 0x47]), .endOfFile])
        #expect(kinds(#"x"89 50_4e47" x"""#) == [.byteString([0x89, 0x50, 0x4E, 0x47]), .byteString([]), .endOfFile])
        #expect(kinds("x \"a\"") == [.identifier("x"), .string("a"), .endOfFile], "a name, then a string")
    }

    @Test func malformedLiteralsAreReportedWhereTheyStart() {
        var lexer = Lexer(source: SourceFile(path: "test.schema", text: #"a "\xZ1" x"123" x"1g2""#))
        _ = lexer.tokenize()
        #expect(lexer.diagnostics.map { "\($0.location.column) \($0.message)" } == [
            #"4 '\x' takes two hex digits, as in \x1b"#,
            "10 a byte string needs two hex digits per byte",
            "20 invalid hex digit 'g' in a byte string",
        ])
    }
}
