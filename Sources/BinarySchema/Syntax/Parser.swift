import BinaryIO

/// Recursive-descent parser for one schema file. On a syntax error it records a
/// diagnostic, skips to the next field or declaration and goes on, so one run
/// reports every syntax error of the file.
struct Parser {
    private struct Failure: Error {}

    private let source: SourceFile
    private var tokens: [Token]
    private var position = 0
    private(set) var diagnostics: [Diagnostic] = []
    /// Nesting of expressions and types, bounded so hostile schema text cannot exhaust the stack.
    private var depth = 0
    private static let depthLimit = 128
    /// Warnings: expressions that C would read otherwise.
    private(set) var warnings: [Diagnostic] = []
    /// Binary expressions written in parentheses, by their operator's line and column.
    private var parenthesized: Set<Int> = []
    /// The binary operator each token is, or nil.
    private let binaryOperators: [BinaryOperator?]

    private static func key(_ location: SchemaLocation) -> Int { location.line << 20 | location.column }

    init(source: SourceFile) {
        self.source = source
        var lexer = Lexer(source: source)
        self.tokens = lexer.tokenize()
        self.diagnostics = lexer.diagnostics
        // Each token's binary operator, found once: every operand asks at each precedence level.
        self.binaryOperators = tokens.map { token in
            if case .symbol(let symbol) = token.kind { return BinaryOperator(symbol: symbol) }
            return nil
        }
    }

    mutating func parseFile() -> FileSyntax {
        var file = FileSyntax(source: source)
        while !current.isEOF {
            let before = position
            do {
                try parseTopLevel(into: &file)
            } catch {
                recoverToDeclaration()
            }
            if position == before { advance() }
        }
        return file
    }

    // MARK: - Declarations

    private mutating func parseTopLevel(into file: inout FileSyntax) throws(Failure) {
        let token = current
        if token.isKeyword("import") {
            advance()
            guard case .string(let path) = current.kind else { throw fail("expected a quoted file name after 'import'") }
            file.imports.append(ImportSyntax(path: path, location: location(of: token)))
            advance()
            return
        }
        if token.isKeyword("endian") {
            advance()
            let word = try expectIdentifier("'big' or 'little'")
            switch word {
            case "big": file.endian = (.big, location(of: token))
            case "little": file.endian = (.little, location(of: token))
            default: throw fail("expected 'big' or 'little' after 'endian'", at: previous)
            }
            return
        }
        if token.isKeyword("bit_order") {
            advance()
            let word = try expectIdentifier("'msb' or 'lsb'")
            switch word {
            case "msb": file.bitOrder = (.msbFirst, location(of: token))
            case "lsb": file.bitOrder = (.lsbFirst, location(of: token))
            default: throw fail("expected 'msb' or 'lsb' after 'bit_order'", at: previous)
            }
            return
        }
        if token.isKeyword("typealias") {
            advance()
            let nameToken = current
            let name = try expectIdentifier("a type alias name")
            try expectSymbol("=")
            file.aliases.append(AliasSyntax(name: name, type: try parseType(), location: location(of: nameToken)))
            return
        }
        if token.isKeyword("table") {
            advance()
            let name = try parseTableName()
            try expectSymbol(":")
            file.tables.append(TableSyntax(name: name, keyType: try parseType(), location: location(of: token)))
            return
        }
        if token.isKeyword("register") {
            advance()
            file.registrations.append(try parseRegistration())
            return
        }
        let attributes = try parseAttributes()
        if current.isKeyword("struct") {
            advance()
            file.structs.append(try parseStruct(attributes: attributes))
        } else if current.isKeyword("enum") {
            advance()
            file.enums.append(try parseEnum(attributes: attributes))
        } else {
            throw fail("expected 'struct', 'enum', 'typealias', 'table', 'register', 'import', 'endian' or 'bit_order', found \(current.describedForError)")
        }
    }

