import BinaryIO

/// Pass: field types resolved to the model, and structs that contain themselves.
extension Checker {
    // MARK: - Types

    mutating func resolveType(_ syntax: TypeSyntax, scope: Scope) -> FieldType {
        switch syntax {
        case .named(let name, let location):
            if let builtin = BuiltinType.parse(name) {
                guard let type = builtin.resolved(defaults: defaults(of: scope.file)) else {
                    report(.unknownType, builtin.problem ?? "invalid type '\(name)'", at: location)
                    return .bytes(.rest)
                }
                if case .string = type {
                    // `cstring` ends at a NUL code unit: two zero bytes in UTF-16.
                    fieldTextUsed = true
                    return .string(.terminator(fieldEncoding.codeUnit(0)), encoding: fieldEncoding)
                }
                return type
            }
            if name == "bytes" || name == "string" {
                report(.typeMismatch, "'\(name)' needs a length: \(name)[N] or \(name)[..] for the rest of the scope", at: location)
                return .bytes(.rest)
            }
            if let found = lookup(name, file: scope.file) {
                switch found.declaration {
                case .structure(let id):
                    let parameters = structSyntax[id].syntax.parameters
                    if !parameters.isEmpty {
                        report(.typeMismatch, "struct '\(name)' takes \(parameters.count) argument\(parameters.count == 1 ? "" : "s"): \(name)(\(parameters.map(\.name).joined(separator: ", ")))",
                               at: location)
                    }
                    return .structure(structID: id)
                case .enumeration(let id):
                    // Read in the byte and bit order of the file that uses it, unless its base says (`u32le`).
                    let declared = enums[id].base
                    guard !declared.hasExplicitEndianness else { return .enumeration(enumID: id, base: declared) }
                    let (endianness, bitOrder) = defaults(of: scope.file)
                    return .enumeration(enumID: id, base: IntegerType(bits: declared.bits, isSigned: declared.isSigned,
                                                                      endianness: endianness, bitOrder: bitOrder,
                                                                      hasExplicitEndianness: false))
                case .alias(let id):
                    guard expandingAliases.count < Self.aliasDepthLimit else {
                        report(.infiniteRecursion, "typealias '\(name)' expands through more than \(Self.aliasDepthLimit) aliases",
                               at: location)
                        return .bytes(.rest)
                    }
                    guard expandingAliases.insert(id).inserted else {
                        report(.infiniteRecursion, "typealias '\(name)' refers to itself", at: location)
                        return .bytes(.rest)
                    }
                    defer { expandingAliases.remove(id) }
                    return resolveType(aliasSyntax[id].syntax.type, scope: scope)
                }
            }
            if let hidden = declarations[name] {
                report(.unknownType, "type '\(name)' is declared in \(hidden.location.path), which this file does not import",
                       at: location)
            } else {
                report(.unknownType, "unknown type '\(name)'", at: location)
            }
            return .bytes(.rest)
        case .subscripted(let base, let extentSyntax, let location):
            if case .named(let name, _) = base, name == "bytes" || name == "string" {
                if case .until(let terminatorSyntax) = extentSyntax {
                    guard name == "string" else {
                        report(.typeMismatch, "'until' on bytes: bytes take a length or '..'; a terminator ends a string, as in string[until \"\\r\\n\"] (@encoding(\"latin1\") takes every byte)",
                               at: location)
                        return .bytes(.rest)
                    }
                    fieldTextUsed = true
                    return .string(.terminator(terminator(terminatorSyntax) ?? [0]), encoding: fieldEncoding)
                }
                let extent = resolveExtent(extentSyntax, scope: scope, element: nil)
                if name == "string" || fieldReadsText {
                    fieldTextUsed = true
                    fieldPaddingUsed = true
                    return .string(extent, encoding: fieldEncoding, padding: fieldPadding)
                }
                return .bytes(extent)
            }
            if case .until(.bytes(_, let literalLocation)) = extentSyntax {
                report(.typeMismatch, "a terminator ends a string, not an array: write string[until \"...\"]; an array's 'until' takes a condition on 'it'",
                       at: literalLocation)
                return .bytes(.rest)
            }
            if fieldReadsText, case .named(let name, _) = base, name == "u8" {
                // `u8[n] @text`: the bytes of a u8 array, read as a string.
                fieldTextUsed = true
                if case .until = extentSyntax {
                    report(.typeMismatch, "@text reads a u8 array of a count or '..' as a string; for text up to a terminator write string[until ...]",
                           at: location)
                    return .bytes(.rest)
                }
                fieldPaddingUsed = true
                return .string(resolveExtent(extentSyntax, scope: scope, element: nil), encoding: fieldEncoding,
                               padding: fieldPadding)
            }
            let element = resolveType(base, scope: scope)
            let extent = resolveExtent(extentSyntax, scope: scope, element: shallowType(base, file: scope.file))
            return .array(element: element, extent: extent)
        case .switchOn(let subjectSyntax, let caseSyntaxes, let location):
            return resolveSwitch(subjectSyntax, caseSyntaxes, location: location, scope: scope)
        case .instance(let name, let argumentSyntaxes, let location):
            guard case .structure(let id)? = lookup(name, file: scope.file)?.declaration else {
                let message = BuiltinType.parse(name) != nil || name == "bytes" || name == "string"
                    ? "'\(name)' is a built-in type and takes no arguments"
                    : declarations[name] == nil ? "unknown type '\(name)'" : "'\(name)(...)' passes arguments, so '\(name)' must be a struct visible here"
                report(.unknownType, message, at: location)
                return .bytes(.rest)
            }
            let parameters = structSyntax[id].syntax.parameters
            guard parameters.count == argumentSyntaxes.count else {
                report(.typeMismatch, "struct '\(name)' takes \(parameters.count) argument\(parameters.count == 1 ? "" : "s") (\(parameters.map(\.name).joined(separator: ", "))), not \(argumentSyntaxes.count)",
                       at: location)
                return .bytes(.rest)
            }
            var arguments: [Program] = []
            for (parameter, argument) in zip(parameters, argumentSyntaxes) {
                let expected = parameterType(parameter.type, file: structSyntax[id].file)?.valueType ?? .invalid
                var builder = ProgramBuilder()
                let before = diagnostics.count
                let type = compile(argument, scope: scope, into: &builder, expected: expected)
                guard diagnostics.count == before else { continue }
                if !Self.comparable(type, expected) {
                    report(.typeMismatch, "argument '\(parameter.name)' of '\(name)' is \(expected), not \(type)", at: argument.location)
                    continue
                }
                arguments.append(builder.finish(text: describe(argument)))
            }
            return .instance(structID: id, arguments: arguments)
        case .dispatch(let name, let keySyntaxes, let location):
            guard let table = tableIndex[name] else {
                report(.unknownType, "no dispatch table '\(name)'\(tableList)", at: location)
                return .bytes(.rest)
            }
            if keySyntaxes.isEmpty {
                report(.invalidValue, "'dispatch \(name)' needs at least one key, as in dispatch \(name)(type)", at: location)
            }
            let keyType = tableKeyTypes[table]
            var keys: [Program] = []
            for keySyntax in keySyntaxes {
                var builder = ProgramBuilder()
                let before = diagnostics.count
                let type = compile(keySyntax, scope: scope, into: &builder, expected: keyType)
                guard diagnostics.count == before else { continue }
                if !Self.comparable(type, keyType) || type == .boolean {
                    report(.typeMismatch, "a key of table '\(name)' is \(keyType), not \(type)", at: keySyntax.location)
                    continue
                }
                keys.append(builder.finish(text: describe(keySyntax)))
            }
            return .dispatch(table: table, keys: keys)
        }
    }

