import BinaryIO

/// Pass: the dispatch tables, the registrations on them, and the declarations every file can see.
extension Checker {
    // MARK: - Dispatch tables and registrations

    mutating func resolveTables() {
        for entry in tableSyntax {
            var keyType = ValueType.invalid
            var integer: IntegerType?
            if case .named(let name, _) = entry.syntax.keyType {
                if case .integer(let builtin)? = BuiltinType.parse(name)?.resolved(defaults: defaults(of: entry.file)) {
                    keyType = .integer
                    integer = builtin
                } else if case .enumeration(let id)? = lookup(name, file: entry.file)?.declaration {
                    keyType = .enumeration(id, name: name)
                    integer = enums.indices.contains(id) ? enums[id].base : nil
                }
            }
            if integer == nil {
                report(.typeMismatch, "the key type of table '\(entry.syntax.name)' must be an integer type or an enum",
                       at: entry.syntax.keyType.location)
            }
            tableKeyTypes.append(keyType)
            tableKeyIntegers.append(integer)
        }
        tableEntries = Array(repeating: [], count: tableSyntax.count)
        tableHeuristics = Array(repeating: [], count: tableSyntax.count)
    }

    /// Checks every `register` in load order and fills the tables. Two registrations that claim the same
    /// key are an error unless the later one says `override`; exact values are looked up before ranges.
    mutating func collectRegistrations() {
        for (fileIndex, file) in files.enumerated() {
            for registration in file.registrations {
                guard let table = tableIndex[registration.table] else {
                    report(.unknownType, "no dispatch table '\(registration.table)'\(tableList)", at: registration.tableLocation)
                    continue
                }
                for entry in registration.entries {
                    guard let structID = registeredStruct(entry.target, file: fileIndex, at: entry.targetLocation) else { continue }
                    let tableName = registration.table
                    if entry.isHeuristic {
                        if let earlier = tableHeuristics[table].first(where: { $0.structID == structID }) {
                            report(.duplicateName, "'\(entry.target)' is already a heuristic of '\(tableName)' (\(earlier.location))",
                                   at: entry.location)
                            continue
                        }
                        let syntax = structSyntax[structID].syntax
                        let constrained = syntax.attributes.contains { $0.name == "requires" } || syntax.fields.contains { field in
                            field.expectedValue != nil || field.attributes.contains { $0.name == "assert" }
                        }
                        if !constrained {
                            report(.invalidValue, "heuristic '\(entry.target)' has no constraint to claim a payload with: give it a @requires, or a field of it an '== value' or an @assert",
                                   at: entry.targetLocation)
                            continue
                        }
                        tableHeuristics[table].append(DispatchTable.Entry(low: 0, high: 0, structID: structID,
                                                                           isOverride: entry.isOverride, location: entry.location))
                        continue
                    }
                    for key in entry.keys {
                        guard let low = tableKey(key.low, table: table, file: fileIndex) else { continue }
                        var high = low
                        if let highSyntax = key.high {
                            guard let value = tableKey(highSyntax, table: table, file: fileIndex) else { continue }
                            guard value >= low else {
                                report(.invalidValue, "the range \(low)...\(value) is empty: write the lower key first", at: highSyntax.location)
                                continue
                            }
                            high = value
                        }
                        let candidate = DispatchTable.Entry(low: low, high: high, structID: structID, isOverride: entry.isOverride,
                                                            location: key.low.location)
                        // An exact value inside a registered range is more specific, not a conflict.
                        if let clash = tableEntries[table].first(where: {
                            $0.isOverride == candidate.isOverride && $0.isRange == candidate.isRange
                                && $0.low <= candidate.high && candidate.low <= $0.high
                        }) {
                            let keys = clash.isRange ? "\(clash.low)...\(clash.high)" : String(clash.low)
                            let owner = structSyntax[clash.structID].syntax.name
                            let advice = entry.isOverride ? "only one override per key" : "write 'override' before the key to replace it"
                            report(.duplicateName, "\(tableName) \(keys) is already registered to \(owner) at \(clash.location); \(advice)",
                                   at: key.low.location)
                            continue
                        }
                        tableEntries[table].append(candidate)
                    }
                }
            }
        }
    }

    /// The struct a registration names, as seen from the registering file.
    mutating func registeredStruct(_ name: String, file: Int, at location: SchemaLocation) -> Int? {
        if case .structure(let id)? = lookup(name, file: file)?.declaration {
            guard structSyntax[id].syntax.parameters.isEmpty else {
                report(.typeMismatch, "struct '\(name)' takes parameters, which a table cannot pass", at: location)
                return nil
            }
            return id
        }
        if let hidden = declarations[name] {
            if case .structure = hidden.declaration {
                report(.unknownType, "struct '\(name)' is declared in \(hidden.location.path), which this file does not import", at: location)
            } else {
                report(.typeMismatch, "a registration selects a struct; '\(name)' is not one", at: location)
            }
        } else {
            report(.unknownType, "unknown struct '\(name)'", at: location)
        }
        return nil
    }

