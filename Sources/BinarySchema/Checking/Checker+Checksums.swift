import BinaryIO

/// Pass: `@checksum` attributes checked against the fields they cover.
extension Checker {
    // MARK: - Checksums

    /// Checks `@checksum(algorithm, covered..., options...)` on `field`, of type `type`: the algorithm,
    /// the field's width, each covered piece (`self`, a field, `first...last`, `ip_pseudo(n)`) and the
    /// options (`on_request`, `when(condition)`).
    mutating func checkChecksum(_ attribute: AttributeSyntax, field: FieldSyntax, type: FieldType,
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
    mutating func pseudoHeaderProtocol(_ arguments: [ExpressionSyntax], algorithm: ChecksumAlgorithm,
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
}
