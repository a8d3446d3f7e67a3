import BinaryIO

/// Pass: expressions compiled to stack-machine programs (references, aggregates, literals), and
/// constant folding.
extension Checker {
    // MARK: - Expressions

    mutating func compileProgram(_ syntax: ExpressionSyntax, scope: Scope, expecting: ValueType?,
                                 role: String) -> Program? {
        var builder = ProgramBuilder()
        let errorsBefore = diagnostics.count
        let type = compile(syntax, scope: scope, into: &builder, expected: expecting)
        if let expecting, !Self.assignable(type, to: expecting) {
            report(.typeMismatch, "\(role) must be \(expecting == .boolean ? "a bool" : "an integer"), but this is \(type)",
                   at: syntax.location)
        }
        if builder.maxDepth > ProgramBuilder.stackLimit {
            report(.invalidValue, "expression nests deeper than \(ProgramBuilder.stackLimit) pending values", at: syntax.location)
        }
        return diagnostics.count == errorsBefore ? builder.finish(text: describe(syntax)) : nil
    }

    static func assignable(_ type: ValueType, to expected: ValueType) -> Bool {
        if type == .invalid || type == expected { return true }
        if expected == .integer, case .enumeration = type { return true }
        return false
    }

    static func comparable(_ left: ValueType, _ right: ValueType) -> Bool {
        switch (left, right) {
        case (.invalid, _), (_, .invalid): return true
        case (.integer, .integer), (.boolean, .boolean): return true
        case (.enumeration(let a, _), .enumeration(let b, _)): return a == b
        case (.enumeration, .integer), (.integer, .enumeration): return true
        default: return false
        }
    }

    mutating func constant(_ syntax: ExpressionSyntax, file: Int) -> Int64? {
        let scope = Scope(structID: -1, structName: "", file: file, allFieldNames: [])
        var builder = ProgramBuilder()
        let before = diagnostics.count
        _ = compile(syntax, scope: scope, into: &builder, expected: nil)
        guard diagnostics.count == before else { return nil }
        return constantValue(of: builder.finish(text: ""), at: syntax.location)
    }

    /// Folds a program that reads no fields; reports one that does, or that fails (e.g. divides by zero).
    mutating func constantValue(of program: Program, at location: SchemaLocation) -> Int64? {
        if let value = program.constantValue { return value }
        guard program.references.isEmpty else {
            report(.invalidValue, "expected a constant value, not one that reads fields", at: location)
            return nil
        }
        var context = ConstantContext()
        do {
            return try program.evaluate(in: &context)
        } catch {
            report(.invalidValue, "constant expression fails: \(error)", at: location)
            return nil
        }
    }

