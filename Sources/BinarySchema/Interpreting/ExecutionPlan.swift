import BinaryIO

/// A checked schema lowered to flat tables of plain values, indexed by `Int32`.
///
/// The interpreter's hot loop reads only these tables, so walking a packet touches
/// no reference counts. The tables are built once from the checked schema and never
/// change; every index in them was produced by the lowering below, never by input bytes.
final class ExecutionPlan: @unchecked Sendable {
    struct StructEntry {
        var fieldStart: Int32
        var fieldCount: Int32
        var isOffsetBase: Bool
        /// Index among the struct's fields of the last one with a constraint, or -1: a heuristic
        /// attempt at this struct claims its payload once that field's constraints hold.
        var lastConstrainedField: Int32
        /// Whether it has `lazy` fields, which the walk reads at its end unless already read.
        var hasLazyFields = false
    }

    /// The `position` of the row that checks a struct's `@requires`: the field loop sends it, as
    /// any row with a position, to the cold path, which checks them instead of reading a field.
    static let requirementsRow: Int32 = -2

    /// A struct's `@requires`: `constraints[start..<start + count]`, checked once its
    /// `parameterCount` parameters (its first fields) are read.
    struct RequirementEntry {
        var start: Int32
        var count: Int32
        var parameterCount: Int32
    }

    struct FieldEntry {
        var fieldID: Int32
        var slot: Int32
        var type: Int32
        /// Program indices, or -1.
        var condition: Int32
        var size: Int32
        var constraintStart: Int32
        var constraintCount: Int32
        /// `@little_endian(condition)` program, or -1.
        var byteOrder: Int32
        /// `@at(offset)` program, or -1.
        var position: Int32
        /// `@align(n)`, or 0.
        var alignment: Int32
        /// An unconditional, unsized integer or enum field: the interpreter's fast path.
        var isPlainInteger: Bool
        /// The condition is false when no byte is left in scope (`remaining() > 0 && …`,
        /// `remaining() == 4`): a field at the end of a frame the upper layer fills (Ethernet's
        /// padding, trailer and FCS) is skipped without running it.
        var needsBytes = false
        /// The last field an internet checksum of its struct covers, which may be verified as soon
        /// as it is read (``ChecksumSpec/lastSlotVerifiableDuringWalk(ownSlot:)``).
        var endsChecksum = false
        /// An array: its slot holds its node from the start, so that an element can read the
        /// elements before it (`parent.pool[index() - 1]`).
        var opensArray = false
        /// `lazy`: skipped where it stands (its condition is in ``lazyConditions``, not
        /// ``condition``), read when an expression first needs it or at its struct's end.
        var isLazy = false
    }

    enum TypeKind: UInt8 {
        case integer, enumeration, float, boolean, varint, zigzag, bytes, address, string
        case structure, array, switchOn, dispatch, dnsName, computed, parameter
    }

    enum ExtentKind: UInt8 {
        /// `terminator`: `extent` is the literal a string ends with.
        case none, expression, rest, until, terminator
    }

    struct TypeEntry {
        var kind: TypeKind
        var bits: UInt8 = 0
        var isSigned = false
        var littleEndian = false
        var lsbFirst = false
        /// An integer, enum or float without a `le`/`be` suffix: a `@little_endian` around it decides its byte order.
        var followsByteOrder = false
        var extentKind = ExtentKind.none
        var display = DisplayHint.automatic
        var encoding = TextEncoding.utf8
        /// Program of the extent (length, count or until condition), the literal of a
        /// terminator, or -1.
        var extent: Int32 = -1
        /// A computed value or parameter that is a bool rather than an integer.
        var isBoolean = false
        /// A string's `@pad` byte, or -1.
        var padding: Int16 = -1
        /// A struct's arguments: programs `arguments[argumentStart..<argumentStart + argumentCount]`.
        var argumentStart: Int32 = 0
        var argumentCount: Int32 = 0
        /// Struct ID, enum ID, element type index, switch index or address byte count, by kind; a
        /// computed value's enum, or -1.
        var target: Int32 = -1