    /// A table name: identifiers joined by dots, as Wireshark names its tables (`udp.port`, `ethertype`).
    private mutating func parseTableName() throws(Failure) -> String {
        var name = try expectIdentifier("a table name such as udp.port")
        // Written without spaces: in `register ethertype .arp => ARP` the `.arp` is a key.
        while current.isSymbol("."), current.offset == previous.offset + (previous.identifier?.utf8.count ?? 0),
              position + 1 < tokens.count, tokens[position + 1].offset == current.offset + 1 {
            advance()
            name += "." + (try expectIdentifier("a table name after '.'"))
        }
        return name
    }

    /// `register TABLE { entries }` or `register TABLE entry`.
    private mutating func parseRegistration() throws(Failure) -> RegistrationSyntax {
        let tableToken = current
        let table = try parseTableName()
        var entries: [RegistrationSyntax.Entry] = []
        if current.isSymbol("{") {
            advance()
            while !current.isSymbol("}") {
                if current.isEOF { throw fail("expected '}' to close the registrations on '\(table)'") }
                entries.append(try parseRegistrationEntry())
                if current.isSymbol(",") || current.isSymbol(";") { advance() }
            }
            advance()
        } else {
            entries.append(try parseRegistrationEntry())
        }
        return RegistrationSyntax(table: table, tableLocation: location(of: tableToken), entries: entries)
    }

    /// `[override] KEY[...KEY], ... => Struct` or `[override] heuristic Struct`.
    private mutating func parseRegistrationEntry() throws(Failure) -> RegistrationSyntax.Entry {
        let start = current
        var isOverride = false
        if current.isKeyword("override") {
            isOverride = true
            advance()
        }
        if current.isKeyword("heuristic") {
            advance()
            let targetToken = current
            let target = try expectIdentifier("the struct to try")
            return .init(keys: [], isHeuristic: true, isOverride: isOverride, target: target,
                         targetLocation: location(of: targetToken), location: location(of: start))
        }
        var keys: [RegistrationSyntax.Key] = []
        repeat {
            if current.isSymbol(",") { advance() }
            let low = try parseExpression()
            var high: ExpressionSyntax?
            if current.isSymbol("...") {
                advance()
                high = try parseExpression()
            }
            keys.append(.init(low: low, high: high))
        } while current.isSymbol(",")
        try expectSymbol("=>")
        let targetToken = current
        let target = try expectIdentifier("the struct the keys select")
        return .init(keys: keys, isHeuristic: false, isOverride: isOverride, target: target,
                     targetLocation: location(of: targetToken), location: location(of: start))
    }

    private mutating func parseStruct(attributes: [AttributeSyntax]) throws(Failure) -> StructSyntax {
        let nameToken = current
        let name = try expectIdentifier("a struct name")
        var parameters: [StructSyntax.Parameter] = []
        if current.isSymbol("(") {
            advance()
            while !current.isSymbol(")") {
                let parameterToken = current
                let parameterName = try expectIdentifier("a parameter name")
                try expectSymbol(":")
                parameters.append(.init(name: parameterName, type: try parseType(), location: location(of: parameterToken)))
                if current.isSymbol(",") { advance() } else if !current.isSymbol(")") {
                    throw fail("expected ',' or ')' in the parameters of '\(name)'")
                }
            }
            advance()
        }
        try expectSymbol("{")
        var fields: [FieldSyntax] = []
        while !current.isSymbol("}") {
            if current.isEOF { throw fail("expected '}' to close struct '\(name)'") }
            let before = position
            do {
                fields.append(try parseField())
            } catch {
                recoverToField()
            }
            if position == before { advance() }
        }
        advance()
        return StructSyntax(name: name, location: location(of: nameToken), attributes: attributes, fields: fields,
                            parameters: parameters)
    }