    /// Compiles `syntax`, appending operations; returns its type. Reports errors and returns `.invalid` on failure.
    mutating func compile(_ syntax: ExpressionSyntax, scope: Scope, into builder: inout ProgramBuilder,
                          expected: ValueType?) -> ValueType {
        switch syntax {
        case .integer(let magnitude, let location):
            guard let value = Int64(exactly: magnitude) else {
                report(.invalidValue, "integer literal \(magnitude) is out of range: expressions are 64-bit signed, "
                       + "at most 9223372036854775807 (0x7fffffffffffffff)", at: location)
                return .invalid
            }
            builder.emit(.constant(value))
            return .integer
        case .boolean(let value, _):
            builder.emit(.constant(value ? 1 : 0))
            return .boolean
        case .bytes(_, let location):
            report(.typeMismatch, "a string literal is compared with bytes or a string field by '==' or '!=', or ends a string (string[until \"\\r\\n\"])",
                   at: location)
            return .invalid
        case .enumCase(let name, let location):
            guard case .enumeration(let id, let enumName)? = expected else {
                report(.typeMismatch, "cannot tell which enum '.\(name)' belongs to here; write EnumName.\(name)", at: location)
                return .invalid
            }
            return emitEnumCase(id: id, enumName: enumName, caseName: name, location: location, into: &builder)
        case .name, .member, .index:
            if case .member(.name(let typeName, _), let caseName, let location) = syntax,
               scope.defined[typeName] == nil, case .enumeration(let id)? = lookup(typeName, file: scope.file)?.declaration {
                return emitEnumCase(id: id, enumName: typeName, caseName: caseName, location: location, into: &builder)
            }
            guard let resolved = resolveReference(syntax, scope: scope) else { return .invalid }
            let (reference, type) = (resolved.reference, resolved.type)
            guard type.isScalar else {
                let advice = type == .varying
                    ? "a switch is a number only when its cases are all integers (or all one enum); name a field of the struct it read (\(reference.text).<field>)"
                    : type.hasLength ? "use len(\(reference.text)) for its length" : "name one of its fields (\(reference.text).<field>)"
                report(.typeMismatch, "'\(reference.text)' is \(type), not a number; \(advice)", at: syntax.location)
                return .invalid
            }
            if let byteIndex = resolved.byteIndex {
                _ = compile(byteIndex, scope: scope, into: &builder, expected: .integer)
                builder.emit(.byteAt(builder.add(reference)))
            } else if case .enclosing(levelsUp: 0) = reference.base, reference.slots.count == 1,
                      case .slot(let slot) = reference.slots[0], !resolved.startsAtLazyField {
                builder.emit(.loadSlot(slot))
            } else {
                emitReference(resolved, scope: scope, into: &builder, plain: Program.Operation.load, indexed: Program.Operation.loadAt)
            }
            return type
        case .unary(.negate, .integer(let magnitude, _), _) where magnitude == UInt64(Int64.max) + 1:
            // `-9223372036854775808`: Int64.min, whose magnitude alone is out of range.
            builder.emit(.constant(Int64.min))
            return .integer
        case .unary(let op, let operand, let location):
            let type = compile(operand, scope: scope, into: &builder, expected: nil)
            switch op {
            case .not:
                requireType(type, .boolean, op: op.rawValue, at: location)
                builder.emit(.logicalNot)
                return .boolean
            case .bitwiseNot:
                requireType(type, .integer, op: op.rawValue, at: location)
                builder.emit(.bitwiseNot)
                return .integer
            case .negate:
                requireType(type, .integer, op: op.rawValue, at: location)
                builder.emit(.negate)
                return .integer
            }
        case .binary(let op, let left, let right, let location):
            return compileBinary(op, left, right, location: location, scope: scope, into: &builder)
        case .conditional(let condition, let whenTrue, let whenFalse, let location):
            let conditionType = compile(condition, scope: scope, into: &builder, expected: .boolean)
            requireType(conditionType, .boolean, op: "?:", at: location)
            let toElse = builder.emitPlaceholder()
            let trueType = compile(whenTrue, scope: scope, into: &builder, expected: expected)
            let toEnd = builder.emitPlaceholder()
            builder.patch(toElse, with: .jumpIfZero(builder.nextIndex))
            builder.popForBranch()
            let falseType = compile(whenFalse, scope: scope, into: &builder, expected: expected ?? trueType)
            builder.patch(toEnd, with: .jump(builder.nextIndex))
            if !Self.comparable(trueType, falseType) {
                report(.typeMismatch, "the branches of '?:' have different types: \(trueType) and \(falseType)", at: location)
                return .invalid
            }
            return trueType == .invalid ? falseType : trueType
        case .call(let name, let arguments, let location):
            switch (name, arguments.count) {
            case ("len", 1):
                guard let resolved = resolveReference(arguments[0], scope: scope) else { return .invalid }
                guard resolved.type.hasLength, resolved.byteIndex == nil else {
                    report(.typeMismatch, "len() takes bytes, a string or an array, not \(resolved.type)", at: arguments[0].location)
                    return .invalid
                }
                emitReference(resolved, scope: scope, into: &builder, plain: Program.Operation.length, indexed: Program.Operation.lengthAt)
                return .integer
            case ("has", 1):
                guard let resolved = resolveReference(arguments[0], scope: scope) else { return .invalid }
                guard resolved.byteIndex == nil else {
                    report(.typeMismatch, "has() takes a field, not a byte of one: compare len(\(resolved.reference.text)) instead",
                           at: arguments[0].location)
                    return .invalid
                }
                let reference = resolved.reference
                if case .enclosing(levelsUp: 0) = reference.base, reference.slots.count == 1, case .slot(let slot) = reference.slots[0],
                   !resolved.startsAtLazyField {
                    builder.emit(.presentSlot(slot))
                } else {
                    emitReference(resolved, scope: scope, into: &builder, plain: Program.Operation.present,
                                  indexed: Program.Operation.presentAt)
                }
                return .boolean
            case ("index", 0):
                builder.emit(.elementIndex)
                return .integer
            case ("count", 2), ("any", 2), ("all", 2), ("first", 2), ("sum", 1), ("sum", 2), ("min", 1), ("max", 1):
                return compileAggregate(name, arguments, location: location, scope: scope, into: &builder)
            case ("min", 2) where isArrayReference(arguments[0], scope: scope):
                return compileAggregate(name, arguments, location: location, scope: scope, into: &builder)
            case ("max", 2) where isArrayReference(arguments[0], scope: scope):
                return compileAggregate(name, arguments, location: location, scope: scope, into: &builder)
            case ("remaining", 0):
                builder.emit(.remaining)
                return .integer
            case ("offset", 0):
                builder.emit(.offset)
                return .integer
            case ("min", 2), ("max", 2):
                for argument in arguments {
                    let argumentType = compile(argument, scope: scope, into: &builder, expected: .integer)
                    requireType(argumentType, .integer, op: name, at: argument.location)
                }
                builder.emit(name == "min" ? .minimum : .maximum)
                return .integer
            case ("peek", 1):
                let argumentType = compile(arguments[0], scope: scope, into: &builder, expected: .integer)
                requireType(argumentType, .integer, op: "peek", at: arguments[0].location)
                builder.emit(.peek)
                return .integer
            case ("peek", 2), ("peek_caseless", 2):
                return compileBytesAhead(name, arguments, scope: scope, into: &builder)
            case ("find", 1), ("find", 2), ("find_any", 1), ("find_any", 2):
                return compileFind(name, arguments, scope: scope, into: &builder)
            case ("zeros", 1):
                let argumentType = compile(arguments[0], scope: scope, into: &builder, expected: .integer)
                requireType(argumentType, .integer, op: "zeros", at: arguments[0].location)
                builder.emit(.zeros)
                return .boolean
            default:
                report(.unknownField, "unknown function '\(name)' with \(arguments.count) argument\(arguments.count == 1 ? "" : "s") (known: len(field), has(field), remaining(), offset(), peek(n), peek(n, \"text\"), peek_caseless(n, \"text\"), find(\"text\"), find(\"text\", limit), find_any(\"bytes\", limit), zeros(n), min(a, b), max(a, b), index(), and over an array: count(a, cond), any(a, cond), all(a, cond), first(a, cond), sum(a, expr), min(a, expr), max(a, expr), sum(a), min(a), max(a))",
                       at: location)
                return .invalid
            }
        }
    }