        /// The node kind of a computed value: a bool, an enum (`let k: E = …`) or an integer.
        var computedKind: NodeKind {
            target >= 0 ? .enumeration(enumID: target) : isBoolean ? .boolean : .integer
        }

        /// A computed value as its node holds it: an enum's as read ones are, unsigned.
        func computedValue(_ value: Int64) -> FieldValue {
            if isBoolean { return .boolean(value != 0) }
            if target >= 0, value >= 0 { return .unsigned(UInt64(value)) }
            return .signed(value)
        }
    }

    struct SwitchEntry {
        var subject: Int32
        var caseStart: Int32
        var caseCount: Int32
        var defaultType: Int32
        /// The field the default case's value is read as, or -1 for the switch's own.
        var defaultField: Int32 = -1
    }

    /// One value (or, with no subject, one condition) of a switch and the type it picks.
    struct CaseEntry {
        var value: Int64
        var condition: Int32
        var type: Int32
        /// The field the case's value is read as (a case with attributes), or -1 for the switch's own.
        var field: Int32 = -1
    }

    /// `dispatch table(keys...)`: the table and the programs of its keys.
    struct DispatchSiteEntry {
        var table: Int32
        var keyStart: Int32
        var keyCount: Int32
    }

    /// A table's entries in lookup order: overrides (searched in order), exact values (hashed, in
    /// ``ExecutionPlan/exactKeys``), ranges (in order), then heuristics.
    struct DispatchTableEntry {
        var overrideStart: Int32
        var overrideCount: Int32
        /// The table's exact values: `exactMask + 1` (a power of two, at least twice their number)
        /// rows of ``ExecutionPlan/exactKeys`` from `exactStart`, probed linearly; none when -1.
        var exactStart: Int32
        var exactMask: Int32
        var rangeStart: Int32
        var rangeCount: Int32
        var heuristicStart: Int32
        var heuristicCount: Int32
    }

    /// Keys `low...high` read with type `type` (a struct type); for heuristics only `type` is used.
    struct KeyRange {
        var low: Int64
        var high: Int64
        var type: Int32
    }

    /// One row of a dispatch table's hashed exact values; `type` -1 is an empty row.
    struct ExactKey {
        var key: Int64
        var type: Int32

        static let empty = ExactKey(key: 0, type: -1)

