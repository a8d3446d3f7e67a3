import BinaryIO

/// Pass: each struct's fields with the types expressions see (phase A), before anything is compiled.
extension Checker {
    // MARK: - Phase A: shallow types and containment

    mutating func computeShallowFields() {
        parentsOf = Array(repeating: [], count: structSyntax.count)
        for (id, entry) in structSyntax.enumerated() {
            var list: [(name: String, type: ValueType)] = entry.syntax.parameters.map { parameter in
                (parameter.name, parameterType(parameter.type, file: entry.file)?.valueType ?? .invalid)
            }
            var lazy: Set<Int> = []
            for field in entry.syntax.fields {
                if field.isLazy { lazy.insert(list.count) }
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
            lazySlots.append(lazy)
        }
        refineReferencedComputedTypes()
    }

    /// `let c = parent.b` or `let c = header.flag`: a computed value that names a field of another
    /// struct is a bool when that field is, which is known once every struct's fields are listed.
    /// A few rounds settle a chain of such values naming each other.
    mutating func refineReferencedComputedTypes() {
        for _ in 0..<4 {
            var changed = false
            for (id, entry) in structSyntax.enumerated() {
                let offset = entry.syntax.parameters.count
                for (index, field) in entry.syntax.fields.enumerated() {
                    guard let value = field.value, case .member = value, case .named("let", _) = field.type,
                          shallowFields[id][offset + index].type == .integer,
                          referencedType(value, from: id) == .boolean else { continue }
                    shallowFields[id][offset + index].type = .boolean
                    changed = true
                }
            }
            if !changed { return }
        }
    }

    /// The type a reference (`parent.parent.x`, `a.b.c`) names from struct `id`, when every struct
    /// it may reach agrees; nil when it cannot be told here.
    func referencedType(_ expression: ExpressionSyntax, from id: Int) -> ValueType? {
        var names: [String] = []
        var cursor = expression
        while case .member(let base, let name, _) = cursor {
            names.insert(name, at: 0)
            cursor = base
        }
        guard case .name(let first, _) = cursor else { return nil }
        names.insert(first, at: 0)
        var candidates: Set<Int> = [id]
        var start = 0
        while start < names.count - 1, names[start] == "parent" {
            candidates = Set(candidates.flatMap { parentsOf[$0] })
            start += 1
        }
        var type: ValueType?
        for name in names[start...] {
            var next: Set<Int> = []
            var found: ValueType?
            for candidate in candidates {
                guard let field = shallowFields[candidate].last(where: { $0.name == name }) else { return nil }
                if let found, found != field.type { return nil }
                found = field.type
                if case .structure(let structID, _) = field.type { next.insert(structID) }
            }
            guard let found else { return nil }
            type = found
            candidates = next
        }
        return type
    }

    /// `expanding`: aliases being expanded on the way here, so one that refers to itself ends.
    func shallowType(_ type: TypeSyntax, file: Int, expanding: Set<Int> = []) -> ValueType {
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
    func parameterType(_ syntax: TypeSyntax, file: Int) -> (valueType: ValueType, isBoolean: Bool, enumID: Int?)? {
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
    static func computedType(_ syntax: ExpressionSyntax, earlier: [(name: String, type: ValueType)]) -> ValueType {
        switch syntax {
        case .boolean: return .boolean
        case .name(let name, _): return earlier.last { $0.name == name }?.type == .boolean ? .boolean : .integer
        case .unary(.not, _, _): return .boolean
        case .call("has", _, _), .call("any", _, _), .call("all", _, _), .call("zeros", _, _), .call("peek_caseless", _, _):
            return .boolean
        case .call("peek", let arguments, _) where arguments.count == 2: return .boolean
        case .binary(let op, _, _, _) where op.isComparison || op.isLogical: return .boolean
        case .conditional(_, let whenTrue, _, _): return computedType(whenTrue, earlier: earlier)
        default: return .integer
        }
    }

    func containedStructs(_ type: TypeSyntax, file: Int, expanding: Set<Int> = []) -> [Int] {
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

    func lookup(_ name: String, file: Int) -> (declaration: Declaration, file: Int, location: SchemaLocation)? {
        guard let found = declarations[name], visibleFiles[file].contains(found.file) else { return nil }
        return found
    }
}