    /// `peek(n, "SIP/")` and `peek_caseless(n, "cseq")`: whether the bytes n ahead are the literal.
    mutating func compileBytesAhead(_ name: String, _ arguments: [ExpressionSyntax], scope: Scope,
                                    into builder: inout ProgramBuilder) -> ValueType {
        guard let literal = searchLiteral(arguments[1], function: name, scope: scope) else { return .invalid }
        let distanceType = compile(arguments[0], scope: scope, into: &builder, expected: .integer)
        requireType(distanceType, .integer, op: name, at: arguments[0].location)
        builder.emit(.peekMatch(literal: builder.add(literal: literal), caseless: name == "peek_caseless"))
        return .boolean
    }

    /// `find("\r\n")`, `find(0x0D, 400)`: where the literal first occurs ahead of the cursor, or -1;
    /// `find_any(";\r", 64)`: where the first byte that is one of the literal's is.
    mutating func compileFind(_ name: String, _ arguments: [ExpressionSyntax], scope: Scope,
                              into builder: inout ProgramBuilder) -> ValueType {
        guard let literal = searchLiteral(arguments[0], function: name, scope: scope) else { return .invalid }
        if arguments.count == 2 {
            let limitType = compile(arguments[1], scope: scope, into: &builder, expected: .integer)
            requireType(limitType, .integer, op: name, at: arguments[1].location)
        } else {
            builder.emit(.constant(Int64.max))
        }
        builder.emit(.find(literal: builder.add(literal: literal), anyByte: name == "find_any"))
        return .integer
    }

    /// The bytes a search looks for: a string or bytes literal, or one byte as an integer constant.
    mutating func searchLiteral(_ syntax: ExpressionSyntax, function: String, scope: Scope) -> [UInt8]? {
        switch syntax {
        case .bytes(let bytes, let location):
            guard !bytes.isEmpty else {
                report(.invalidValue, "\(function)() of an empty literal: give it the bytes to look for", at: location)
                return nil
            }
            return bytes
        default:
            var scratch = ProgramBuilder()
            let before = diagnostics.count
            _ = compile(syntax, scope: scope, into: &scratch, expected: .integer)
            if diagnostics.count == before, let value = Self.constantValue(of: scratch.operations[...]), (0...255).contains(value) {
                return [UInt8(value)]
            }
            diagnostics.removeSubrange(before...)
            report(.typeMismatch, "\(function)() looks for a literal: a string (\"\\r\\n\"), bytes (x\"0d0a\") or one byte (0x0D), not '\(describe(syntax))'",
                   at: syntax.location)
            return nil
        }
    }

    mutating func emitEnumCase(id: Int, enumName: String, caseName: String, location: SchemaLocation,
                               into builder: inout ProgramBuilder) -> ValueType {
        guard enums.indices.contains(id), let value = enums[id].cases.first(where: { $0.name == caseName })?.value else {
            report(.unknownField, "enum '\(enumName)' has no case '\(caseName)'", at: location)
            return .invalid
        }
        builder.emit(.constant(value))
        return .enumeration(id, name: enumName)
    }