    /// A string's terminator in the field's encoding: a literal's bytes (whole UTF-16 code units),
    /// or a number as one code unit. Nil, reported, for anything else.
    mutating func terminator(_ syntax: ExpressionSyntax) -> [UInt8]? {
        switch syntax {
        case .bytes(let bytes, let location):
            if bytes.isEmpty {
                report(.invalidValue, "a terminator needs at least one byte", at: location)
                return nil
            }
            if bytes.count % fieldEncoding.codeUnitSize != 0 {
                report(.invalidValue, "a \(fieldEncoding.displayName) terminator is whole 2-byte code units, not \(bytes.count) bytes: write \"\\0\\0\" or a number such as 0",
                       at: location)
                return nil
            }
            return bytes
        case .integer(let value, let location):
            guard value <= UInt64(fieldEncoding.largestCodeUnit) else {
                report(.invalidValue, "terminator \(value) is not one \(fieldEncoding.displayName) code unit (at most \(fieldEncoding.largestCodeUnit))",
                       at: location)
                return nil
            }
            return fieldEncoding.codeUnit(UInt16(value))
        default:
            report(.typeMismatch, "a string's 'until' takes a terminator: a string literal such as \"\\r\\n\" or a code unit such as 0x3A",
                   at: syntax.location)
            return nil
        }
    }

