import BinaryIO

/// Turns parsed schema files into a checked ``Schema``: resolves names, checks
/// types, compiles expressions, and reports every error it finds, not only the first.
struct Checker {
    private let files: [FileSyntax]
    /// For each file, the files whose declarations it can see: itself and its transitive imports.
    private let visibleFiles: [Set<Int>]
    private(set) var diagnostics: [Diagnostic] = []

    private enum Declaration {
        case structure(Int)
        case enumeration(Int)
        case alias(Int)
    }

    private var declarations: [String: (declaration: Declaration, file: Int, location: SchemaLocation)] = [:]
    private var structSyntax: [(syntax: StructSyntax, file: Int)] = []
    private var enumSyntax: [(syntax: EnumSyntax, file: Int)] = []
    private var aliasSyntax: [(syntax: AliasSyntax, file: Int)] = []
    /// Aliases being expanded right now, to catch one that refers to itself.
    private var expandingAliases: Set<Int> = []
    /// Deepest chain of aliases expanded one inside another (bounds recursion on hostile schemas).
    private static let aliasDepthLimit = 64
    private var enums: [EnumType] = []
    /// Phase A: each struct's fields with the types expressions see, before anything is compiled.
    private var shallowFields: [[(name: String, type: ValueType)]] = []
    /// Structs that contain each struct through some field, for `parent.x`.
    private var parentsOf: [Set<Int>] = []
    private var fields: [Field] = []
    /// Dispatch tables by name (global: any file registers on any table, as in Wireshark).
    private var tableIndex: [String: Int] = [:]
    private var tableSyntax: [(syntax: TableSyntax, file: Int)] = []
    /// Each table's key type as expressions see it (`.invalid` when the declaration is wrong).
    private var tableKeyTypes: [ValueType] = []
    private var tableKeyIntegers: [IntegerType?] = []
    private var tableEntries: [[DispatchTable.Entry]] = []
    private var tableHeuristics: [[DispatchTable.Entry]] = []
    /// The text settings of the field whose type is being resolved: its `@encoding`, whether
    /// `@text` (or `@encoding`) reads its bytes or u8 array as a string, and whether any string
    /// took them (else the attributes did nothing, which is an error).
    /// The field being checked, for the fields a switch case with attributes makes: its name, slot,
    /// display hint and filter naming.
    private var currentField: (name: String, slot: Int, structID: Int, display: DisplayHint, naming: FilterNaming?)?
    private var fieldEncoding = TextEncoding.utf8
    /// `@pad(b)` of the field being checked, and whether a string of a length took it.
    private var fieldPadding: UInt8?
    private var fieldPaddingUsed = false
    private var fieldReadsText = false
    private var fieldTextUsed = false

    init(files: [FileSyntax], visibleFiles: [Set<Int>]) {
        self.files = files
        self.visibleFiles = visibleFiles
    }

    mutating func check() -> Schema? {
        collectDeclarations()
        resolveEnums()
        resolveTables()
        collectRegistrations()
        computeShallowFields()
        var structs: [StructType] = []
        for (id, entry) in structSyntax.enumerated() {
            structs.append(checkStruct(id: id, syntax: entry.syntax, file: entry.file))
        }
        checkContainmentCycles(structs)
        let tables = tableSyntax.indices.map { index in
            DispatchTable(name: tableSyntax[index].syntax.name, keyTypeName: Self.typeName(tableSyntax[index].syntax.keyType),
                          keyEnumID: { if case .enumeration(let id, _) = tableKeyTypes[index] { return id } else { return nil } }(),
                          location: tableSyntax[index].syntax.location, entries: tableEntries[index],
                          heuristics: tableHeuristics[index])
        }
        return diagnostics.isEmpty ? Schema(structs: structs, enums: enums, fields: fields, dispatchTables: tables) : nil
    }

    // MARK: - Dispatch tables and registrations