    mutating func compileBinary(_ op: BinaryOperator, _ left: ExpressionSyntax, _ right: ExpressionSyntax,
                                location: SchemaLocation, scope: Scope,
                                into builder: inout ProgramBuilder) -> ValueType {
        switch op {
        case .and, .or:
            let leftType = compile(left, scope: scope, into: &builder, expected: .boolean)
            requireType(leftType, .boolean, op: op.rawValue, at: location)
            let shortCircuit = builder.emitPlaceholder()
            let rightType = compile(right, scope: scope, into: &builder, expected: .boolean)
            requireType(rightType, .boolean, op: op.rawValue, at: location)
            let toEnd = builder.emitPlaceholder()
            builder.patch(shortCircuit, with: op == .and ? .jumpIfZero(builder.nextIndex) : .jumpIfNonZero(builder.nextIndex))
            builder.popForBranch()
            builder.emit(.constant(op == .and ? 0 : 1))
            builder.patch(toEnd, with: .jump(builder.nextIndex))
            return .boolean
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
            if case .bytes = left {
                return compileLiteralComparison(op, field: right, literal: left, location: location, scope: scope, into: &builder)
            }
            if case .bytes = right {
                return compileLiteralComparison(op, field: left, literal: right, location: location, scope: scope, into: &builder)
            }
            // An enum case on the left takes its type from the right: compile the right first (== and != commute).
            let leftIsCase: Bool
            if case .enumCase = left { leftIsCase = true } else { leftIsCase = false }
            let leftType: ValueType
            let rightType: ValueType
            if leftIsCase, op == .equal || op == .notEqual {
                rightType = compile(right, scope: scope, into: &builder, expected: nil)
                leftType = compile(left, scope: scope, into: &builder, expected: rightType)
            } else {
                leftType = compile(left, scope: scope, into: &builder, expected: nil)
                rightType = compile(right, scope: scope, into: &builder, expected: leftType)
            }
            let ordering = op != .equal && op != .notEqual
            if !Self.comparable(leftType, rightType) || (ordering && (leftType == .boolean || rightType == .boolean)) {
                report(.typeMismatch, "cannot compare \(leftType) with \(rightType) using '\(op.rawValue)'", at: location)
                return .invalid
            }
            if let operation = Self.operation(op) { builder.emit(operation) }
            return .boolean
        case .add, .subtract, .multiply, .divide, .remainder, .bitwiseAnd, .bitwiseOr, .bitwiseXor, .shiftLeft, .shiftRight:
            let leftType = compile(left, scope: scope, into: &builder, expected: nil)
            let rightStart = builder.operations.count
            let rightType = compile(right, scope: scope, into: &builder, expected: nil)
            // An enum's value is its number in arithmetic (`(response ? 0x80 : 0) + command`).
            func asNumber(_ type: ValueType) -> ValueType {
                if case .enumeration = type { return .integer }
                return type
            }
            requireType(asNumber(leftType), .integer, op: op.rawValue, at: location)
            requireType(asNumber(rightType), .integer, op: op.rawValue, at: location)
            if op == .divide || op == .remainder, Self.constantValue(of: builder.operations[rightStart...]) == 0 {
                // At run time this always fails; in a @display it would silently show the plain value instead.
                report(.invalidValue, "division by zero: the divisor \(describe(right)) is always 0", at: location)
            }
            if let operation = Self.operation(op) { builder.emit(operation) }
            return .integer
        }
    }

    /// The stack machine's operation for an operator; nil for `&&` and `||`, which compile to jumps.
    static func operation(_ op: BinaryOperator) -> Program.Operation? {
        switch op {
        case .equal: return .equal
        case .notEqual: return .notEqual
        case .less: return .less
        case .lessOrEqual: return .lessOrEqual
        case .greater: return .greater
        case .greaterOrEqual: return .greaterOrEqual
        case .add: return .add
        case .subtract: return .subtract
        case .multiply: return .multiply
        case .divide: return .divide
        case .remainder: return .remainder
        case .bitwiseAnd: return .bitwiseAnd
        case .bitwiseOr: return .bitwiseOr
        case .bitwiseXor: return .bitwiseXor
        case .shiftLeft: return .shiftLeft
        case .shiftRight: return .shiftRight
        case .and, .or: return nil
        }
    }

    /// `field == "GET"`, `signature != x"89504e47"`: a bytes or string field's bytes (a string's
    /// text without its terminator) against a literal, in one operation.
    mutating func compileLiteralComparison(_ op: BinaryOperator, field: ExpressionSyntax, literal: ExpressionSyntax,
                                           location: SchemaLocation, scope: Scope,
                                           into builder: inout ProgramBuilder) -> ValueType {
        guard case .bytes(let bytes, _) = literal else { return .invalid }
        guard op == .equal || op == .notEqual else {
            report(.typeMismatch, "a string literal compares only by '==' and '!=', not '\(op.rawValue)'", at: location)
            return .invalid
        }
        if case .bytes = field {
            report(.typeMismatch, "cannot compare two literals: one side of '\(op.rawValue)' must be a bytes or string field", at: location)
            return .invalid
        }
        var fieldType: ValueType
        var reference: FieldReference?
        var resolvedField: ResolvedReference?
        if let first = Self.firstName(of: field), scope.defined[first] != nil || first == "it" || first == "parent" {
            guard let resolved = resolveReference(field, scope: scope) else { return .invalid }
            (reference, fieldType) = (resolved.reference, resolved.type)
            resolvedField = resolved
        } else {
            // Not a field (or not a known one, which compiling reports): compiled for its type.
            var scratch = ProgramBuilder()
            fieldType = compile(field, scope: scope, into: &scratch, expected: nil)
            if fieldType == .invalid { return .invalid }
        }
        guard let reference, fieldType == .bytes || fieldType == .string else {
            report(.typeMismatch, "cannot compare \(fieldType) with a string literal using '\(op.rawValue)': a literal compares with bytes and strings",
                   at: location)
            return .invalid
        }
        let literalIndex = builder.add(literal: bytes)
        if let resolvedField, let computedIndex = resolvedField.computedIndex {
            _ = compile(computedIndex, scope: scope, into: &builder, expected: .integer)
            builder.emit(.matchBytesAt(reference: builder.add(reference), literal: literalIndex))
        } else {
            builder.emit(.matchBytes(reference: builder.add(reference), literal: literalIndex))
        }
        if op == .notEqual { builder.emit(.logicalNot) }
        return .boolean
    }

