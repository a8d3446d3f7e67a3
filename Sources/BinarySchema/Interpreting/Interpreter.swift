import BinaryIO

/// Walks a checked schema over bytes and records every field it reads.
///
/// This is the one place fields are read: the dissector's views and the
/// schema-driven decoder both consume its ``Dissection``. Whatever the bytes,
/// it never traps: reads are bounds-checked, lengths are checked against the
/// bytes left before anything is read, arithmetic is overflow-checked, nesting
/// has a depth budget and DNS compression pointers have a loop guard.
///
/// Reuse one interpreter for many buffers: it keeps its working arrays.
public struct Interpreter {
    /// Limits that bound work on hostile input. Each is clamped to its range when set.
    public struct Options: Sendable {
        /// Deepest nesting of structs allowed (IP-in-IP-in-...), default 64; at least 0.
        public var depthLimit: Int = 64 { didSet { depthLimit = max(0, depthLimit) } }
        /// Most DNS compression pointers followed for one name, default 64; at least 0.
        public var pointerLimit: Int = 64 { didSet { pointerLimit = max(0, pointerLimit) } }
        /// Most fields one walk records, default 4M (256 MB of nodes); bounds memory on
        /// inputs of millions of tiny fields. Clamped to 16...`Int32.max / 2`, which keeps node
        /// indices within `Int32`.
        public var fieldLimit: Int = 1 << 22 {
            didSet { fieldLimit = max(16, min(fieldLimit, Int(Int32.max) / 2)) }
        }
        /// Which `@checksum` fields are verified after each walk; by default those not marked
        /// `on_request` (of the bundled schemas, the IPv4 header checksum).
        public var checksums: ChecksumSelection = .default

        /// The defaults.
        public init() {}
    }

    /// The schema this interpreter walks.
    public let schema: Schema
    /// The limits of every walk.
    public var options: Options {
        didSet { checksumsEnabled = plan.checksums.enabled(by: options.checksums) }
    }
    private let plan: ExecutionPlan
    /// Which of the plan's checksums ``Options/checksums`` selects, by index; empty when none is,
    /// so a walk with nothing to verify skips the pass.
    private var checksumsEnabled: [Bool] {
        didSet { if !checksumsEnabled.contains(true) { checksumsEnabled = [] } }
    }
    /// Working memory, reused by every walk. A dissection handed out holds on to it; the next
    /// walk then finds it shared and starts on new memory, so the dissection keeps its values
    /// (as copies of this interpreter do).
    private var state = NodeStore()
    private var reader = ByteReader([])
    private var currentFrame: Int32 = -1
    private var currentElement: Int32 = -1
    private var depth = 0
    /// The frame a heuristic attempt will give its struct until that struct claims its payload
    /// (its last constraint held), or -1: an error before then rolls the attempt back.
    private var unclaimedHeuristicFrame: Int32 = -1
    /// The error being thrown up as ``Stop``; set by `failure`.
    private var pendingError: DissectionError?

    /// Thrown up the walk when it stops; the reason is in `pendingError`. Empty, so the
    /// throwing calls of the hot path carry no payload.
    private struct Stop: Error {}

    /// An interpreter for `schema` with the limits of `options`.
    public init(schema: Schema, options: Options = Options()) {
        self.schema = schema
        self.options = options
        self.plan = schema.plan
        let enabled = schema.plan.checksums.enabled(by: options.checksums)
        checksumsEnabled = enabled.contains(true) ? enabled : []
    }

    /// Dissects `bytes` starting at struct `root`. The dissection holds a compact copy of what
    /// was read, and the interpreter keeps its working memory for the next walk.
    public mutating func dissect(_ bytes: [UInt8], root: StructType) -> Dissection {
        let error = run(bytes, root: root.id)
        return Dissection(schema: schema, bytes: bytes, store: state.copy(), error: error)
    }

    /// Walks `bytes` and hands the dissection to `body` without copying the interpreter's
    /// working memory, for loops over many buffers. A dissection kept after `body` returns
    /// stays valid: the next walk leaves that memory to it and allocates its own.
    public mutating func withDissection<Result>(of bytes: [UInt8], root: StructType,
                                                _ body: (Dissection) throws -> Result) rethrows -> Result {
        let error = run(bytes, root: root.id)
        // The walk lets go of the bytes, so a caller refilling one buffer for every walk keeps
        // it uniquely referenced (no copy on write).
        reader = ByteReader([])
        return try body(Dissection(schema: schema, bytes: bytes, store: state, error: error))
    }