    /// A registration key: a constant of the table's key type (`.tcp` for an enum key) that fits its width.
    mutating func tableKey(_ syntax: ExpressionSyntax, table: Int, file: Int) -> Int64? {
        let scope = Scope(structID: -1, structName: "", file: file, allFieldNames: [])
        var builder = ProgramBuilder()
        let before = diagnostics.count
        let keyType = tableKeyTypes[table]
        let type = compile(syntax, scope: scope, into: &builder, expected: keyType)
        guard diagnostics.count == before else { return nil }
        if !Self.comparable(type, keyType) || type == .boolean {
            report(.typeMismatch, "a key of table '\(tableSyntax[table].syntax.name)' is \(keyType), not \(type)", at: syntax.location)
            return nil
        }
        guard let value = constantValue(of: builder.finish(text: ""), at: syntax.location) else { return nil }
        if let integer = tableKeyIntegers[table], !Self.fits(value, in: integer) {
            report(.invalidValue, "key \(value) does not fit the key type \(Self.typeName(tableSyntax[table].syntax.keyType)) of table '\(tableSyntax[table].syntax.name)'",
                   at: syntax.location)
            return nil
        }
        return value
    }

    /// ` (tables: a, b)` for an error about an unknown table.
    var tableList: String {
        tableIndex.isEmpty ? " (no table is declared; declare one with 'table NAME: u16')"
            : " (tables: \(tableIndex.keys.sorted().joined(separator: ", ")))"
    }

    static func typeName(_ syntax: TypeSyntax) -> String {
        if case .named(let name, _) = syntax { return name }
        return "?"
    }

    // MARK: - Declarations

    mutating func collectDeclarations() {
        for (fileIndex, file) in files.enumerated() {
            for syntax in file.enums {
                if declare(syntax.name, .enumeration(enumSyntax.count), file: fileIndex, at: syntax.location) {
                    enumSyntax.append((syntax, fileIndex))
                }
            }
            for syntax in file.structs {
                if declare(syntax.name, .structure(structSyntax.count), file: fileIndex, at: syntax.location) {
                    structSyntax.append((syntax, fileIndex))
                }
            }
            for syntax in file.aliases {
                if declare(syntax.name, .alias(aliasSyntax.count), file: fileIndex, at: syntax.location) {
                    aliasSyntax.append((syntax, fileIndex))
                }
            }
            for syntax in file.tables {
                if let existing = tableIndex[syntax.name] {
                    report(.duplicateName, "table '\(syntax.name)' is already declared at \(tableSyntax[existing].syntax.location)",
                           at: syntax.location)
                    continue
                }
                tableIndex[syntax.name] = tableSyntax.count
                tableSyntax.append((syntax, fileIndex))
            }
        }
    }

    mutating func declare(_ name: String, _ declaration: Declaration, file: Int, at location: SchemaLocation) -> Bool {
        if BuiltinType.parse(name) != nil || name == "bytes" || name == "string" {
            report(.duplicateName, "'\(name)' is a built-in type and cannot be redeclared", at: location)
            return false
        }
        if let existing = declarations[name] {
            report(.duplicateName, "'\(name)' is already declared at \(existing.location)", at: location)
            return false
        }
        declarations[name] = (declaration, file, location)
        return true
    }

    mutating func resolveEnums() {
        for (id, entry) in enumSyntax.enumerated() {
            let syntax = entry.syntax
            rejectAttributes(syntax.attributes, allowed: [], on: "an enum")
            var base = IntegerType(bits: 8, isSigned: false, endianness: .big, bitOrder: .msbFirst, hasExplicitEndianness: false)
            if case .named(let name, let location) = syntax.baseType,
               case .integer(let integer)? = BuiltinType.parse(name)?.resolved(defaults: defaults(of: entry.file)) {
                base = integer
                _ = location
            } else {
                report(.typeMismatch, "the base type of enum '\(syntax.name)' must be an integer type such as u8 or u16",
                       at: syntax.baseType.location)
            }
            var cases: [(name: String, value: Int64)] = []
            var seen: Set<String> = []
            for entryCase in syntax.cases {
                if !seen.insert(entryCase.name).inserted {
                    report(.duplicateName, "enum '\(syntax.name)' already has a case '\(entryCase.name)'", at: entryCase.location)
                    continue
                }
                let value: Int64
                if case .integer(let magnitude, _) = entryCase.value, magnitude > UInt64(Int64.max),
                   !base.isSigned, base.bits == 64 {
                    // A u64 case above Int64.max keeps its bit pattern, which is how the value read is matched.
                    value = Int64(bitPattern: magnitude)
                } else {
                    guard let folded = constant(entryCase.value, file: entry.file) else { continue }
                    if !Self.fits(folded, in: base) {
                        report(.invalidValue, "\(folded) does not fit the \(base.bits)-bit base type of enum '\(syntax.name)'",
                               at: entryCase.value.location)
                    }
                    value = folded
                }
                cases.append((entryCase.name, value))
            }
            enums.append(EnumType(id: id, name: syntax.name, base: base, cases: cases))
        }
    }

    static func fits(_ value: Int64, in type: IntegerType) -> Bool {
        if type.bits >= 64 { return type.isSigned || value >= 0 }
        if type.isSigned {
            let limit = Int64(1) << Int64(type.bits - 1)
            return value >= -limit && value < limit
        }
        return value >= 0 && value < Int64(1) << Int64(type.bits)
    }
}