    /// The first name of `a.b.c` (or `a[i].b`), or nil for other expressions.
    static func firstName(of syntax: ExpressionSyntax) -> String? {
        switch syntax {
        case .name(let name, _): return name
        case .member(let base, _, _), .index(let base, _, _): return firstName(of: base)
        default: return nil
        }
    }

    /// Emits the operation using a resolved reference: with a computed index, the index first and
    /// then the operation that pops it.
    mutating func emitReference(_ resolved: ResolvedReference, scope: Scope, into builder: inout ProgramBuilder,
                                plain: (Int32) -> Program.Operation, indexed: (Int32) -> Program.Operation) {
        if let computedIndex = resolved.computedIndex {
            _ = compile(computedIndex, scope: scope, into: &builder, expected: .integer)
            builder.emit(indexed(builder.add(resolved.reference)))
        } else {
            builder.emit(plain(builder.add(resolved.reference)))
        }
    }

    /// Whether `syntax` names an array (`min(a, it.x)` is an aggregate, `min(a, b)` of two integers
    /// is not). Reports nothing: the expression is compiled again either way.
    mutating func isArrayReference(_ syntax: ExpressionSyntax, scope: Scope) -> Bool {
        guard Self.firstName(of: syntax) != nil else { return false }
        let before = diagnostics.count
        let resolved = resolveReference(syntax, scope: scope)
        diagnostics.removeSubrange(before...)
        if case .array? = resolved?.type { return true }
        return false
    }

    /// `count(a, cond)`, `any`, `all`, `first(a, cond)`, `sum(a, expr)`, `min`, `max` and `sum(a)`,
    /// `min(a)`, `max(a)`: the body is a program of its own, run with each element as `it`.
    mutating func compileAggregate(_ name: String, _ arguments: [ExpressionSyntax], location: SchemaLocation,
                                   scope: Scope, into builder: inout ProgramBuilder) -> ValueType {
        let kinds: [String: Program.Aggregate] = [
            "count": .count, "any": .any, "all": .all, "first": .first, "sum": .sum, "min": .minimum, "max": .maximum,
        ]
        guard let kind = kinds[name], let resolved = resolveReference(arguments[0], scope: scope) else { return .invalid }
        guard case .array(let element) = resolved.type else {
            report(.typeMismatch, "\(name)() takes an array first, but '\(describe(arguments[0]))' is \(resolved.type)",
                   at: arguments[0].location)
            return .invalid
        }
        guard resolved.computedIndex == nil, resolved.byteIndex == nil else {
            report(.invalidValue, "\(name)() over an array chosen by a computed index is not supported: give it its own 'let'",
                   at: arguments[0].location)
            return .invalid
        }
        let wantsCondition = kind == .count || kind == .any || kind == .all || kind == .first
        var inner = scope
        inner.elementType = element
        inner.defined["it"] = nil
        let body = arguments.count == 2 ? arguments[1] : .name("it", arguments[0].location)
        if arguments.count == 1, !element.isScalar || element == .boolean {
            report(.typeMismatch, "\(name)(\(describe(arguments[0]))) needs an array of integers; write \(name)(\(describe(arguments[0])), it.field) for the field to add up",
                   at: arguments[0].location)
            return .invalid
        }
        var bodyBuilder = ProgramBuilder()
        let before = diagnostics.count
        let bodyType = compile(body, scope: inner, into: &bodyBuilder, expected: wantsCondition ? .boolean : .integer)
        guard diagnostics.count == before else { return .invalid }
        if wantsCondition, bodyType != .boolean, bodyType != .invalid {
            report(.typeMismatch, "the condition of \(name)() must be a bool, but this is \(bodyType)", at: body.location)
            return .invalid
        }
        if !wantsCondition, !Self.assignable(bodyType, to: .integer) {
            report(.typeMismatch, "\(name)() adds up or compares integers, but this is \(bodyType)", at: body.location)
            return .invalid
        }
        if bodyBuilder.maxDepth > ProgramBuilder.stackLimit {
            report(.invalidValue, "expression nests deeper than \(ProgramBuilder.stackLimit) pending values", at: body.location)
            return .invalid
        }
        let program = bodyBuilder.finish(text: describe(body))
        builder.emit(.aggregate(kind, reference: builder.add(resolved.reference), body: builder.add(body: program)))
        return kind == .any || kind == .all ? .boolean : .integer
    }

    mutating func requireType(_ type: ValueType, _ required: ValueType, op: String, at location: SchemaLocation) {
        if type == .invalid || type == required { return }
        report(.typeMismatch, "'\(op)' needs \(required == .boolean ? "bool" : "integer") operands, but got \(type)", at: location)
    }