    private mutating func parseEnum(attributes: [AttributeSyntax]) throws(Failure) -> EnumSyntax {
        let nameToken = current
        let name = try expectIdentifier("an enum name")
        try expectSymbol(":")
        let base = try parseType()
        try expectSymbol("{")
        var cases: [EnumSyntax.Case] = []
        while !current.isSymbol("}") {
            if current.isEOF { throw fail("expected '}' to close enum '\(name)'") }
            let caseToken = current
            let caseName = try expectIdentifier("an enum case name")
            try expectSymbol("=")
            let value = try parseExpression()
            cases.append(.init(name: caseName, value: value, location: location(of: caseToken)))
            if current.isSymbol(",") || current.isSymbol(";") { advance() }
        }
        advance()
        return EnumSyntax(name: name, location: location(of: nameToken), baseType: base, cases: cases, attributes: attributes)
    }

    private mutating func parseField() throws(Failure) -> FieldSyntax {
        // `hidden let name = ...`: the schema's own working value, which no view shows unless asked.
        var isHidden = false
        if current.isKeyword("hidden"), position + 1 < tokens.count, tokens[position + 1].isKeyword("let") {
            isHidden = true
            advance()
        } else if current.isKeyword("hidden"), position + 1 < tokens.count, tokens[position + 1].isKeyword("lazy") {
            throw fail("a lazy field cannot be hidden: it is read when something needs it, and shown")
        } else if current.isKeyword("hidden"), position + 2 < tokens.count, tokens[position + 1].identifier != nil,
                  tokens[position + 2].isSymbol(":") {
            // `hidden name: T @at(offset)`: a second look at bytes other fields show (the checker
            // refuses it without @at).
            isHidden = true
            advance()
        }
        // `lazy name: T @at(offset)`: a field read when something first needs it.
        var isLazy = false
        if current.isKeyword("lazy"), position + 1 < tokens.count, tokens[position + 1].isKeyword("let") {
            throw fail("a computed value is computed where it stands; 'lazy' applies to a field read at an offset ('lazy name: Type @at(offset)')")
        }
        if current.isKeyword("lazy"), position + 2 < tokens.count, tokens[position + 1].identifier != nil,
           tokens[position + 2].isSymbol(":") {
            isLazy = true
            advance()
        }
        if current.isKeyword("let"), position + 1 < tokens.count, tokens[position + 1].identifier != nil {
            let letToken = current
            advance()
            let nameToken = current
            let name = try expectIdentifier("the computed value's name")
            // `let kind: Family = …`: the value as an enum's.
            var typeName: TypeSyntax = .named("let", location(of: letToken))
            if current.isSymbol(":") {
                advance()
                let typeToken = current
                typeName = .named(try expectIdentifier("the computed value's enum type"), location(of: typeToken))
            }
            try expectSymbol("=")
            let value = try parseExpression()
            // `let v2 = procedure if version == 2`: absent when the condition fails, as a field is.
            var condition: ExpressionSyntax?
            if current.isKeyword("if"), position + 1 < tokens.count, !tokens[position + 1].isSymbol(":") {
                advance()
                condition = try parseExpression()
            }
            let attributes = try parseAttributes()
            if condition == nil, !attributes.isEmpty, current.isKeyword("if"), position + 1 < tokens.count,
               !tokens[position + 1].isSymbol(":") {
                throw fail("the condition comes before the attributes: write 'let \(name) = value if condition @attribute'")
            }
            if current.isSymbol(",") || current.isSymbol(";") { advance() }
            return FieldSyntax(name: name, location: location(of: nameToken), type: typeName,
                               expectedValue: nil, condition: condition, attributes: attributes, value: value, isHidden: isHidden)
        }
        let nameToken = current
        let name = try expectIdentifier("a field name")
        try expectSymbol(":")
        let type = try parseType()
        var expected: ExpressionSyntax?
        if current.isSymbol("==") {
            advance()
            expected = try parseExpression()
        }
        var condition: ExpressionSyntax?
        if current.isKeyword("if") {
            advance()
            condition = try parseExpression()
        }
        let attributes = try parseAttributes()
        // `name: Type @size(n) if c`: C and Kaitai put conditions anywhere; here the condition
        // comes first, and the message says so rather than reading `if` as the next field.
        if condition == nil, !attributes.isEmpty, current.isKeyword("if"), position + 1 < tokens.count,
           !tokens[position + 1].isSymbol(":") {
            throw fail("the condition comes before the attributes: write '\(name): Type if condition @attribute'")
        }
        if !attributes.isEmpty, current.isSymbol("==") {
            throw fail("the expected value comes before the attributes: write '\(name): Type == value @attribute'")
        }
        if current.isSymbol(",") || current.isSymbol(";") { advance() }
        var field = FieldSyntax(name: name, location: location(of: nameToken), type: type, expectedValue: expected,
                                condition: condition, attributes: attributes)
        field.isLazy = isLazy
        field.isHidden = isHidden
        return field
    }

