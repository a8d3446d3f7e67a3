import BinaryIO

/// Pass: structs (attributes, fields in order, `@requires`), their PDU framing and summaries.
extension Checker {
    // MARK: - Structs

    struct Scope {
        let structID: Int
        let structName: String
        let file: Int
        /// Every field name of the struct, to tell "used before its definition" from "unknown".
        let allFieldNames: Set<String>
        var defined: [String: (slot: Int, type: ValueType)] = [:]
        /// The type of `it` inside an array's `until` condition.
        var elementType: ValueType?
    }

    mutating func checkStruct(id: Int, syntax: StructSyntax, file: Int) -> StructType {
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
    mutating func checkPDUFraming(_ attribute: AttributeSyntax, file: Int) -> PDUFraming? {
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
    mutating func checkStreamExpression(_ syntax: ExpressionSyntax, file: Int) -> Bool {
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
    static func start(of syntax: ExpressionSyntax) -> SchemaLocation {
        switch syntax {
        case .member(let base, _, _), .index(let base, _, _): return start(of: base)
        default: return syntax.location
        }
    }

    /// Each `{placeholder}` of a summary must start with one of the struct's field names; each
    /// optional group `{?…}` must be closed and name at least one field. Errors point into the
    /// string (`location` is its opening quote).
    mutating func checkSummary(_ format: String, fields: [String], at location: SchemaLocation) {
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
}