    /// Whether a field asks for its bytes or u8 array to be read as text.
    static func readsAsText(_ field: FieldSyntax) -> Bool {
        field.attributes.contains { $0.name == "text" || $0.name == "encoding" }
    }

    mutating func resolveExtent(_ syntax: TypeSyntax.Extent, scope: Scope, element: ValueType?) -> Extent {
        switch syntax {
        case .rest:
            return .rest
        case .expression(let expression):
            let program = compileProgram(expression, scope: scope, expecting: .integer, role: "a length or count")
            return program.map(Extent.expression) ?? .rest
        case .until(let expression):
            var inner = scope
            inner.elementType = element
            // The array being read is in scope in its own `until` (the elements read so far:
            // `T[until sum(items, it.length) >= total]`).
            if let currentField, currentField.structID == scope.structID, inner.defined[currentField.name] == nil, let element {
                inner.defined[currentField.name] = (currentField.slot, .array(element))
            }
            let program = compileProgram(expression, scope: inner, expecting: .boolean, role: "an 'until' condition")
            return program.map(Extent.until) ?? .rest
        }
    }

    mutating func resolveSwitch(_ subjectSyntax: ExpressionSyntax?, _ caseSyntaxes: [TypeSyntax.SwitchCase],
                                location: SchemaLocation, scope: Scope) -> FieldType {
        var subject: Program?
        var subjectType: ValueType = .boolean
        if let subjectSyntax {
            var builder = ProgramBuilder()
            subjectType = compile(subjectSyntax, scope: scope, into: &builder, expected: nil)
            if !subjectType.isScalar {
                report(.typeMismatch, "a switch needs an integer, bool or enum subject, not \(subjectType)", at: subjectSyntax.location)
            }
            subject = builder.finish(text: describe(subjectSyntax))
        }
        var cases: [(values: [Int64], condition: Program?, type: FieldType)] = []
        var defaultType: FieldType?
        var seenValues: Set<Int64> = []
        var caseFields: [Int] = []
        var defaultField = -1
        for caseSyntax in caseSyntaxes {
            let (type, caseField) = resolveCase(caseSyntax, scope: scope)
            if caseSyntax.patterns.isEmpty {
                if defaultType != nil { report(.duplicateName, "a switch has only one '_' case", at: caseSyntax.location) }
                defaultType = type
                defaultField = caseField
                continue
            }
            caseFields.append(caseField)
            if subject == nil {
                // Subject-less switch: each pattern is a condition; several mean any of them.
                let combined = caseSyntax.patterns.dropFirst().reduce(caseSyntax.patterns[0]) {
                    ExpressionSyntax.binary(.or, $0, $1, $1.location)
                }
                let condition = compileProgram(combined, scope: scope, expecting: .boolean, role: "a switch case condition")
                cases.append(([], condition, type))
                continue
            }
            var values: [Int64] = []
            for pattern in caseSyntax.patterns {
                var builder = ProgramBuilder()
                let patternType = compile(pattern, scope: scope, into: &builder, expected: subjectType)
                if !Self.comparable(patternType, subjectType) {
                    report(.typeMismatch, "case value of type \(patternType) does not match the switch subject's type \(subjectType)",
                           at: pattern.location)
                    continue
                }
                guard let value = constantValue(of: builder.finish(text: ""), at: pattern.location) else { continue }
                if !seenValues.insert(value).inserted {
                    report(.duplicateName, "case value \(value) already appears in this switch", at: pattern.location)
                }
                values.append(value)
            }
            cases.append((values, nil, type))
        }
        let caseFieldIDs = caseFields + [defaultField]
        return .switchOn(SwitchType(subject: subject, cases: cases, defaultType: defaultType,
                                    caseFieldIDs: caseFieldIDs.contains { $0 >= 0 } ? caseFieldIDs : []))
    }

