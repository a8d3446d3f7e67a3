import BinaryIO

/// A value to write through a schema layout: the shape ``LayoutWriter`` lays out as bytes.
package indirect enum LayoutValue: Sendable, Equatable {
    case integer(Int64)
    case unsigned(UInt64)
    case boolean(Bool)
    case float(Double)
    case text(String)
    case bytes([UInt8])
    /// A struct's fields by name, in any order.
    case fields([(name: String, value: LayoutValue)])
    /// An array's elements.
    case elements([LayoutValue])

    package static func == (left: LayoutValue, right: LayoutValue) -> Bool {
        switch (left, right) {
        case (.integer(let a), .integer(let b)): return a == b
        case (.unsigned(let a), .unsigned(let b)): return a == b
        case (.boolean(let a), .boolean(let b)): return a == b
        case (.float(let a), .float(let b)): return a.bitPattern == b.bitPattern
        case (.text(let a), .text(let b)): return a == b
        case (.bytes(let a), .bytes(let b)): return a == b
        case (.fields(let a), .fields(let b)): return a.map(\.name) == b.map(\.name) && a.map(\.value) == b.map(\.value)
        case (.elements(let a), .elements(let b)): return a == b
        default: return false
        }
    }
}

/// Why a value could not be written through a schema: at which schema field, at which byte.
package struct LayoutWriteError: Error, Sendable, CustomStringConvertible {
    /// Schema path of the field (`ip.total_length`).
    package let path: String
    /// Names of the value's properties leading to the field, for a `codingPath`.
    package let propertyPath: [String]
    /// Byte offset in the output where the field starts.
    package let offset: Int
    package let reason: String
    /// The value does not fit the field (a number too wide, a wrong type).
    package let isOutOfRange: Bool

    package var description: String { "\(path) at offset \(offset): \(reason)" }
}