    private mutating func resolveTables() {
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
    private mutating func collectRegistrations() {
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
    private mutating func registeredStruct(_ name: String, file: Int, at location: SchemaLocation) -> Int? {
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
    private mutating func tableKey(_ syntax: ExpressionSyntax, table: Int, file: Int) -> Int64? {
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
    private var tableList: String {
        tableIndex.isEmpty ? " (no table is declared; declare one with 'table NAME: u16')"
            : " (tables: \(tableIndex.keys.sorted().joined(separator: ", ")))"
    }

    private static func typeName(_ syntax: TypeSyntax) -> String {
        if case .named(let name, _) = syntax { return name }
        return "?"
    }

    // MARK: - Declarations

    private mutating func collectDeclarations() {
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

    private mutating func declare(_ name: String, _ declaration: Declaration, file: Int, at location: SchemaLocation) -> Bool {
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

    private mutating func resolveEnums() {
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

    private static func fits(_ value: Int64, in type: IntegerType) -> Bool {
        if type.bits >= 64 { return type.isSigned || value >= 0 }
        if type.isSigned {
            let limit = Int64(1) << Int64(type.bits - 1)
            return value >= -limit && value < limit
        }
        return value >= 0 && value < Int64(1) << Int64(type.bits)
    }

    // MARK: - Phase A: shallow types and containment

    private mutating func computeShallowFields() {
        parentsOf = Array(repeating: [], count: structSyntax.count)
        for (id, entry) in structSyntax.enumerated() {
            var list: [(name: String, type: ValueType)] = entry.syntax.parameters.map { parameter in
                (parameter.name, parameterType(parameter.type, file: entry.file)?.valueType ?? .invalid)
            }
            for field in entry.syntax.fields {
                if let value = field.value {
                    if case .named(let typeName, _) = field.type, typeName != "let",
                       case .enumeration(let enumID)? = lookup(typeName, file: entry.file)?.declaration {
                        list.append((field.name, .enumeration(enumID, name: typeName)))
                    } else {
                        list.append((field.name, Self.computedType(value, earlier: list)))
                    }
                    continue
                }
                var type = shallowType(field.type, file: entry.file)
                if Self.readsAsText(field), type == .bytes || type == .array(.integer) { type = .string }
                list.append((field.name, type))
                for child in containedStructs(field.type, file: entry.file) { parentsOf[child].insert(id) }
            }
            shallowFields.append(list)
        }
    }

    /// `expanding`: aliases being expanded on the way here, so one that refers to itself ends.
    private func shallowType(_ type: TypeSyntax, file: Int, expanding: Set<Int> = []) -> ValueType {
        switch type {
        case .named(let name, _):
            if let builtin = BuiltinType.parse(name) { return builtin.valueType }
            switch lookup(name, file: file)?.declaration {
            case .structure(let id)?: return .structure(id, name: name)
            case .enumeration(let id)?: return .enumeration(id, name: name)
            case .alias(let id)?:
                guard !expanding.contains(id), expanding.count < Self.aliasDepthLimit else { return .invalid }
                return shallowType(aliasSyntax[id].syntax.type, file: file, expanding: expanding.union([id]))
            case nil: return .invalid
            }
        case .subscripted(let base, _, _):
            if case .named(let name, _) = base {
                if name == "bytes" { return .bytes }
                if name == "string" { return .string }
            }
            return .array(shallowType(base, file: file, expanding: expanding))
        case .switchOn(_, let cases, _):
            // A switch of integers (or of one enum's values) is a number, whichever case was read.
            guard let first = cases.first else { return .varying }
            let type = shallowType(first.type, file: file, expanding: expanding)
            switch type {
            case .integer, .enumeration:
                let alike = cases.dropFirst().allSatisfy { shallowType($0.type, file: file, expanding: expanding) == type }
                return alike ? type : .varying
            default:
                return .varying
            }
        case .dispatch:
            return .varying
        case .instance(let name, _, _):
            if case .structure(let id)? = lookup(name, file: file)?.declaration { return .structure(id, name: name) }
            return .invalid
        }
    }

    /// A parameter's type: an integer type, `bool` or an enum; nil (and `.invalid`) otherwise.
    private func parameterType(_ syntax: TypeSyntax, file: Int) -> (valueType: ValueType, isBoolean: Bool, enumID: Int?)? {
        guard case .named(let name, _) = syntax else { return nil }
        switch BuiltinType.parse(name) {
        case .integer?: return (.integer, false, nil)
        case .boolean?: return (.boolean, true, nil)
        default: break
        }
        if case .enumeration(let id)? = lookup(name, file: file)?.declaration { return (.enumeration(id, name: name), false, id) }
        return nil
    }

    /// A computed value's type, known before anything is compiled: a bool when its expression is
    /// a comparison, a logical operation, `has(x)`, a bool literal or a bool field, else an integer.
    private static func computedType(_ syntax: ExpressionSyntax, earlier: [(name: String, type: ValueType)]) -> ValueType {
        switch syntax {
        case .boolean: return .boolean
        case .name(let name, _): return earlier.last { $0.name == name }?.type == .boolean ? .boolean : .integer
        case .unary(.not, _, _): return .boolean
        case .call("has", _, _), .call("any", _, _), .call("all", _, _), .call("zeros", _, _): return .boolean
        case .binary(let op, _, _, _) where op.isComparison || op.isLogical: return .boolean
        case .conditional(_, let whenTrue, _, _): return computedType(whenTrue, earlier: earlier)
        default: return .integer
        }
    }

    private func containedStructs(_ type: TypeSyntax, file: Int, expanding: Set<Int> = []) -> [Int] {
        switch type {
        case .named(let name, _):
            switch lookup(name, file: file)?.declaration {
            case .structure(let id)?: return [id]
            case .alias(let id)? where !expanding.contains(id) && expanding.count < Self.aliasDepthLimit:
                return containedStructs(aliasSyntax[id].syntax.type, file: file, expanding: expanding.union([id]))
            default: return []
            }
        case .subscripted(let base, _, _):
            return containedStructs(base, file: file, expanding: expanding)
        case .switchOn(_, let cases, _):
            return cases.flatMap { containedStructs($0.type, file: file, expanding: expanding) }
        case .instance(let name, _, _):
            if case .structure(let id)? = lookup(name, file: file)?.declaration { return [id] }
            return []
        case .dispatch(let name, _, _):
            // Every struct registered on the table can be read here, so `parent.x` inside it may mean this struct.
            guard let table = tableIndex[name] else { return [] }
            return (tableEntries[table] + tableHeuristics[table]).map(\.structID)
        }
    }

    private func lookup(_ name: String, file: Int) -> (declaration: Declaration, file: Int, location: SchemaLocation)? {
        guard let found = declarations[name], visibleFiles[file].contains(found.file) else { return nil }
        return found
    }

    // MARK: - Structs

    private struct Scope {
        let structID: Int
        let structName: String
        let file: Int
        /// Every field name of the struct, to tell "used before its definition" from "unknown".
        let allFieldNames: Set<String>
        var defined: [String: (slot: Int, type: ValueType)] = [:]
        /// The type of `it` inside an array's `until` condition.
        var elementType: ValueType?
    }

    private mutating func checkStruct(id: Int, syntax: StructSyntax, file: Int) -> StructType {
        var protocolAbbreviation: String?
        var linkTypes: [Int] = []
        var isOffsetBase = false
        var isLinkLayer = false
        var summaryFormat: String?
        var label: String?
        var pduAttribute: AttributeSyntax?
        var requiresAttributes: [AttributeSyntax] = []
        for attribute in syntax.attributes {
            switch attribute.name {
            case "requires":
                requiresAttributes.append(attribute)
            case "protocol":
                if attribute.arguments.count == 1, case .string(let text, _) = attribute.arguments[0], !text.isEmpty {
                    // It starts field paths and is written unescaped into JSON: a plain name only.
                    let isName = text.utf8.first.map { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") || $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") } == true
                        && text.utf8.allSatisfy { byte in
                            byte < 0x80 && (byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
                                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20))
                        }
                    if isName {
                        protocolAbbreviation = text
                    } else {
                        report(.invalidValue, "@protocol name '\(text)' must start with a letter and hold only letters, digits, '_', '-' and '.'",
                               at: attribute.location)
                    }
                } else {
                    report(.invalidValue, "@protocol takes one string: the short name that starts field paths, e.g. @protocol(\"ip\")",
                           at: attribute.location)
                }
            case "linktype":
                if attribute.arguments.isEmpty { report(.invalidValue, "@linktype needs at least one DLT number", at: attribute.location) }
                for argument in attribute.arguments {
                    if case .expression(let expression) = argument, let value = constant(expression, file: file) {
                        if value >= 0, value <= 0xFFFF_FFFF { linkTypes.append(Int(value)) } else {
                            report(.invalidValue, "link type \(value) is out of range", at: expression.location)
                        }
                    } else if case .string(_, let location) = argument {
                        report(.typeMismatch, "@linktype takes DLT numbers, not strings", at: location)
                    }
                }
            case "offset_base":
                isOffsetBase = true
            case "link":
                isLinkLayer = true
                if !attribute.arguments.isEmpty {
                    report(.invalidValue, "@link takes no arguments: it marks a link-layer header", at: attribute.location)
                }
                if !syntax.attributes.contains(where: { $0.name == "protocol" }) {
                    report(.invalidValue, "@link marks a protocol layer the summary hides: add @protocol(\"name\") to '\(syntax.name)'",
                           at: attribute.location)
                }
            case "label":
                if attribute.arguments.count == 1, case .string(let text, _) = attribute.arguments[0],
                   !text.isEmpty, !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                    label = text
                    if !syntax.attributes.contains(where: { $0.name == "protocol" }) {
                        report(.invalidValue, "@label names a protocol layer in the views: add @protocol(\"name\") to '\(syntax.name)'",
                               at: attribute.location)
                    }
                } else {
                    report(.invalidValue, "@label takes one non-empty string without control characters: the layer's name in the views, e.g. @label(\"IPv4\")",
                           at: attribute.location)
                }
            case "summary":
                if attribute.arguments.count == 1, case .string(let text, let location) = attribute.arguments[0] {
                    summaryFormat = text
                    checkSummary(text, fields: syntax.parameters.map(\.name) + syntax.fields.map(\.name), at: location)
                    if !syntax.attributes.contains(where: { $0.name == "protocol" }) {
                        report(.invalidValue, "@summary is shown only for protocol layers: add @protocol(\"name\") to '\(syntax.name)'",
                               at: attribute.location)
                    }
                } else {
                    report(.invalidValue, "@summary takes one string, with {field} placeholders, e.g. @summary(\"{src} > {dst}\")",
                           at: attribute.location)
                }
            case "pdu":
                if pduAttribute != nil {
                    report(.duplicateName, "'\(syntax.name)' already has a @pdu: a struct frames its stream one way", at: attribute.location)
                } else {
                    pduAttribute = attribute
                }
            default:
                report(.invalidValue,
                       "unknown struct attribute '@\(attribute.name)' (known: @protocol, @linktype, @link, @offset_base, @summary, @label, @pdu, @requires)",
                       at: attribute.location)
            }
        }

        if !syntax.parameters.isEmpty, !linkTypes.isEmpty {
            report(.invalidValue, "a struct with parameters cannot start a link type: nothing would pass them", at: syntax.location)
        }
        var scope = Scope(structID: id, structName: syntax.name, file: file,
                          allFieldNames: Set(syntax.fields.map(\.name) + syntax.parameters.map(\.name)))
        var structFields: [Field] = []
        var bitPhase: Int? = 0
        // Parameters are the struct's first slots: derived values its fields read like fields.
        for (index, parameter) in syntax.parameters.enumerated() {
            if scope.defined[parameter.name] != nil {
                report(.duplicateName, "struct '\(syntax.name)' already has a parameter '\(parameter.name)'", at: parameter.location)
                continue
            }
            guard let kind = parameterType(parameter.type, file: file) else {
                report(.typeMismatch, "a parameter is an integer type, bool or an enum", at: parameter.type.location)
                continue
            }
            scope.defined[parameter.name] = (index, kind.valueType)
            let field = Field(id: fields.count, name: parameter.name, structID: id, slot: index,
                              type: .parameter(index: index, isBoolean: kind.isBoolean, enumID: kind.enumID), condition: nil,
                              constraints: [], size: nil, display: .automatic, displayFormat: nil, location: parameter.location,
                              // What the user of the struct passed, shown where it was read: hidden here.
                              isHidden: true)
            structFields.append(field)
            fields.append(field)
        }
        // Checked before the first field is read: they see the parameters, the enclosing structs and
        // the bytes ahead (`peek`, `remaining()`), not the struct's own fields.
        let requirements = requiresAttributes.compactMap { attribute in
            singleExpression(attribute, scope: scope, expecting: .boolean, role: "a @requires condition",
                             usage: "@requires takes one bool expression, checked before the struct's first field is read")
        }
        for (position, fieldSyntax) in syntax.fields.enumerated() {
            let slot = position + syntax.parameters.count
            if scope.defined[fieldSyntax.name] != nil {
                let kind = syntax.parameters.contains { $0.name == fieldSyntax.name } ? "parameter" : "field"
                report(.duplicateName, "struct '\(syntax.name)' already has a \(kind) '\(fieldSyntax.name)'", at: fieldSyntax.location)
                continue
            }
            let field = checkField(fieldSyntax, slot: slot, scope: &scope, bitPhase: &bitPhase)
            structFields.append(field)
            fields.append(field)
        }
        let pduFraming = pduAttribute.flatMap { checkPDUFraming($0, file: file) }
        return StructType(id: id, name: syntax.name, protocolAbbreviation: protocolAbbreviation, label: label, linkTypes: linkTypes,
                          isOffsetBase: isOffsetBase, isLinkLayer: isLinkLayer, summaryFormat: summaryFormat, fields: structFields,
                          location: syntax.location, pduFraming: pduFraming, requirements: requirements)
    }

    // MARK: - PDU framing

    /// `@pdu(PDUStruct, length: expression, accept: condition)` or `@pdu(PDUStruct, builtin)`:
    /// how the PDUs of the protocol this struct reads are delimited in a TCP byte stream.
    private mutating func checkPDUFraming(_ attribute: AttributeSyntax, file: Int) -> PDUFraming? {
        let usage = "@pdu takes the struct that reads one PDU, then 'length: expression' (and optionally "
            + "'accept: condition') or the name of a builtin framing (\(PDUFraming.builtinNames.joined(separator: ", ")))"
        guard case .expression(let first)? = attribute.arguments.first else {
            report(.invalidValue, usage, at: attribute.location)
            return nil
        }
        guard case .name(let structName, let structLocation) = first else {
            report(.invalidValue, usage, at: first.location)
            return nil
        }
        var valid = true
        var pduStructID: Int?
        switch lookup(structName, file: file)?.declaration {
        case .structure(let id)?:
            if !structSyntax[id].syntax.parameters.isEmpty {
                report(.invalidValue, "@pdu: '\(structName)' has parameters, and nothing would pass them to the struct that reads a PDU",
                       at: structLocation)
                valid = false
            }
            pduStructID = id
        default:
            report(.unknownType, "@pdu: no struct '\(structName)' to read a PDU with", at: structLocation)
            valid = false
        }
        var builtin: String?
        var lengthSyntax: ExpressionSyntax?
        var acceptSyntax: ExpressionSyntax?
        for argument in attribute.arguments.dropFirst() {
            switch argument {
            case .labeled("length", let expression, let location), .labeled("accept", let expression, let location):
                let isLength: Bool
                if case .labeled("length", _, _) = argument { isLength = true } else { isLength = false }
                if (isLength ? lengthSyntax : acceptSyntax) != nil {
                    report(.duplicateName, "@pdu has one '\(isLength ? "length" : "accept"):'", at: location)
                    valid = false
                } else if isLength {
                    lengthSyntax = expression
                } else {
                    acceptSyntax = expression
                }
            case .labeled(let label, _, let location):
                report(.invalidValue, "@pdu has no argument '\(label):' (known: length:, accept:)", at: location)
                valid = false
            case .expression(.name(let name, let location)):
                if builtin != nil {
                    report(.duplicateName, "@pdu names one builtin framing", at: location)
                    valid = false
                } else if PDUFraming.builtinNames.contains(name) {
                    builtin = name
                } else {
                    report(.invalidValue, "@pdu: no builtin framing '\(name)' (known: \(PDUFraming.builtinNames.joined(separator: ", ")))",
                           at: location)
                    valid = false
                }
            case .expression(let expression):
                report(.invalidValue, usage, at: expression.location)
                valid = false
            case .string(_, let location):
                report(.invalidValue, usage, at: location)
                valid = false
            case .span(let low, _):
                report(.invalidValue, usage, at: low.location)
                valid = false
            }
        }
        if builtin != nil, lengthSyntax != nil || acceptSyntax != nil {
            report(.invalidValue, "@pdu: a builtin framing has no 'length:' or 'accept:'", at: attribute.location)
            valid = false
        }
        if builtin == nil, lengthSyntax == nil, valid {
            report(.invalidValue, "@pdu needs 'length: expression' (the PDU's length in bytes from its first, read with peek(i)), "
                   + "or the name of a builtin framing", at: attribute.location)
            valid = false
        }
        // No fields: the expressions read the stream's bytes at the PDU's start.
        let scope = Scope(structID: -1, structName: "", file: file, allFieldNames: [])
        var length: Program?
        var accept: Program?
        if let lengthSyntax, checkStreamExpression(lengthSyntax, file: file) {
            length = compileProgram(lengthSyntax, scope: scope, expecting: .integer, role: "a @pdu length")
        }
        if let acceptSyntax, checkStreamExpression(acceptSyntax, file: file) {
            accept = compileProgram(acceptSyntax, scope: scope, expecting: .boolean, role: "a @pdu accept condition")
        }
        if lengthSyntax != nil, length == nil { valid = false }
        if acceptSyntax != nil, accept == nil { valid = false }
        guard valid, let pduStructID else { return nil }
        return PDUFraming(pduStructID: pduStructID, builtin: builtin, length: length, accept: accept)
    }

    /// Reports what a @pdu expression cannot read: it sees the stream's bytes (`peek(i)`,
    /// `remaining()`, `zeros(n)`), not fields. Whether none was found.
    private mutating func checkStreamExpression(_ syntax: ExpressionSyntax, file: Int) -> Bool {
        let message = "a @pdu expression reads the stream's bytes at the PDU's start with peek(i), remaining() and zeros(n); it has no fields"
        switch syntax {
        case .integer, .boolean, .bytes, .enumCase:
            return true
        case .name(let name, let location):
            report(.unknownField, "\(message): '\(name)'", at: location)
            return false
        case .member(let base, _, _):
            // `EnumName.case` is a constant.
            if case .name(let typeName, _) = base, case .enumeration? = lookup(typeName, file: file)?.declaration { return true }
            report(.unknownField, "\(message): '\(describe(syntax))'", at: Self.start(of: syntax))
            return false
        case .index:
            report(.unknownField, "\(message): '\(describe(syntax))'", at: Self.start(of: syntax))
            return false
        case .unary(_, let operand, _):
            return checkStreamExpression(operand, file: file)
        case .binary(_, let left, let right, _):
            let leftValid = checkStreamExpression(left, file: file)
            return checkStreamExpression(right, file: file) && leftValid
        case .conditional(let condition, let whenTrue, let whenFalse, _):
            let results = [condition, whenTrue, whenFalse].map { checkStreamExpression($0, file: file) }
            return !results.contains(false)
        case .call(let name, let arguments, let location):
            if ["len", "has", "offset"].contains(name) {
                report(.unknownField, "\(message): \(name)() is not available here", at: location)
                return false
            }
            let results = arguments.map { checkStreamExpression($0, file: file) }
            return !results.contains(false)
        }
    }

    /// Where a path (`parent.x`, `a[1].b`) starts: its first name.
    private static func start(of syntax: ExpressionSyntax) -> SchemaLocation {
        switch syntax {
        case .member(let base, _, _), .index(let base, _, _): return start(of: base)
        default: return syntax.location
        }
    }

    /// Each `{placeholder}` of a summary must start with one of the struct's field names; each
    /// optional group `{?…}` must be closed and name at least one field. Errors point into the
    /// string (`location` is its opening quote).
    private mutating func checkSummary(_ format: String, fields: [String], at location: SchemaLocation) {
        func at(_ offset: Int) -> SchemaLocation {
            SchemaLocation(path: location.path, line: location.line, column: location.column + 1 + offset)
        }
        var group: (offset: Int, placeholders: Int)?
        for token in SummarySegment.tokens(format) {
            switch token {
            case .literal:
                break
            case .unterminatedPlaceholder(let offset):
                report(.invalidValue, "@summary has a '{' without its '}'", at: at(offset))
                return
            case .groupOpen(let offset):
                group = (offset, 0)
            case .groupClose(let offset):
                if let open = group, open.placeholders == 0 {
                    report(.invalidValue, "@summary optional group '{?…}' names no field: it would always show, so write its text without '{?' and '}'",
                           at: at(offset))
                }
                group = nil
            case .placeholder(let placeholder, let offset):
                group?.placeholders += 1
                if placeholder.hasPrefix("?") {
                    report(.invalidValue, "@summary optional groups do not nest: '{?' inside '{?…}' (plain {field} placeholders do)",
                           at: at(offset))
                    continue
                }
                let parts = SummarySegment.form(of: placeholder)
                var paths = [parts.path]
                switch parts.form {
                case .range:
                    if let colon = placeholder.firstIndex(of: ":") {
                        let other = placeholder[placeholder.index(after: colon)...]
                        paths.append(other.hasPrefix("#") ? other.dropFirst() : other)
                    }
                case .letters:
                    let pairs = parts.letterPairs
                    if pairs.isEmpty || pairs.contains(where: { $0.field.isEmpty || $0.letter.isEmpty }) {
                        report(.invalidValue, "@summary letters '{\(placeholder)}' take 'field:letter' pairs after '|', e.g. {flags|syn:S ack:.}",
                               at: at(offset))
                    }
                default:
                    break
                }
                for path in paths where !fields.contains(String(path.prefix { $0 != "." && $0 != "[" })) {
                    report(.unknownField, "@summary placeholder '{\(placeholder)}' names no field of this struct", at: at(offset))
                }
            }
        }
        if let open = group {
            report(.invalidValue, "@summary optional group '{?' has no closing '}'", at: at(open.offset))
        }
    }

    private mutating func checkField(_ syntax: FieldSyntax, slot: Int, scope: inout Scope, bitPhase: inout Int?) -> Field {
        if let value = syntax.value { return checkComputed(syntax, value: value, slot: slot, scope: &scope) }
        var condition: Program?
        if let conditionSyntax = syntax.condition {
            condition = compileProgram(conditionSyntax, scope: scope, expecting: .boolean, role: "an 'if' condition")
        }
        var display = DisplayHint.automatic
        var size: Program?
        var displayFormat: (format: String, arguments: [Program])?
        var postAttributes: [AttributeSyntax] = []
        var hintAttribute: AttributeSyntax?
        var littleEndian: Program?
        var position: Program?
        var alignment = 0
        var textAttributes: [AttributeSyntax] = []
        fieldEncoding = .utf8
        var padAttribute: AttributeSyntax?
        var checksumAttribute: AttributeSyntax?
        var filterNaming: FilterNaming?
        for attribute in syntax.attributes {
            switch attribute.name {
            case "name":
                filterNaming = checkFilterName(attribute)
            case "encoding":
                textAttributes.append(attribute)
                if let encoding = checkEncoding(attribute) { fieldEncoding = encoding }
            case "text":
                textAttributes.append(attribute)
                if !attribute.arguments.isEmpty { report(.invalidValue, "@text takes no arguments", at: attribute.location) }
            case "pad":
                padAttribute = attribute
                guard attribute.arguments.count == 1, case .expression(let expression) = attribute.arguments[0],
                      let value = constant(expression, file: scope.file), (0...255).contains(value) else {
                    report(.invalidValue, "@pad takes one byte, 0 to 255: the byte a fixed-size string is padded with (@pad(0x20))",
                           at: attribute.location)
                    continue
                }
                fieldPadding = UInt8(value)
            case "size":
                size = singleExpression(attribute, scope: scope, expecting: .integer, role: "a @size",
                                        usage: "@size takes one integer expression: the field's length in bytes")
            case "hex", "dec", "bin", "mac", "ipv4", "ipv6", "flag", "ascii":
                if !attribute.arguments.isEmpty { report(.invalidValue, "@\(attribute.name) takes no arguments", at: attribute.location) }
                display = Self.displayHints[attribute.name] ?? .automatic
                hintAttribute = attribute
            case "display", "assert":
                postAttributes.append(attribute)
            case "at":
                position = singleExpression(attribute, scope: scope, expecting: .integer, role: "an @at offset",
                                            usage: "@at takes one integer expression: the byte offset from the start of the nearest @offset_base struct or the input")
            case "align":
                guard attribute.arguments.count == 1, case .expression(let expression) = attribute.arguments[0] else {
                    report(.invalidValue, "@align takes one constant: the alignment in bytes from the struct's start", at: attribute.location)
                    continue
                }
                // A field in the constant (`@align(a)`) is reported by `constant` itself.
                if let value = constant(expression, file: scope.file) {
                    if value >= 1, value <= 4096 {
                        alignment = Int(value)
                    } else {
                        report(.invalidValue, "@align takes a byte count from 1 to 4096, not \(value)", at: attribute.location)
                    }
                }
            case "little_endian":
                littleEndian = singleExpression(attribute, scope: scope, expecting: .boolean, role: "a @little_endian condition",
                                                usage: "@little_endian takes one bool expression: whether the field's contents are little-endian")
            case "checksum":
                if checksumAttribute != nil {
                    report(.duplicateName, "a field holds one checksum: '\(syntax.name)' already has a @checksum", at: attribute.location)
                } else {
                    checksumAttribute = attribute
                }
            default:
                report(.invalidValue,
                       "unknown field attribute '@\(attribute.name)' (known: @size, @hex, @dec, @bin, @mac, @ipv4, @ipv6, @flag, @ascii, @text, @encoding, @display, @assert, @little_endian, @at, @align, @checksum, @name)",
                       at: attribute.location)
            }
        }

        fieldReadsText = !textAttributes.isEmpty
        fieldTextUsed = false
        currentField = (syntax.name, slot, scope.structID, display, filterNaming)
        let type = resolveType(syntax.type, scope: scope)
        currentField = nil
        if let attribute = textAttributes.first, !fieldTextUsed {
            report(.invalidValue, "'@\(attribute.name)' does nothing on \(Self.describe(type)): it applies to strings, bytes and u8 arrays",
                   at: attribute.location)
        }
        fieldEncoding = .utf8
        fieldReadsText = false
        if let padAttribute, !fieldPaddingUsed {
            report(.invalidValue, "'@pad' does nothing on \(Self.describe(type)): it applies to strings of a length (string[n], string[..], u8[n] @text)",
                   at: padAttribute.location)
        }
        fieldPadding = nil
        fieldPaddingUsed = false
        if let hintAttribute, display != .automatic, !Self.hint(display, appliesTo: type) {
            report(.invalidValue, "'@\(hintAttribute.name)' does nothing on \(Self.describe(type)): it applies to \(Self.targets(of: display))",
                   at: hintAttribute.location)
        }
        if size != nil, case .integer = type {
            report(.invalidValue, "@size applies to bytes, strings, arrays, structs and switches, not to an integer", at: syntax.location)
        }
        // A field read elsewhere (@at) leaves the cursor, and so the bit phase, where it was.
        if position == nil {
            checkAlignment(of: syntax, type: type, isConditional: condition != nil, hasSize: size != nil || alignment > 0,
                           bitPhase: &bitPhase)
        }

        let valueType = shallowFields[scope.structID][slot].type
        scope.defined[syntax.name] = (slot, valueType)

        var constraints: [Program] = []
        if let expected = syntax.expectedValue {
            let comparison = ExpressionSyntax.binary(.equal, .name(syntax.name, syntax.location), expected, expected.location)
            if let program = compileProgram(comparison, scope: scope, expecting: .boolean, role: "a '==' constraint") {
                constraints.append(program)
            }
        }
        for attribute in postAttributes {
            if attribute.name == "assert" {
                if let program = singleExpression(attribute, scope: scope, expecting: .boolean, role: "an @assert",
                                                  usage: "@assert takes one bool expression") {
                    constraints.append(program)
                }
            } else if let checked = checkDisplay(attribute, scope: scope) {
                displayFormat = checked
            }
        }
        let checksum = checksumAttribute.flatMap { checkChecksum($0, field: syntax, type: type, scope: scope) }
        return Field(id: fields.count, name: syntax.name, structID: scope.structID, slot: slot, type: type,
                     condition: condition, constraints: constraints, size: size, display: display,
                     displayFormat: displayFormat, location: syntax.location, littleEndianCondition: littleEndian,
                     position: position, alignment: alignment, checksum: checksum, filterNaming: filterNaming)
    }

    /// `@encoding("utf-16le")`: the encoding it names, or nil after reporting why there is none.
    private mutating func checkEncoding(_ attribute: AttributeSyntax) -> TextEncoding? {
        guard attribute.arguments.count == 1, case .string(let name, let location) = attribute.arguments[0] else {
            report(.invalidValue, "@encoding takes one string: the encoding's name, e.g. @encoding(\"utf-16le\")", at: attribute.location)
            return nil
        }
        guard let encoding = TextEncoding(attribute: name) else {
            report(.invalidValue, "unknown encoding '\(name)' (known: \(TextEncoding.allCases.map(\.name).joined(separator: ", ")))",
                   at: location)
            return nil
        }
        return encoding
    }

    /// `@name("srcport")`, `@name("tls.handshake.extensions_server_name")` or `@name("")`: how a field
    /// names itself for filters (a segment, a whole name, or none of its own).
    private mutating func checkFilterName(_ attribute: AttributeSyntax) -> FilterNaming? {
        guard attribute.arguments.count == 1, case .string(let text, let location) = attribute.arguments[0] else {
            report(.invalidValue, "@name takes one string: the field's filter name segment (\"srcport\"), a whole filter name "
                   + "(\"tcp.srcport\"), or \"\" for none of its own", at: attribute.location)
            return nil
        }
        if text.isEmpty { return .transparent }
        let valid = text.utf8.allSatisfy { byte in
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard valid, !parts.contains(where: \.isEmpty) else {
            report(.invalidValue, "@name '\(text)' is not a filter name: letters, digits, '_' and '-', in parts joined by single dots",
                   at: location)
            return nil
        }
        return parts.count > 1 ? .absolute(text) : .segment(text)
    }

    /// The program of an attribute that takes one expression (`@size(n)`, `@at(offset)`), or nil
    /// after reporting `usage` when it has another shape, or the expression's error.
    private mutating func singleExpression(_ attribute: AttributeSyntax, scope: Scope, expecting: ValueType, role: String,
                                           usage: String) -> Program? {
        guard attribute.arguments.count == 1, case .expression(let expression) = attribute.arguments[0] else {
            report(.invalidValue, usage, at: attribute.location)
            return nil
        }
        return compileProgram(expression, scope: scope, expecting: expecting, role: role)
    }

    /// `@display("fmt {} ...", args...)`: the format and its compiled arguments, or nil (reported).
    private mutating func checkDisplay(_ attribute: AttributeSyntax, scope: Scope) -> (format: String, arguments: [Program])? {
        guard case .string(let format, _)? = attribute.arguments.first else {
            report(.invalidValue, "@display takes a format string, then one expression per '{}'", at: attribute.location)
            return nil
        }
        var arguments: [Program] = []
        for argument in attribute.arguments.dropFirst() {
            guard case .expression(let expression) = argument else {
                report(.typeMismatch, "@display arguments after the format are expressions", at: attribute.location)
                continue
            }
            if let program = compileProgram(expression, scope: scope, expecting: nil, role: "a @display argument") {
                arguments.append(program)
            }
        }
        let placeholders = format.components(separatedBy: "{}").count - 1
        if placeholders != attribute.arguments.count - 1 {
            report(.invalidValue, "@display format has \(placeholders) '{}' but \(attribute.arguments.count - 1) arguments",
                   at: attribute.location)
        }
        return (format, arguments)
    }

    /// `let name = expr`: compiled in the scope so far; an integer or a bool, shown with the
    /// integer display hints and `@display`.
    private mutating func checkComputed(_ syntax: FieldSyntax, value: ExpressionSyntax, slot: Int, scope: inout Scope) -> Field {
        let valueType = shallowFields[scope.structID][slot].type
        var display = DisplayHint.automatic
        var displayFormat: (format: String, arguments: [Program])?
        var filterNaming: FilterNaming?
        var program: Program?
        var builder = ProgramBuilder()
        let errorsBefore = diagnostics.count
        var enumID: Int?
        if case .named(let typeName, let location) = syntax.type, typeName != "let" {
            if case .enumeration(let id, _) = valueType {
                enumID = id
            } else {
                report(.unknownType, "a computed value's type is an enum; '\(typeName)' is not one (write 'let \(syntax.name) = …' for an integer)",
                       at: location)
            }
        }
        let compiled = compile(value, scope: scope, into: &builder, expected: enumID == nil ? nil : valueType)
        if diagnostics.count == errorsBefore {
            if enumID != nil, !Self.assignable(compiled, to: valueType), compiled != .integer {
                report(.typeMismatch, "'\(syntax.name)' is \(valueType), but this is \(compiled)", at: value.location)
            } else if compiled == .boolean, valueType != .boolean {
                report(.typeMismatch, "a computed value that is a bool must be a comparison or logical expression (write '\(syntax.name) = (...) == true')",
                       at: value.location)
            } else if !compiled.isScalar {
                report(.typeMismatch, "a computed value must be an integer or a bool, but this is \(compiled)", at: value.location)
            } else if builder.maxDepth > ProgramBuilder.stackLimit {
                report(.invalidValue, "expression nests deeper than \(ProgramBuilder.stackLimit) pending values", at: value.location)
            } else {
                program = builder.finish(text: describe(value))
            }
        }
        // Visible to what follows, as a field is.
        scope.defined[syntax.name] = (slot, valueType)
        for attribute in syntax.attributes {
            switch attribute.name {
            case "hex", "dec", "bin":
                if !attribute.arguments.isEmpty { report(.invalidValue, "@\(attribute.name) takes no arguments", at: attribute.location) }
                if valueType == .boolean {
                    report(.invalidValue, "'@\(attribute.name)' does nothing on a bool", at: attribute.location)
                }
                display = Self.displayHints[attribute.name] ?? .automatic
            case "display":
                if let checked = checkDisplay(attribute, scope: scope) { displayFormat = checked }
            case "name":
                filterNaming = checkFilterName(attribute)
            default:
                report(.invalidValue, "'@\(attribute.name)' does not apply to a computed value (known: @hex, @dec, @bin, @display, @name)",
                       at: attribute.location)
            }
        }
        let type = FieldType.computed(program ?? Program(operations: [.constant(0)], references: [], text: "0", stackDepth: 1),
                                      isBoolean: valueType == .boolean, enumID: enumID)
        return Field(id: fields.count, name: syntax.name, structID: scope.structID, slot: slot, type: type,
                     condition: nil, constraints: [], size: nil, display: display, displayFormat: displayFormat,
                     location: syntax.location, isHidden: syntax.isHidden, filterNaming: filterNaming)
    }

    /// Whether a display hint changes how a value of `type` is shown (by the views' rules):
    /// for arrays, their elements; for switches, any of their cases.
    private static func hint(_ hint: DisplayHint, appliesTo type: FieldType) -> Bool {
        switch type {
        case .array(let element, _):
            return Self.hint(hint, appliesTo: element)
        case .switchOn(let choice):
            return choice.cases.contains { Self.hint(hint, appliesTo: $0.type) }
                || choice.defaultType.map { Self.hint(hint, appliesTo: $0) } == true
        case .integer(let integer):
            switch hint {
            case .hex, .decimal, .binary, .automatic: return true
            case .flag: return integer.bits == 1
            case .ipv4: return integer.bits == 32
            case .mac, .ipv6, .ascii: return false
            }
        case .varint:
            return hint == .hex || hint == .decimal || hint == .binary || hint == .automatic
        case .enumeration:
            return hint == .hex || hint == .decimal || hint == .automatic
        case .bytes, .address:
            return hint != .decimal && hint != .binary && hint != .flag
        case .float, .boolean, .string, .structure, .dnsName, .dispatch, .instance:
            return hint == .automatic
        case .parameter:
            return hint == .automatic
        case .computed(_, let isBoolean, _):
            return !isBoolean && (hint == .hex || hint == .decimal || hint == .binary || hint == .automatic)
        }
    }

    /// What a display hint applies to, for the error when it does not.
    private static func targets(of hint: DisplayHint) -> String {
        switch hint {
        case .hex: return "integers, enums and bytes"
        case .decimal: return "integers and enums"
        case .binary: return "integers"
        case .flag: return "1-bit integers (u1)"
        case .ipv4: return "u32 and 4 bytes"
        case .ascii: return "bytes (a u8 array is read as text with @text)"
        case .mac, .ipv6, .automatic: return "bytes"
        }
    }

    /// A field type in words, for messages.
    private static func describe(_ type: FieldType) -> String {
        switch type {
        case .integer(let integer): return "\(integer.isSigned ? "i" : "u")\(integer.bits)"
        case .float(let bits, _, _): return "f\(bits)"
        case .boolean: return "a bool"
        case .varint(let zigzag): return zigzag ? "a zigzag" : "a varint"
        case .bytes: return "bytes"
        case .address(_, let display): return "an address (\(display.rawValue))"
        case .string: return "a string"
        case .enumeration: return "an enum"
        case .structure: return "a struct"
        case .array(let element, _): return "an array of \(describe(element))"
        case .switchOn: return "any case of the switch"
        case .dispatch: return "a dispatch"
        case .computed: return "a computed value"
        case .instance: return "a struct"
        case .parameter: return "a parameter"
        case .dnsName: return "a dns_name"
        }
    }

    /// The value of operations that read nothing (no fields, no cursor, no jumps), or nil.
    private static func constantValue(of operations: ArraySlice<Program.Operation>) -> Int64? {
        for operation in operations {
            switch operation {
            case .constant, .negate, .logicalNot, .bitwiseNot, .add, .subtract, .multiply, .divide, .remainder,
                 .bitwiseAnd, .bitwiseOr, .bitwiseXor, .shiftLeft, .shiftRight,
                 .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual, .minimum, .maximum:
                continue
            default:
                return nil
            }
        }
        var context = ConstantContext()
        let program = Program(operations: Array(operations), references: [], text: "", stackDepth: ProgramBuilder.stackLimit)
        return try? program.evaluate(in: &context)
    }

    private static let displayHints: [String: DisplayHint] = [
        "hex": .hex, "dec": .decimal, "bin": .binary, "mac": .mac, "ipv4": .ipv4, "ipv6": .ipv6, "flag": .flag, "ascii": .ascii,
    ]

    /// Reports a byte-granular field that is known to start inside a byte; tracks the bit phase through fixed-width fields.
    private mutating func checkAlignment(of syntax: FieldSyntax, type: FieldType, isConditional: Bool, hasSize: Bool,
                                         bitPhase: inout Int?) {
        if (type.isByteGranular || hasSize), let phase = bitPhase, phase != 0 {
            report(.misaligned, "field '\(syntax.name)' must start on a byte boundary but starts \(phase) bits into a byte",
                   at: syntax.location)
        }
        let width: Int?
        switch type {
        case .integer(let integer): width = integer.bits
        case .enumeration(_, let base): width = base.bits
        case .boolean: width = 8
        case .float(let bits, _, _): width = bits
        case .structure, .instance: width = nil
        default: width = type.isByteGranular ? 0 : nil
        }
        guard let width, let phase = bitPhase else {
            bitPhase = nil
            return
        }
        if isConditional, width % 8 != 0 {
            bitPhase = nil
        } else {
            bitPhase = (phase + width) % 8
        }
    }

    // MARK: - Types

    private mutating func resolveType(_ syntax: TypeSyntax, scope: Scope) -> FieldType {
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
    private mutating func terminator(_ syntax: ExpressionSyntax) -> [UInt8]? {
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
    private static func readsAsText(_ field: FieldSyntax) -> Bool {
        field.attributes.contains { $0.name == "text" || $0.name == "encoding" }
    }

    private mutating func resolveExtent(_ syntax: TypeSyntax.Extent, scope: Scope, element: ValueType?) -> Extent {
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

    private mutating func resolveSwitch(_ subjectSyntax: ExpressionSyntax?, _ caseSyntaxes: [TypeSyntax.SwitchCase],
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
    private mutating func resolveCase(_ syntax: TypeSyntax.SwitchCase, scope: Scope) -> (FieldType, Int) {
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

    private func defaults(of file: Int) -> (Endianness, BitOrder) {
        (files[file].endian?.0 ?? .big, files[file].bitOrder?.0 ?? .msbFirst)
    }

    // MARK: - Containment cycles

    private mutating func checkContainmentCycles(_ structs: [StructType]) {
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

    // MARK: - Expressions

    private mutating func compileProgram(_ syntax: ExpressionSyntax, scope: Scope, expecting: ValueType?,
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

    private static func assignable(_ type: ValueType, to expected: ValueType) -> Bool {
        if type == .invalid || type == expected { return true }
        if expected == .integer, case .enumeration = type { return true }
        return false
    }

    private static func comparable(_ left: ValueType, _ right: ValueType) -> Bool {
        switch (left, right) {
        case (.invalid, _), (_, .invalid): return true
        case (.integer, .integer), (.boolean, .boolean): return true
        case (.enumeration(let a, _), .enumeration(let b, _)): return a == b
        case (.enumeration, .integer), (.integer, .enumeration): return true
        default: return false
        }
    }

    private mutating func constant(_ syntax: ExpressionSyntax, file: Int) -> Int64? {
        let scope = Scope(structID: -1, structName: "", file: file, allFieldNames: [])
        var builder = ProgramBuilder()
        let before = diagnostics.count
        _ = compile(syntax, scope: scope, into: &builder, expected: nil)
        guard diagnostics.count == before else { return nil }
        return constantValue(of: builder.finish(text: ""), at: syntax.location)
    }

    /// Folds a program that reads no fields; reports one that does, or that fails (e.g. divides by zero).
    private mutating func constantValue(of program: Program, at location: SchemaLocation) -> Int64? {
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
    private mutating func compile(_ syntax: ExpressionSyntax, scope: Scope, into builder: inout ProgramBuilder,
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
                    ? "a switch is a number only when its cases are all integers (or all one enum); name a field of the struct it read (\(reference.text).x)"
                    : type.hasLength ? "use len(\(reference.text)) for its length" : "name one of its fields (\(reference.text).x)"
                report(.typeMismatch, "'\(reference.text)' is \(type), not a number; \(advice)", at: syntax.location)
                return .invalid
            }
            if let byteIndex = resolved.byteIndex {
                _ = compile(byteIndex, scope: scope, into: &builder, expected: .integer)
                builder.emit(.byteAt(builder.add(reference)))
            } else if case .enclosing(levelsUp: 0) = reference.base, reference.slots.count == 1,
                      case .slot(let slot) = reference.slots[0] {
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
                if case .enclosing(levelsUp: 0) = reference.base, reference.slots.count == 1, case .slot(let slot) = reference.slots[0] {
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
            case ("zeros", 1):
                let argumentType = compile(arguments[0], scope: scope, into: &builder, expected: .integer)
                requireType(argumentType, .integer, op: "zeros", at: arguments[0].location)
                builder.emit(.zeros)
                return .boolean
            default:
                report(.unknownField, "unknown function '\(name)' with \(arguments.count) argument\(arguments.count == 1 ? "" : "s") (known: len(field), has(field), remaining(), offset(), peek(n), zeros(n), min(a, b), max(a, b), index(), and over an array: count(a, cond), any(a, cond), all(a, cond), first(a, cond), sum(a, expr), min(a, expr), max(a, expr), sum(a), min(a), max(a))",
                       at: location)
                return .invalid
            }
        }
    }

    private mutating func emitEnumCase(id: Int, enumName: String, caseName: String, location: SchemaLocation,
                                       into builder: inout ProgramBuilder) -> ValueType {
        guard enums.indices.contains(id), let value = enums[id].cases.first(where: { $0.name == caseName })?.value else {
            report(.unknownField, "enum '\(enumName)' has no case '\(caseName)'", at: location)
            return .invalid
        }
        builder.emit(.constant(value))
        return .enumeration(id, name: enumName)
    }

    private mutating func compileBinary(_ op: BinaryOperator, _ left: ExpressionSyntax, _ right: ExpressionSyntax,
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
            requireType(leftType, .integer, op: op.rawValue, at: location)
            requireType(rightType, .integer, op: op.rawValue, at: location)
            if op == .divide || op == .remainder, Self.constantValue(of: builder.operations[rightStart...]) == 0 {
                // At run time this always fails; in a @display it would silently show the plain value instead.
                report(.invalidValue, "division by zero: the divisor \(describe(right)) is always 0", at: location)
            }
            if let operation = Self.operation(op) { builder.emit(operation) }
            return .integer
        }
    }

    /// The stack machine's operation for an operator; nil for `&&` and `||`, which compile to jumps.
    private static func operation(_ op: BinaryOperator) -> Program.Operation? {
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
    private mutating func compileLiteralComparison(_ op: BinaryOperator, field: ExpressionSyntax, literal: ExpressionSyntax,
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
    private static func firstName(of syntax: ExpressionSyntax) -> String? {
        switch syntax {
        case .name(let name, _): return name
        case .member(let base, _, _), .index(let base, _, _): return firstName(of: base)
        default: return nil
        }
    }

    /// Emits the operation using a resolved reference: with a computed index, the index first and
    /// then the operation that pops it.
    private mutating func emitReference(_ resolved: ResolvedReference, scope: Scope, into builder: inout ProgramBuilder,
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
    private mutating func isArrayReference(_ syntax: ExpressionSyntax, scope: Scope) -> Bool {
        guard Self.firstName(of: syntax) != nil else { return false }
        let before = diagnostics.count
        let resolved = resolveReference(syntax, scope: scope)
        diagnostics.removeSubrange(before...)
        if case .array? = resolved?.type { return true }
        return false
    }

    /// `count(a, cond)`, `any`, `all`, `first(a, cond)`, `sum(a, expr)`, `min`, `max` and `sum(a)`,
    /// `min(a)`, `max(a)`: the body is a program of its own, run with each element as `it`.
    private mutating func compileAggregate(_ name: String, _ arguments: [ExpressionSyntax], location: SchemaLocation,
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

    private mutating func requireType(_ type: ValueType, _ required: ValueType, op: String, at location: SchemaLocation) {
        if type == .invalid || type == required { return }
        report(.typeMismatch, "'\(op)' needs \(required == .boolean ? "bool" : "integer") operands, but got \(type)", at: location)
    }

    /// One component of a reference: a name (a field, or `last` on an array) or a constant index.
    private enum Component {
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
    private func varyingCandidates(structID: Int, slot: Int) -> [Int] {
        guard structSyntax.indices.contains(structID) else { return [] }
        let entry = structSyntax[structID]
        let position = slot - entry.syntax.parameters.count
        guard position >= 0, position < entry.syntax.fields.count else { return [] }
        return Array(Set(containedStructs(entry.syntax.fields[position].type, file: entry.file))).sorted()
    }

    /// A field reference resolved: where it lives, its type, and the indices the operation using
    /// it pops, compiled before it.
    private struct ResolvedReference {
        var reference: FieldReference
        var type: ValueType
        /// A computed array index (`pool[i - 1]`): the reference's ``FieldReference/Step/computedElement``.
        var computedIndex: ExpressionSyntax?
        /// `id[0]`: a byte of the bytes or string field the reference names.
        var byteIndex: ExpressionSyntax?
    }

    /// Resolves a field reference (`name`, `a.b`, `parent.x`, `it`, `it.kind`, `options[0].kind`,
    /// `pool[i - 1].tag`, `options.last`, `payload.x` through a switch, `id[0]`) to where it lives and its type.
    private mutating func resolveReference(_ syntax: ExpressionSyntax, scope: Scope) -> ResolvedReference? {
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
        guard case .name(let firstName, let firstLocation) = components[0] else {
            report(.typeMismatch, "expected a field name", at: components[0].location)
            return nil
        }
        if levelsUp > 0 {
            guard let resolved = resolveInParents(firstName, levelsUp: levelsUp, scope: scope, at: firstLocation) else { return nil }
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
                                 type: type, computedIndex: computedIndex, byteIndex: byteIndex)
    }

    /// `id` of `id[0]`.
    private static func withoutLastIndex(_ syntax: ExpressionSyntax) -> ExpressionSyntax {
        if case .index(let base, _, _) = syntax { return base }
        return syntax
    }

    private mutating func resolveInParents(_ name: String, levelsUp: Int, scope: Scope,
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

    private func describe(_ syntax: ExpressionSyntax) -> String {
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

    // MARK: - Checksums

    /// Checks `@checksum(algorithm, covered..., options...)` on `field`, of type `type`: the algorithm,
    /// the field's width, each covered piece (`self`, a field, `first...last`, `ip_pseudo(n)`) and the
    /// options (`on_request`, `when(condition)`).
    private mutating func checkChecksum(_ attribute: AttributeSyntax, field: FieldSyntax, type: FieldType,
                                        scope: Scope) -> ChecksumSpec? {
        guard case .expression(.name(let algorithmName, let algorithmLocation))? = attribute.arguments.first else {
            report(.invalidValue, "@checksum takes an algorithm (\(ChecksumAlgorithm.names)), then what it covers, e.g. @checksum(crc32, type, data)",
                   at: attribute.location)
            return nil
        }
        guard let algorithm = ChecksumAlgorithm(rawValue: algorithmName) else {
            report(.invalidValue, "unknown checksum algorithm '\(algorithmName)' (known: \(ChecksumAlgorithm.names))", at: algorithmLocation)
            return nil
        }
        var valid = true
        var fits = false
        if case .integer(let integer) = type { fits = !integer.isSigned && integer.bits == algorithm.bits }
        if !fits {
            report(.typeMismatch, "@checksum(\(algorithmName)) needs a u\(algorithm.bits) field: '\(field.name)' is \(Self.describe(type))",
                   at: attribute.location)
            valid = false
        }
        let fieldNames = structSyntax[scope.structID].syntax.fields.map(\.name)
        func slot(of expression: ExpressionSyntax, _ checker: inout Checker) -> Int? {
            guard case .name(let name, let location) = expression else {
                checker.report(.invalidValue, "@checksum covers self, fields of '\(scope.structName)' (name, first...last) and ip_pseudo(protocol); '\(checker.describe(expression))' is none of these",
                               at: expression.location)
                return nil
            }
            if let slot = fieldNames.firstIndex(of: name) { return slot }
            checker.report(.unknownField, "@checksum: '\(name)' is not a field of '\(scope.structName)' (fields: \(fieldNames.joined(separator: ", "))), nor self or on_request",
                           at: location)
            return nil
        }
        var items: [ChecksumSpec.Item] = []
        var onRequest = false
        var condition: Program?
        for argument in attribute.arguments.dropFirst() {
            switch argument {
            case .string(_, let location):
                report(.typeMismatch, "@checksum takes names, spans and calls, not strings", at: location)
                valid = false
            case .labeled(let label, _, let location):
                report(.invalidValue, "@checksum takes no labeled argument '\(label):'", at: location)
                valid = false
            case .span(let first, let last):
                guard let low = slot(of: first, &self), let high = slot(of: last, &self) else {
                    valid = false
                    continue
                }
                guard low <= high else {
                    report(.invalidValue, "the span '\(fieldNames[low])...\(fieldNames[high])' is empty: '\(fieldNames[low])' comes after '\(fieldNames[high])'",
                           at: first.location)
                    valid = false
                    continue
                }
                items.append(.fields(first: low, last: high))
            case .expression(.name("self", _)) where !fieldNames.contains("self"):
                items.append(.wholeStruct)
            case .expression(.name("on_request", _)) where !fieldNames.contains("on_request"):
                onRequest = true
            case .expression(.call("when", let arguments, let location)):
                guard arguments.count == 1, condition == nil else {
                    report(.invalidValue, condition == nil ? "when() takes one bool expression: the checksum is verified only when it holds"
                           : "@checksum has one when()", at: location)
                    valid = false
                    continue
                }
                // Verified once the struct is read, so the condition may name any of its fields.
                var whole = scope
                for (index, entry) in shallowFields[scope.structID].enumerated() where whole.defined[entry.name] == nil {
                    whole.defined[entry.name] = (index, entry.type)
                }
                condition = compileProgram(arguments[0], scope: whole, expecting: .boolean, role: "a @checksum when() condition")
                if condition == nil { valid = false }
            case .expression(.call("ip_pseudo", let arguments, let location)):
                guard let number = pseudoHeaderProtocol(arguments, algorithm: algorithm, items: items, scope: scope, at: location) else {
                    valid = false
                    continue
                }
                items.append(.ipPseudoHeader(protocolNumber: number))
            case .expression(.call(let name, let arguments, let location)):
                report(.invalidValue, "unknown @checksum option '\(name)' with \(arguments.count) argument\(arguments.count == 1 ? "" : "s") (known: when(condition), ip_pseudo(protocol))",
                       at: location)
                valid = false
            case .expression(let expression):
                guard let covered = slot(of: expression, &self) else {
                    valid = false
                    continue
                }
                items.append(.fields(first: covered, last: covered))
            }
        }
        if valid, !items.contains(where: { if case .ipPseudoHeader = $0 { return false } else { return true } }) {
            report(.invalidValue, "@checksum(\(algorithmName)) covers nothing: name what it covers after the algorithm (self, fields, first...last)",
                   at: attribute.location)
            valid = false
        }
        return valid ? ChecksumSpec(algorithm: algorithm, items: items, onRequest: onRequest, condition: condition) : nil
    }

    /// The protocol number of `ip_pseudo(n)`, checked: a constant that fits a byte, in an internet
    /// checksum, once, in a struct that some struct with `src` and `dst` addresses can contain.
    private mutating func pseudoHeaderProtocol(_ arguments: [ExpressionSyntax], algorithm: ChecksumAlgorithm,
                                               items: [ChecksumSpec.Item], scope: Scope,
                                               at location: SchemaLocation) -> UInt8? {
        guard algorithm == .internet else {
            report(.invalidValue, "ip_pseudo() belongs to the internet checksum, not \(algorithm.rawValue)", at: location)
            return nil
        }
        guard !items.contains(where: { if case .ipPseudoHeader = $0 { return true } else { return false } }) else {
            report(.duplicateName, "@checksum has one ip_pseudo()", at: location)
            return nil
        }
        guard arguments.count == 1 else {
            report(.invalidValue, "ip_pseudo() takes one constant: the upper-layer protocol number, e.g. ip_pseudo(6) for TCP",
                   at: location)
            return nil
        }
        guard let value = constant(arguments[0], file: scope.file) else { return nil }
        guard let number = UInt8(exactly: value) else {
            report(.invalidValue, "protocol number \(value) does not fit a byte (0...255)", at: arguments[0].location)
            return nil
        }
        // The addresses come from the nearest enclosing struct that has them: some struct that can
        // contain this one, at any depth, must.
        var seen: Set<Int> = [scope.structID]
        var frontier = Array(parentsOf[scope.structID])
        while let candidate = frontier.popLast() {
            guard seen.insert(candidate).inserted else { continue }
            let fields = structSyntax[candidate].syntax.fields
            let hasAddress = { (name: String) in
                fields.contains { field in
                    if field.name == name, case .named(let type, _) = field.type { return type == "ipv4" || type == "ipv6" }
                    return false
                }
            }
            if hasAddress("src"), hasAddress("dst") { return number }
            frontier.append(contentsOf: parentsOf[candidate])
        }
        report(.invalidValue, "ip_pseudo() takes its addresses from an enclosing struct with 'src' and 'dst' fields of type ipv4 or ipv6, and no struct that can contain '\(scope.structName)' has them",
               at: location)
        return nil
    }

    // MARK: - Reporting

    private mutating func rejectAttributes(_ attributes: [AttributeSyntax], allowed: Set<String>, on what: String) {
        for attribute in attributes where !allowed.contains(attribute.name) {
            report(.invalidValue, "'@\(attribute.name)' does not apply to \(what)", at: attribute.location)
        }
    }

    fileprivate mutating func report(_ kind: Diagnostic.Kind, _ message: String, at location: SchemaLocation) {
        let sourceLine = files.first { $0.source.path == location.path }?.source.lineText(location.line) ?? ""
        diagnostics.append(Diagnostic(kind: kind, message: message, location: location, sourceLine: sourceLine))
    }
}

/// Accumulates operations and tracks the evaluation stack depth.
struct ProgramBuilder {
    static let stackLimit = 32
    private(set) var operations: [Program.Operation] = []
    private var references: [FieldReference] = []
    private var literals: [[UInt8]] = []
    private var bodies: [Program] = []
    private var depth = 0
    private(set) var maxDepth = 0

    var nextIndex: Int32 { Int32(operations.count) }

    mutating func emit(_ operation: Program.Operation) {
        operations.append(operation)
        switch operation {
        case .constant, .loadSlot, .load, .length, .present, .presentSlot, .remaining, .offset, .compareSlot, .matchBytes,
             .elementIndex, .aggregate:
            depth += 1
        case .negate, .logicalNot, .bitwiseNot, .jump, .peek, .zeros, .loadAt, .lengthAt, .presentAt, .matchBytesAt, .byteAt:
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