    /// A switch case's type and, when it has attributes, the field its value is read as: the
    /// switch's field with the case's filter name, display hint or encoding (-1 without attributes).
    mutating func resolveCase(_ syntax: TypeSyntax.SwitchCase, scope: Scope) -> (FieldType, Int) {
        guard !syntax.attributes.isEmpty else { return (resolveType(syntax.type, scope: scope), -1) }
        var naming: FilterNaming?
        var hint: (DisplayHint, AttributeSyntax)?
        var textAttributes: [AttributeSyntax] = []
        let (savedEncoding, savedReadsText, savedTextUsed) = (fieldEncoding, fieldReadsText, fieldTextUsed)
        defer { (fieldEncoding, fieldReadsText, fieldTextUsed) = (savedEncoding, savedReadsText, savedTextUsed) }
        for attribute in syntax.attributes {
            switch attribute.name {
            case "name":
                naming = checkFilterName(attribute)
            case "hex", "dec", "bin", "mac", "ipv4", "ipv6", "flag", "ascii":
                if !attribute.arguments.isEmpty { report(.invalidValue, "@\(attribute.name) takes no arguments", at: attribute.location) }
                hint = (Self.displayHints[attribute.name] ?? .automatic, attribute)
            case "encoding", "text":
                textAttributes.append(attribute)
                if attribute.name == "text" {
                    if !attribute.arguments.isEmpty { report(.invalidValue, "@text takes no arguments", at: attribute.location) }
                } else if let encoding = checkEncoding(attribute) {
                    fieldEncoding = encoding
                }
            default:
                report(.invalidValue, "'@\(attribute.name)' does not apply to a switch case (known: @name, @hex, @dec, @bin, @mac, @ipv4, "
                       + "@ipv6, @flag, @ascii, @encoding, @text); write it after the switch's closing brace for the whole field",
                       at: attribute.location)
            }
        }
        fieldReadsText = fieldReadsText || !textAttributes.isEmpty
        fieldTextUsed = false
        let type = resolveType(syntax.type, scope: scope)
        if let attribute = textAttributes.first, !fieldTextUsed {
            report(.invalidValue, "'@\(attribute.name)' does nothing on \(Self.describe(type)): it applies to strings, bytes and u8 arrays",
                   at: attribute.location)
        }
        if let (display, attribute) = hint, !Self.hint(display, appliesTo: type) {
            report(.invalidValue, "'@\(attribute.name)' does nothing on \(Self.describe(type)): it applies to \(Self.targets(of: display))",
                   at: attribute.location)
        }
        guard let field = currentField else { return (type, -1) }
        let caseField = Field(id: fields.count, name: field.name, structID: field.structID, slot: field.slot, type: type,
                              condition: nil, constraints: [], size: nil, display: hint?.0 ?? field.display, displayFormat: nil,
                              location: syntax.location, filterNaming: naming ?? field.naming)
        fields.append(caseField)
        return (type, caseField.id)
    }

    func defaults(of file: Int) -> (Endianness, BitOrder) {
        (files[file].endian?.0 ?? .big, files[file].bitOrder?.0 ?? .msbFirst)
    }

    // MARK: - Containment cycles

    mutating func checkContainmentCycles(_ structs: [StructType]) {
        // Edges: a field that always holds the other struct (no condition, not in an array or a switch).
        var edges: [[Int]] = Array(repeating: [], count: structs.count)
        for structure in structs {
            for fieldID in structure.fieldIDs {
                let field = fields[fieldID]
                guard field.condition == nil else { continue }
                if case .structure(let target) = field.type { edges[structure.id].append(target) }
                if case .instance(let target, _) = field.type { edges[structure.id].append(target) }
            }
        }
        // Depth-first search with an explicit stack, so a long chain of structs cannot exhaust the call stack.
        var state = Array(repeating: 0, count: structs.count)  // 0 new, 1 on the path, 2 done
        var path: [(node: Int, nextEdge: Int)] = []
        var reported: Set<Int> = []
        for root in structs.indices where state[root] == 0 {
            state[root] = 1
            path.append((root, 0))
            while let (node, nextEdge) = path.last {
                guard nextEdge < edges[node].count else {
                    state[node] = 2
                    path.removeLast()
                    continue
                }
                path[path.count - 1].nextEdge += 1
                let next = edges[node][nextEdge]
                if state[next] == 1, let start = path.firstIndex(where: { $0.node == next }), !reported.contains(next) {
                    let cycle = path[start...].map { structs[$0.node].name } + [structs[next].name]
                    reported.formUnion(path[start...].map(\.node))
                    report(.infiniteRecursion,
                           "struct '\(structs[next].name)' contains itself with no way to end (\(cycle.joined(separator: " → "))); make the field conditional, an array or a switch case",
                           at: structs[next].location)
                } else if state[next] == 0 {
                    state[next] = 1
                    path.append((next, 0))
                }
            }
        }
    }
}