/// Writes values through a schema layout: the inverse of ``Interpreter``. It walks the schema
/// in field order, takes each field's value from the ``LayoutValue`` by name, evaluates
/// conditions, lengths and switches over the values already written, checks constraints, and
/// appends the bits. Lengths are not recomputed: the value's own length fields are written and
/// must agree with its bytes and arrays. DNS names are written uncompressed.
///
/// Writing stops at the first field of the root struct the value does not have, so a type
/// that models a header writes just the header.
///
/// Sizes and counts come from the value, so they are checked like input: a negative `@size`,
/// output past 256 MiB, more nodes than the interpreter's default field limit, or structs
/// nested deeper than 64 are a ``LayoutWriteError``, never a trap or a huge allocation.
package struct LayoutWriter {
    package let schema: Schema
    private let plan: ExecutionPlan
    /// Match the value's names against fields' Swift names (`totalLength`) instead of their schema names.
    package var matchesSwiftNames: Bool
    private var writer = ByteWriter()
    /// The nodes of what has been written, as the interpreter would record them on reading it
    /// back: expressions evaluate over them exactly as when reading.
    private let state = NodeStore()
    private var currentFrame: Int32 = -1
    private var currentElement: Int32 = -1
    /// The index of the array element whose struct's arguments are being computed, or -1.
    private(set) var argumentsElementIndex: Int32 = -1
    /// As the interpreter's: the byte order a `@little_endian` field chose (-1 none, 0 big, 1 little).
    private var byteOrderOverride: Int8 = -1
    /// As the interpreter's: arguments passed to the structs with parameters being written.
    private var argumentValues: [Int64] = []
    private var propertyPath: [String] = []
    private var depth = 0

    /// Ends the root struct early: the value has no more of its fields.
    private struct EndOfValue: Error {}

    /// The most bytes one write produces (256 MiB): a `@size` or the value's own data beyond it is an error.
    private static let maximumOutputBytes = 1 << 28
    /// The most nodes one write records: the interpreter's default field limit, so what is written can be read back.
    private static let maximumNodes = Interpreter.Options().fieldLimit

    /// Deepest nesting of structs written: the interpreter's budget, so what is written can be read back.
    private let nestingLimit: Int

    package init(schema: Schema, matchesSwiftNames: Bool = true, nestingLimit: Int = Interpreter.Options.defaultNestingLimit) {
        self.schema = schema
        self.plan = schema.plan
        self.matchesSwiftNames = matchesSwiftNames
        self.nestingLimit = nestingLimit
    }

    /// The bytes of `value` laid out as struct `root`.
    package mutating func write(_ value: LayoutValue, root: StructType) throws(LayoutWriteError) -> [UInt8] {
        writer = ByteWriter()
        state.reset()
        currentFrame = -1
        currentElement = -1
        propertyPath = []
        depth = 0
        do {
            _ = try writeStruct(Int32(root.id), value, fieldID: -1, parent: -1, arrayIndex: -1, isRoot: true)
        } catch let error as LayoutWriteError {
            throw error
        } catch {
            // EndOfValue: the root stopped at the first field the value lacks.
        }
        return writer.bytes
    }

    // MARK: - Structs and values

    private mutating func writeStruct(_ structID: Int32, _ value: LayoutValue, fieldID: Int32, parent: Int32,
                                      arrayIndex: Int32, isRoot: Bool = false, arguments: Int32 = -1) throws -> Int32 {
        guard case .fields(let members) = value else {
            throw failure(fieldID, parent, "expected a struct value (with fields), got \(Self.describe(value))", outOfRange: true)
        }
        depth += 1
        defer { depth -= 1 }
        guard depth <= nestingLimit else { throw failure(fieldID, parent, "structs nested deeper than \(nestingLimit)") }
        guard state.nodeCount < Self.maximumNodes else {
            throw failure(fieldID, parent, "the value has more than \(Self.maximumNodes) fields and elements")
        }
        let structure = plan.structs[structID]
        let node = state.appendNode(FieldNode(fieldID: fieldID, kind: .structure(structID: structID), parent: parent,
                                              arrayIndex: arrayIndex, bitStart: writer.bitCount, bitEnd: writer.bitCount,
                                              value: .none, subtreeEnd: Int32(state.nodeCount + 1), isBitField: false,
                                              impliedDisplay: .automatic, frame: -1))
        let slotBase = state.appendSlots(Int(structure.fieldCount))
        let frame = state.appendFrame(Frame(node: node, slotBase: Int32(slotBase), parent: currentFrame, structID: structID,
                                            limit: Int.max, arguments: arguments))
        state.nodes[Int(node)].frame = frame
        let savedFrame = currentFrame
        currentFrame = frame
        defer {
            currentFrame = savedFrame
            close(node)
        }
        for fieldIndex in structure.fieldStart..<(structure.fieldStart + structure.fieldCount) {
            let field = plan.fields[fieldIndex]
            // A struct's `@requires` row reads nothing, and writes nothing.
            if field.position == ExecutionPlan.requirementsRow { continue }
            let schemaField = schema.fields[Int(field.fieldID)]
            let name = matchesSwiftNames ? schemaField.swiftName : schemaField.name
            let member = members.first { $0.name == name }?.value
            if field.condition >= 0, try evaluate(field.condition, field.fieldID, node) == 0 { continue }
            let fieldType = plan.types[field.type]
            if fieldType.kind == .parameter {
                // The value passed where the struct is used; any value given for it is not written.
                guard arguments >= 0, Int(arguments) + Int(fieldType.target) < argumentValues.count else {
                    throw failure(field.fieldID, node, "parameter '\(name)' has no argument: a struct with parameters cannot be the root")
                }
                let argument = argumentValues[Int(arguments) + Int(fieldType.target)]
                let kind: NodeKind = fieldType.extent >= 0 ? .enumeration(enumID: fieldType.extent)
                    : fieldType.isBoolean ? .boolean : .integer
                state.slots[slotBase + Int(field.slot)] = leaf(field.fieldID, kind, node, -1, writer.bitCount,
                                                              fieldType.isBoolean ? .boolean(argument != 0) : .signed(argument))
                continue
            }
            if fieldType.kind == .computed {
                // Derived from what was written before it: any value given for it is not written.
                let value = try evaluate(fieldType.extent, field.fieldID, node)
                state.slots[slotBase + Int(field.slot)] = leaf(field.fieldID, fieldType.computedKind, node, -1,
                                                              writer.bitCount, fieldType.computedValue(value))
                continue
            }
            guard let member else {
                // A header type writes just the header: the root stops at the first field the value
                // lacks, when it has none after it. One that skips a field in the middle is an error.
                let later = (fieldIndex + 1)..<(structure.fieldStart + structure.fieldCount)
                let modelsLater = later.contains { index in
                    guard plan.fields[index].fieldID >= 0 else { return false }
                    let laterField = schema.fields[Int(plan.fields[index].fieldID)]
                    let laterName = matchesSwiftNames ? laterField.swiftName : laterField.name
                    return members.contains { $0.name == laterName }
                }
                if isRoot, !modelsLater { throw EndOfValue() }
                throw failure(field.fieldID, node, "the value has no property '\(name)' for this field"
                              + (modelsLater ? ", which the fields after it need to be placed" : ""))
            }
            propertyPath.append(name)
            defer { propertyPath.removeLast() }
            let savedByteOrder = byteOrderOverride
            defer { byteOrderOverride = savedByteOrder }
            if field.byteOrder >= 0 { byteOrderOverride = try evaluate(field.byteOrder, field.fieldID, node) != 0 ? 1 : 0 }
            guard field.position < 0 else {
                // Where its bytes go depends on the layout of everything else: not written.
                throw failure(field.fieldID, node, "a field read at an offset (@at) cannot be encoded")
            }
            if field.alignment > 0 {
                let misalignment = ((writer.bitCount >> 3) - (state.nodes[Int(node)].bitStart >> 3)) % Int(field.alignment)
                if misalignment != 0 { writer.writeBytes(repeatElement(UInt8(0), count: Int(field.alignment) - misalignment)) }
            }
            let child: Int32
            if field.size >= 0 {
                let size = try evaluate(field.size, field.fieldID, node)
                let start = writer.bitCount
                // The size comes from the value: checked before any arithmetic or padding, so a
                // size of 2^61 neither overflows the bit count nor asks for an exabyte of zeros.
                guard size >= 0 else {
                    throw failure(field.fieldID, node, "its @size is negative (\(size))")
                }
                guard size <= Int64(Self.maximumOutputBytes - (start >> 3)) else {
                    throw failure(field.fieldID, node,
                                  "its @size of \(size) bytes exceeds the \(Self.maximumOutputBytes)-byte limit on encoded output")
                }
                child = try writeValue(field.type, member, fieldID: field.fieldID, parent: node, arrayIndex: -1)
                let written = Int64(writer.bitCount - start)
                guard written <= size * 8 else {
                    throw failure(field.fieldID, node, "its contents take \(written / 8) bytes but its @size is \(size)")
                }
                // Fill what the contents leave of the field's size, as a reader would skip it.
                writer.writeBytes(repeatElement(UInt8(0), count: Int((size * 8 - written) / 8)))
                state.nodes[Int(child)].bitEnd = writer.bitCount
            } else {
                child = try writeValue(field.type, member, fieldID: field.fieldID, parent: node, arrayIndex: -1)
            }
            state.slots[slotBase + Int(field.slot)] = child
            guard writer.bitCount >> 3 <= Self.maximumOutputBytes else {
                throw failure(field.fieldID, node, "the encoding exceeds the \(Self.maximumOutputBytes)-byte limit on encoded output")
            }
            for constraint in field.constraintStart..<(field.constraintStart + field.constraintCount) {
                let program = plan.constraints[constraint]
                if try evaluate(program, field.fieldID, node) == 0 {
                    throw failure(field.fieldID, node, "the value breaks '\(plan.programTexts[Int(program)])'")
                }
            }
        }
        return node
    }

    private mutating func writeValue(_ typeIndex: Int32, _ value: LayoutValue, fieldID: Int32, parent: Int32,
                                     arrayIndex: Int32) throws -> Int32 {
        guard state.nodeCount < Self.maximumNodes else {
            throw failure(fieldID, parent, "the value has more than \(Self.maximumNodes) fields and elements")
        }
        let type = plan.types[typeIndex]
        let start = writer.bitCount
        switch type.kind {
        case .integer, .enumeration:
            let raw = try integerBits(value, bits: Int(type.bits), signed: type.isSigned, fieldID, parent)
            writer.writeInteger(raw, width: Int(type.bits), endianness: isLittleEndian(type) ? .little : .big,
                                order: type.lsbFirst ? .lsbFirst : .msbFirst)
            let stored: FieldValue = type.isSigned ? .signed(ByteReader.signExtend(raw, width: Int(type.bits))) : .unsigned(raw)
            let kind: NodeKind = type.kind == .enumeration ? .enumeration(enumID: type.target) : .integer
            return leaf(fieldID, kind, parent, arrayIndex, start, stored)
        case .float:
            guard case .float(let number) = Self.numeric(value) else {
                throw failure(fieldID, parent, "expected a float, got \(Self.describe(value))", outOfRange: true)
            }
            let bits = type.bits == 32 ? UInt64(Float(number).bitPattern) : number.bitPattern
            writer.writeUInt(bits, byteCount: Int(type.bits) / 8, endianness: isLittleEndian(type) ? .little : .big)
            return leaf(fieldID, .float, parent, arrayIndex, start, .float(number))
        case .boolean:
            let flag: Bool
            switch value {
            case .boolean(let boolean): flag = boolean
            case .integer(let number) where number == 0 || number == 1: flag = number == 1
            case .unsigned(let number) where number <= 1: flag = number == 1
            default: throw failure(fieldID, parent, "expected a bool, got \(Self.describe(value))", outOfRange: true)
            }
            writer.writeUInt(flag ? 1 : 0, byteCount: 1, endianness: .big)
            return leaf(fieldID, .boolean, parent, arrayIndex, start, .boolean(flag))
        case .varint, .zigzag:
            if type.kind == .zigzag {
                let number: Int64
                switch value {
                case .integer(let signed): number = signed
                case .unsigned(let unsigned) where unsigned <= UInt64(Int64.max): number = Int64(unsigned)
                default: throw failure(fieldID, parent, "expected a signed integer, got \(Self.describe(value))", outOfRange: true)
                }
                writer.writeZigZag(number)
                return leaf(fieldID, .integer, parent, arrayIndex, start, .signed(number))
            }
            let number: UInt64
            switch value {
            case .unsigned(let unsigned): number = unsigned
            case .integer(let signed) where signed >= 0: number = UInt64(signed)
            default: throw failure(fieldID, parent, "expected an unsigned integer, got \(Self.describe(value))", outOfRange: true)
            }
            writer.writeVarint(number)
            return leaf(fieldID, .integer, parent, arrayIndex, start, .unsigned(number))
        case .bytes, .address:
            let data: [UInt8]
            switch value {
            case .bytes(let bytes): data = bytes
            case .text(let text): data = Array(text.utf8)
            case .elements(let elements):
                data = try elements.map { element throws -> UInt8 in
                    UInt8(try integerBits(element, bits: 8, signed: false, fieldID, parent))
                }
            default: throw failure(fieldID, parent, "expected bytes, got \(Self.describe(value))", outOfRange: true)
            }
            let expected: Int64? = type.kind == .address ? Int64(type.target)
                : type.extentKind == .expression ? try evaluate(type.extent, fieldID, parent) : nil
            if let expected, expected != Int64(data.count) {
                throw failure(fieldID, parent, "the value has \(data.count) bytes but the layout says \(expected)")
            }
            writer.writeBytes(data)
            return leaf(fieldID, .bytes, parent, arrayIndex, start, .bytes, display: type.display)
        case .string:
            return try writeText(type, value, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex)
        case .structure:
            guard type.argumentCount > 0 else {
                return try writeStruct(type.target, value, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex)
            }
            let base = argumentValues.count
            defer { argumentValues.removeLast(argumentValues.count - base) }
            let savedIndex = argumentsElementIndex
            argumentsElementIndex = arrayIndex
            defer { argumentsElementIndex = savedIndex }
            for index in type.argumentStart..<(type.argumentStart + type.argumentCount) {
                argumentValues.append(try evaluate(plan.arguments[index], fieldID, parent))
            }
            return try writeStruct(type.target, value, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex,
                                   arguments: Int32(truncatingIfNeeded: base))
        case .parameter:
            throw failure(fieldID, parent, "a parameter is not written")
        case .array:
            return try writeArray(type, value, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex)
        case .switchOn:
            let chosen = try choose(type.target, fieldID, parent)
            return try writeValue(chosen, value, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex)
        case .dispatch:
            let chosen = try chooseDispatch(type.target, value, fieldID, parent)
            return try writeValue(chosen, value, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex)
        case .computed:
            let computed = try evaluate(type.extent, fieldID, parent)
            return leaf(fieldID, type.computedKind, parent, arrayIndex, start, type.computedValue(computed))
        case .dnsName:
            guard case .text(let name) = value else {
                throw failure(fieldID, parent, "expected a domain name, got \(Self.describe(value))", outOfRange: true)
            }
            let labels = name == "<Root>" || name.isEmpty ? [] : name.split(separator: ".", omittingEmptySubsequences: false)
            var total = 1
            for label in labels {
                let bytes = Array(label.utf8)
                guard !bytes.isEmpty, bytes.count <= 63 else {
                    throw failure(fieldID, parent, "DNS labels are 1 to 63 bytes, not \(bytes.count)")
                }
                total += bytes.count + 1
                writer.writeBytes([UInt8(bytes.count)] + bytes)
            }
            guard total <= 255 else { throw failure(fieldID, parent, "a DNS name is at most 255 bytes") }
            writer.writeBytes([0])
            state.texts.append(labels.isEmpty ? "<Root>" : name)
            return leaf(fieldID, .dnsName, parent, arrayIndex, start, .text(Int32(state.texts.count - 1)))
        }
    }

    /// Text in the string's encoding (bytes as they are, if they are text in it), then its
    /// terminator, which the text must not hold.
    private mutating func writeText(_ type: ExecutionPlan.TypeEntry, _ value: LayoutValue, fieldID: Int32, parent: Int32,
                                    arrayIndex: Int32) throws -> Int32 {
        let start = writer.bitCount
        let encoding = type.encoding
        let data: [UInt8]
        switch value {
        case .text(let text):
            guard let encoded = encoding.encode(text) else {
                throw failure(fieldID, parent, "the text has characters \(encoding.displayName) cannot write", outOfRange: true)
            }
            data = encoded
        case .bytes(let bytes): data = bytes
        case .elements(let elements):
            data = try elements.map { element throws -> UInt8 in
                UInt8(try integerBits(element, bits: 8, signed: false, fieldID, parent))
            }
        default: throw failure(fieldID, parent, "expected text, got \(Self.describe(value))", outOfRange: true)
        }
        if encoding.firstInvalid(data, in: 0..<data.count) != nil {
            throw failure(fieldID, parent, "the text is not valid \(encoding.displayName)")
        }
        switch type.extentKind {
        case .terminator:
            let terminator = Array(plan.literal(type.extent))
            // Read back, the text must end where the terminator written after it starts, not at
            // one inside it or straddling its end ("xa" before "aa").
            var reader = ByteReader(data + terminator)
            if (try? reader.readTerminated(by: terminator, alignment: encoding.codeUnitSize))?.upperBound != data.count {
                throw failure(fieldID, parent, "the text holds its terminator \(DissectionError.literal(terminator)), which would end it early")
            }
            writer.writeBytes(data)
            let contentEnd = writer.bitCount >> 3
            writer.writeBytes(terminator)
            return textLeaf(fieldID, parent, arrayIndex, start, contentEnd: contentEnd, encoding: encoding)
        case .expression:
            let expected = try evaluate(type.extent, fieldID, parent)
            if type.padding >= 0, Int64(data.count) <= expected {
                // `@pad(b)`: the text, then pad bytes up to the size; read back, they are stripped.
                let pad = UInt8(truncatingIfNeeded: type.padding)
                if data.last == pad {
                    throw failure(fieldID, parent, "the text ends with its pad byte \(pad), which reading it back would strip")
                }
                guard expected <= Int64(Self.maximumOutputBytes - (writer.bitCount >> 3)) else {
                    throw failure(fieldID, parent, "its length of \(expected) bytes exceeds the \(Self.maximumOutputBytes)-byte limit on encoded output")
                }
                writer.writeBytes(data)
                let contentEnd = writer.bitCount >> 3
                writer.writeBytes([UInt8](repeating: pad, count: Int(expected) - data.count))
                return textLeaf(fieldID, parent, arrayIndex, start, contentEnd: contentEnd, encoding: encoding)
            }
            if expected != Int64(data.count) {
                throw failure(fieldID, parent, "the value has \(data.count) bytes but the layout says \(expected)")
            }
        default:
            break
        }
        writer.writeBytes(data)
        return textLeaf(fieldID, parent, arrayIndex, start, contentEnd: writer.bitCount >> 3, encoding: encoding)
    }

    private mutating func textLeaf(_ fieldID: Int32, _ parent: Int32, _ arrayIndex: Int32, _ start: Int, contentEnd: Int,
                                   encoding: TextEncoding) -> Int32 {
        let node = leaf(fieldID, .string, parent, arrayIndex, start, .string(contentEnd: contentEnd))
        state.nodes[Int(node)].textEncoding = encoding
        return node
    }

    private mutating func writeArray(_ type: ExecutionPlan.TypeEntry, _ value: LayoutValue, fieldID: Int32, parent: Int32,
                                     arrayIndex: Int32) throws -> Int32 {
        let elements: [LayoutValue]
        switch value {
        case .elements(let list): elements = list
        case .bytes(let bytes): elements = bytes.map { .unsigned(UInt64($0)) }
        default: throw failure(fieldID, parent, "expected an array, got \(Self.describe(value))", outOfRange: true)
        }
        if type.extentKind == .expression {
            let count = try evaluate(type.extent, fieldID, parent)
            guard count == Int64(elements.count) else {
                throw failure(fieldID, parent, "the value has \(elements.count) elements but the layout says \(count)")
            }
        }
        let node = state.appendNode(FieldNode(fieldID: fieldID, kind: .array, parent: parent, arrayIndex: arrayIndex,
                                              bitStart: writer.bitCount, bitEnd: writer.bitCount, value: .none,
                                              subtreeEnd: Int32(state.nodeCount + 1), isBitField: false,
                                              impliedDisplay: .automatic, frame: -1))
        let savedElement = currentElement
        defer {
            currentElement = savedElement
            state.nodes[Int(node)].value = .unsigned(UInt64(elements.count))
            close(node)
        }
        for (index, element) in elements.enumerated() {
            propertyPath.append("[\(index)]")
            defer { propertyPath.removeLast() }
            let child = try writeValue(type.target, element, fieldID: fieldID, parent: node, arrayIndex: Int32(clamping: index))
            if type.extentKind == .until {
                currentElement = child
                let holds = try evaluate(type.extent, fieldID, node) != 0
                guard holds == (index == elements.count - 1) else {
                    throw failure(fieldID, node, holds ? "element \(index) ends the array before the last element"
                                  : "the last element does not satisfy the array's 'until' condition")
                }
            }
        }
        return node
    }

    private mutating func choose(_ switchIndex: Int32, _ fieldID: Int32, _ parent: Int32) throws -> Int32 {
        let entry = plan.switches[switchIndex]
        let subject = entry.subject >= 0 ? try evaluate(entry.subject, fieldID, parent) : nil
        for index in entry.caseStart..<(entry.caseStart + entry.caseCount) {
            let candidate = plan.cases[index]
            if let subject {
                if candidate.value == subject { return candidate.type }
            } else if try evaluate(candidate.condition, fieldID, parent) != 0 {
                return candidate.type
            }
        }
        if entry.defaultType >= 0 { return entry.defaultType }
        throw failure(fieldID, parent, "no switch case matches the values written before it")
    }

    /// Bytes for a value given as bytes; else, as the interpreter reads, the struct of the first key
    /// the table holds; else the first heuristic (which the reader will try first); else the bytes.
    private mutating func chooseDispatch(_ siteIndex: Int32, _ value: LayoutValue, _ fieldID: Int32,
                                         _ parent: Int32) throws -> Int32 {
        if case .bytes = value { return plan.restOfScopeType }
        let site = plan.dispatchSites[siteIndex]
        let table = plan.dispatchTables[site.table]
        for keyIndex in site.keyStart..<(site.keyStart + site.keyCount) {
            let chosen = plan.lookup(try evaluate(plan.dispatchKeys[keyIndex], fieldID, parent), in: table)
            if chosen >= 0 { return chosen }
        }
        if case .fields = value, table.heuristicCount > 0 { return plan.keyRanges[table.heuristicStart].type }
        return plan.restOfScopeType
    }

    // MARK: - Helpers

    private func isLittleEndian(_ type: ExecutionPlan.TypeEntry) -> Bool {
        byteOrderOverride < 0 || !type.followsByteOrder ? type.littleEndian : byteOrderOverride == 1
    }

    private func integerBits(_ value: LayoutValue, bits: Int, signed: Bool, _ fieldID: Int32,
                             _ parent: Int32) throws -> UInt64 {
        let mask: UInt64 = bits >= 64 ? .max : (1 << UInt64(bits)) - 1
        switch value {
        case .boolean(let flag):
            return flag ? 1 : 0
        case .unsigned(let number):
            let limit: UInt64 = signed ? mask >> 1 : mask
            guard number <= limit else { throw rangeFailure(String(number), bits, signed, fieldID, parent) }
            return number
        case .integer(let number):
            if signed {
                let low = bits >= 64 ? Int64.min : -(Int64(1) << Int64(bits - 1))
                let high = bits >= 64 ? Int64.max : (Int64(1) << Int64(bits - 1)) - 1
                guard number >= low, number <= high else { throw rangeFailure(String(number), bits, signed, fieldID, parent) }
                return UInt64(bitPattern: number) & mask
            }
            guard number >= 0, UInt64(number) <= mask else { throw rangeFailure(String(number), bits, signed, fieldID, parent) }
            return UInt64(number)
        default:
            throw failure(fieldID, parent, "expected an integer, got \(Self.describe(value))", outOfRange: true)
        }
    }

    private func rangeFailure(_ number: String, _ bits: Int, _ signed: Bool, _ fieldID: Int32, _ parent: Int32) -> LayoutWriteError {
        failure(fieldID, parent, "\(number) does not fit \(signed ? "a signed" : "an unsigned") \(bits)-bit field", outOfRange: true)
    }

    private static func numeric(_ value: LayoutValue) -> LayoutValue {
        switch value {
        case .integer(let number): return .float(Double(number))
        case .unsigned(let number): return .float(Double(number))
        default: return value
        }
    }

    private static func describe(_ value: LayoutValue) -> String {
        switch value {
        case .integer(let number): return "the integer \(number)"
        case .unsigned(let number): return "the integer \(number)"
        case .boolean(let flag): return "the bool \(flag)"
        case .float(let number): return "the float \(number)"
        case .text: return "text"
        case .bytes(let bytes): return "\(bytes.count) bytes"
        case .fields: return "a struct"
        case .elements(let elements): return "an array of \(elements.count)"
        }
    }

    private mutating func leaf(_ fieldID: Int32, _ kind: NodeKind, _ parent: Int32, _ arrayIndex: Int32, _ start: Int,
                               _ value: FieldValue, display: DisplayHint = .automatic) -> Int32 {
        state.appendNode(FieldNode(fieldID: fieldID, kind: kind, parent: parent, arrayIndex: arrayIndex, bitStart: start,
                                   bitEnd: writer.bitCount, value: value, subtreeEnd: Int32(state.nodeCount + 1),
                                   isBitField: start & 7 != 0 || (writer.bitCount - start) & 7 != 0,
                                   impliedDisplay: display, frame: -1))
    }

    private func close(_ node: Int32) {
        state.nodes[Int(node)].bitEnd = writer.bitCount
        state.nodes[Int(node)].subtreeEnd = Int32(state.nodeCount)
    }

    private func failure(_ fieldID: Int32, _ parent: Int32, _ reason: String, outOfRange: Bool = false) -> LayoutWriteError {
        let name = fieldID >= 0 ? schema.fields[Int(fieldID)].name : "value"
        let view = Dissection(schema: schema, bytes: writer.bytes, store: state, error: nil)
        let parentPath = parent >= 0 && Int(parent) < state.nodeCount ? view.path(of: Int(parent)) + "." : ""
        return LayoutWriteError(path: parentPath + name, propertyPath: propertyPath, offset: writer.bitCount >> 3,
                                reason: reason, isOutOfRange: outOfRange)
    }

    private mutating func evaluate(_ program: Int32, _ fieldID: Int32, _ parent: Int32) throws -> Int64 {
        do {
            return try Evaluator.run(plan.operations(of: program), in: &self)
        } catch {
            throw failure(fieldID, parent, "cannot evaluate '\(plan.programTexts[Int(program)])': \(error)")
        }
    }
}

