import BinaryIO

/// Walks a checked schema over bytes and records every field it reads.
///
/// This is the one place fields are read: the dissector's views and the
/// schema-driven decoder both consume its ``Dissection``. Whatever the bytes,
/// it never traps: reads are bounds-checked, lengths are checked against the
/// bytes left before anything is read, arithmetic is overflow-checked, nesting
/// has a depth budget and DNS compression pointers have a loop guard.
///
/// A buffer the capture cut short (its original length is more than its bytes) is walked
/// over the bytes there are: a length that runs past the end of the captured bytes but not
/// past the frame's original length narrows the field to the captured bytes, and a read that
/// then runs out stops the walk as ``Dissection/cut``, not as an error.
///
/// Reuse one interpreter for many buffers: it keeps its working arrays.
public struct Interpreter {
    /// Limits that bound work on hostile input. Each is clamped to its range when set.
    public struct Options: Sendable {
        /// Deepest nesting of structs in one walk (IP-in-IP-in-..., a file's records within records):
        /// the language's one nesting budget, which the schema encoder and the `SchemaDecoder` keep
        /// too. Default ``defaultNestingLimit``; clamped to `0...`\``maximumNestingLimit``.
        public var nestingLimit: Int = Options.defaultNestingLimit {
            didSet { nestingLimit = min(max(0, nestingLimit), Options.maximumNestingLimit) }
        }
        /// The default nesting limit: 256 structs.
        public static let defaultNestingLimit = 256
        /// The highest nesting limit (512). Each level takes stack, most in an optimized build, where
        /// the interpreter's inlined frames are larger: measured with `ulimit -s`, 5.5 to 6 KB for a
        /// struct in a struct, in an array in a switch or through a dispatch table, 10.4 KB for one in
        /// a `@size` field (debug builds: 1.7 to 3.9 KB). A walk at the maximum takes at most about
        /// 5.3 MB, within the 8 MiB stack of a Linux process's main thread and of dispatch's threads;
        /// the default, 256, about 2.7 MB. A caller walking on a smaller stack lowers the limit.
        public static let maximumNestingLimit = 512
        /// Most DNS compression pointers followed for one name, default 64; at least 0.
        public var pointerLimit: Int = 64 { didSet { pointerLimit = max(0, pointerLimit) } }
        /// Most `@at` reads (fields read at an offset) one walk makes, default 65536; at least 0.
        /// Bounds the work hostile offsets can cause by pointing back at bytes already read.
        public var positionLimit: Int = 1 << 16 { didSet { positionLimit = max(0, positionLimit) } }
        /// Most fields one walk records, default 4M (256 MB of nodes); bounds memory on
        /// inputs of millions of tiny fields. Clamped to 16...`Int32.max / 2`, which keeps node
        /// indices within `Int32`.
        public var fieldLimit: Int = 1 << 22 {
            didSet { fieldLimit = max(16, min(fieldLimit, Int(Int32.max) / 2)) }
        }
        /// Which `@checksum` fields are verified after each walk; by default those not marked
        /// `on_request` (of the bundled schemas, the IPv4 header checksum).
        public var checksums: ChecksumSelection = .default
        /// Whether every `lazy` field is read at the end of its struct, when nothing needed it
        /// before (default `true`: the views and the `SchemaDecoder` show every field). When
        /// `false`, a lazy field is read only when an expression of its own struct needs it, and is
        /// otherwise absent from the dissection: a caller that wants a few fields skips the rest.
        public var readsLazyFields = true

        /// The defaults.
        public init() {}
    }

    /// The schema this interpreter walks.
    public let schema: Schema
    /// The limits of every walk.
    public var options: Options {
        didSet { checksums = plan.checksums.schedule(for: options.checksums) }
    }
    private let plan: ExecutionPlan
    /// The plan's checksums that ``Options/checksums`` selects; a walk with none skips the pass.
    private var checksums: ChecksumSchedule
    /// Working memory, reused by every walk. A dissection handed out holds on to it; the next
    /// walk then finds it shared and starts on new memory, so the dissection keeps its values
    /// (as copies of this interpreter do).
    private var state = NodeStore()
    private var reader = ByteReader([])
    private var currentFrame: Int32 = -1
    /// The current frame's first slot, or -1 with no frame: field loads, several a struct, skip the frame.
    private var currentSlotBase = -1
    private var currentElement: Int32 = -1
    /// The index of the array element whose struct's arguments are being computed, or -1.
    private(set) var argumentsElementIndex: Int32 = -1
    /// The slot an array field about to be read fills as soon as its node exists, or -1.
    private var openingArraySlot = -1
    private var depth = 0
    /// The frame a heuristic attempt will give its struct until that struct claims its payload
    /// (its last constraint held), or -1: an error before then rolls the attempt back.
    private var unclaimedHeuristicFrame: Int32 = -1
    /// The frame a dispatch key's guess gives its struct until the struct claims its payload by
    /// reaching a dispatch of its own (its own fields fit; what its payload holds is another
    /// layer's business), or -1. A failure before that gives the guess up.
    private var unclaimedGuessFrame: Int32 = -1
    /// The byte order a `@little_endian` field chose for its contents: -1 none (each type's
    /// own), 0 big, 1 little. Integers, enums and floats without a `le`/`be` suffix follow it.
    private var byteOrderOverride: Int8 = -1
    /// Arguments passed to the structs with parameters being read, innermost last.
    private var argumentValues: [Int64] = []
    /// `@at` reads made so far in this walk.
    private var positionedReads = 0
    /// The error being thrown up as ``Stop``; set by `failure`.
    private var pendingError: DissectionError?
    /// The frame's length on the wire; more than the buffer's when the capture cut it short.
    private var originalLength = 0
    /// Whether the capture cut this frame short: `originalLength` is more than the buffer's.
    private var isCutFrame = false
    /// Sized fields the cut narrowed to the captured bytes: the node each gets and its end on
    /// the wire. Appended to on the failure path only, so whole frames never touch it.
    private var cutScopes: [(node: Int32, wireEnd: Int)] = []
    /// The node where the end of the captured bytes stopped the walk, or -1, and what its field
    /// needs; set by `cutStop`. Plain integers: a walk copies nothing more for them.
    private var cutNode: Int32 = -1
    private var cutNeeded: Int?

    /// Thrown up the walk when it stops; the reason is in `pendingError`. Empty, so the
    /// throwing calls of the hot path carry no payload.
    private struct Stop: Error {}

    /// Per plan type: a struct whose node a dispatch or heuristic that chooses it notes
    /// (``Dissection/notedStruct(at:)``); empty when none is.
    private var notedTypes: [Bool] = []

    /// Makes each walk note the nodes of structs `ids` that a dispatch table chose (`dispatch
    /// ip.proto(...)` choosing TCP, or a heuristic that claimed its payload), and the root if it is
    /// one of them: a caller looking for a few layers (reassembly: IP, TCP) finds them without
    /// searching. Only dispatches note, so the walk's struct path is untouched.
    package mutating func noteStructs(_ ids: Set<Int>) {
        notedTypes = (0..<plan.types.count).map { index in
            let type = plan.types[Int32(index)]
            return type.kind == .structure && ids.contains(Int(type.target))
        }
        if !notedTypes.contains(true) { notedTypes = [] }
        notedRoots = schema.structs.indices.map { ids.contains($0) }
    }
    /// Per struct: whether a walk from it as the root notes the root (a Set's hashing cost more
    /// than the rest of the noting, on every frame).
    private var notedRoots: [Bool] = []

    /// An interpreter for `schema` with the limits of `options`.
    public init(schema: Schema, options: Options = Options()) {
        self.schema = schema
        self.options = options
        self.plan = schema.plan
        checksums = schema.plan.checksums.schedule(for: options.checksums)
    }

    /// Dissects `bytes` starting at struct `root`. The dissection holds a compact copy of what
    /// was read, and the interpreter keeps its working memory for the next walk.
    ///
    /// `originalLength` is the frame's length on the wire (a pcap record's `len`): more than
    /// `bytes.count` says the capture cut the frame short. Nil, or a length not above
    /// `bytes.count`, is a whole frame. Lengths above `UInt32.max` count as `UInt32.max`.
    public mutating func dissect(_ bytes: [UInt8], root: StructType, originalLength: Int? = nil) -> Dissection {
        let error = run(bytes, root: root.id, originalLength: originalLength)
        return Dissection(schema: schema, bytes: bytes, originalLength: self.originalLength, store: state.copy(),
                          error: error, cutNode: Int(cutNode), cutNeeded: cutNeeded)
    }