    private mutating func run(_ bytes: [UInt8], root: Int) -> DissectionError? {
        if isKnownUniquelyReferenced(&state) {
            state.reset()
        } else {
            // A dissection (or a copy of this interpreter) still reads this memory.
            state = NodeStore()
        }
        reader = ByteReader(bytes)
        currentFrame = -1
        currentElement = -1
        depth = 0
        unclaimedHeuristicFrame = -1
        pendingError = nil
        let stopped: DissectionError?
        do {
            _ = try parseStruct(Int32(root), fieldID: -1, parent: -1, arrayIndex: -1)
            stopped = nil
        } catch {
            if let failing = pendingError?.node { extendAncestors(over: failing) }
            stopped = pendingError
        }
        if !checksumsEnabled.isEmpty {
            ChecksumVerifier.run(store: state, plan: plan, bytes: reader.bytes, enabled: checksumsEnabled,
                                 errorNode: Int32(clamping: stopped?.node ?? -1))
        }
        return stopped
    }

    /// The failing node spans the bytes its field could see, past where the cursor stopped
    /// and its enclosing structs closed: each of them is widened to contain it.
    private func extendAncestors(over node: Int) {
        guard node >= 0, node < state.nodeCount else { return }
        var child = node
        var parent = Int(state.nodes[child].parent)
        while parent >= 0, parent < child {
            if state.nodes[parent].bitEnd < state.nodes[child].bitEnd {
                state.nodes[parent].bitEnd = state.nodes[child].bitEnd
            }
            child = parent
            parent = Int(state.nodes[child].parent)
        }
    }

    // MARK: - Structs and fields

    private mutating func parseStruct(_ structID: Int32, fieldID: Int32, parent: Int32,
                                      arrayIndex: Int32) throws(Stop) -> Int32 {
        let structure = plan.structs[structID]
        depth += 1
        defer { depth -= 1 }
        // The field limit is checked per struct and per array element: between checks a
        // struct adds at most one node per field.
        guard depth <= options.depthLimit, state.nodeCount < options.fieldLimit,
              state.slotCount < Int(Int32.max) - Int(structure.fieldCount) else {
            throw limitFailure(structID: structID, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex)
        }
        let nodeIndex = appendNode(fieldID: fieldID, kind: .structure(structID: structID), parent: parent,
                                   arrayIndex: arrayIndex, bitStart: reader.bitPosition)
        let slotBase = state.appendSlots(Int(structure.fieldCount))
        let frameIndex = state.appendFrame(Frame(node: nodeIndex, slotBase: Int32(slotBase), parent: currentFrame,
                                                 structID: structID, limit: reader.limit))
        state.nodes[Int(nodeIndex)].frame = frameIndex
        let savedFrame = currentFrame
        currentFrame = frameIndex
        defer {
            currentFrame = savedFrame
            close(nodeIndex)
        }
        var fieldIndex = structure.fieldStart
        let fieldEnd = structure.fieldStart + structure.fieldCount
        while fieldIndex < fieldEnd {
            let field = plan.fields[fieldIndex]
            fieldIndex += 1
            let node: Int32
            if field.isPlainInteger, let read = readPlainInteger(plan.types[field.type], fieldID: field.fieldID, parent: nodeIndex) {
                node = read
            } else {
                guard let read = try parseField(field, parent: nodeIndex) else { continue }
                node = read
            }
            state.slots[slotBase + Int(field.slot)] = node
            guard field.constraintCount > 0 else { continue }
            var constraint = field.constraintStart
            while constraint < field.constraintStart + field.constraintCount {
                let program = plan.constraints[constraint]
                if try evaluate(program, for: node) == 0 {
                    throw failure(at: node, .constraintViolated(expression: plan.programTexts[Int(program)]))
                }
                constraint += 1
            }
            if frameIndex == unclaimedHeuristicFrame, fieldIndex - 1 - structure.fieldStart == structure.lastConstrainedField {
                unclaimedHeuristicFrame = -1
            }
        }
        return nodeIndex
    }

    @inline(__always)
    private mutating func parseField(_ field: ExecutionPlan.FieldEntry, parent: Int32) throws(Stop) -> Int32? {
        if field.condition >= 0 {
            let holds = try evaluate(field.condition, fieldID: field.fieldID, type: field.type, parent: parent, arrayIndex: -1)
            guard holds != 0 else { return nil }
        }
        guard field.size >= 0 else {
            return try parseValue(field.type, fieldID: field.fieldID, parent: parent, arrayIndex: -1)
        }
        let length = try evaluate(field.size, fieldID: field.fieldID, type: field.type, parent: parent, arrayIndex: -1)
        let start = try checkedExtent(length, fieldID: field.fieldID, type: field.type, kind: nil, parent: parent,
                                      arrayIndex: -1)
        let end = start + Int(length)
        // Neither move can fail: checkedExtent found `length` bytes in scope at the cursor, and
        // the field's contents cannot read past the narrowed scope.
        let savedLimit = try? reader.narrow(toByteCount: Int(length))
        defer { if let savedLimit { try? reader.restoreLimit(toByte: savedLimit) } }
        let node = try parseValue(field.type, fieldID: field.fieldID, parent: parent, arrayIndex: -1)
        // The field owns its whole size; bytes its contents leave unread stay inside it, unclaimed.
        try? reader.seek(toByte: end)
        state.nodes[Int(node)].bitEnd = reader.bitPosition
        return node
    }