    private mutating func parseAttributes() throws(Failure) -> [AttributeSyntax] {
        var attributes: [AttributeSyntax] = []
        while current.isSymbol("@") {
            let at = current
            advance()
            let name = try expectIdentifier("an attribute name after '@'")
            var arguments: [AttributeSyntax.Argument] = []
            if current.isSymbol("("), current.line == previous.line {
                advance()
                while !current.isSymbol(")") {
                    // A string alone is an argument (`@protocol("ip")`); one that starts an expression is
                    // a literal in it (`@assert("GET" == method)`).
                    if let label = current.identifier, position + 1 < tokens.count, tokens[position + 1].isSymbol(":") {
                        // `length: expression`: no expression starts with a name and a colon.
                        let labelLocation = location(of: current)
                        advance()
                        advance()
                        arguments.append(.labeled(label, try parseExpression(), labelLocation))
                    } else if case .string(let text) = current.kind, position + 1 < tokens.count,
                       tokens[position + 1].isSymbol(",") || tokens[position + 1].isSymbol(")") {
                        arguments.append(.string(text, location(of: current)))
                        advance()
                    } else {
                        let expression = try parseExpression()
                        // `first...last`: a span of fields, which only @checksum covers.
                        if name == "checksum", current.isSymbol("...") {
                            advance()
                            arguments.append(.span(expression, try parseExpression()))
                        } else {
                            arguments.append(.expression(expression))
                        }
                    }
                    if current.isSymbol(",") { advance() } else if !current.isSymbol(")") {
                        throw fail("expected ',' or ')' in the arguments of '@\(name)'")
                    }
                }
                advance()
            }
            attributes.append(AttributeSyntax(name: name, arguments: arguments, location: location(of: at)))
        }
        return attributes
    }

    // MARK: - Types

    private mutating func parseType() throws(Failure) -> TypeSyntax {
        try enterNesting()
        defer { depth -= 1 }
        let start = current
        if start.isKeyword("switch") {
            advance()
            return try parseSwitch(location: location(of: start))
        }
        if start.isKeyword("dispatch"), position + 1 < tokens.count, tokens[position + 1].identifier != nil {
            advance()
            let table = try parseTableName()
            try expectSymbol("(")
            return .dispatch(table, try parseArgumentList(of: "the keys of 'dispatch \(table)'"), location(of: start))
        }
        let name = try expectIdentifier("a type")
        var type = TypeSyntax.named(name, location(of: start))
        if current.isSymbol("("), current.line == previous.line {
            advance()
            type = .instance(name, try parseArgumentList(of: "the arguments of '\(name)'"), location(of: start))
        }
        while current.isSymbol("[") {
            let bracket = current
            advance()
            let extent: TypeSyntax.Extent
            if current.isSymbol("..") {
                extent = .rest(location(of: current))
                advance()
            } else if current.isKeyword("until") {
                advance()
                extent = .until(try parseExpression())
            } else {
                extent = .expression(try parseExpression())
            }
            try expectSymbol("]")
            type = .subscripted(type, extent, location(of: bracket))
        }
        return type
    }

