import BinaryIO

/// Pass: one field (its type, condition, constraints and attributes), computed values and display hints.
extension Checker {
    mutating func checkField(_ syntax: FieldSyntax, slot: Int, scope: inout Scope, bitPhase: inout Int?) -> Field {
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
        var valueScale: Int64 = 1
        var scaleAttribute: AttributeSyntax?
        var hexWidth = 0
        for attribute in syntax.attributes {
            switch attribute.name {
            case "name":
                filterNaming = checkFilterName(attribute)
            case "scale":
                scaleAttribute = attribute
                guard attribute.arguments.count == 1, case .expression(let expression) = attribute.arguments[0],
                      let value = constant(expression, file: scope.file), value >= 2, value <= 1 << 32 else {
                    report(.invalidValue, "@scale takes one constant from 2 to 2^32: what one unit of the field counts "
                           + "in the unit of its filter name (@scale(4) on a length in 32-bit words, for bytes)",
                           at: attribute.location)
                    continue
                }
                valueScale = value
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
                if attribute.name == "hex", !attribute.arguments.isEmpty {
                    hexWidth = checkHexWidth(attribute, file: scope.file)
                } else if !attribute.arguments.isEmpty {
                    report(.invalidValue, "@\(attribute.name) takes no arguments", at: attribute.location)
                }
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
                       "unknown field attribute '@\(attribute.name)' (known: @size, @hex, @dec, @bin, @mac, @ipv4, @ipv6, @flag, @ascii, @text, @encoding, @display, @assert, @little_endian, @at, @align, @checksum, @name, @scale)",
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
        if let scaleAttribute, valueScale != 1 {
            if case .integer = type {} else {
                report(.invalidValue, "'@scale' applies to an integer, not to \(Self.describe(type))", at: scaleAttribute.location)
            }
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
        // A switch whose cases have attributes is read as their fields: they show its @display too.
        if let displayFormat, case .switchOn(let choice) = type {
            for id in choice.caseFieldIDs where fields.indices.contains(id) && fields[id].displayFormat == nil {
                fields[id] = fields[id].withDisplayFormat(displayFormat)
            }
        }
        let checksum = checksumAttribute.flatMap { checkChecksum($0, field: syntax, type: type, scope: scope) }
        if syntax.isHidden {
            // Hidden, a field would leave bytes unlabeled, or children without a parent in the views.
            if position == nil {
                report(.invalidValue, "only a computed value, or a field read with @at over bytes other fields show, can be hidden: '\(syntax.name)' reads the bytes at the cursor, which a view must show",
                       at: syntax.location)
            } else if !Self.isSingleValue(type) {
                report(.invalidValue, "a hidden field reads one value (an integer, an address or bytes), not \(Self.describe(type))",
                       at: syntax.location)
            }
        }
        if syntax.isLazy {
            if position == nil {
                report(.invalidValue, "a lazy field is read at an offset, when something needs it: add @at(offset) to '\(syntax.name)'",
                       at: syntax.location)
            }
            if let checksumAttribute {
                report(.invalidValue, "a lazy field cannot hold a @checksum: the walk verifies it where it stands, before it is read",
                       at: checksumAttribute.location)
            }
        }
        return Field(id: fields.count, name: syntax.name, structID: scope.structID, slot: slot, type: type,
                     condition: condition, constraints: constraints, size: size, display: display,
                     displayFormat: displayFormat, location: syntax.location, littleEndianCondition: littleEndian,
                     position: position, alignment: alignment, checksum: checksum, isHidden: syntax.isHidden,
                     isLazy: syntax.isLazy, filterNaming: filterNaming, valueScale: valueScale, hexWidth: hexWidth)
    }

    /// `@encoding("utf-16le")`: the encoding it names, or nil after reporting why there is none.
    mutating func checkEncoding(_ attribute: AttributeSyntax) -> TextEncoding? {
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
    mutating func checkFilterName(_ attribute: AttributeSyntax) -> FilterNaming? {
        guard attribute.arguments.count == 1, case .string(let text, let location) = attribute.arguments[0] else {
            report(.invalidValue, "@name takes one string: the field's filter name segment (\"srcport\"), a whole filter name "
                   + "(\"tcp.srcport\"), or \"\" for none of its own", at: attribute.location)
            return nil
        }
        if text.isEmpty { return .transparent }
        // Bytes, not Characters: String.split ran for every @name and was a tenth of loading the bundled schemas.
        var valid = true, dots = 0, previous = UInt8(ascii: ".")
        for byte in text.utf8 {
            let isDot = byte == UInt8(ascii: ".")
            let allowed = (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || isDot
            if !allowed || (isDot && previous == UInt8(ascii: ".")) { valid = false }
            if isDot { dots += 1 }
            previous = byte
        }
        guard valid, previous != UInt8(ascii: ".") else {
            report(.invalidValue, "@name '\(text)' is not a filter name: letters, digits, '_' and '-', in parts joined by single dots",
                   at: location)
            return nil
        }
        return dots > 0 ? .absolute(text) : .segment(text)
    }

    /// The program of an attribute that takes one expression (`@size(n)`, `@at(offset)`), or nil
    /// after reporting `usage` when it has another shape, or the expression's error.
    mutating func singleExpression(_ attribute: AttributeSyntax, scope: Scope, expecting: ValueType, role: String,
                                   usage: String) -> Program? {
        guard attribute.arguments.count == 1, case .expression(let expression) = attribute.arguments[0] else {
            report(.invalidValue, usage, at: attribute.location)
            return nil
        }
        return compileProgram(expression, scope: scope, expecting: expecting, role: role)
    }

    /// `@display("fmt {} ...", args...)`: the format and its compiled arguments, or nil (reported).
    mutating func checkDisplay(_ attribute: AttributeSyntax, scope: Scope) -> (format: String, arguments: [Program])? {
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
    mutating func checkComputed(_ syntax: FieldSyntax, value: ExpressionSyntax, slot: Int, scope: inout Scope) -> Field {
        let valueType = shallowFields[scope.structID][slot].type
        var display = DisplayHint.automatic
        var displayFormat: (format: String, arguments: [Program])?
        var filterNaming: FilterNaming?
        var program: Program?
        var builder = ProgramBuilder()
        let errorsBefore = diagnostics.count
        var enumID: Int?
        // Compiled before the value, as a field's: the value is computed only where it holds.
        var condition: Program?
        if let conditionSyntax = syntax.condition {
            condition = compileProgram(conditionSyntax, scope: scope, expecting: .boolean, role: "an 'if' condition")
        }
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
        var hexWidth = 0
        for attribute in syntax.attributes {
            switch attribute.name {
            case "hex", "dec", "bin":
                if attribute.name == "hex", !attribute.arguments.isEmpty {
                    hexWidth = checkHexWidth(attribute, file: scope.file)
                } else if !attribute.arguments.isEmpty {
                    report(.invalidValue, "@\(attribute.name) takes no arguments", at: attribute.location)
                }
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
                     condition: condition, constraints: [], size: nil, display: display, displayFormat: displayFormat,
                     location: syntax.location, isHidden: syntax.isHidden, filterNaming: filterNaming, hexWidth: hexWidth)
    }

    /// `@hex(16)`: the width in bits field output writes the value at, as tshark writes a field of
    /// that type (`0x0002` for a 2-bit mode in a 16-bit frame control word); 0 after reporting a
    /// width that is not a whole number of bytes up to 64 bits.
    mutating func checkHexWidth(_ attribute: AttributeSyntax, file: Int) -> Int {
        guard attribute.arguments.count == 1, case .expression(let expression) = attribute.arguments[0],
              let value = constant(expression, file: file), value >= 8, value <= 64, value % 8 == 0 else {
            report(.invalidValue, "@hex takes no arguments, or the width in bits (8, 16, 24, 32, ... 64) its value is "
                   + "written at in field output, as tshark writes a field of that type", at: attribute.location)
            return 0
        }
        return Int(value)
    }

    /// Whether a display hint changes how a value of `type` is shown (by the views' rules):
    /// for arrays, their elements; for switches, any of their cases.
    static func hint(_ hint: DisplayHint, appliesTo type: FieldType) -> Bool {
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
            case .mac, .ipv6, .ascii, .guid, .uuid: return false
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
    static func targets(of hint: DisplayHint) -> String {
        switch hint {
        case .hex: return "integers, enums and bytes"
        case .decimal: return "integers and enums"
        case .binary: return "integers"
        case .flag: return "1-bit integers (u1)"
        case .ipv4: return "u32 and 4 bytes"
        case .ascii: return "bytes (a u8 array is read as text with @text)"
        case .mac, .ipv6, .automatic: return "bytes"
        case .guid, .uuid: return "16 bytes"
        }
    }

    /// A field type in words, for messages.
    /// Whether a field of `type` reads one value, a node without children (what a hidden field may be).
    static func isSingleValue(_ type: FieldType) -> Bool {
        switch type {
        case .integer, .float, .boolean, .varint, .bytes, .address, .string, .enumeration, .dnsName: return true
        case .structure, .array, .switchOn, .instance, .parameter, .computed, .dispatch: return false
        }
    }

    static func describe(_ type: FieldType) -> String {
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
    static func constantValue(of operations: ArraySlice<Program.Operation>) -> Int64? {
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

    static let displayHints: [String: DisplayHint] = [
        "hex": .hex, "dec": .decimal, "bin": .binary, "mac": .mac, "ipv4": .ipv4, "ipv6": .ipv6, "flag": .flag, "ascii": .ascii,
    ]

    /// Reports a byte-granular field that is known to start inside a byte; tracks the bit phase through fixed-width fields.
    mutating func checkAlignment(of syntax: FieldSyntax, type: FieldType, isConditional: Bool, hasSize: Bool,
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
}