    /// One component of a reference: a name (a field, or `last` on an array) or a constant index.
    enum Component {
        case name(String, SchemaLocation)
        case index(ExpressionSyntax, SchemaLocation)

        var name: String? {
            if case .name(let name, _) = self { return name }
            return nil
        }

        var location: SchemaLocation {
            switch self {
            case .name(_, let location), .index(_, let location): return location
            }
        }
    }

    /// The structs a switch or dispatch field of struct `structID` (in `slot`) can read.
    func varyingCandidates(structID: Int, slot: Int) -> [Int] {
        guard structSyntax.indices.contains(structID) else { return [] }
        let entry = structSyntax[structID]
        let position = slot - entry.syntax.parameters.count
        guard position >= 0, position < entry.syntax.fields.count else { return [] }
        return Array(Set(containedStructs(entry.syntax.fields[position].type, file: entry.file))).sorted()
    }

    /// A field reference resolved: where it lives, its type, and the indices the operation using
    /// it pops, compiled before it.
    struct ResolvedReference {
        var reference: FieldReference
        var type: ValueType
        /// A computed array index (`pool[i - 1]`): the reference's ``FieldReference/Step/computedElement``.
        var computedIndex: ExpressionSyntax?
        /// `id[0]`: a byte of the bytes or string field the reference names.
        var byteIndex: ExpressionSyntax?
        /// Its first step is a `lazy` field of the struct at hand, which the walk reads when this
        /// reference first needs it: never a slot's fast load, which cannot read it.
        var startsAtLazyField = false
    }