extension LayoutWriter: NodeEvaluationContext {
    var nodeStore: NodeStore { state }
    var nodePlan: ExecutionPlan { plan }
    var referenceFrame: Int32 { currentFrame }
    var elementNode: Int32 {
        get { currentElement }
        set { currentElement = newValue }
    }
    var nodeBytes: [UInt8] { writer.bytes }

    func slotValue(_ slot: Int32) -> Int64? {
        guard let frame = state.frame(currentFrame), let node = state.slotNode(frame, slot) else { return nil }
        return try? state.integerValue(of: node, "field")
    }

    func slotFailure(_ slot: Int32) -> EvaluationFailure {
        guard let frame = state.frame(currentFrame) else { return .noEnclosingStruct("field") }
        guard let node = state.slotNode(frame, slot) else { return .absentField("field") }
        do { _ = try state.integerValue(of: node, "field") } catch { return error }
        return .absentField("field")
    }

    func constant(_ index: Int32) -> Int64 { plan.constants[index] }

    func slotPresence(_ slot: Int32) -> Bool? {
        guard let frame = state.frame(currentFrame) else { return nil }
        return state.slotNode(frame, slot) != nil
    }

    var presenceFailure: EvaluationFailure { .noEnclosingStruct("field") }

    /// Nothing is left to read while writing: `remaining()` is zero.
    var remainingBytes: Int64 { 0 }
    var currentOffset: Int64 { Int64(writer.bitCount >> 3) }

    func peekByte(_ distance: Int64) throws(EvaluationFailure) -> Int64 { throw .notAvailable }
}