    /// Walks `bytes` and hands the dissection to `body` without copying the interpreter's
    /// working memory, for loops over many buffers. A dissection kept after `body` returns
    /// stays valid: the next walk leaves that memory to it and allocates its own.
    /// `originalLength` is as for ``dissect(_:root:originalLength:)``.
    public mutating func withDissection<Result>(of bytes: [UInt8], root: StructType, originalLength: Int? = nil,
                                                _ body: (Dissection) throws -> Result) rethrows -> Result {
        let error = run(bytes, root: root.id, originalLength: originalLength)
        // The walk lets go of the bytes, so a caller refilling one buffer for every walk keeps
        // it uniquely referenced (no copy on write).
        reader = ByteReader([])
        return try body(Dissection(schema: schema, bytes: bytes, originalLength: self.originalLength, store: state,
                                   error: error, cutNode: Int(cutNode), cutNeeded: cutNeeded))
    }

    private mutating func run(_ bytes: [UInt8], root: Int, originalLength: Int?) -> DissectionError? {
        if isKnownUniquelyReferenced(&state) {
            state.reset()
        } else {
            // A dissection (or a copy of this interpreter) still reads this memory.
            state = NodeStore()
        }
        reader = ByteReader(bytes)
        currentFrame = -1
        currentSlotBase = -1
        currentElement = -1
        depth = 0
        unclaimedHeuristicFrame = -1
        unclaimedGuessFrame = -1
        byteOrderOverride = -1
        if !argumentValues.isEmpty { argumentValues.removeAll(keepingCapacity: true) }
        positionedReads = 0
        pendingError = nil
        // pcap lengths are 32-bit: the clamp keeps bit counts of the wire within Int64.
        self.originalLength = max(bytes.count, min(originalLength ?? 0, Int(UInt32.max)))
        isCutFrame = self.originalLength > bytes.count
        if !cutScopes.isEmpty { cutScopes.removeAll(keepingCapacity: true) }
        cutNode = -1
        let stopped: DissectionError?
        // The failing node as a plain number: reading it off `stopped` after the walk costs a copy of
        // the optional error on every walk, the clean ones too.
        var errorNode: Int32 = -1
        do {
            if !notedTypes.isEmpty, notedRoots.indices.contains(root), notedRoots[root] { _ = state.notedNodes.append(0) }
            _ = try parseStruct(Int32(root), fieldID: -1, parent: -1, arrayIndex: -1)
            stopped = nil
        } catch {
            if let failing = pendingError?.node {
                extendAncestors(over: failing)
                errorNode = Int32(clamping: failing)
            } else if cutNode >= 0 {
                extendAncestors(over: Int(cutNode))
            }
            stopped = pendingError
        }
        if !checksums.isEmpty {
            ChecksumVerifier.run(store: state, plan: plan, schedule: checksums, bytes: reader.bytes, errorNode: errorNode)
        } else if state.checksumMarks.count > 1 {
            ChecksumVerifier.sortMarks(state)
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

    // Not inlined into the values that read structs: its loop inlines the plain integer reads.
    @inline(never)
    private mutating func parseStruct(_ structID: Int32, fieldID: Int32, parent: Int32,
                                      arrayIndex: Int32, arguments: Int32 = -1) throws(Stop) -> Int32 {
        let structure = plan.structs[structID]
        depth += 1
        defer { depth -= 1 }
        // Only the array field that set it takes it: one that failed before reading it (a guess
        // that did not fit) leaves nothing behind.
        openingArraySlot = -1
        let (savedFrame, savedSlotBase) = (currentFrame, currentSlotBase)
        let (nodeIndex, frameIndex) = try openStruct(structID, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex,
                                                     arguments: arguments)
        let slotBase = currentSlotBase
        defer {
            (currentFrame, currentSlotBase) = (savedFrame, savedSlotBase)
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
                if field.needsBytes, reader.remainingBytes == 0 { continue }
                if field.opensArray { openingArraySlot = slotBase + Int(field.slot) }
                guard let read = try parseField(field, parent: nodeIndex) else {
                    openingArraySlot = -1
                    continue
                }
                node = read
            }
            state.slots[slotBase + Int(field.slot)] = node
            if field.endsChecksum || field.constraintCount > 0 {
                try checkField(field, node: node, row: fieldIndex - 1 - structure.fieldStart, structID: structID,
                               frameIndex: frameIndex)
            }
        }
        if structure.hasLazyFields, options.readsLazyFields {
            try readLazyFields(of: structure, node: nodeIndex, frameIndex: frameIndex)
        }
        return nodeIndex
    }

    /// At a struct's end, its `lazy` fields that no expression needed yet, in order.
    @inline(never)
    private mutating func readLazyFields(of structure: ExecutionPlan.StructEntry, node: Int32, frameIndex: Int32) throws(Stop) {
        for row in structure.fieldStart..<(structure.fieldStart + structure.fieldCount) where plan.fields[row].isLazy {
            _ = try readLazyField(plan.fields[row], row: row - structure.fieldStart, node: node, frameIndex: frameIndex)
        }
    }

    /// Reads `lazy` field `field` of the current struct (frame `frameIndex`, node `node`) unless it
    /// was read: its condition, then the field at its offset, then its constraints. Whether it is there now.
    private mutating func readLazyField(_ field: ExecutionPlan.FieldEntry, row: Int32, node: Int32,
                                        frameIndex: Int32) throws(Stop) -> Bool {
        guard let frame = state.frame(frameIndex) else { return false }
        let slotIndex = Int(frame.slotBase) + Int(field.slot)
        if state.slotNode(at: slotIndex) != nil { return true }
        if let condition = plan.lazyConditions[field.fieldID],
           try evaluate(condition, fieldID: field.fieldID, type: field.type, parent: node, arrayIndex: -1) == 0 {
            return false
        }
        guard let read = try parsePlaced(field, parent: node, readingLazy: true) else { return false }
        state.slots[slotIndex] = read
        if field.constraintCount > 0 {
            try checkField(field, node: read, row: row, structID: frame.structID, frameIndex: frameIndex)
        }
        return true
    }

    /// An expression of the current struct needs the field reference `reference` names, which is
    /// absent: when it starts at a `lazy` field of this struct not read yet, reads it now. Whether
    /// it read it. Its nodes go after those read so far, which keeps the store in walk order only
    /// while no array or other node below the struct is still open; then the read is refused.
    @inline(never)
    mutating func readLazyField(for reference: Int32) throws(EvaluationFailure) -> Bool {
        guard let slot = plan.firstSlotOfOwnField(reference), let frame = state.frame(currentFrame) else { return false }
        let structure = plan.structs[frame.structID]
        var row = structure.fieldStart
        while row < structure.fieldStart + structure.fieldCount, !(plan.fields[row].isLazy && plan.fields[row].slot == slot) {
            row += 1
        }
        guard row < structure.fieldStart + structure.fieldCount, state.slotNode(frame, slot) == nil else { return false }
        var open = Int32(state.nodeCount) - 1
        while open > frame.node, open >= 0 {
            guard state.nodes[Int(open)].subtreeEnd == Int32(state.nodeCount) else {
                throw .noValue(plan.referenceTexts[Int(reference)],
                               reason: "a lazy field is read when first needed, and here that is inside a part of its struct still being read; name it in an expression before that part")
            }
            open = state.nodes[Int(open)].parent
        }
        do {
            return try readLazyField(plan.fields[row], row: row - structure.fieldStart, node: frame.node, frameIndex: currentFrame)
        } catch {
            throw .stopped
        }
    }

    /// Starts struct `structID`: checks the budgets, appends its node, slots and frame, and makes it
    /// the current struct. A function of its own: structs recurse, and an unoptimized build gives
    /// every local of a function its own stack slot.
    private mutating func openStruct(_ structID: Int32, fieldID: Int32, parent: Int32, arrayIndex: Int32,
                                     arguments: Int32) throws(Stop) -> (node: Int32, frame: Int32) {
        let structure = plan.structs[structID]
        // The field limit is checked per struct and per array element: between checks a
        // struct adds at most one node per field.
        guard depth <= options.nestingLimit, state.nodeCount < options.fieldLimit,
              state.slotCount < Int(Int32.max) - Int(structure.fieldCount) else {
            throw limitFailure(structID: structID, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex)
        }
        let nodeIndex = appendNode(fieldID: fieldID, kind: .structure(structID: structID), parent: parent,
                                   arrayIndex: arrayIndex, bitStart: reader.bitPosition)
        let slotBase = state.appendSlots(Int(structure.fieldCount))
        let frameIndex = state.appendFrame(Frame(node: nodeIndex, slotBase: Int32(slotBase), parent: currentFrame,
                                                 structID: structID, limit: reader.limit, arguments: arguments))
        state.nodes[Int(nodeIndex)].frame = frameIndex
        (currentFrame, currentSlotBase) = (frameIndex, slotBase)
        return (nodeIndex, frameIndex)
    }

    /// After a field is read: an internet checksum its struct can verify now, and its constraints.
    @inline(never)
    private mutating func checkField(_ field: ExecutionPlan.FieldEntry, node: Int32, row: Int32, structID: Int32,
                                     frameIndex: Int32) throws(Stop) {
        if field.endsChecksum {
            ChecksumVerifier.verifyDuringWalk(after: field.slot, structID: structID, frameIndex: frameIndex, store: state,
                                              plan: plan, schedule: checksums, bytes: reader.bytes)
        }
        guard field.constraintCount > 0 else { return }
        try checkConstraints(field.constraintStart, count: field.constraintCount, of: node)
        if frameIndex == unclaimedHeuristicFrame, row == plan.structs[structID].lastConstrainedField {
            unclaimedHeuristicFrame = -1
        }
    }

    /// Constraints `plan.constraints[start..<start + count]` about `node`: the first that fails stops the walk there.
    private mutating func checkConstraints(_ start: Int32, count: Int32, of node: Int32) throws(Stop) {
        var constraint = start
        while constraint < start + count {
            let program = plan.constraints[constraint]
            if try evaluate(program, for: node) == 0 {
                throw failure(at: node, .constraintViolated(expression: plan.programTexts[Int(program)]))
            }
            constraint += 1
        }
    }

    /// A struct's `@requires` conditions, checked by their row in its fields (after the parameters,
    /// before the first field read): one that fails stops the walk at the struct. A heuristic whose
    /// only constraints they are claims its payload once they hold.
    @inline(never)
    private mutating func checkRequirements(node: Int32) throws(Stop) {
        guard let frame = state.frame(currentFrame) else { return }
        let structure = plan.structs[frame.structID]
        let entry = plan.requirements[frame.structID]
        try checkConstraints(entry.start, count: entry.count, of: node)
        if currentFrame == unclaimedHeuristicFrame, structure.lastConstrainedField < 0 { unclaimedHeuristicFrame = -1 }
    }

    @inline(__always)
    private mutating func parseField(_ field: ExecutionPlan.FieldEntry, parent: Int32) throws(Stop) -> Int32? {
        if field.condition >= 0 {
            let holds = try evaluate(field.condition, fieldID: field.fieldID, type: field.type, parent: parent, arrayIndex: -1)
            guard holds != 0 else { return nil }
        }
        // (A position of -2, the row of a struct's `@requires`, takes the cold path too.)
        if field.byteOrder >= 0 || field.position != -1 || field.alignment > 0 { return try parsePlaced(field, parent: parent) }
        guard field.size >= 0 else {
            return try parseValue(field.type, fieldID: field.fieldID, parent: parent, arrayIndex: -1)
        }
        return try parseSized(field, parent: parent)
    }

    /// A field with `@little_endian`, `@at` or `@align`: rare, so kept off the common path.
    @inline(never)
    private mutating func parsePlaced(_ field: ExecutionPlan.FieldEntry, parent: Int32,
                                      readingLazy: Bool = false) throws(Stop) -> Int32? {
        if field.position == ExecutionPlan.requirementsRow {
            try checkRequirements(node: parent)
            return nil
        }
        if field.isLazy, !readingLazy { return nil }
        let savedByteOrder = byteOrderOverride
        defer { byteOrderOverride = savedByteOrder }
        if field.byteOrder >= 0 {
            let little = try evaluate(field.byteOrder, fieldID: field.fieldID, type: field.type, parent: parent, arrayIndex: -1)
            byteOrderOverride = little != 0 ? 1 : 0
        }
        if field.position >= 0 { return try parsePositioned(field, parent: parent) }
        if field.alignment > 0 { try align(field, parent: parent) }
        guard field.size >= 0 else {
            return try parseValue(field.type, fieldID: field.fieldID, parent: parent, arrayIndex: -1)
        }
        return try parseSized(field, parent: parent)
    }

    /// A field with `@size`: its contents read in a scope of exactly that many bytes.
    private mutating func parseSized(_ field: ExecutionPlan.FieldEntry, parent: Int32) throws(Stop) -> Int32 {
        let length = try evaluate(field.size, fieldID: field.fieldID, type: field.type, parent: parent, arrayIndex: -1)
        let start = try checkedExtent(length, fieldID: field.fieldID, type: field.type, kind: nil, parent: parent,
                                      arrayIndex: -1, narrowsScope: true)
        let end = start + Int(length)
        // Neither move can fail (checkedExtent found `length` bytes in scope at the cursor, and
        // the field's contents cannot read past the narrowed scope) unless the capture cut the
        // field: its scope is then the captured bytes, which already end the current one.
        let savedLimit = try? reader.narrow(toByteCount: Int(length))
        defer { if let savedLimit { try? reader.restoreLimit(toByte: savedLimit) } }
        let node = try parseValue(field.type, fieldID: field.fieldID, parent: parent, arrayIndex: -1)
        do {
            try reader.seek(toByte: end)
        } catch {
            // Cut by the capture: it owns what was captured of it.
            try? reader.seek(toByte: reader.limit)
        }
        // A struct, array or string owns its whole size: bytes its contents leave unread stay inside
        // it, unclaimed. A bytes value is its span, so the bytes after it stay unclaimed in its parent.
        if case .bytes = state.nodes[Int(node)].kind {} else { state.nodes[Int(node)].bitEnd = reader.bitPosition }
        return node
    }

    /// `@at(offset)`: the field read at `offset` from the start of the nearest `@offset_base` struct
    /// (or the input), within that struct's scope; then the cursor and scope are as they were.
    private mutating func parsePositioned(_ field: ExecutionPlan.FieldEntry, parent: Int32) throws(Stop) -> Int32? {
        let offset = try evaluate(field.position, fieldID: field.fieldID, type: field.type, parent: parent, arrayIndex: -1)
        guard positionedReads < options.positionLimit else {
            throw failure(.positionLimit(options.positionLimit), fieldID: field.fieldID, kind: nodeKind(field.type), parent: parent,
                          arrayIndex: -1)
        }
        positionedReads += 1
        let (base, baseLimit) = offsetBase()
        guard offset >= 0, offset <= Int64(baseLimit - base) else {
            throw failure(.positionOutOfRange(offset), fieldID: field.fieldID, kind: nodeKind(field.type), parent: parent,
                          arrayIndex: -1)
        }
        let savedPosition = reader.bitPosition
        let savedLimit = reader.limit
        // Neither move can fail: the base's scope holds the cursor, and the target lies within it.
        try? reader.restoreLimit(toByte: max(baseLimit, savedLimit))
        try? reader.seek(toByte: base + Int(offset))
        defer {
            try? reader.seek(toBit: savedPosition)
            try? reader.restoreLimit(toByte: savedLimit)
        }
        // Its condition and byte order were taken where the field stands.
        if field.alignment > 0 { try align(field, parent: parent) }
        guard field.size >= 0 else {
            return try parseValue(field.type, fieldID: field.fieldID, parent: parent, arrayIndex: -1)
        }
        return try parseSized(field, parent: parent)
    }

    /// The start and scope end of the nearest enclosing `@offset_base` struct, or of the input.
    private func offsetBase() -> (start: Int, limit: Int) {
        var frameIndex = currentFrame
        while frameIndex >= 0, let frame = state.frame(frameIndex) {
            if plan.structs[frame.structID].isOffsetBase { return (state.nodes[Int(frame.node)].byteOffset, frame.limit) }
            frameIndex = frame.parent
        }
        return (0, reader.bytes.count)
    }

    /// `@align(n)`: skips to the next multiple of n bytes from the start of the enclosing struct.
    private mutating func align(_ field: ExecutionPlan.FieldEntry, parent: Int32) throws(Stop) {
        guard let frame = state.frame(currentFrame) else { return }
        let structStart = state.nodes[Int(frame.node)].byteOffset
        let alignment = Int(field.alignment)
        let misalignment = (reader.offset - structStart) % alignment
        guard misalignment != 0 else { return }
        let padding = alignment - misalignment
        _ = try checkedExtent(Int64(padding), fieldID: field.fieldID, type: field.type, kind: nil, parent: parent, arrayIndex: -1)
        try? reader.seek(toByte: reader.offset + padding)
    }

    /// Checks that `length` bytes can be taken at the (aligned) cursor; returns the cursor's byte offset.
    /// A failure's node has `kind`, or (worked out only then) the kind of type `typeIndex`.
    /// In a cut frame, a length the capture cut returns too when it `narrowsScope` (a `@size`),
    /// whose scope is then the captured bytes; otherwise it stops the walk as a cut.
    private mutating func checkedExtent(_ length: Int64, fieldID: Int32, type typeIndex: Int32, kind: NodeKind?,
                                        parent: Int32, arrayIndex: Int32, narrowsScope: Bool = false) throws(Stop) -> Int {
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
            try extentShortfall(length, available: available, narrowsScope: narrowsScope, fieldID: fieldID,
                                type: typeIndex, kind: kind, parent: parent, arrayIndex: arrayIndex)
            return start
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

    /// Reads a value of type `typeIndex`. Structs recurse through here, so its frame is kept
    /// small: what only leaves need is read in ``parseLeaf(_:typeIndex:fieldID:parent:arrayIndex:)``.
    private mutating func parseValue(_ typeIndex: Int32, fieldID: Int32, parent: Int32,
                                     arrayIndex: Int32) throws(Stop) -> Int32 {
        let type = plan.types[typeIndex]
        switch type.kind {
        case .integer:
            let start = reader.bitPosition
            let (value, bitField) = try readInteger(type, fieldID: fieldID, kind: .integer, parent: parent,
                                                    arrayIndex: arrayIndex)
            return appendLeaf(fieldID, .integer, parent, arrayIndex, start, value, bitField: bitField)
        case .enumeration:
            let start = reader.bitPosition
            let kind = NodeKind.enumeration(enumID: type.target)
            let (value, bitField) = try readInteger(type, fieldID: fieldID, kind: kind, parent: parent, arrayIndex: arrayIndex)
            return appendLeaf(fieldID, kind, parent, arrayIndex, start, value, bitField: bitField)
        case .bytes, .address:
            return try parseBytes(type, typeIndex: typeIndex, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex)
        case .structure where type.argumentCount == 0:
            return try parseStruct(type.target, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex)
        case .structure:
            return try parseInstance(type, typeIndex: typeIndex, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex)
        case .array:
            return try parseArray(type, typeIndex: typeIndex, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex)
        case .switchOn:
            let (chosen, caseField) = try choose(type.target, typeIndex: typeIndex, fieldID: fieldID, parent: parent,
                                                 arrayIndex: arrayIndex)
            return try parseValue(chosen, fieldID: caseField >= 0 ? caseField : fieldID, parent: parent, arrayIndex: arrayIndex)
        case .dispatch:
            return try parseDispatch(type.target, typeIndex: typeIndex, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex)
        default:
            return try parseLeaf(type, typeIndex: typeIndex, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex)
        }
    }

    /// Every value but an integer, a struct without arguments, an array, a switch and a dispatch.
    private mutating func parseLeaf(_ type: ExecutionPlan.TypeEntry, typeIndex: Int32, fieldID: Int32, parent: Int32,
                                    arrayIndex: Int32) throws(Stop) -> Int32 {
        let start = reader.bitPosition
        switch type.kind {
        case .integer:
            let (value, bitField) = try readInteger(type, fieldID: fieldID, kind: .integer, parent: parent,
                                                    arrayIndex: arrayIndex)
            return appendLeaf(fieldID, .integer, parent, arrayIndex, start, value, bitField: bitField)
        case .float:
            let bits = Int(type.bits)
            let endianness: Endianness = isLittleEndian(type) ? .little : .big
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
        case .string:
            return try parseText(type, typeIndex: typeIndex, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex)
        case .parameter:
            let kind: NodeKind = type.extent >= 0 ? .enumeration(enumID: type.extent) : type.isBoolean ? .boolean : .integer
            guard let frame = state.frame(currentFrame), frame.arguments >= 0,
                  Int(frame.arguments) + Int(type.target) < argumentValues.count else {
                let name = schema.fields.indices.contains(Int(fieldID)) ? schema.fields[Int(fieldID)].name : "parameter"
                throw failure(.missingArgument(name), fieldID: fieldID, kind: kind, parent: parent, arrayIndex: arrayIndex)
            }
            let value = argumentValues[Int(frame.arguments) + Int(type.target)]
            return appendLeaf(fieldID, kind, parent, arrayIndex, start, type.isBoolean ? .boolean(value != 0) : .signed(value))
        case .dnsName:
            return try parseDNSName(fieldID: fieldID, parent: parent, arrayIndex: arrayIndex)
        case .array, .switchOn, .dispatch, .structure, .enumeration, .bytes, .address:
            return try parseValue(typeIndex, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex)
        case .computed:
            let value = try evaluate(type.extent, fieldID: fieldID, type: typeIndex, parent: parent, arrayIndex: arrayIndex)
            return appendLeaf(fieldID, type.computedKind, parent, arrayIndex, start, type.computedValue(value))
        }
    }

    /// `bytes[n]`, `bytes[..]` and addresses: the commonest leaves after integers.
    private mutating func parseBytes(_ type: ExecutionPlan.TypeEntry, typeIndex: Int32, fieldID: Int32, parent: Int32,
                                     arrayIndex: Int32) throws(Stop) -> Int32 {
        let start = reader.bitPosition
        let length: Int64
        switch type.extentKind {
        case .expression:
            length = try evaluate(type.extent, fieldID: fieldID, type: typeIndex, parent: parent, arrayIndex: arrayIndex)
        case .none:
            length = Int64(type.target)
        case .rest, .until, .terminator:
            length = Int64(reader.remainingBytes)
        }
        _ = try checkedExtent(length, fieldID: fieldID, type: typeIndex, kind: .bytes, parent: parent,
                              arrayIndex: arrayIndex)
        _ = try read(fieldID, .bytes, parent, arrayIndex) { (reader: inout ByteReader) throws(ByteReadError) in
            try reader.readBytes(Int(length))
        }
        return appendLeaf(fieldID, .bytes, parent, arrayIndex, start, .bytes, display: type.display)
    }

    /// A struct with parameters: its arguments, computed in the frame of the struct using it
    /// before the struct starts.
    private mutating func parseInstance(_ type: ExecutionPlan.TypeEntry, typeIndex: Int32, fieldID: Int32, parent: Int32,
                                        arrayIndex: Int32) throws(Stop) -> Int32 {
        let base = try computeArguments(type, typeIndex: typeIndex, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex)
        defer { argumentValues.removeLast(argumentValues.count - base) }
        return try parseStruct(type.target, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex,
                               arguments: Int32(truncatingIfNeeded: base))
    }

    /// Appends a struct's arguments to ``argumentValues``; returns where they start.
    @inline(never)
    private mutating func computeArguments(_ type: ExecutionPlan.TypeEntry, typeIndex: Int32, fieldID: Int32, parent: Int32,
                                           arrayIndex: Int32) throws(Stop) -> Int {
        let base = argumentValues.count
        let savedIndex = argumentsElementIndex
        argumentsElementIndex = arrayIndex
        defer { argumentsElementIndex = savedIndex }
        do {
            for index in type.argumentStart..<(type.argumentStart + type.argumentCount) {
                argumentValues.append(try evaluate(plan.arguments[index], fieldID: fieldID, type: typeIndex, parent: parent,
                                                   arrayIndex: arrayIndex))
            }
        } catch {
            argumentValues.removeLast(argumentValues.count - base)
            throw error
        }
        return base
    }

    // MARK: - Text

    /// A string of a length, of the rest of the scope, or up to its terminator (which the field
    /// includes). Bytes that are not text in its encoding do not stop the walk: the node is
    /// flagged, and views show them escaped.
    private mutating func parseText(_ type: ExecutionPlan.TypeEntry, typeIndex: Int32, fieldID: Int32, parent: Int32,
                                    arrayIndex: Int32) throws(Stop) -> Int32 {
        let start = reader.bitPosition
        var text: Range<Int>
        if type.extentKind == .terminator {
            let terminator = plan.literal(type.extent)
            do {
                text = try reader.readTerminated(by: terminator, alignment: type.encoding.codeUnitSize)
            } catch {
                guard case .missingTerminator(_, let scanned) = error else {
                    throw failure(error, fieldID: fieldID, kind: .string, parent: parent, arrayIndex: arrayIndex)
                }
                // The terminator may be in the bytes the capture did not keep.
                if cutScopeEnd(fieldID: fieldID, arrayIndex: arrayIndex, parent: parent, ownScope: true) != nil {
                    throw cutStop(needed: nil, fieldID: fieldID, kind: .string, parent: parent, arrayIndex: arrayIndex,
                                  length: scanned)
                }
                throw failure(.missingTerminator(terminator: Array(terminator)), fieldID: fieldID, kind: .string,
                              parent: parent, arrayIndex: arrayIndex, length: scanned)
            }
        } else {
            let length = type.extentKind == .expression
                ? try evaluate(type.extent, fieldID: fieldID, type: typeIndex, parent: parent, arrayIndex: arrayIndex)
                : Int64(reader.remainingBytes)
            _ = try checkedExtent(length, fieldID: fieldID, type: typeIndex, kind: .string, parent: parent,
                                  arrayIndex: arrayIndex)
            text = try read(fieldID, .string, parent, arrayIndex) { (reader: inout ByteReader) throws(ByteReadError) in
                try reader.readBytes(Int(length))
            }
            if type.padding >= 0 { text = Self.trimmingPadding(text, UInt8(truncatingIfNeeded: type.padding), type.encoding, reader.bytes) }
        }
        let node = appendLeaf(fieldID, .string, parent, arrayIndex, start, .string(contentEnd: text.upperBound))
        state.nodes[Int(node)].textEncoding = type.encoding
        state.nodes[Int(node)].isInvalidText = type.encoding.firstInvalid(reader.bytes, in: text) != nil
        return node
    }

    /// A fixed-size string's text without its trailing `@pad` code units (whole units of the pad
    /// byte: `00 00` in UTF-16); the padding stays in the field's bytes.
    private static func trimmingPadding(_ text: Range<Int>, _ pad: UInt8, _ encoding: TextEncoding, _ bytes: [UInt8]) -> Range<Int> {
        let unit = encoding.codeUnitSize
        var end = text.lowerBound + (text.count / unit) * unit
        while end - unit >= text.lowerBound, bytes[(end - unit)..<end].allSatisfy({ $0 == pad }) { end -= unit }
        // An odd last byte of UTF-16 is not a whole unit: it stays in the text, flagged as invalid.
        return text.lowerBound..<(end == text.lowerBound + (text.count / unit) * unit ? text.upperBound : end)
    }

    // MARK: - Dispatch tables

    /// Reads the struct the table holds for the first key that has one; else the first heuristic
    /// that claims the payload; else the payload as bytes.
    private mutating func parseDispatch(_ siteIndex: Int32, typeIndex: Int32, fieldID: Int32, parent: Int32,
                                        arrayIndex: Int32) throws(Stop) -> Int32 {
        // Nothing to claim: an empty payload stays empty bytes, as Wireshark calls no dissector on
        // it; unless the capture cut it, and its bytes were on the wire.
        guard reader.remainingBits > 0
                || (isCutFrame && cutScopeEnd(fieldID: fieldID, arrayIndex: arrayIndex, parent: parent, ownScope: true) != nil)
        else {
            return try parseValue(plan.restOfScopeType, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex)
        }
        // The struct around this payload fits: a guess that chose it is taken, whatever the payload holds.
        unclaimedGuessFrame = -1
        let site = plan.dispatchSites[siteIndex]
        let table = plan.dispatchTables[site.table]
        // The layer a table chooses reads in its own byte order: a `@little_endian` around the
        // payload field is not the next protocol's.
        let savedByteOrder = byteOrderOverride
        byteOrderOverride = -1
        defer { byteOrderOverride = savedByteOrder }
        // A key is a guess (a port says what a payload probably is): a struct a key chose that
        // does not fit the payload (its walk fails) is forgotten, and the next key's, then the
        // heuristics, are tried. Only when none fits is the first guess read again, error and all.
        var firstGuess: Int32 = -1
        var keyIndex = site.keyStart
        while keyIndex < site.keyStart + site.keyCount {
            let key = try evaluate(plan.dispatchKeys[keyIndex], fieldID: fieldID, type: typeIndex, parent: parent,
                                   arrayIndex: arrayIndex)
            keyIndex += 1
            let chosen = plan.lookup(key, in: table)
            guard chosen >= 0, chosen != firstGuess else { continue }
            // The only candidate (the last key, no heuristic, no earlier guess: an EtherType, an IP
            // protocol) is read as it is: nothing else could read the payload.
            if firstGuess < 0, keyIndex == site.keyStart + site.keyCount, table.heuristicCount == 0 {
                noteIfNoted(chosen)
                return try parseValue(chosen, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex)
            }
            if let node = try guess(chosen, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex) { return node }
            if firstGuess < 0 { firstGuess = chosen }
        }
        var heuristic = table.heuristicStart
        while heuristic < table.heuristicStart + table.heuristicCount {
            if let node = try attempt(plan.keyRanges[heuristic].type, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex) {
                return node
            }
            heuristic += 1
        }
        if firstGuess >= 0 {
            noteIfNoted(firstGuess)
            return try parseValue(firstGuess, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex)
        }
        return try parseValue(plan.restOfScopeType, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex)
    }

    /// Reads the struct a dispatch key chose. Nil, with everything it recorded forgotten, when its
    /// walk fails before it claims the payload (its own fields do not fit: the payload is not what
    /// the key suggested). Once it reaches a dispatch of its own, its errors are the walk's, as
    /// is a walk the capture's end cut short. A payload that fits costs a mark and nothing more.
    @inline(never)
    private mutating func guess(_ typeIndex: Int32, fieldID: Int32, parent: Int32, arrayIndex: Int32) throws(Stop) -> Int32? {
        let savedGuess = unclaimedGuessFrame
        unclaimedGuessFrame = Int32(truncatingIfNeeded: state.frameCount)
        defer { unclaimedGuessFrame = savedGuess }
        return try tryReading(typeIndex, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex, isGuess: true)
    }

    /// Reads struct `typeIndex` as an attempt (a heuristic's, or with `isGuess` a dispatch key's):
    /// nil, with everything it recorded forgotten (nodes, notes, a cut, the error, the cursor),
    /// when it stops before it claimed its payload; otherwise its node, or its stop, is the walk's.
    private mutating func tryReading(_ typeIndex: Int32, fieldID: Int32, parent: Int32, arrayIndex: Int32,
                                     isGuess: Bool) throws(Stop) -> Int32? {
        let mark = state.mark
        let start = reader.bitPosition
        // A cut the attempt met is forgotten with it: it names one of the nodes rolled back.
        let (savedCutNode, savedCutNeeded, savedCutScopes) = (cutNode, cutNeeded, cutScopes.count)
        // Forgotten with the rest if the attempt gives up.
        noteIfNoted(typeIndex)
        do {
            return try parseValue(typeIndex, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex)
        } catch {
            let frame = Int32(truncatingIfNeeded: mark.frames)
            // A guess the capture's end cut short is no misfit: the bytes to judge were not captured.
            let gaveUp = isGuess ? pendingError != nil && unclaimedGuessFrame == frame : unclaimedHeuristicFrame == frame
            guard gaveUp else { throw error }
            state.rollBack(to: mark)
            try? reader.seek(toBit: start)
            pendingError = nil
            (cutNode, cutNeeded) = (savedCutNode, savedCutNeeded)
            cutScopes.removeLast(cutScopes.count - savedCutScopes)
            return nil
        }
    }

    /// Notes the node a struct of plan type `typeIndex` is about to get (the next one), if that
    /// struct is noted.
    @inline(__always)
    private mutating func noteIfNoted(_ typeIndex: Int32) {
        if !notedTypes.isEmpty, notedTypes.indices.contains(Int(typeIndex)), notedTypes[Int(typeIndex)] {
            _ = state.notedNodes.append(Int32(truncatingIfNeeded: state.nodeCount))
        }
    }

    /// Tries a heuristic struct on the payload. Nil, with everything it recorded forgotten, when it
    /// stops before its last constraint held (it does not claim the payload); once it has claimed
    /// the payload, its errors are the walk's.
    private mutating func attempt(_ typeIndex: Int32, fieldID: Int32, parent: Int32, arrayIndex: Int32) throws(Stop) -> Int32? {
        let savedClaim = unclaimedHeuristicFrame
        unclaimedHeuristicFrame = Int32(truncatingIfNeeded: state.frameCount)
        defer { unclaimedHeuristicFrame = savedClaim }
        return try tryReading(typeIndex, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex, isGuess: false)
    }

    /// The fast path for most fields: an integer or enum with no condition or size. Nil when
    /// the bytes are not there; the general path then reads it again and reports why.
    @inline(__always)
    private mutating func readPlainInteger(_ type: ExecutionPlan.TypeEntry, fieldID: Int32, parent: Int32) -> Int32? {
        let start = reader.bitPosition
        let read: ByteReader.IntegerRead
        let littleEndian = isLittleEndian(type)
        if let fast = reader.readIntegerFast(width: Int(type.bits), littleEndian: littleEndian, lsbFirst: type.lsbFirst) {
            read = fast
        } else if let general = try? reader.readInteger(width: Int(type.bits), endianness: littleEndian ? .little : .big,
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

    /// The byte order to read a type in: its own, unless a `@little_endian` field around it chose one.
    @inline(__always)
    private func isLittleEndian(_ type: ExecutionPlan.TypeEntry) -> Bool {
        byteOrderOverride < 0 || !type.followsByteOrder ? type.littleEndian : byteOrderOverride == 1
    }

    @inline(__always)
    private mutating func readInteger(_ type: ExecutionPlan.TypeEntry, fieldID: Int32, kind: NodeKind, parent: Int32,
                                      arrayIndex: Int32) throws(Stop) -> (FieldValue, Bool) {
        let bits = Int(type.bits)
        let read: ByteReader.IntegerRead
        do {
            read = try reader.readInteger(width: bits, endianness: isLittleEndian(type) ? .little : .big,
                                          order: type.lsbFirst ? .lsbFirst : .msbFirst)
        } catch {
            throw failure(error, fieldID: fieldID, kind: kind, parent: parent, arrayIndex: arrayIndex)
        }
        let value: FieldValue = type.isSigned ? .signed(ByteReader.signExtend(read.value, width: bits)) : .unsigned(read.value)
        return (value, read.readAsBits)
    }

    /// The type a switch chooses, and the field a case with attributes reads its value as (-1: the switch's).
    private mutating func choose(_ switchIndex: Int32, typeIndex: Int32, fieldID: Int32, parent: Int32,
                                 arrayIndex: Int32) throws(Stop) -> (type: Int32, field: Int32) {
        let entry = plan.switches[switchIndex]
        let caseEnd = entry.caseStart + entry.caseCount
        if entry.subject >= 0 {
            let value = try evaluate(entry.subject, fieldID: fieldID, type: typeIndex, parent: parent, arrayIndex: arrayIndex)
            var index = entry.caseStart
            while index < caseEnd {
                let candidate = plan.cases[index]
                if candidate.value == value { return (candidate.type, candidate.field) }
                index += 1
            }
            if entry.defaultType >= 0 { return (entry.defaultType, entry.defaultField) }
            throw failure(.noMatchingCase(value), fieldID: fieldID, kind: .bytes, parent: parent, arrayIndex: arrayIndex)
        }
        var index = entry.caseStart
        while index < caseEnd {
            let candidate = plan.cases[index]
            if try evaluate(candidate.condition, fieldID: fieldID, type: typeIndex, parent: parent,
                            arrayIndex: arrayIndex) != 0 {
                return (candidate.type, candidate.field)
            }
            index += 1
        }
        if entry.defaultType >= 0 { return (entry.defaultType, entry.defaultField) }
        throw failure(.noMatchingCase(nil), fieldID: fieldID, kind: .bytes, parent: parent, arrayIndex: arrayIndex)
    }

    /// An array's elements. Nested structs recurse through here, so what is not the loop itself is
    /// in functions of their own, which keeps this frame small in a debug build (which gives each
    /// local its own stack slot).
    private mutating func parseArray(_ type: ExecutionPlan.TypeEntry, typeIndex: Int32, fieldID: Int32, parent: Int32,
                                     arrayIndex: Int32) throws(Stop) -> Int32 {
        let count = type.extentKind == .expression
            ? try elementCount(type, typeIndex: typeIndex, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex) : -1
        let node = openArray(fieldID: fieldID, parent: parent, arrayIndex: arrayIndex)
        let savedElement = currentElement
        var index: Int64 = 0
        defer {
            currentElement = savedElement
            close(node)
        }
        while try arrayContinues(type, node: node, index: index, count: count) {
            let before = reader.bitPosition
            let elementNode = try parseValue(type.target, fieldID: fieldID, parent: node, arrayIndex: Int32(clamping: index))
            index += 1
            if try elementEndsArray(type, array: node, element: elementNode, index: index, start: before) { break }
        }
        return node
    }

    /// Whether an element of the array may read nothing: a struct or switch element of a counted
    /// array (whose count ends it). A list to the end of its scope, or `until`, could not end.
    private static func elementMayBeEmpty(_ type: ExecutionPlan.TypeEntry, _ plan: ExecutionPlan) -> Bool {
        guard type.extentKind == .expression else { return false }
        switch plan.types[type.target].kind {
        case .structure, .switchOn, .dispatch: return true
        default: return false
        }
    }

    /// `T[count]`: the count, checked against the bits left (every element takes at least one).
    private mutating func elementCount(_ type: ExecutionPlan.TypeEntry, typeIndex: Int32, fieldID: Int32, parent: Int32,
                                       arrayIndex: Int32) throws(Stop) -> Int64 {
        let count = try evaluate(type.extent, fieldID: fieldID, type: typeIndex, parent: parent, arrayIndex: arrayIndex)
        guard count >= 0 else {
            throw failure(.negativeLength(count), fieldID: fieldID, kind: .array, parent: parent, arrayIndex: arrayIndex)
        }
        // A count beyond the bits left fails now, before any work: every element takes a bit, but a
        // struct's or switch's, which may take none (a NULL column), and there the field limit bounds
        // the work. In a cut frame the bits left on the wire count: the elements stop at the cut.
        let availableBits = reader.remainingBits
        guard count <= Int64(availableBits) || (Self.elementMayBeEmpty(type, plan) && count <= Int64(options.fieldLimit))
                || countFitsCutScope(count, fieldID: fieldID, parent: parent, arrayIndex: arrayIndex) else {
            throw failure(shortage(needed: count, available: availableBits / 8), fieldID: fieldID, kind: .array,
                          parent: parent, arrayIndex: arrayIndex)
        }
        return count
    }

    /// The array's node, in its field's slot at once when the field is an array (so its elements
    /// see the ones before them), with no elements read yet.
    @inline(__always)
    private mutating func openArray(fieldID: Int32, parent: Int32, arrayIndex: Int32) -> Int32 {
        let node = appendNode(fieldID: fieldID, kind: .array, parent: parent, arrayIndex: arrayIndex, bitStart: reader.bitPosition)
        state.nodes[Int(node)].value = .unsigned(0)
        if openingArraySlot >= 0 {
            state.slots[openingArraySlot] = node
            openingArraySlot = -1
        }
        return node
    }

    /// Whether another element is to be read: by the count, the scope left, and the field limit.
    @inline(__always)
    private mutating func arrayContinues(_ type: ExecutionPlan.TypeEntry, node: Int32, index: Int64,
                                         count: Int64) throws(Stop) -> Bool {
        switch type.extentKind {
        case .expression:
            if index >= count { return false }
        case .rest, .none, .terminator:
            // Arrays have no terminator (the checker says so): read as to the end of the scope. In a
            // cut frame the list may go on past the captured bytes: the next element is then cut.
            if reader.remainingBits == 0, !isCutFrame || !continuesPastCapture(array: node) { return false }
        case .until:
            break
        }
        guard state.nodeCount < options.fieldLimit else {
            throw limitFailure(elementType: type.target, fieldID: state.nodes[Int(node)].fieldID, parent: node,
                               arrayIndex: Int32(clamping: index))
        }
        return true
    }

    /// After element `index - 1`: the count read so far (for the next element to see), an element
    /// that took no bytes, and an `until` that holds.
    @inline(__always)
    private mutating func elementEndsArray(_ type: ExecutionPlan.TypeEntry, array: Int32, element: Int32, index: Int64,
                                           start: Int) throws(Stop) -> Bool {
        state.nodes[Int(array)].value = .unsigned(UInt64(index))
        guard reader.bitPosition > start || Self.elementMayBeEmpty(type, plan) else {
            throw failure(at: element, .emptyElement(index: Int(index - 1)))
        }
        guard type.extentKind == .until else { return false }
        currentElement = element
        return try evaluate(type.extent, for: element) != 0
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
        /// The name needs bytes up to `neededEnd`, past its scope: cut by the capture, or an error.
        func short(_ neededEnd: Int, _ interpreter: inout Interpreter) -> Stop {
            let needed = Int64(neededEnd - start)
            if let wireEnd = interpreter.cutScopeEnd(fieldID: fieldID, arrayIndex: arrayIndex, parent: parent,
                                                     ownScope: true, limit: scopeLimit) {
                guard neededEnd > wireEnd else {
                    // In place, the name runs to the captured end; after a compression pointer it
                    // ends with the pointer, and what it needs is no distance from its start.
                    return interpreter.cutStop(needed: inPlaceEnd == nil ? Int(needed) : nil, fieldID: fieldID,
                                               kind: .dnsName, parent: parent, arrayIndex: arrayIndex,
                                               length: max(0, (inPlaceEnd ?? scopeLimit) - start))
                }
                return fail(interpreter.wireShortage(needed: needed, start: start, wireEnd: wireEnd), &interpreter)
            }
            return fail(interpreter.shortage(needed: needed, available: scopeLimit - start), &interpreter)
        }
        while true {
            guard position < scopeLimit else { throw short(position + 1, &self) }
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
                guard labelLength < scopeLimit - position else { throw short(position + 1 + labelLength, &self) }
                wireLength += labelLength + 1
                guard wireLength <= 255 else { throw fail(.nameTooLong, &self) }
                if !name.isEmpty { name.append(UInt8(ascii: ".")) }
                Self.appendLabel(bytes[(position + 1)...(position + labelLength)], to: &name)
                position += 1 + labelLength
            case 3:
                guard position + 1 < scopeLimit else { throw short(position + 2, &self) }
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
        let kind: DissectionError.Kind = depth > options.nestingLimit ? .depthLimit(options.nestingLimit)
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
        case .prematureEnd(let offset, let needed, let available):
            if let wireEnd = cutScopeEnd(fieldID: fieldID, arrayIndex: arrayIndex, parent: parent, ownScope: true) {
                guard offset + needed > wireEnd else {
                    return cutStop(needed: needed, fieldID: fieldID, kind: kind, parent: parent, arrayIndex: arrayIndex,
                                   length: available)
                }
                kindOfFailure = wireShortage(needed: Int64(needed), start: offset, wireEnd: wireEnd)
            } else {
                kindOfFailure = shortage(needed: Int64(needed), available: available)
            }
            length = available
        case .misaligned(_, let bitOffset):
            kindOfFailure = .misaligned(bitOffset: bitOffset)
        case .varintOverflow:
            kindOfFailure = .varintOverflow
        case .missingTerminator(_, let scanned):
            // Only NUL-terminated reads get here (`parseText` names its own terminator). The NUL may
            // be in the bytes the capture did not keep.
            if cutScopeEnd(fieldID: fieldID, arrayIndex: arrayIndex, parent: parent, ownScope: true) != nil {
                return cutStop(needed: nil, fieldID: fieldID, kind: kind, parent: parent, arrayIndex: arrayIndex,
                               length: scanned)
            }
            kindOfFailure = .missingTerminator(terminator: [0])
            length = scanned
        case .invalidUTF8(let position), .outOfRange(_, let position):
            // Only UTF-8-checking reads, seeks and scope changes throw these, and the walk makes
            // none a read could fail on (`parseText` flags invalid text instead).
            kindOfFailure = .negativeLength(Int64(position))
        }
        return failure(kindOfFailure, fieldID: fieldID, kind: kind, parent: parent, arrayIndex: arrayIndex, length: length)
    }

    /// Appends a node for a field that failed at the cursor, spanning `length` bytes it could see, and returns the error.
    @inline(never)
    private mutating func failure(_ kind: DissectionError.Kind, fieldID: Int32, kind nodeKind: NodeKind, parent: Int32,
                                  arrayIndex: Int32, length: Int = 0) -> Stop {
        let index = appendStopNode(fieldID: fieldID, kind: nodeKind, parent: parent, arrayIndex: arrayIndex, length: length)
        return failure(at: index, kind)
    }

    /// A node with no value for the field the walk stops at, from the cursor over `length` bytes in scope.
    private mutating func appendStopNode(fieldID: Int32, kind nodeKind: NodeKind, parent: Int32, arrayIndex: Int32,
                                         length: Int) -> Int32 {
        let start = reader.bitPosition
        let end = min(start + max(0, length) * 8, max(start, reader.limit * 8))
        let index = Int32(state.nodeCount)
        _ = state.appendNode(FieldNode(fieldID: fieldID, kind: nodeKind, parent: parent, arrayIndex: arrayIndex,
                                       bitStart: start, bitEnd: end, value: .none, subtreeEnd: index + 1,
                                       isBitField: start & 7 != 0, impliedDisplay: .automatic, frame: -1))
        return index
    }

    /// Records the error for a failure at an existing node and returns what to throw.
    @inline(never)
    private mutating func failure(at node: Int32, _ kind: DissectionError.Kind) -> Stop {
        let entry = state.nodes[Int(node)]
        // A heuristic that has not claimed its payload is rolled back with its error: no path to
        // spell out (most payloads on ports no table claims fail a heuristic's first test).
        let path = unclaimedHeuristicFrame >= 0
            ? "" : Dissection(schema: schema, bytes: reader.bytes, store: state, error: nil).path(of: Int(node))
        pendingError = DissectionError(kind: kind, path: path, offset: entry.bitStart >> 3,
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
            if case .stopped = error { throw Stop() }
            throw expressionFailure(error, program, fieldID: fieldID, type: type, parent: parent, arrayIndex: arrayIndex)
        }
    }

    /// The failure of an expression for a field not yet read: a `peek` past the captured bytes
    /// of a cut frame stops the walk as a cut.
    @inline(never)
    private mutating func expressionFailure(_ error: EvaluationFailure, _ program: Int32, fieldID: Int32, type: Int32,
                                            parent: Int32, arrayIndex: Int32) -> Stop {
        if case .beyondData(let needed, _) = error,
           let wireEnd = cutScopeEnd(fieldID: fieldID, arrayIndex: arrayIndex, parent: parent, ownScope: true),
           Int64(reader.offset) + needed <= Int64(wireEnd) {
            return cutStop(needed: Int(needed), fieldID: fieldID, kind: nodeKind(type), parent: parent,
                           arrayIndex: arrayIndex, length: reader.remainingBytes)
        }
        return failure(error.kind(expression: plan.programTexts[Int(program)]), fieldID: fieldID, kind: nodeKind(type),
                       parent: parent, arrayIndex: arrayIndex)
    }

    /// Evaluates a program about a node already read (constraints, `until`).
    private mutating func evaluate(_ program: Int32, for node: Int32) throws(Stop) -> Int64 {
        do {
            return try Evaluator.run(plan.operations(of: program), in: &self)
        } catch {
            if case .stopped = error { throw Stop() }
            throw failure(at: node, error.kind(expression: plan.programTexts[Int(program)]))
        }
    }

    // MARK: - Cut captures

    /// A length past the scope at the cursor. In a cut frame, when the capture (not a length)
    /// ends the scope and the field fits before the scope's end on the wire, a field that
    /// `narrowsScope` (a `@size`) returns, to be walked over its captured bytes, and anything
    /// else stops the walk as a cut. Every other case is an error.
    @inline(never)
    private mutating func extentShortfall(_ length: Int64, available: Int, narrowsScope: Bool, fieldID: Int32,
                                          type typeIndex: Int32, kind: NodeKind?, parent: Int32,
                                          arrayIndex: Int32) throws(Stop) {
        let start = reader.offset
        let failingKind = kind ?? nodeKind(typeIndex)
        // A `@size` is checked before its own scope opens: the field's scope is its parent's.
        guard let wireEnd = cutScopeEnd(fieldID: fieldID, arrayIndex: arrayIndex, parent: parent, ownScope: !narrowsScope)
        else {
            throw failure(shortage(needed: length, available: available), fieldID: fieldID, kind: failingKind,
                          parent: parent, arrayIndex: arrayIndex, length: available)
        }
        guard length <= Int64(wireEnd - start) else {
            throw failure(wireShortage(needed: length, start: start, wireEnd: wireEnd), fieldID: fieldID,
                          kind: failingKind, parent: parent, arrayIndex: arrayIndex, length: available)
        }
        if narrowsScope {
            // The field's node is the next one appended: its contents are walked first.
            cutScopes.append((node: Int32(state.nodeCount), wireEnd: start + Int(length)))
            return
        }
        throw cutStop(needed: Int(length), fieldID: fieldID, kind: failingKind, parent: parent, arrayIndex: arrayIndex,
                      length: available)
    }

    /// Whether an array count beyond the bits left in scope fits the bits left on the wire of a cut frame.
    @inline(never)
    private func countFitsCutScope(_ count: Int64, fieldID: Int32, parent: Int32, arrayIndex: Int32) -> Bool {
        guard let wireEnd = cutScopeEnd(fieldID: fieldID, arrayIndex: arrayIndex, parent: parent, ownScope: true) else {
            return false
        }
        return count <= Int64(wireEnd) * 8 - Int64(reader.bitPosition)
    }

    /// Whether an array that reads to the end of its scope, at the end of the captured bytes,
    /// has more of its scope on the wire.
    @inline(never)
    private func continuesPastCapture(array node: Int32) -> Bool {
        cutScopeEnd(fieldID: -1, arrayIndex: -1, parent: node, ownScope: false) != nil
    }

    /// In a frame the capture cut short, the end on the wire of the scope the field at the cursor
    /// is in, when the end of the captured bytes is that scope's end (`limit`, by default the
    /// reader's): the bytes past it were on the wire. Nil in a whole frame, and when a length
    /// ends the scope before the captured bytes do. The innermost scope is the field's own
    /// `@size` when it is open (`ownScope`), else the nearest enclosing sized field's, else the frame.
    @inline(never)
    private func cutScopeEnd(fieldID: Int32, arrayIndex: Int32, parent: Int32, ownScope: Bool, limit: Int? = nil) -> Int? {
        let captured = reader.bytes.count
        guard isCutFrame, (limit ?? reader.limit) == captured else { return nil }
        if ownScope, isSizedField(fieldID, arrayIndex) { return cutScopeEnd(ofNode: Int32(state.nodeCount)) }
        var node = parent
        while node >= 0, Int(node) < state.nodeCount {
            let entry = state.nodes[Int(node)]
            if isSizedField(entry.fieldID, entry.arrayIndex) { return cutScopeEnd(ofNode: node) }
            // Parents come before their children: the walk up always ends.
            guard entry.parent < node else { break }
            node = entry.parent
        }
        return originalLength
    }

    /// Whether a node for `fieldID` at `arrayIndex` is a field with a `@size` (its elements are not).
    private func isSizedField(_ fieldID: Int32, _ arrayIndex: Int32) -> Bool {
        arrayIndex < 0 && fieldID >= 0 && Int(fieldID) < schema.fields.count
            && schema.declaredField(schema.fields[Int(fieldID)]).size != nil
    }

    /// The end on the wire of a sized field's scope the cut narrowed; nil when its length ended it
    /// (the captured bytes then end exactly there).
    private func cutScopeEnd(ofNode node: Int32) -> Int? {
        cutScopes.last { $0.node == node }?.wireEnd
    }

    /// Whether the invalid UTF-8 at `offset` is a sequence the end of the captured bytes cut:
    /// a lead byte and continuation bytes, fewer than the lead byte announces, up to the end.
    private func isCutSequence(at offset: Int) -> Bool {
        let bytes = reader.bytes
        guard offset >= 0, offset < bytes.count, reader.limit == bytes.count else { return false }
        let lead = bytes[offset]
        let length = lead >= 0xF0 && lead <= 0xF4 ? 4 : lead >= 0xE0 && lead < 0xF0 ? 3 : lead >= 0xC2 && lead < 0xE0 ? 2 : 0
        let tail = bytes.count - offset - 1
        guard length > 0, tail < length - 1 else { return false }
        return bytes[(offset + 1)...].allSatisfy { $0 & 0xC0 == 0x80 }
    }

    /// A field past the end on the wire of its cut frame's scope: past a length's end (exceeds
    /// scope) or past the frame's (premature end), with what the wire had left.
    private func wireShortage(needed: Int64, start: Int, wireEnd: Int) -> DissectionError.Kind {
        if wireEnd < originalLength { return .exceedsScope(needed: needed, available: max(0, wireEnd - start)) }
        return .prematureEnd(needed: Int(clamping: needed), available: max(0, wireEnd - start))
    }

    /// Appends a node for the field the end of the captured bytes stopped, over the `length`
    /// bytes of it that were captured, and records the cut.
    @inline(never)
    private mutating func cutStop(needed: Int?, fieldID: Int32, kind nodeKind: NodeKind, parent: Int32, arrayIndex: Int32,
                                  length: Int) -> Stop {
        cutNode = appendStopNode(fieldID: fieldID, kind: nodeKind, parent: parent, arrayIndex: arrayIndex, length: length)
        cutNeeded = needed
        return Stop()
    }

    private func nodeKind(_ typeIndex: Int32) -> NodeKind {
        let type = plan.types[typeIndex]
        switch type.kind {
        case .integer, .varint, .zigzag: return .integer
        case .computed: return type.computedKind
        case .parameter: return type.extent >= 0 ? .enumeration(enumID: type.extent) : type.isBoolean ? .boolean : .integer
        case .enumeration: return .enumeration(enumID: type.target)
        case .float: return .float
        case .boolean: return .boolean
        case .string: return .string
        case .dnsName: return .dnsName
        case .structure: return .structure(structID: type.target)
        case .array: return .array
        case .bytes, .address, .switchOn, .dispatch: return .bytes
        }
    }
}

extension Interpreter: NodeEvaluationContext {
    var nodeStore: NodeStore {
        @inline(__always) get { state }
    }
    var nodePlan: ExecutionPlan {
        @inline(__always) get { plan }
    }
    var referenceFrame: Int32 {
        @inline(__always) get { currentFrame }
    }
    var elementNode: Int32 {
        @inline(__always) get { currentElement }
        set { currentElement = newValue }
    }
    var nodeBytes: [UInt8] {
        @inline(__always) get { reader.bytes }
    }

    // The walk's own references: the store and plan used in place, without a getter's retain, on
    // every expression that reaches past its struct's slots.
    mutating func load(_ reference: Int32) throws(EvaluationFailure) -> Int64 {
        let node = try resolve(reference)
        return try state.integerValue(of: node, plan.referenceTexts[Int(reference)])
    }

    mutating func length(_ reference: Int32) throws(EvaluationFailure) -> Int64 {
        state.length(of: try resolve(reference))
    }

    mutating func isPresent(_ reference: Int32) throws(EvaluationFailure) -> Bool {
        if try state.isPresent(reference, plan: plan, frame: currentFrame, element: currentElement) { return true }
        guard try readLazyField(for: reference) else { return false }
        return try state.isPresent(reference, plan: plan, frame: currentFrame, element: currentElement)
    }

    mutating func matchBytes(_ reference: Int32, literal: Int32) throws(EvaluationFailure) -> Bool {
        let node = try resolve(reference)
        return state.bytes(of: node, in: reader.bytes, equal: plan.literal(literal))
    }

    /// The node `reference` names, reading the lazy field it starts at if that is what is missing.
    @inline(__always)
    private mutating func resolve(_ reference: Int32) throws(EvaluationFailure) -> Int32 {
        do {
            return try state.resolve(reference, plan: plan, frame: currentFrame, element: currentElement)
        } catch {
            guard case .absentField = error, try readLazyField(for: reference) else { throw error }
            return try state.resolve(reference, plan: plan, frame: currentFrame, element: currentElement)
        }
    }

    @inline(__always)
    func slotValue(_ slot: Int32) -> Int64? {
        guard currentSlotBase >= 0, let node = state.slotNode(at: currentSlotBase + Int(slot)) else { return nil }
        switch state.nodes[Int(node)].value {
        case .unsigned(let value) where value <= UInt64(Int64.max): return Int64(value)
        case .signed(let value): return value
        case .boolean(let value): return value ? 1 : 0
        default: return nil
        }
    }

    /// Why a slot could not be loaded: no struct, an absent field, or a value past Int64.
    @inline(never)
    func slotFailure(_ slot: Int32) -> EvaluationFailure {
        guard let frame = state.frame(currentFrame) else { return .noEnclosingStruct("field") }
        let fields = schema.structs[Int(frame.structID)].fields
        let name = fields.indices.contains(Int(slot)) ? fields[Int(slot)].name : "field"
        guard let node = state.slotNode(frame, slot) else { return .absentField(name) }
        if case .unsigned = state.nodes[Int(node)].value { return .overflow }
        return .absentField(name)
    }

    @inline(__always)
    func constant(_ index: Int32) -> Int64 { plan.constants[index] }

    @inline(__always)
    func slotPresence(_ slot: Int32) -> Bool? {
        guard currentSlotBase >= 0 else { return nil }
        return state.slotNode(at: currentSlotBase + Int(slot)) != nil
    }

    var presenceFailure: EvaluationFailure { .noEnclosingStruct("field") }

    var remainingBytes: Int64 { Int64(reader.remainingBytes) }
    var currentOffset: Int64 { Int64(reader.offset) }

    func peekByte(_ distance: Int64) throws(EvaluationFailure) -> Int64 {
        let available = Int64(reader.remainingBytes)
        guard reader.isAligned, distance >= 0, distance < available else {
            throw .beyondData(needed: max(distance, 0) + 1, available: available)
        }
        return Int64(reader.bytes[reader.offset + Int(distance)])
    }

    func find(literal: Int32, anyByte: Bool, within limit: Int64) throws(EvaluationFailure) -> Int64 {
        guard reader.isAligned else { throw .beyondData(needed: 1, available: Int64(reader.remainingBytes)) }
        let window = ByteSearch.window(limit: limit, available: reader.remainingBytes)
        return unsafe ByteSearch.search(plan.literal(literal), anyByte: anyByte, in: reader.bytes, from: reader.offset, window: window)
    }

    func bytesAhead(_ distance: Int64, areLiteral literal: Int32, caseless: Bool) throws(EvaluationFailure) -> Bool {
        guard reader.isAligned, distance >= 0 else { throw .beyondData(needed: max(distance, 0) + 1, available: Int64(reader.remainingBytes)) }
        let needle = unsafe plan.literal(literal)
        guard distance <= Int64(reader.remainingBytes - needle.count) else { return false }
        return unsafe ByteSearch.matches(needle, in: reader.bytes, at: reader.offset + Int(distance), caseless: caseless)
    }

    /// `zeros(n)`: n past the end of the scope is the error `peek` gives there.
    func areZeros(_ count: Int64) throws(EvaluationFailure) -> Bool {
        let available = Int64(reader.remainingBytes)
        guard reader.isAligned, count >= 0, count <= available else {
            throw .beyondData(needed: max(count, 0), available: available)
        }
        let start = reader.offset
        for index in start..<start + Int(count) where reader.bytes[index] != 0 { return false }
        return true
    }

}

extension String {
    /// Three decimal digits, zero-padded (`\DDD` escapes).
    init(format3 value: Int) {
        let digits = String(value)
        self = String(repeating: "0", count: Swift.max(0, 3 - digits.count)) + digits
    }
}