    /// Checks that `length` bytes can be taken at the (aligned) cursor; returns the cursor's byte offset.
    /// A failure's node has `kind`, or (worked out only then) the kind of type `typeIndex`.
    private mutating func checkedExtent(_ length: Int64, fieldID: Int32, type typeIndex: Int32, kind: NodeKind?,
                                        parent: Int32, arrayIndex: Int32) throws(Stop) -> Int {
        guard reader.isAligned else {
            throw failure(.misaligned(bitOffset: reader.bitPosition & 7), fieldID: fieldID,
                          kind: kind ?? nodeKind(typeIndex), parent: parent, arrayIndex: arrayIndex)
        }
        guard length >= 0 else {
            throw failure(.negativeLength(length), fieldID: fieldID, kind: kind ?? nodeKind(typeIndex), parent: parent,
                          arrayIndex: arrayIndex)
        }
        let start = reader.offset
        let available = reader.limit - start
        guard length <= Int64(available) else {
            throw failure(shortage(needed: length, available: available), fieldID: fieldID,
                          kind: kind ?? nodeKind(typeIndex), parent: parent, arrayIndex: arrayIndex, length: available)
        }
        return start
    }

    /// Premature end when the buffer itself runs out; exceeds-scope when an enclosing length stops the field first.
    private func shortage(needed: Int64, available: Int) -> DissectionError.Kind {
        if reader.limit < reader.bytes.count {
            return .exceedsScope(needed: needed, available: available)
        }
        return .prematureEnd(needed: Int(clamping: needed), available: available)
    }

    // MARK: - Values