    private mutating func parseSwitch(location switchLocation: SchemaLocation) throws(Failure) -> TypeSyntax {
        var subject: ExpressionSyntax?
        if !current.isSymbol("{") { subject = try parseExpression() }
        try expectSymbol("{")
        var cases: [TypeSyntax.SwitchCase] = []
        while !current.isSymbol("}") {
            if current.isEOF { throw fail("expected '}' to close the switch") }
            let caseToken = current
            var patterns: [ExpressionSyntax] = []
            if current.isSymbol("_") {
                advance()
            } else {
                patterns.append(try parseExpression())
                while current.isSymbol(",") {
                    advance()
                    patterns.append(try parseExpression())
                }
            }
            try expectSymbol("=>")
            let type = try parseType()
            let attributes = try parseAttributes()
            cases.append(.init(patterns: patterns, type: type, location: location(of: caseToken), attributes: attributes))
            if current.isSymbol(",") || current.isSymbol(";") { advance() }
        }
        advance()
        return .switchOn(subject, cases, switchLocation)
    }

    // MARK: - Expressions (Swift precedence: shifts > multiplicative and & > additive, | and ^ > comparison)

    private mutating func parseExpression() throws(Failure) -> ExpressionSyntax {
        try enterNesting()
        defer { depth -= 1 }
        let condition = try parseBinary(level: 0)
        if current.isSymbol("?") {
            let question = current
            advance()
            let whenTrue = try parseExpression()
            try expectSymbol(":")
            let whenFalse = try parseExpression()
            return .conditional(condition, whenTrue, whenFalse, location(of: question))
        }
        return condition
    }

    private static let levels = (BinaryOperator.allCases.map(\.precedence).max() ?? 0) + 1

    private mutating func parseBinary(level: Int) throws(Failure) -> ExpressionSyntax {
        guard level < Self.levels else { return try parseUnary() }
        var left = try parseBinary(level: level + 1)
        while let op = binaryOperators[min(position, binaryOperators.count - 1)], op.precedence == level {
            let operatorToken = current
            advance()
            let right = try parseBinary(level: level + 1)
            left = .binary(op, left, right, location(of: operatorToken))
            warnIfReadDifferentlyInC(left)
            // Comparisons do not chain: `a < b < c` is a mistake, not a range test.
            if op.isComparison { break }
        }
        return left
    }

    /// `a - 1 & mask` is `a - (1 & mask)` here, as in Swift, but `(a - 1) & mask` in C: a bitwise
    /// operator and an arithmetic one meeting without parentheses get a warning.
    private mutating func warnIfReadDifferentlyInC(_ expression: ExpressionSyntax) {
        guard case .binary(let op, let left, let right, let location) = expression else { return }
        for operand in [left, right] {
            guard case .binary(let inner, _, _, let innerLocation) = operand,
                  (op.isBitwise && inner.isArithmetic) || (op.isArithmetic && inner.isBitwise),
                  !parenthesized.contains(Self.key(innerLocation)) else { continue }
            let tight = op.precedence > inner.precedence ? op : inner
            warnings.append(Diagnostic(
                kind: .precedence,
                message: "'\(tight.rawValue)' binds tighter than '\(tight == op ? inner.rawValue : op.rawValue)' here, as in Swift, "
                    + "but not in C: add parentheses to say which is meant",
                location: location, sourceLine: source.lineText(location.line), severity: .warning))
        }
    }

    private mutating func parseUnary() throws(Failure) -> ExpressionSyntax {
        if case .symbol(let symbol) = current.kind, let op = UnaryOperator(rawValue: symbol) {
            let operatorToken = current
            advance()
            try enterNesting()
            defer { depth -= 1 }
            return .unary(op, try parseUnary(), location(of: operatorToken))
        }
        return try parsePostfix()
    }

    private mutating func parsePostfix() throws(Failure) -> ExpressionSyntax {
        var expression = try parsePrimary()
        while current.isSymbol(".") || current.isSymbol("[") {
            let token = current
            advance()
            if token.isSymbol("[") {
                let index = try parseExpression()
                try expectSymbol("]")
                expression = .index(expression, index, location(of: token))
                continue
            }
            let member = try expectIdentifier("a field name after '.'")
            expression = .member(expression, member, location(of: token))
        }
        return expression
    }

