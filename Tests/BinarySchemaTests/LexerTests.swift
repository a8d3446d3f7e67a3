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

    @Test func theLongestSymbolWinsAndNothingIsLostAtTheEnd() {
        #expect(kinds("a...b..c.d") == [.identifier("a"), .symbol("..."), .identifier("b"), .symbol(".."), .identifier("c"),
                                        .symbol("."), .identifier("d"), .endOfFile])
        #expect(kinds("<<=>>=") == [.symbol("<<"), .symbol("=>"), .symbol(">="), .endOfFile])
        #expect(kinds("x=") == [.identifier("x"), .symbol("="), .endOfFile])
        #expect(kinds("x.") == [.identifier("x"), .symbol("."), .endOfFile])
        #expect(kinds("..") == [.symbol(".."), .endOfFile])
    }
}