    private mutating func parseValue(_ typeIndex: Int32, fieldID: Int32, parent: Int32,
                                     arrayIndex: Int32) throws(Stop) -> Int32 {
        let start = reader.bitPosition
        let type = plan.types[typeIndex]
        switch type.kind {
        case .integer:
            let (value, bitField) = try readInteger(type, fieldID: fieldID, kind: .integer, parent: parent,
                                                    arrayIndex: arrayIndex)
            return appendLeaf(fieldID, .integer, parent, arrayIndex, start, value, bitField: bitField)
        case .enumeration:
            let kind = NodeKind.enumeration(enumID: type.target)
            let (value, bitField) = try readInteger(type, fieldID: fieldID, kind: kind, parent: parent, arrayIndex: arrayIndex)
            return appendLeaf(fieldID, kind, parent, arrayIndex, start, value, bitField: bitField)
        case .float:
            let bits = Int(type.bits)
            let endianness: Endianness = type.littleEndian ? .little : .big
            let raw = try read(fieldID, .float, parent, arrayIndex) { (reader: inout ByteReader) throws(ByteReadError) in
                try reader.readUInt(byteCount: bits / 8, endianness: endianness)
            }
            let value = bits == 32 ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: raw))) : Double(bitPattern: raw)
            return appendLeaf(fieldID, .float, parent, arrayIndex, start, .float(value))
        case .boolean:
            let raw = try read(fieldID, .boolean, parent, arrayIndex) { (reader: inout ByteReader) throws(ByteReadError) in
                try reader.readUInt(byteCount: 1, endianness: .big)
            }
            guard raw <= 1 else {
                try? reader.seek(toBit: start)
                throw failure(.boolOutOfRange(UInt8(truncatingIfNeeded: raw)), fieldID: fieldID, kind: .boolean,
                              parent: parent, arrayIndex: arrayIndex, length: 1)
            }
            return appendLeaf(fieldID, .boolean, parent, arrayIndex, start, .boolean(raw == 1))
        case .varint, .zigzag:
            let zigzag = type.kind == .zigzag
            let value = try read(fieldID, .integer, parent, arrayIndex) { (reader: inout ByteReader) throws(ByteReadError) in
                zigzag ? FieldValue.signed(try reader.readZigZag()) : FieldValue.unsigned(try reader.readVarint())
            }
            return appendLeaf(fieldID, .integer, parent, arrayIndex, start, value)
        case .bytes, .string, .address:
            let isString = type.kind == .string
            let kind: NodeKind = isString ? .string : .bytes
            let length: Int64
            switch type.extentKind {
            case .expression:
                length = try evaluate(type.extent, fieldID: fieldID, type: typeIndex, parent: parent, arrayIndex: arrayIndex)
            case .none:
                length = Int64(type.target)
            case .rest, .until:
                length = Int64(reader.remainingBytes)
            }
            _ = try checkedExtent(length, fieldID: fieldID, type: typeIndex, kind: kind, parent: parent,
                                  arrayIndex: arrayIndex)
            let range = try read(fieldID, kind, parent, arrayIndex) { (reader: inout ByteReader) throws(ByteReadError) in
                isString ? try reader.readUTF8(Int(length)) : try reader.readBytes(Int(length))
            }
            return appendLeaf(fieldID, kind, parent, arrayIndex, start, isString ? .string(contentEnd: range.upperBound) : .bytes,
                              display: type.display)
        case .cString:
            let range = try read(fieldID, .string, parent, arrayIndex) { (reader: inout ByteReader) throws(ByteReadError) in
                try reader.readCString()
            }
            return appendLeaf(fieldID, .string, parent, arrayIndex, start, .string(contentEnd: range.upperBound))
        case .structure:
            return try parseStruct(type.target, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex)
        case .array:
            return try parseArray(type, typeIndex: typeIndex, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex)
        case .switchOn:
            let chosen = try choose(type.target, typeIndex: typeIndex, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex)
            return try parseValue(chosen, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex)
        case .dispatch:
            return try parseDispatch(type.target, typeIndex: typeIndex, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex)
        case .dnsName:
            return try parseDNSName(fieldID: fieldID, parent: parent, arrayIndex: arrayIndex)
        }
    }

    // MARK: - Dispatch tables

    /// Reads the struct the table holds for the first key that has one; else the first heuristic
    /// that claims the payload; else the payload as bytes.
    private mutating func parseDispatch(_ siteIndex: Int32, typeIndex: Int32, fieldID: Int32, parent: Int32,
                                        arrayIndex: Int32) throws(Stop) -> Int32 {
        // Nothing to claim: an empty payload stays empty bytes, as Wireshark calls no dissector on it.
        guard reader.remainingBits > 0 else {
            return try parseValue(plan.restOfScopeType, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex)
        }
        let site = plan.dispatchSites[siteIndex]
        let table = plan.dispatchTables[site.table]
        var keyIndex = site.keyStart
        while keyIndex < site.keyStart + site.keyCount {
            let key = try evaluate(plan.dispatchKeys[keyIndex], fieldID: fieldID, type: typeIndex, parent: parent,
                                   arrayIndex: arrayIndex)
            let chosen = plan.lookup(key, in: table)
            if chosen >= 0 { return try parseValue(chosen, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex) }
            keyIndex += 1
        }
        var heuristic = table.heuristicStart
        while heuristic < table.heuristicStart + table.heuristicCount {
            if let node = try attempt(plan.keyRanges[heuristic].type, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex) {
                return node
            }
            heuristic += 1
        }
        return try parseValue(plan.restOfScopeType, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex)
    }

    /// Tries a heuristic struct on the payload. Nil, with everything it recorded forgotten, when it
    /// stops before its last constraint held (it does not claim the payload); once it has claimed
    /// the payload, its errors are the walk's.
    private mutating func attempt(_ typeIndex: Int32, fieldID: Int32, parent: Int32, arrayIndex: Int32) throws(Stop) -> Int32? {
        let mark = state.mark
        let start = reader.bitPosition
        let savedClaim = unclaimedHeuristicFrame
        unclaimedHeuristicFrame = Int32(truncatingIfNeeded: mark.frames)
        defer { unclaimedHeuristicFrame = savedClaim }
        do {
            return try parseValue(typeIndex, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex)
        } catch {
            guard unclaimedHeuristicFrame == Int32(truncatingIfNeeded: mark.frames) else { throw error }
            state.rollBack(to: mark)
            try? reader.seek(toBit: start)
            pendingError = nil
            return nil
        }
    }

    /// The fast path for most fields: an integer or enum with no condition or size. Nil when
    /// the bytes are not there; the general path then reads it again and reports why.
    @inline(__always)
    private mutating func readPlainInteger(_ type: ExecutionPlan.TypeEntry, fieldID: Int32, parent: Int32) -> Int32? {
        let start = reader.bitPosition
        let read: ByteReader.IntegerRead
        if let fast = reader.readIntegerFast(width: Int(type.bits), littleEndian: type.littleEndian, lsbFirst: type.lsbFirst) {
            read = fast
        } else if let general = try? reader.readInteger(width: Int(type.bits), endianness: type.littleEndian ? .little : .big,
                                                       order: type.lsbFirst ? .lsbFirst : .msbFirst) {
            read = general
        } else {
            try? reader.seek(toBit: start)
            return nil
        }
        let raw = read.value
        let value: FieldValue = type.isSigned ? .signed(ByteReader.signExtend(raw, width: Int(type.bits))) : .unsigned(raw)
        let kind: NodeKind = type.kind == .enumeration ? .enumeration(enumID: type.target) : .integer
        return appendLeaf(fieldID, kind, parent, -1, start, value, bitField: read.readAsBits)
    }

    @inline(__always)
    private mutating func readInteger(_ type: ExecutionPlan.TypeEntry, fieldID: Int32, kind: NodeKind, parent: Int32,
                                      arrayIndex: Int32) throws(Stop) -> (FieldValue, Bool) {
        let bits = Int(type.bits)
        let read: ByteReader.IntegerRead
        do {
            read = try reader.readInteger(width: bits, endianness: type.littleEndian ? .little : .big,
                                          order: type.lsbFirst ? .lsbFirst : .msbFirst)
        } catch {
            throw failure(error, fieldID: fieldID, kind: kind, parent: parent, arrayIndex: arrayIndex)
        }
        let value: FieldValue = type.isSigned ? .signed(ByteReader.signExtend(read.value, width: bits)) : .unsigned(read.value)
        return (value, read.readAsBits)
    }

    private mutating func choose(_ switchIndex: Int32, typeIndex: Int32, fieldID: Int32, parent: Int32,
                                 arrayIndex: Int32) throws(Stop) -> Int32 {
        let entry = plan.switches[switchIndex]
        let caseEnd = entry.caseStart + entry.caseCount
        if entry.subject >= 0 {
            let value = try evaluate(entry.subject, fieldID: fieldID, type: typeIndex, parent: parent, arrayIndex: arrayIndex)
            var index = entry.caseStart
            while index < caseEnd {
                let candidate = plan.cases[index]
                if candidate.value == value { return candidate.type }
                index += 1
            }
            if entry.defaultType >= 0 { return entry.defaultType }
            throw failure(.noMatchingCase(value), fieldID: fieldID, kind: .bytes, parent: parent, arrayIndex: arrayIndex)
        }
        var index = entry.caseStart
        while index < caseEnd {
            let candidate = plan.cases[index]
            if try evaluate(candidate.condition, fieldID: fieldID, type: typeIndex, parent: parent,
                            arrayIndex: arrayIndex) != 0 {
                return candidate.type
            }
            index += 1
        }
        if entry.defaultType >= 0 { return entry.defaultType }
        throw failure(.noMatchingCase(nil), fieldID: fieldID, kind: .bytes, parent: parent, arrayIndex: arrayIndex)
    }

    private mutating func parseArray(_ type: ExecutionPlan.TypeEntry, typeIndex: Int32, fieldID: Int32, parent: Int32,
                                     arrayIndex: Int32) throws(Stop) -> Int32 {
        var count: Int64 = -1
        if type.extentKind == .expression {
            count = try evaluate(type.extent, fieldID: fieldID, type: typeIndex, parent: parent, arrayIndex: arrayIndex)
            guard count >= 0 else {
                throw failure(.negativeLength(count), fieldID: fieldID, kind: .array, parent: parent, arrayIndex: arrayIndex)
            }
            // Every element takes at least one bit: a count beyond the bits left fails now, before any work.
            let availableBits = reader.remainingBits
            guard count <= Int64(availableBits) else {
                throw failure(shortage(needed: count, available: availableBits / 8), fieldID: fieldID, kind: .array,
                              parent: parent, arrayIndex: arrayIndex)
            }
        }
        let node = appendNode(fieldID: fieldID, kind: .array, parent: parent, arrayIndex: arrayIndex,
                              bitStart: reader.bitPosition)
        let savedElement = currentElement
        var index: Int64 = 0
        defer {
            currentElement = savedElement
            state.nodes[Int(node)].value = .unsigned(UInt64(clamping: index))
            close(node)
        }
        while true {
            switch type.extentKind {
            case .expression:
                if index >= count { return node }
            case .rest, .none:
                if reader.remainingBits == 0 { return node }
            case .until:
                break
            }
            guard state.nodeCount < options.fieldLimit else {
                throw limitFailure(elementType: type.target, fieldID: fieldID, parent: node, arrayIndex: Int32(clamping: index))
            }
            let before = reader.bitPosition
            let elementNode = try parseValue(type.target, fieldID: fieldID, parent: node, arrayIndex: Int32(clamping: index))
            index += 1
            guard reader.bitPosition > before else {
                throw failure(at: elementNode, .emptyElement(index: Int(index - 1)))
            }
            if type.extentKind == .until {
                currentElement = elementNode
                if try evaluate(type.extent, for: elementNode) != 0 { return node }
            }
        }
    }

    // MARK: - DNS names

    private mutating func parseDNSName(fieldID: Int32, parent: Int32, arrayIndex: Int32) throws(Stop) -> Int32 {
        guard reader.isAligned else {
            throw failure(.misaligned(bitOffset: reader.bitPosition & 7), fieldID: fieldID, kind: .dnsName, parent: parent,
                          arrayIndex: arrayIndex)
        }
        // Compression pointers count from the start of the nearest enclosing @offset_base struct.
        var base = 0
        var baseLimit = reader.bytes.count
        var frameIndex = currentFrame
        while frameIndex >= 0 {
            guard let frame = state.frame(frameIndex) else { break }
            if plan.structs[frame.structID].isOffsetBase {
                base = state.nodes[Int(frame.node)].byteOffset
                baseLimit = frame.limit
                break
            }
            frameIndex = frame.parent
        }
        let bytes = reader.bytes
        let start = reader.offset
        var position = start
        var scopeLimit = reader.limit
        var inPlaceEnd: Int?
        var name: [UInt8] = []
        var wireLength = 0
        var visited: [Int] = []
        func fail(_ kind: DissectionError.Kind, _ interpreter: inout Interpreter) -> Stop {
            let end = inPlaceEnd ?? min(position, scopeLimit)
            return interpreter.failure(kind, fieldID: fieldID, kind: .dnsName, parent: parent, arrayIndex: arrayIndex,
                                       length: max(0, end - start))
        }
        while true {
            guard position < scopeLimit else {
                throw fail(shortage(needed: Int64(position - start + 1), available: scopeLimit - start), &self)
            }
            let length = bytes[position]
            switch length >> 6 {
            case 0:
                if length == 0 {
                    position += 1
                    // The name ends inside the scope: at the terminating label or the first pointer.
                    try? reader.seek(toByte: inPlaceEnd ?? position)
                    let text = name.isEmpty ? "<Root>" : String(decoding: name, as: UTF8.self)
                    let textIndex = Int32(state.texts.count)
                    state.texts.append(text)
                    return appendLeaf(fieldID, .dnsName, parent, arrayIndex, start << 3, .text(textIndex))
                }
                let labelLength = Int(length)
                guard labelLength < scopeLimit - position else {
                    throw fail(shortage(needed: Int64(position + 1 + labelLength - start), available: scopeLimit - start), &self)
                }
                wireLength += labelLength + 1
                guard wireLength <= 255 else { throw fail(.nameTooLong, &self) }
                if !name.isEmpty { name.append(UInt8(ascii: ".")) }
                Self.appendLabel(bytes[(position + 1)...(position + labelLength)], to: &name)
                position += 1 + labelLength
            case 3:
                guard position + 1 < scopeLimit else {
                    throw fail(shortage(needed: Int64(position + 2 - start), available: scopeLimit - start), &self)
                }
                let pointer = Int(length & 0x3F) << 8 | Int(bytes[position + 1])
                if inPlaceEnd == nil { inPlaceEnd = position + 2 }
                let target = base + pointer
                guard target < baseLimit else { throw fail(.pointerOutOfRange(pointer), &self) }
                guard !visited.contains(target), visited.count < options.pointerLimit else { throw fail(.pointerLoop, &self) }
                visited.append(target)
                position = target
                scopeLimit = baseLimit
            default:
                throw fail(.invalidLabel(length), &self)
            }
        }
    }

    /// Appends a label as text, escaping dots, backslashes and unprintable bytes as `\DDD` (RFC 4343 style).
    private static func appendLabel(_ label: ArraySlice<UInt8>, to name: inout [UInt8]) {
        for byte in label {
            if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "\\") {
                name.append(UInt8(ascii: "\\"))
                name.append(byte)
            } else if byte > 0x20, byte < 0x7F {
                name.append(byte)
            } else {
                name.append(UInt8(ascii: "\\"))
                name.append(contentsOf: Array(String(format3: Int(byte)).utf8))
            }
        }
    }

    // MARK: - Nodes and failures

    private mutating func appendNode(fieldID: Int32, kind: NodeKind, parent: Int32, arrayIndex: Int32,
                                     bitStart: Int) -> Int32 {
        let index = Int32(state.nodeCount)
        return state.appendNode(FieldNode(fieldID: fieldID, kind: kind, parent: parent, arrayIndex: arrayIndex,
                                          bitStart: bitStart, bitEnd: bitStart, value: .none, subtreeEnd: index + 1,
                                          isBitField: false, impliedDisplay: .automatic, frame: -1))
    }

    private mutating func appendLeaf(_ fieldID: Int32, _ kind: NodeKind, _ parent: Int32, _ arrayIndex: Int32,
                                     _ bitStart: Int, _ value: FieldValue, bitField: Bool = false,
                                     display: DisplayHint = .automatic) -> Int32 {
        let index = Int32(state.nodeCount)
        return state.appendNode(FieldNode(fieldID: fieldID, kind: kind, parent: parent, arrayIndex: arrayIndex,
                                          bitStart: bitStart, bitEnd: reader.bitPosition, value: value,
                                          subtreeEnd: index + 1, isBitField: bitField, impliedDisplay: display, frame: -1))
    }

    private mutating func close(_ node: Int32) {
        state.nodes[Int(node)].bitEnd = max(state.nodes[Int(node)].bitStart, reader.bitPosition)
        state.nodes[Int(node)].subtreeEnd = Int32(state.nodeCount)
    }

    /// Runs a read on the reader, turning a read error into a failure node for the field.
    @inline(__always)
    private mutating func read<Value>(_ fieldID: Int32, _ kind: NodeKind, _ parent: Int32, _ arrayIndex: Int32,
                                      _ body: (inout ByteReader) throws(ByteReadError) -> Value) throws(Stop) -> Value {
        do {
            return try body(&reader)
        } catch {
            throw failure(error, fieldID: fieldID, kind: kind, parent: parent, arrayIndex: arrayIndex)
        }
    }

    /// The depth or field limit a struct met, kept out of line to keep the hot path small.
    @inline(never)
    private mutating func limitFailure(structID: Int32, fieldID: Int32, parent: Int32, arrayIndex: Int32) -> Stop {
        let kind: DissectionError.Kind = depth > options.depthLimit ? .depthLimit(options.depthLimit)
            : .fieldLimit(options.fieldLimit)
        return failure(kind, fieldID: fieldID, kind: .structure(structID: structID), parent: parent, arrayIndex: arrayIndex)
    }

    /// The field limit an array element met.
    @inline(never)
    private mutating func limitFailure(elementType: Int32, fieldID: Int32, parent: Int32, arrayIndex: Int32) -> Stop {
        failure(.fieldLimit(options.fieldLimit), fieldID: fieldID, kind: nodeKind(elementType), parent: parent,
                arrayIndex: arrayIndex)
    }

    /// The failure for a read error, as a node spanning the bytes the field could see.
    @inline(never)
    private mutating func failure(_ error: ByteReadError, fieldID: Int32, kind: NodeKind, parent: Int32,
                                  arrayIndex: Int32) -> Stop {
        let kindOfFailure: DissectionError.Kind
        var length = 0
        switch error {
        case .prematureEnd(_, let needed, let available):
            kindOfFailure = shortage(needed: Int64(needed), available: available)
            length = available
        case .misaligned(_, let bitOffset):
            kindOfFailure = .misaligned(bitOffset: bitOffset)
        case .varintOverflow:
            kindOfFailure = .varintOverflow
        case .invalidUTF8(let offset):
            kindOfFailure = .invalidUTF8
            length = max(0, offset - reader.offset) + 1
        case .missingTerminator(_, let scanned):
            kindOfFailure = .missingTerminator
            length = scanned
        case .outOfRange(_, let position):
            // Only seeks and scope changes throw it, and the walk makes none a read could fail on.
            kindOfFailure = .negativeLength(Int64(position))
        }
        return failure(kindOfFailure, fieldID: fieldID, kind: kind, parent: parent, arrayIndex: arrayIndex, length: length)
    }

    /// Appends a node for a field that failed at the cursor, spanning `length` bytes it could see, and returns the error.
    @inline(never)
    private mutating func failure(_ kind: DissectionError.Kind, fieldID: Int32, kind nodeKind: NodeKind, parent: Int32,
                                  arrayIndex: Int32, length: Int = 0) -> Stop {
        let start = reader.bitPosition
        let end = min(start + max(0, length) * 8, max(start, reader.limit * 8))
        let index = Int32(state.nodeCount)
        _ = state.appendNode(FieldNode(fieldID: fieldID, kind: nodeKind, parent: parent, arrayIndex: arrayIndex,
                                       bitStart: start, bitEnd: end, value: .none, subtreeEnd: index + 1,
                                       isBitField: start & 7 != 0, impliedDisplay: .automatic, frame: -1))
        return failure(at: index, kind)
    }

    /// Records the error for a failure at an existing node and returns what to throw.
    @inline(never)
    private mutating func failure(at node: Int32, _ kind: DissectionError.Kind) -> Stop {
        let entry = state.nodes[Int(node)]
        let view = Dissection(schema: schema, bytes: reader.bytes, store: state, error: nil)
        pendingError = DissectionError(kind: kind, path: view.path(of: Int(node)), offset: entry.bitStart >> 3,
                                       bitOffset: entry.bitStart & 7, node: Int(node))
        return Stop()
    }

    // MARK: - Expressions

    /// Evaluates program `program` for a field not yet read; a failure is recorded as a node for that field.
    @inline(__always)
    private mutating func evaluate(_ program: Int32, fieldID: Int32, type: Int32, parent: Int32,
                                   arrayIndex: Int32) throws(Stop) -> Int64 {
        do {
            return try Evaluator.run(plan.operations(of: program), in: &self)
        } catch {
            throw failure(error.kind(expression: plan.programTexts[Int(program)]), fieldID: fieldID, kind: nodeKind(type),
                          parent: parent, arrayIndex: arrayIndex)
        }
    }

    /// Evaluates a program about a node already read (constraints, `until`).
    private mutating func evaluate(_ program: Int32, for node: Int32) throws(Stop) -> Int64 {
        do {
            return try Evaluator.run(plan.operations(of: program), in: &self)
        } catch {
            throw failure(at: node, error.kind(expression: plan.programTexts[Int(program)]))
        }
    }

    private func nodeKind(_ typeIndex: Int32) -> NodeKind {
        let type = plan.types[typeIndex]
        switch type.kind {
        case .integer, .varint, .zigzag: return .integer
        case .enumeration: return .enumeration(enumID: type.target)
        case .float: return .float
        case .boolean: return .boolean
        case .string, .cString: return .string
        case .dnsName: return .dnsName
        case .structure: return .structure(structID: type.target)
        case .array: return .array
        case .bytes, .address, .switchOn, .dispatch: return .bytes
        }
    }
}