    private mutating func parsePrimary() throws(Failure) -> ExpressionSyntax {
        let token = current
        switch token.kind {
        case .integer(let value):
            advance()
            return .integer(value, location(of: token))
        case .string(let text):
            advance()
            return .bytes(Array(text.utf8), location(of: token))
        case .byteString(let bytes):
            advance()
            return .bytes(bytes, location(of: token))
        case .identifier(let name):
            advance()
            if name == "true" { return .boolean(true, location(of: token)) }
            if name == "false" { return .boolean(false, location(of: token)) }
            if current.isSymbol("(") {
                advance()
                return .call(name, try parseArgumentList(of: "the arguments of '\(name)'"), location(of: token))
            }
            return .name(name, location(of: token))
        case .symbol("."):
            advance()
            let name = try expectIdentifier("an enum case name after '.'")
            return .enumCase(name, location(of: token))
        case .symbol("("):
            advance()
            let inner = try parseExpression()
            try expectSymbol(")")
            if case .binary(let op, _, _, let location) = inner, op.isBitwise || op.isArithmetic {
                parenthesized.insert(Self.key(location))
            }
            return inner
        default:
            throw fail("expected an expression, found \(token.describedForError)")
        }
    }

    /// Expressions separated by commas up to the `)` (the `(` already read), which it consumes.
    private mutating func parseArgumentList(of what: String) throws(Failure) -> [ExpressionSyntax] {
        var arguments: [ExpressionSyntax] = []
        while !current.isSymbol(")") {
            arguments.append(try parseExpression())
            if current.isSymbol(",") { advance() } else if !current.isSymbol(")") {
                throw fail("expected ',' or ')' in \(what)")
            }
        }
        advance()
        return arguments
    }

    // MARK: - Token handling

    private var current: Token { tokens[min(position, tokens.count - 1)] }
    private var previous: Token { tokens[max(0, min(position - 1, tokens.count - 1))] }

    private mutating func advance() {
        if position < tokens.count - 1 { position += 1 }
    }

    private mutating func enterNesting() throws(Failure) {
        depth += 1
        if depth > Self.depthLimit {
            throw fail("nesting deeper than \(Self.depthLimit) levels")
        }
    }

    private mutating func expectIdentifier(_ what: String) throws(Failure) -> String {
        guard let name = current.identifier else { throw fail("expected \(what), found \(current.describedForError)") }
        advance()
        return name
    }

    private mutating func expectSymbol(_ symbol: String) throws(Failure) {
        guard current.isSymbol(symbol) else { throw fail("expected '\(symbol)', found \(current.describedForError)") }
        advance()
    }

    private func location(of token: Token) -> SchemaLocation {
        SchemaLocation(path: source.path, line: token.line, column: token.column)
    }

    private mutating func fail(_ message: String, at token: Token? = nil) -> Failure {
        let token = token ?? current
        diagnostics.append(Diagnostic(kind: .syntax, message: message, location: location(of: token),
                                      sourceLine: source.lineText(token.line)))
        return Failure()
    }

    /// Skips to the next token that starts a field (`name:` at the start of a line) or closes the struct.
    private mutating func recoverToField() {
        let errorLine = current.line
        while !current.isEOF {
            if current.isSymbol("}") { return }
            if current.line > errorLine, current.identifier != nil, position + 1 < tokens.count,
               tokens[position + 1].isSymbol(":") {
                return
            }
            advance()
        }
    }

    /// Skips to the next top-level declaration keyword.
    private mutating func recoverToDeclaration() {
        while !current.isEOF {
            if let word = current.identifier, ["struct", "enum", "typealias", "table", "register", "import", "endian", "bit_order"].contains(word),
               position == 0 || previous.line < current.line {
                return
            }
            if current.isSymbol("@"), previous.line < current.line { return }
            advance()
        }
    }
}

extension Token {
    var isEOF: Bool { kind == .endOfFile }
}