        /// The row `key` is looked for from, below `mask + 1`: a multiplicative hash, so ports and
        /// EtherTypes that differ in their low bits spread out.
        @inline(__always)
        static func home(of key: Int64, mask: Int32) -> Int {
            Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> 32) & Int(mask)
        }
    }

    struct ProgramEntry {
        var operationStart: Int32
        var operationCount: Int32
    }

    struct ReferenceEntry {
        var isElement: Bool
        var levelsUp: Int32
        var slotStart: Int32
        var slotCount: Int32
        var parentSlotStart: Int32
        var parentSlotCount: Int32
    }

    /// A lowered ``FieldReference/Step``: kind 0 a slot (`value`), 1 a slot by struct (`parentSlots[value..<value + count]`),
    /// 2 element `value`, 3 the last element, 4 the element at the index the operation popped.
    /// The slot a reference's first step names in the struct at hand (`x` or `x.y`, neither
    /// `parent.x` nor `it`), or nil.
    func firstSlotOfOwnField(_ reference: Int32) -> Int32? {
        let entry = references[reference]
        guard !entry.isElement, entry.levelsUp == 0, entry.slotCount > 0 else { return nil }
        let step = referenceSlots[entry.slotStart]
        return step.kind == 0 ? step.value : nil
    }

    struct ReferenceStep {
        var kind: UInt8
        var value: Int32
        var count: Int32
    }

    struct ParentSlot {
        var structID: Int32
        var slot: Int32
    }

    struct LiteralRange {
        var start: Int32
        var count: Int32
    }

    let structs: Table<StructEntry>
    let fields: Table<FieldEntry>
    let types: Table<TypeEntry>
    let switches: Table<SwitchEntry>
    let cases: Table<CaseEntry>
    /// Program indices of the arguments passed to structs with parameters.
    let arguments: Table<Int32>
    let dispatchSites: Table<DispatchSiteEntry>
    let dispatchKeys: Table<Int32>
    let dispatchTables: Table<DispatchTableEntry>
    let keyRanges: Table<KeyRange>
    let exactKeys: Table<ExactKey>
    /// `bytes[..]`: what a dispatch reads when no entry and no heuristic claims the payload.
    let restOfScopeType: Int32
    let constraints: Table<Int32>
    /// Per struct, its `@requires` (read by the row ``requirementsRow`` of a struct that has them).
    let requirements: Table<RequirementEntry>
    let programs: Table<ProgramEntry>
    let operations: Table<Program.Operation>
    let references: Table<ReferenceEntry>
    let referenceSlots: Table<ReferenceStep>
    let parentSlots: Table<ParentSlot>
    /// Constants of fused comparisons.
    let constants: Table<Int64>
    /// Byte strings (literals compared with fields, terminators): literal `i` is
    /// `literalBytes[literalRanges[i]]`.
    let literalRanges: Table<LiteralRange>
    let literalBytes: Table<UInt8>
    /// Program indices of the fields' `@display` arguments: field `id`'s are
    /// `displayArguments[displayArgumentStarts[id]..<displayArgumentStarts[id + 1]]`.
    let displayArgumentStarts: Table<Int32>
    let displayArguments: Table<Int32>
    /// The `@checksum` fields, verified after a walk.
    let checksums: ChecksumPlan
    /// The `if` condition of each `lazy` field that has one, by field ID: evaluated when it is read.
    let lazyConditions: [Int32: Int32]
    /// Cold data for messages.
    let programTexts: [String]
    let referenceTexts: [String]

    init(structs structTypes: [StructType], tables: [DispatchTable] = [], totalFieldCount: Int = 0) {
        var builder = Builder()
        var structs: [StructEntry] = []
        var requirementEntries: [RequirementEntry] = []
        var argumentsByField: [Int: [Int32]] = [:]
        var lazyConditions: [Int32: Int32] = [:]
        restOfScopeType = builder.type(.bytes(.rest))
        for table in tables { builder.lower(table) }
        for structure in structTypes {
            // `@requires` is a row of its own after the parameters (see ``requirementsRow``), so the
            // interpreter's field loop has no code for it.
            let hasRequirements = !structure.requirements.isEmpty
            let parameterCount = structure.fields.prefix { $0.isParameter }.count
            func row(_ offset: Int) -> Int { hasRequirements && offset >= parameterCount ? offset + 1 : offset }
            let lastConstrained = structure.fields.lastIndex { !$0.constraints.isEmpty }.map { Int32(row($0)) } ?? -1
            let requirementStart = Int32(builder.constraints.count)
            builder.constraints.append(contentsOf: structure.requirements.map { builder.program($0) })
            requirementEntries.append(RequirementEntry(start: requirementStart, count: Int32(structure.requirements.count),
                                                       parameterCount: Int32(parameterCount)))
            let rowCount = structure.fields.count + (hasRequirements ? 1 : 0)
            structs.append(StructEntry(fieldStart: Int32(builder.fields.count), fieldCount: Int32(rowCount),
                                       isOffsetBase: structure.isOffsetBase,
                                       lastConstrainedField: lastConstrained,
                                       hasLazyFields: structure.fields.contains { $0.isLazy }))
            // Reserve the struct's field rows first so they stay contiguous while their types are lowered.
            let start = builder.fields.count
            builder.fields.append(contentsOf: repeatElement(
                FieldEntry(fieldID: 0, slot: 0, type: 0, condition: -1, size: -1, constraintStart: 0, constraintCount: 0,
                           byteOrder: -1, position: -1, alignment: 0, isPlainInteger: false),
                count: rowCount))
            if hasRequirements {
                // Its slot is the one past the fields': never written, as the row reads no node.
                builder.fields[start + parameterCount] = FieldEntry(
                    fieldID: -1, slot: Int32(structure.fields.count), type: restOfScopeType, condition: -1, size: -1,
                    constraintStart: 0, constraintCount: 0, byteOrder: -1, position: Self.requirementsRow, alignment: 0,
                    isPlainInteger: false)
            }
            for (offset, field) in structure.fields.enumerated() {
                let constraintStart = Int32(builder.constraints.count)
                let constraintPrograms = field.constraints.map { builder.program($0) }
                builder.constraints.append(contentsOf: constraintPrograms)
                if let format = field.displayFormat {
                    let programs = format.arguments.map { builder.program($0) }
                    argumentsByField[field.id] = programs
                    // The fields its cases with attributes are read as show it too.
                    if case .switchOn(let choice) = field.type {
                        for id in choice.caseFieldIDs where id >= 0 && argumentsByField[id] == nil { argumentsByField[id] = programs }
                    }
                }
                let type = builder.type(field.type)
                let entry = builder.types[Int(type)]
                let isPlain = field.condition == nil && field.size == nil && field.littleEndianCondition == nil
                    && field.position == nil && field.alignment == 0
                    && (entry.kind == .integer || entry.kind == .enumeration)
                let condition = builder.program(field.condition)
                if field.isLazy, condition >= 0 { lazyConditions[Int32(field.id)] = condition }
                builder.fields[start + row(offset)] = FieldEntry(
                    fieldID: Int32(field.id), slot: Int32(field.slot), type: type,
                    condition: field.isLazy ? -1 : condition, size: builder.program(field.size),
                    constraintStart: constraintStart, constraintCount: Int32(constraintPrograms.count),
                    byteOrder: builder.program(field.littleEndianCondition), position: builder.program(field.position),
                    alignment: Int32(field.alignment), isPlainInteger: isPlain,
                    needsBytes: !field.isLazy && (field.condition.map(Self.isFalseWithoutBytes) ?? false),
                    endsChecksum: structure.fields.contains { other in
                        other.checksum?.lastSlotVerifiableDuringWalk(ownSlot: other.slot) == field.slot
                    },
                    opensArray: entry.kind == .array && !field.isLazy, isLazy: field.isLazy)
            }
        }
        self.lazyConditions = lazyConditions
        checksums = ChecksumPlan(structs: structTypes) { builder.program($0) }
        self.structs = Table(structs)
        requirements = Table(requirementEntries)
        fields = Table(builder.fields)
        types = Table(builder.types)
        switches = Table(builder.switches)
        cases = Table(builder.cases)
        arguments = Table(builder.arguments)
        dispatchSites = Table(builder.dispatchSites)
        dispatchKeys = Table(builder.dispatchKeys)
        dispatchTables = Table(builder.dispatchTables)
        keyRanges = Table(builder.keyRanges)
        exactKeys = Table(builder.exactKeys)
        constraints = Table(builder.constraints)
        programs = Table(builder.programs)
        operations = Table(builder.operations)
        references = Table(builder.references)
        referenceSlots = Table(builder.referenceSlots)
        parentSlots = Table(builder.parentSlots)
        constants = Table(builder.constants)
        literalRanges = Table(builder.literalRanges)
        literalBytes = Table(builder.literalBytes)
        // Every field, the fields switch cases read their values as among them.
        let fieldCount = max(totalFieldCount, structTypes.reduce(0) { max($0, ($1.fields.map(\.id).max() ?? -1) + 1) })
        var argumentStarts: [Int32] = []
        var arguments: [Int32] = []
        for id in 0..<fieldCount {
            argumentStarts.append(Int32(arguments.count))
            arguments += argumentsByField[id] ?? []
        }
        argumentStarts.append(Int32(arguments.count))
        displayArgumentStarts = Table(argumentStarts)
        displayArguments = Table(arguments)
        programTexts = builder.programTexts
        referenceTexts = builder.referenceTexts
    }

    /// Whether `condition` is false whenever `remaining()` is 0: it is `remaining() OP k`, alone or
    /// first of an `&&`, and `0 OP k` is false.
    static func isFalseWithoutBytes(_ condition: Program) -> Bool {
        let operations = condition.operations
        guard operations.count >= 3, case .remaining = operations[0], case .constant(let bound) = operations[1],
              let comparison = Program.Comparison(operations[2]), !comparison.holds(0, bound) else { return false }
        if operations.count == 3 { return true }
        guard case .jumpIfZero(let target) = operations[3] else { return false }
        return operations.withUnsafeBufferPointer { Evaluator.isZeroResult(from: Int(target), $0) }
    }

    /// The struct type registered for `key`, or -1: overrides in order, exact values by hash, ranges in order.
    func lookup(_ key: Int64, in table: DispatchTableEntry) -> Int32 {
        var index = table.overrideStart
        while index < table.overrideStart + table.overrideCount {
            let entry = keyRanges[index]
            if entry.low <= key, key <= entry.high { return entry.type }
            index += 1
        }
        if table.exactStart >= 0 {
            // At most half the rows are full, so the probe meets an empty one.
            var row = ExactKey.home(of: key, mask: table.exactMask)
            while true {
                let entry = exactKeys[Int(table.exactStart) + row]
                if entry.type < 0 { break }
                if entry.key == key { return entry.type }
                row = (row + 1) & Int(table.exactMask)
            }
        }
        index = table.rangeStart
        while index < table.rangeStart + table.rangeCount {
            let entry = keyRanges[index]
            if entry.low <= key, key <= entry.high { return entry.type }
            index += 1
        }
        return -1
    }

    /// The operations of program `index`.
    @inline(__always)
    func operations(of index: Int32) -> UnsafeBufferPointer<Program.Operation> {
        let entry = programs[index]
        return unsafe operations.elements(Int(entry.operationStart)..<Int(entry.operationStart) + Int(entry.operationCount))
    }

    /// The bytes of literal `index`.
    @inline(__always)
    func literal(_ index: Int32) -> UnsafeBufferPointer<UInt8> {
        let range = literalRanges[index]
        return unsafe literalBytes.elements(Int(range.start)..<Int(range.start) + Int(range.count))
    }

    private struct Builder {
        var fields: [FieldEntry] = []
        var types: [TypeEntry] = []
        var switches: [SwitchEntry] = []
        var cases: [CaseEntry] = []
        var arguments: [Int32] = []
        var dispatchSites: [DispatchSiteEntry] = []
        var dispatchKeys: [Int32] = []
        var dispatchTables: [DispatchTableEntry] = []
        var keyRanges: [KeyRange] = []
        var exactKeys: [ExactKey] = []
        var constraints: [Int32] = []
        var programs: [ProgramEntry] = []
        var operations: [Program.Operation] = []
        var references: [ReferenceEntry] = []
        var referenceSlots: [ReferenceStep] = []
        var parentSlots: [ParentSlot] = []
        var constants: [Int64] = []
        var literalRanges: [LiteralRange] = []
        var literalBytes: [UInt8] = []
        var programTexts: [String] = []
        var referenceTexts: [String] = []
        var programIndex: [ObjectIdentifier: Int32] = [:]

        mutating func program(_ program: Program?) -> Int32 {
            guard let program else { return -1 }
            if let known = programIndex[ObjectIdentifier(program)] { return known }
            // Rebase the program's local reference numbers onto the global reference table.
            let referenceBase = Int32(references.count)
            for reference in program.references {
                var entry = ReferenceEntry(isElement: false, levelsUp: 0, slotStart: Int32(referenceSlots.count),
                                           slotCount: Int32(reference.slots.count),
                                           parentSlotStart: Int32(parentSlots.count),
                                           parentSlotCount: Int32(reference.firstSlotByStruct.count))
                switch reference.base {
                case .element: entry.isElement = true
                case .enclosing(let levelsUp): entry.levelsUp = Int32(levelsUp)
                }
                // The `parent.x` map first: the entry's parentSlotStart points at it.
                for (structID, slot) in reference.firstSlotByStruct.sorted(by: { $0.key < $1.key }) {
                    parentSlots.append(ParentSlot(structID: Int32(structID), slot: slot))
                }
                for step in reference.slots {
                    switch step {
                    case .slot(let slot): referenceSlots.append(ReferenceStep(kind: 0, value: slot, count: 0))
                    case .slotByStruct(let map):
                        referenceSlots.append(ReferenceStep(kind: 1, value: Int32(parentSlots.count), count: Int32(map.count)))
                        for (structID, slot) in map.sorted(by: { $0.key < $1.key }) {
                            parentSlots.append(ParentSlot(structID: Int32(structID), slot: slot))
                        }
                    case .element(let index): referenceSlots.append(ReferenceStep(kind: 2, value: index, count: 0))
                    case .lastElement: referenceSlots.append(ReferenceStep(kind: 3, value: 0, count: 0))
                    case .computedElement: referenceSlots.append(ReferenceStep(kind: 4, value: 0, count: 0))
                    }
                }
                references.append(entry)
                referenceTexts.append(reference.text)
            }
            let literalBase = Int32(literalRanges.count)
            for bytes in program.literals { _ = literal(bytes) }
            // Bodies first: each program's operations are one contiguous run.
            let bodies = program.bodies.map { self.program($0) }
            let start = Int32(operations.count)
            let lowered = fuseComparisons(program.operations.map { operation in
                switch operation {
                case .load(let local): return .load(referenceBase + local)
                case .length(let local): return .length(referenceBase + local)
                case .present(let local): return .present(referenceBase + local)
                case .matchBytes(let local, let literal): return .matchBytes(reference: referenceBase + local, literal: literalBase + literal)
                case .loadAt(let local): return .loadAt(referenceBase + local)
                case .lengthAt(let local): return .lengthAt(referenceBase + local)
                case .presentAt(let local): return .presentAt(referenceBase + local)
                case .matchBytesAt(let local, let literal):
                    return .matchBytesAt(reference: referenceBase + local, literal: literalBase + literal)
                case .byteAt(let local): return .byteAt(referenceBase + local)
                case .find(let literal, let anyByte): return .find(literal: literalBase + literal, anyByte: anyByte)
                case .peekMatch(let literal, let caseless): return .peekMatch(literal: literalBase + literal, caseless: caseless)
                case .aggregate(let kind, let local, let body):
                    return .aggregate(kind, reference: referenceBase + local, body: bodies[Int(body)])
                default: return operation
                }
            })
            operations.append(contentsOf: lowered)
            let index = Int32(programs.count)
            programs.append(ProgramEntry(operationStart: start, operationCount: Int32(lowered.count)))
            programTexts.append(program.text)
            programIndex[ObjectIdentifier(program)] = index
            return index
        }

        /// Appends a byte string to the literal table; returns its index.
        mutating func literal(_ bytes: [UInt8]) -> Int32 {
            literalRanges.append(LiteralRange(start: Int32(literalBytes.count), count: Int32(bytes.count)))
            literalBytes.append(contentsOf: bytes)
            return Int32(literalRanges.count - 1)
        }

        /// Replaces each `loadSlot, constant, compare` that no jump lands inside with one
        /// `compareSlot`, and renumbers jump targets to match.
        mutating func fuseComparisons(_ input: [Program.Operation]) -> [Program.Operation] {
            var targets: Set<Int> = []
            for operation in input {
                switch operation {
                case .jump(let target), .jumpIfZero(let target), .jumpIfNonZero(let target): targets.insert(Int(target))
                default: break
                }
            }
            var output: [Program.Operation] = []
            var newIndex: [Int] = Array(repeating: 0, count: input.count + 1)
            var index = 0
            while index < input.count {
                newIndex[index] = output.count
                if index + 2 < input.count, !targets.contains(index + 1), !targets.contains(index + 2),
                   case .loadSlot(let slot) = input[index], case .constant(let value) = input[index + 1],
                   let comparison = Program.Comparison(input[index + 2]) {
                    constants.append(value)
                    output.append(.compareSlot(comparison, slot: slot, constant: Int32(constants.count - 1)))
                    newIndex[index + 1] = output.count - 1
                    newIndex[index + 2] = output.count - 1
                    index += 3
                    continue
                }
                output.append(input[index])
                index += 1
            }
            newIndex[input.count] = output.count
            return output.map { operation in
                switch operation {
                case .jump(let target): return .jump(Int32(newIndex[Int(target)]))
                case .jumpIfZero(let target): return .jumpIfZero(Int32(newIndex[Int(target)]))
                case .jumpIfNonZero(let target): return .jumpIfNonZero(Int32(newIndex[Int(target)]))
                default: return operation
                }
            }
        }

        mutating func type(_ type: FieldType) -> Int32 {
            var entry: TypeEntry
            switch type {
            case .integer(let integer):
                entry = TypeEntry(kind: .integer)
                entry.bits = UInt8(integer.bits)
                entry.isSigned = integer.isSigned
                entry.littleEndian = integer.endianness == .little
                entry.lsbFirst = integer.bitOrder == .lsbFirst
                entry.followsByteOrder = !integer.hasExplicitEndianness
            case .enumeration(let enumID, let base):
                entry = TypeEntry(kind: .enumeration, target: Int32(enumID))
                entry.bits = UInt8(base.bits)
                entry.isSigned = base.isSigned
                entry.littleEndian = base.endianness == .little
                entry.lsbFirst = base.bitOrder == .lsbFirst
                entry.followsByteOrder = !base.hasExplicitEndianness
            case .float(let bits, let endianness, let explicit):
                entry = TypeEntry(kind: .float)
                entry.bits = UInt8(bits)
                entry.littleEndian = endianness == .little
                entry.followsByteOrder = !explicit
            case .boolean:
                entry = TypeEntry(kind: .boolean)
            case .varint(let zigzag):
                entry = TypeEntry(kind: zigzag ? .zigzag : .varint)
            case .bytes(let extent):
                entry = TypeEntry(kind: .bytes)
                lower(extent, into: &entry)
            case .address(let byteCount, let display):
                entry = TypeEntry(kind: .address, display: display, target: Int32(byteCount))
            case .string(let extent, let encoding, let padding):
                entry = TypeEntry(kind: .string)
                entry.encoding = encoding
                entry.padding = padding.map(Int16.init) ?? -1
                lower(extent, into: &entry)
            case .structure(let structID):
                entry = TypeEntry(kind: .structure, target: Int32(structID))
            case .array(let element, let extent):
                entry = TypeEntry(kind: .array, target: self.type(element))
                lower(extent, into: &entry)
            case .switchOn(let switchType):
                entry = TypeEntry(kind: .switchOn, target: lower(switchType))
            case .dispatch(let table, let keys):
                let keyPrograms = keys.map { program($0) }
                dispatchSites.append(DispatchSiteEntry(table: Int32(table), keyStart: Int32(dispatchKeys.count),
                                                       keyCount: Int32(keyPrograms.count)))
                dispatchKeys.append(contentsOf: keyPrograms)
                entry = TypeEntry(kind: .dispatch, target: Int32(dispatchSites.count - 1))
            case .dnsName:
                entry = TypeEntry(kind: .dnsName)
            case .instance(let structID, let argumentPrograms):
                entry = TypeEntry(kind: .structure, target: Int32(structID))
                let lowered = argumentPrograms.map { program($0) }
                entry.argumentStart = Int32(arguments.count)
                entry.argumentCount = Int32(lowered.count)
                arguments.append(contentsOf: lowered)
            case .parameter(let index, let isBoolean, let enumID):
                // `extent` holds the enum, if the parameter is one.
                entry = TypeEntry(kind: .parameter, extent: Int32(enumID ?? -1), target: Int32(index))
                entry.isBoolean = isBoolean
            case .computed(let value, let isBoolean, let enumID):
                // `target` holds the enum, if the value is one.
                entry = TypeEntry(kind: .computed, target: Int32(enumID ?? -1))
                entry.extent = program(value)
                entry.isBoolean = isBoolean
            }
            types.append(entry)
            return Int32(types.count - 1)
        }

        private mutating func lower(_ extent: Extent, into entry: inout TypeEntry) {
            switch extent.form {
            case .expression(let program):
                entry.extentKind = .expression
                entry.extent = self.program(program)
            case .rest:
                entry.extentKind = .rest
            case .until(let program):
                entry.extentKind = .until
                entry.extent = self.program(program)
            case .terminator(let bytes):
                entry.extentKind = .terminator
                entry.extent = literal(bytes)
            }
        }

        /// Appends table `table`'s entries; tables are lowered in order, so its index is its position.
        mutating func lower(_ table: DispatchTable) {
            func ranges(_ entries: [DispatchTable.Entry], _ builder: inout Builder) -> (Int32, Int32) {
                let start = Int32(builder.keyRanges.count)
                for entry in entries {
                    let type = builder.type(.structure(structID: entry.structID))
                    builder.keyRanges.append(KeyRange(low: entry.low, high: entry.high, type: type))
                }
                return (start, Int32(entries.count))
            }
            let entries = table.lookupOrder
            let overrides = ranges(entries.filter(\.isOverride), &self)
            let exact = hashed(entries.filter { !$0.isOverride && !$0.isRange })
            let spans = ranges(entries.filter { !$0.isOverride && $0.isRange }, &self)
            let heuristics = ranges(table.heuristics, &self)
            dispatchTables.append(DispatchTableEntry(
                overrideStart: overrides.0, overrideCount: overrides.1, exactStart: exact.start, exactMask: exact.mask,
                rangeStart: spans.0, rangeCount: spans.1, heuristicStart: heuristics.0, heuristicCount: heuristics.1))
        }

        /// Appends `entries` (one key each, no two alike: the checker refuses a second registration
        /// without `override`) as a hashed block of ``exactKeys``.
        private mutating func hashed(_ entries: [DispatchTable.Entry]) -> (start: Int32, mask: Int32) {
            guard !entries.isEmpty else { return (-1, 0) }
            var rowCount = 2
            while rowCount < 2 * entries.count { rowCount *= 2 }
            var rows = [ExactKey](repeating: .empty, count: rowCount)
            let mask = Int32(rowCount - 1)
            for entry in entries {
                let type = self.type(.structure(structID: entry.structID))
                var row = ExactKey.home(of: entry.low, mask: mask)
                while rows[row].type >= 0, rows[row].key != entry.low { row = (row + 1) & Int(mask) }
                if rows[row].type < 0 { rows[row] = ExactKey(key: entry.low, type: type) }
            }
            let start = Int32(exactKeys.count)
            exactKeys += rows
            return (start, mask)
        }

        private mutating func lower(_ switchType: SwitchType) -> Int32 {
            var lowered: [CaseEntry] = []
            for (index, entry) in switchType.cases.enumerated() {
                let type = self.type(entry.type)
                let field = Int32(switchType.caseFieldID(index) ?? -1)
                if let condition = entry.condition {
                    lowered.append(CaseEntry(value: 0, condition: program(condition), type: type, field: field))
                }
                for value in entry.values { lowered.append(CaseEntry(value: value, condition: -1, type: type, field: field)) }
            }
            let defaultType = switchType.defaultType.map { self.type($0) } ?? -1
            let caseStart = Int32(cases.count)
            cases.append(contentsOf: lowered)
            switches.append(SwitchEntry(subject: program(switchType.subject), caseStart: caseStart,
                                        caseCount: Int32(lowered.count), defaultType: defaultType,
                                        defaultField: Int32(switchType.caseFieldID(switchType.cases.count) ?? -1)))
            return Int32(switches.count - 1)
        }
    }
}

/// A fixed array of plain values, read without reference counting: a ``GrowableBuffer``
/// filled once and never changed, indexed by the `Int32`s the lowering produced.
@usableFromInline
struct Table<Element>: ~Copyable {
    var storage: GrowableBuffer<Element>

    init(_ elements: [Element]) {
        storage = GrowableBuffer(capacity: elements.count)
        for element in elements { storage.append(element) }
    }

    var count: Int { storage.count }

    @inline(__always)
    subscript(index: Int32) -> Element { storage[Int(index)] }

    @inline(__always)
    subscript(index: Int) -> Element { storage[index] }

    /// Elements `range` in place, valid as long as the table (its owner never changes it).
    @inline(__always)
    func elements(_ range: Range<Int>) -> UnsafeBufferPointer<Element> {
        let all = unsafe storage.elements
        precondition(range.lowerBound >= 0 && range.upperBound <= all.count, "Table range out of bounds")
        return unsafe UnsafeBufferPointer(rebasing: all[range])
    }
}