    /// Resolves a field reference (`name`, `a.b`, `parent.x`, `it`, `it.kind`, `options[0].kind`,
    /// `pool[i - 1].tag`, `options.last`, `payload.x` through a switch, `id[0]`) to where it lives and its type.
    mutating func resolveReference(_ syntax: ExpressionSyntax, scope: Scope) -> ResolvedReference? {
        var components: [Component] = []
        var cursor = syntax
        while true {
            if case .member(let base, let name, let location) = cursor {
                components.insert(.name(name, location), at: 0)
                cursor = base
            } else if case .index(let base, let index, let location) = cursor {
                components.insert(.index(index, location), at: 0)
                cursor = base
            } else if case .name(let name, let location) = cursor {
                components.insert(.name(name, location), at: 0)
                break
            } else {
                report(.typeMismatch, "expected a field name", at: cursor.location)
                return nil
            }
        }
        let text = describe(syntax)
        var levelsUp = 0
        while components.first?.name == "parent", components.count > 1, scope.defined["parent"] == nil {
            levelsUp += 1
            components.removeFirst()
        }
        var slots: [FieldReference.Step] = []
        var type: ValueType
        var firstSlotByStruct: [Int: Int32] = [:]
        var computedIndex: ExpressionSyntax?
        var byteIndex: ExpressionSyntax?
        /// For a switch or dispatch value: the structs it can be.
        var candidates: [Int] = []
        var startsAtLazyField = false
        guard case .name(let firstName, let firstLocation) = components[0] else {
            report(.typeMismatch, "expected a field name", at: components[0].location)
            return nil
        }
        if levelsUp > 0 {
            guard let resolved = resolveInParents(firstName, levelsUp: levelsUp, scope: scope, at: firstLocation) else { return nil }
            if let lazy = resolved.slots.first(where: { lazySlots[$0.key].contains(Int($0.value)) }) {
                report(.invalidValue, "'\(firstName)' is a lazy field of '\(structSyntax[lazy.key].syntax.name)', which is still being read: "
                       + "its lazy fields are read when its own expressions need them or at its end; pass it as an argument (S(\(firstName).x))",
                       at: firstLocation)
                return nil
            }
            type = resolved.type
            firstSlotByStruct = resolved.slots
            slots.append(.slot(-1))
            if type == .varying {
                candidates = Array(Set(resolved.slots.flatMap { varyingCandidates(structID: $0.key, slot: Int($0.value)) })).sorted()
            }
        } else if firstName == "it", scope.defined["it"] == nil {
            guard let element = scope.elementType else {
                report(.unknownField, "'it' means the array element at hand, and is only available in an 'until' condition and in an aggregate (count(a, it.x == 1))",
                       at: firstLocation)
                return nil
            }
            type = element
        } else if firstName == "parent", scope.defined["parent"] == nil {
            report(.unknownField, "'parent' must be followed by a field name, as in parent.length", at: firstLocation)
            return nil
        } else if let defined = scope.defined[firstName] {
            type = defined.type
            slots.append(.slot(Int32(defined.slot)))
            startsAtLazyField = scope.structID >= 0 && lazySlots[scope.structID].contains(defined.slot)
            if type == .varying { candidates = varyingCandidates(structID: scope.structID, slot: defined.slot) }
        } else if scope.allFieldNames.contains(firstName) {
            report(.useBeforeDefinition, "field '\(firstName)' is used before its definition in '\(scope.structName)'",
                   at: firstLocation)
            return nil
        } else {
            let known = scope.defined.keys.sorted()
            let hint = known.isEmpty ? "" : " (fields defined so far: \(known.joined(separator: ", ")))"
            report(.unknownField, "unknown field '\(firstName)'\(hint)", at: firstLocation)
            return nil
        }
        for (position, component) in components.enumerated().dropFirst() {
            switch (component, type) {
            case (.index(let indexSyntax, let location), .array(let element)):
                var indexBuilder = ProgramBuilder()
                let before = diagnostics.count
                let indexType = compile(indexSyntax, scope: scope, into: &indexBuilder, expected: .integer)
                guard diagnostics.count == before else { return nil }
                if let constant = Self.constantValue(of: indexBuilder.operations[...]) {
                    guard constant >= 0, constant <= Int64(Int32.max) else {
                        report(.invalidValue, "an array index is at least 0 (write '.last' for the last element), not \(constant)",
                               at: location)
                        return nil
                    }
                    slots.append(.element(Int32(constant)))
                } else {
                    guard Self.assignable(indexType, to: .integer) else {
                        report(.typeMismatch, "an array index must be an integer, but this is \(indexType)", at: indexSyntax.location)
                        return nil
                    }
                    guard computedIndex == nil else {
                        report(.invalidValue, "one index of a reference may be computed; '\(describe(indexSyntax))' is a second (give the first its own 'let')",
                               at: indexSyntax.location)
                        return nil
                    }
                    computedIndex = indexSyntax
                    slots.append(.computedElement)
                }
                type = element
                candidates = []
            case (.index(let indexSyntax, let location), .bytes), (.index(let indexSyntax, let location), .string):
                guard position == components.count - 1 else {
                    report(.typeMismatch, "a byte of \(type) (\(describe(syntax))) is an integer, which has no fields", at: location)
                    return nil
                }
                guard computedIndex == nil else {
                    report(.invalidValue, "a byte of a field chosen by a computed index is not supported: give the field its own 'let'",
                           at: location)
                    return nil
                }
                var indexBuilder = ProgramBuilder()
                let before = diagnostics.count
                let indexType = compile(indexSyntax, scope: scope, into: &indexBuilder, expected: .integer)
                guard diagnostics.count == before else { return nil }
                guard Self.assignable(indexType, to: .integer) else {
                    report(.typeMismatch, "a byte index must be an integer, but this is \(indexType)", at: indexSyntax.location)
                    return nil
                }
                byteIndex = indexSyntax
                type = .integer
            case (.name("last", _), .array(let element)):
                slots.append(.lastElement)
                type = element
                candidates = []
            case (.name(let name, let location), .structure(let id, let structName)):
                guard let slot = shallowFields[id].firstIndex(where: { $0.name == name }) else {
                    report(.unknownField, "struct '\(structName)' has no field '\(name)'", at: location)
                    return nil
                }
                slots.append(.slot(Int32(slot)))
                type = shallowFields[id][slot].type
                candidates = type == .varying ? varyingCandidates(structID: id, slot: slot) : []
            case (.name(let name, let location), .varying) where !candidates.isEmpty:
                // Through a switch or dispatch: the field of that name in whichever struct was read.
                var map: [Int: Int32] = [:]
                var found: ValueType?
                var next: [Int] = []
                for candidate in candidates {
                    guard let slot = shallowFields[candidate].firstIndex(where: { $0.name == name }) else { continue }
                    let candidateType = shallowFields[candidate][slot].type
                    if let found, found != candidateType {
                        report(.typeMismatch, "'\(name)' has type \(found) in one struct this can be and \(candidateType) in '\(structSyntax[candidate].syntax.name)'",
                               at: location)
                        return nil
                    }
                    found = candidateType
                    map[candidate] = Int32(slot)
                    if candidateType == .varying { next += varyingCandidates(structID: candidate, slot: slot) }
                }
                guard let found else {
                    let names = candidates.map { structSyntax[$0].syntax.name }.joined(separator: ", ")
                    report(.unknownField, "none of the structs this can be (\(names)) has a field '\(name)'", at: location)
                    return nil
                }
                slots.append(.slotByStruct(map))
                type = found
                candidates = Array(Set(next)).sorted()
            case (.index(_, let location), _):
                report(.typeMismatch, "an index applies to an array, not to a value of type \(type)", at: location)
                return nil
            case (.name(let name, let location), _):
                report(.typeMismatch, "'\(name)' is looked up in a value of type \(type), which has no fields",
                       at: location)
                return nil
            }
        }
        let base: FieldReference.Base = levelsUp > 0 ? .enclosing(levelsUp: levelsUp)
            : (firstName == "it" && scope.defined["it"] == nil ? .element : .enclosing(levelsUp: 0))
        let textOfField = byteIndex == nil ? text : describe(Self.withoutLastIndex(syntax))
        return ResolvedReference(reference: FieldReference(base: base, slots: slots, firstSlotByStruct: firstSlotByStruct,
                                                           text: textOfField),
                                 type: type, computedIndex: computedIndex, byteIndex: byteIndex,
                                 startsAtLazyField: startsAtLazyField)
    }