extension Interpreter: EvaluationContext {
    @inline(__always)
    mutating func loadSlot(_ slot: Int32) throws(EvaluationFailure) -> Int64 {
        if let frame = state.frame(currentFrame), let node = state.slotNode(frame, slot) {
            switch state.nodes[Int(node)].value {
            case .unsigned(let value) where value <= UInt64(Int64.max): return Int64(value)
            case .signed(let value): return value
            case .boolean(let value): return value ? 1 : 0
            default: break
            }
        }
        throw slotFailure(slot)
    }

    /// Why a slot could not be loaded: no struct, an absent field, or a value past Int64.
    @inline(never)
    private func slotFailure(_ slot: Int32) -> EvaluationFailure {
        guard let frame = state.frame(currentFrame) else { return .noEnclosingStruct("field") }
        let fields = schema.structs[Int(frame.structID)].fields
        let name = fields.indices.contains(Int(slot)) ? fields[Int(slot)].name : "field"
        guard let node = state.slotNode(frame, slot) else { return .absentField(name) }
        if case .unsigned = state.nodes[Int(node)].value { return .overflow }
        return .absentField(name)
    }

    @inline(__always)
    func constant(_ index: Int32) -> Int64 { plan.constants[index] }

    mutating func load(_ reference: Int32) throws(EvaluationFailure) -> Int64 {
        let node = try state.resolve(reference, plan: plan, frame: currentFrame, element: currentElement)
        return try state.integerValue(of: node, plan.referenceTexts[Int(reference)])
    }

    mutating func length(_ reference: Int32) throws(EvaluationFailure) -> Int64 {
        state.length(of: try state.resolve(reference, plan: plan, frame: currentFrame, element: currentElement))
    }

    var remainingBytes: Int64 { Int64(reader.remainingBytes) }
    var currentOffset: Int64 { Int64(reader.offset) }

    func peekByte(_ distance: Int64) throws(EvaluationFailure) -> Int64 {
        let available = Int64(reader.remainingBytes)
        guard reader.isAligned, distance >= 0, distance < available else {
            throw .beyondData(needed: max(distance, 0) + 1, available: available)
        }
        return Int64(reader.bytes[reader.offset + Int(distance)])
    }

}

extension String {
    /// Three decimal digits, zero-padded (`\DDD` escapes).
    init(format3 value: Int) {
        let digits = String(value)
        self = String(repeating: "0", count: Swift.max(0, 3 - digits.count)) + digits
    }
}