    /// `id` of `id[0]`.
    static func withoutLastIndex(_ syntax: ExpressionSyntax) -> ExpressionSyntax {
        if case .index(let base, _, _) = syntax { return base }
        return syntax
    }

    mutating func resolveInParents(_ name: String, levelsUp: Int, scope: Scope,
                                   at location: SchemaLocation) -> (slots: [Int: Int32], type: ValueType)? {
        let written = String(repeating: "parent.", count: levelsUp) + name
        var candidates: Set<Int> = scope.structID >= 0 ? [scope.structID] : []
        for _ in 0..<levelsUp {
            candidates = Set(candidates.flatMap { parentsOf[$0] })
        }
        guard !candidates.isEmpty else {
            report(.unknownField, "'\(scope.structName)' is not contained in any struct \(levelsUp) level\(levelsUp == 1 ? "" : "s") up, so '\(written)' refers to nothing",
                   at: location)
            return nil
        }
        var slots: [Int: Int32] = [:]
        var type: ValueType?
        for candidate in candidates.sorted() {
            guard let slot = shallowFields[candidate].firstIndex(where: { $0.name == name }) else {
                report(.unknownField, "'\(written)': enclosing struct '\(structSyntax[candidate].syntax.name)' has no field '\(name)'",
                       at: location)
                return nil
            }
            let candidateType = shallowFields[candidate][slot].type
            if let type, type != candidateType {
                report(.typeMismatch, "'\(written)' has type \(type) in one enclosing struct and \(candidateType) in '\(structSyntax[candidate].syntax.name)'",
                       at: location)
                return nil
            }
            type = candidateType
            slots[candidate] = Int32(slot)
        }
        return type.map { (slots, $0) }
    }

    func describe(_ syntax: ExpressionSyntax) -> String {
        switch syntax {
        case .integer(let value, _): return String(value)
        case .boolean(let value, _): return String(value)
        case .bytes(let bytes, _): return DissectionError.literal(bytes)
        case .name(let name, _): return name
        case .enumCase(let name, _): return ".\(name)"
        case .member(let base, let name, _): return "\(describe(base)).\(name)"
        case .index(let base, let index, _): return "\(describe(base))[\(describe(index))]"
        case .unary(let op, let operand, _): return "\(op.rawValue)\(describe(operand))"
        case .binary(let op, let left, let right, _): return "\(describe(left)) \(op.rawValue) \(describe(right))"
        case .conditional(let condition, let a, let b, _): return "\(describe(condition)) ? \(describe(a)) : \(describe(b))"
        case .call(let name, let arguments, _): return "\(name)(\(arguments.map(describe).joined(separator: ", ")))"
        }
    }
}

/// Accumulates operations and tracks the evaluation stack depth.
struct ProgramBuilder {
    static let stackLimit = 32
    private(set) var operations: [Program.Operation] = []
    var references: [FieldReference] = []
    var literals: [[UInt8]] = []
    var bodies: [Program] = []
    var depth = 0
    private(set) var maxDepth = 0

    var nextIndex: Int32 { Int32(operations.count) }

    mutating func emit(_ operation: Program.Operation) {
        operations.append(operation)
        switch operation {
        case .constant, .loadSlot, .load, .length, .present, .presentSlot, .remaining, .offset, .compareSlot, .matchBytes,
             .elementIndex, .aggregate:
            depth += 1
        case .negate, .logicalNot, .bitwiseNot, .jump, .peek, .zeros, .loadAt, .lengthAt, .presentAt, .matchBytesAt, .byteAt,
             .find, .peekMatch:
            break
        case .jumpIfZero, .jumpIfNonZero:
            depth -= 1
        default:
            depth -= 1
        }
        maxDepth = max(maxDepth, depth)
    }

    mutating func add(_ reference: FieldReference) -> Int32 {
        references.append(reference)
        return Int32(references.count - 1)
    }

    mutating func add(literal: [UInt8]) -> Int32 {
        literals.append(literal)
        return Int32(literals.count - 1)
    }

    /// An aggregate's body: a program of its own, numbered within this one.
    mutating func add(body: Program) -> Int32 {
        bodies.append(body)
        return Int32(bodies.count - 1)
    }

    /// Reserves a jump to patch once its target is known; a conditional jump pops its operand.
    mutating func emitPlaceholder() -> Int {
        operations.append(.jump(0))
        return operations.count - 1
    }

    mutating func patch(_ index: Int, with operation: Program.Operation) {
        operations[index] = operation
        if case .jumpIfZero = operation { depth -= 1 }
        if case .jumpIfNonZero = operation { depth -= 1 }
    }

    /// The branch just compiled pushed one value the other branch will push again.
    mutating func popForBranch() { depth -= 1 }

    func finish(text: String) -> Program {
        Program(operations: operations, references: references, literals: literals, bodies: bodies, text: text,
                stackDepth: maxDepth)
    }
}
