/// Every field, struct and protocol name of a schema as UTF-8 in one buffer, so views can copy
/// a name per field without touching the reference-counted ``Field`` and ``StructType`` objects.
/// Pointers it returns stay valid as long as the table (and so its schema) is alive.
package final class NameTable: @unchecked Sendable {
    // Immutable after init, so safe to share between threads. Its tables own their memory.
    @usableFromInline let text: Table<UInt8>
    /// Start and end of each name in `text`: fields, then struct names, then abbreviations
    /// (start -1 for a struct that is no protocol layer), then layer labels (`@label`, else the name).
    @usableFromInline let bounds: Table<Int32>
    /// Per field: its display hint.
    @usableFromInline let fieldDisplay: Table<DisplayHint>
    @usableFromInline let fieldScales: Table<Int64>
    @usableFromInline let fieldHexWidths: Table<Int>
    /// Per struct: whether it is a link-layer header (`@link`).
    @usableFromInline let linkLayers: Table<Bool>
    /// Per field: whether it is a `hidden let`, which views leave out unless asked.
    @usableFromInline let hiddenFields: Table<Bool>
    /// Per field: how it names itself for filters, and the bounds in `text` of its segment or whole name.
    @usableFromInline let filterNamings: Table<FilterNamingEntry>

    /// ``FilterNaming`` as plain values.
    package struct FilterNamingEntry {
        package enum Kind: UInt8 { case segment, absolute, transparent }
        package let kind: Kind
        package let start: Int32
        package let end: Int32
    }
    @usableFromInline let fieldCount: Int
    @usableFromInline let structCount: Int
    /// Every enum's cases sorted by value (the first name of a value), as value and name bounds
    /// in `text`; `enumStarts[id]..<enumStarts[id + 1]` are enum `id`'s.
    private let enumCases: Table<EnumCaseEntry>
    private let enumStarts: Table<Int32>
    private let enumCount: Int
    /// Per field: where its `@display` pieces start in `pieceBounds` (pairs of bounds in `text`),
    /// `fieldPieceStarts[id]..<fieldPieceStarts[id + 1]`.
    @usableFromInline let fieldPieceStarts: Table<Int32>
    @usableFromInline let pieceBounds: Table<Int32>

    /// Every struct's `@summary` segments, flattened: struct `id`'s are
    /// `summaries[summaryStarts[id]..<summaryStarts[id + 1]]`, their path steps in `summarySteps`.
    private let summaries: Table<SummaryEntry>
    private let summaryStarts: Table<Int32>
    private let summarySteps: Table<SummaryStepEntry>

    /// One ``SummarySegment`` as plain values: its literal text and path point into the table.
    package struct SummaryEntry {
        package let literalStart: Int32
        package let literalEnd: Int32
        package let stepStart: Int32
        package let stepCount: Int32
        package let firstSlot: Int32
        /// How the placeholder shows its field.
        package let form: Form
        /// On an optional group's first segment: the group's segment count (0 otherwise).
        package let groupLength: Int32
        /// More steps after the path's (`stepStart + stepCount`): a range's length path, or a
        /// letters placeholder's pairs (a field name step, then a step whose name is the letter).
        package let extraCount: Int32
        /// The slot a range's length path starts at (-1 if none).
        package let extraFirstSlot: Int32

        package var lengthOnly: Bool { form == .length }
    }

    /// ``SummarySegment/Form`` without its payload.
    package enum Form: UInt8 {
        case value, length, nonzero, zero, lengthNonzero, lengthZero, letters, range, count

        /// A test: it writes nothing, and decides whether its optional group shows.
        package var isTest: Bool { self == .nonzero || self == .zero || self == .lengthNonzero || self == .lengthZero }
    }

    /// A path step: an array element (`position` >= 0), any element (``anyElement``: the first
    /// for which the rest of the path is present) or a field by name (`position` -1).
    package struct SummaryStepEntry {
        package static let anyElement: Int32 = -2
        package let position: Int32
        package let nameStart: Int32
        package let nameEnd: Int32
    }

    private struct EnumCaseEntry {
        let value: Int64
        let start: Int32
        let end: Int32
    }

    init(fields: [Field], structs: [StructType], enums: [EnumType]) {
        var bytes: [UInt8] = []
        var pairs: [Int32] = []
        func add(_ name: String?) {
            guard let name else {
                pairs += [-1, -1]
                return
            }
            let start = Int32(truncatingIfNeeded: bytes.count)
            bytes.append(contentsOf: name.utf8)
            pairs += [start, Int32(truncatingIfNeeded: bytes.count)]
        }
        fields.forEach { add($0.name) }
        structs.forEach { add($0.name) }
        structs.forEach { add($0.protocolAbbreviation) }
        structs.forEach { add($0.label ?? $0.name) }
        fieldCount = fields.count
        structCount = structs.count
        func append(_ text: String) -> (Int32, Int32) {
            let start = Int32(truncatingIfNeeded: bytes.count)
            bytes.append(contentsOf: text.utf8)
            return (start, Int32(truncatingIfNeeded: bytes.count))
        }
        var cases: [EnumCaseEntry] = []
        var starts: [Int32] = []
        for enumeration in enums {
            starts.append(Int32(truncatingIfNeeded: cases.count))
            var seen: Set<Int64> = []
            let unique = enumeration.cases.filter { seen.insert($0.value).inserted }
            for entry in unique.sorted(by: { $0.value < $1.value }) {
                let (start, end) = append(entry.name)
                cases.append(EnumCaseEntry(value: entry.value, start: start, end: end))
            }
        }
        starts.append(Int32(truncatingIfNeeded: cases.count))
        enumCount = enums.count
        enumCases = Table(cases)
        enumStarts = Table(starts)
        var summaryEntries: [SummaryEntry] = []
        var summaryStartList: [Int32] = []
        var steps: [SummaryStepEntry] = []
        for structure in structs {
            summaryStartList.append(Int32(truncatingIfNeeded: summaryEntries.count))
            for segment in structure.summarySegments {
                let (literalStart, literalEnd) = append(segment.literal)
                let stepStart = Int32(truncatingIfNeeded: steps.count)
                for step in segment.path {
                    switch step {
                    case .element(let position):
                        steps.append(SummaryStepEntry(position: Int32(clamping: position), nameStart: 0, nameEnd: 0))
                    case .anyElement:
                        steps.append(SummaryStepEntry(position: SummaryStepEntry.anyElement, nameStart: 0, nameEnd: 0))
                    case .field(let name):
                        let (start, end) = append(name)
                        steps.append(SummaryStepEntry(position: -1, nameStart: start, nameEnd: end))
                    }
                }
                let form: Form
                var extra = 0
                switch segment.form {
                case .value: form = .value
                case .length: form = .length
                case .nonzero: form = .nonzero
                case .zero: form = .zero
                case .lengthNonzero: form = .lengthNonzero
                case .lengthZero: form = .lengthZero
                case .count: form = .count
                case .letters:
                    form = .letters
                    let pairs = segment.letterPairs
                    for pair in pairs {
                        let (nameStart, nameEnd) = append(pair.field)
                        let (letterStart, letterEnd) = append(pair.letter)
                        steps.append(SummaryStepEntry(position: -1, nameStart: nameStart, nameEnd: nameEnd))
                        steps.append(SummaryStepEntry(position: -1, nameStart: letterStart, nameEnd: letterEnd))
                    }
                    extra = 2 * pairs.count
                case .range:
                    form = .range
                    for step in segment.lengthPath {
                        switch step {
                        case .element(let position):
                            steps.append(SummaryStepEntry(position: Int32(clamping: position), nameStart: 0, nameEnd: 0))
                        case .anyElement:
                            steps.append(SummaryStepEntry(position: SummaryStepEntry.anyElement, nameStart: 0, nameEnd: 0))
                        case .field(let name):
                            let (start, end) = append(name)
                            steps.append(SummaryStepEntry(position: -1, nameStart: start, nameEnd: end))
                        }
                    }
                    extra = segment.lengthPath.count
                }
                summaryEntries.append(SummaryEntry(
                    literalStart: literalStart, literalEnd: literalEnd, stepStart: stepStart,
                    stepCount: Int32(truncatingIfNeeded: segment.path.count), firstSlot: Int32(clamping: segment.firstSlot),
                    form: form, groupLength: Int32(clamping: segment.groupLength),
                    extraCount: Int32(truncatingIfNeeded: extra), extraFirstSlot: Int32(clamping: segment.extraFirstSlot)))
            }
        }
        summaryStartList.append(Int32(truncatingIfNeeded: summaryEntries.count))
        summaries = Table(summaryEntries)
        summaryStarts = Table(summaryStartList)
        summarySteps = Table(steps)
        var pieceStarts: [Int32] = []
        var pieces: [Int32] = []
        for field in fields {
            pieceStarts.append(Int32(truncatingIfNeeded: pieces.count / 2))
            for piece in field.displayPieces {
                let (start, end) = append(piece)
                pieces += [start, end]
            }
        }
        pieceStarts.append(Int32(truncatingIfNeeded: pieces.count / 2))
        fieldPieceStarts = Table(pieceStarts)
        pieceBounds = Table(pieces)
        let namings = fields.map { field -> FilterNamingEntry in
            switch field.filterNaming {
            case .segment(let segment):
                let (start, end) = append(segment)
                return FilterNamingEntry(kind: .segment, start: start, end: end)
            case .absolute(let name):
                let (start, end) = append(name)
                return FilterNamingEntry(kind: .absolute, start: start, end: end)
            case .transparent:
                return FilterNamingEntry(kind: .transparent, start: 0, end: 0)
            }
        }
        text = Table(bytes)
        bounds = Table(pairs)
        fieldDisplay = Table(fields.map(\.display))
        fieldScales = Table(fields.map(\.valueScale))
        fieldHexWidths = Table(fields.map(\.hexWidth))
        linkLayers = Table(structs.map(\.isLinkLayer))
        hiddenFields = Table(fields.map(\.isHidden))
        filterNamings = Table(namings)
    }

    /// Whether field `id` is a `hidden let`; false for an ID out of range (a root struct's -1).
    @inlinable
    package func isHidden(field id: Int) -> Bool {
        guard id >= 0, id < fieldCount else { return false }
        return hiddenFields[id]
    }

    /// How field `id` names itself for filters, and its segment or whole name (empty when transparent);
    /// nil for an ID out of range.
    package func filterNaming(field id: Int) -> (kind: FilterNamingEntry.Kind, text: UnsafeBufferPointer<UInt8>)? {
        guard id >= 0, id < fieldCount else { return nil }
        let entry = filterNamings[id]
        return (entry.kind, text.elements(Int(entry.start)..<Int(entry.end)))
    }


    /// Struct `id`'s summary segments (empty without `@summary`, or for an ID out of range).
    package func summary(ofStruct id: Int) -> UnsafeBufferPointer<SummaryEntry> {
        guard id >= 0, id < structCount else { return summaries.elements(0..<0) }
        return summaries.elements(Int(summaryStarts[id])..<Int(summaryStarts[id + 1]))
    }

    /// A segment's literal text.
    package func literal(of entry: SummaryEntry) -> UnsafeBufferPointer<UInt8> {
        text.elements(Int(entry.literalStart)..<Int(entry.literalEnd))
    }

    /// A segment's path steps.
    package func steps(of entry: SummaryEntry) -> UnsafeBufferPointer<SummaryStepEntry> {
        summarySteps.elements(Int(entry.stepStart)..<Int(entry.stepStart) + Int(entry.stepCount))
    }

    /// A segment's extra steps: a range's length path, or a letters placeholder's pairs.
    package func extraSteps(of entry: SummaryEntry) -> UnsafeBufferPointer<SummaryStepEntry> {
        let start = Int(entry.stepStart) + Int(entry.stepCount)
        return summarySteps.elements(start..<start + Int(entry.extraCount))
    }

    /// The text a step names (a field name, or a letter of a letters placeholder).
    package func text(of step: SummaryStepEntry) -> UnsafeBufferPointer<UInt8> {
        guard step.position == -1 else { return text.elements(0..<0) }
        return text.elements(Int(step.nameStart)..<Int(step.nameEnd))
    }

    /// Whether struct `id` is a link-layer header (`@link`).
    @inlinable
    package func isLinkLayer(_ id: Int) -> Bool {
        guard id >= 0, id < structCount else { return false }
        return linkLayers[id]
    }

    /// Whether field `id` has the name a path step names.
    package func field(_ id: Int, isNamedAs step: SummaryStepEntry) -> Bool {
        guard step.position == -1 else { return false }
        let stored = fieldName(id)
        let length = Int(step.nameEnd - step.nameStart)
        guard stored.count == length else { return false }
        let name = text.elements(Int(step.nameStart)..<Int(step.nameEnd))
        for position in 0..<length where stored[position] != name[position] { return false }
        return true
    }

    /// The name of enum `id`'s case for `value`, or nil for a value it does not list (or an ID out of range).
    package func caseName(ofEnum id: Int, value: Int64) -> UnsafeBufferPointer<UInt8>? {
        guard id >= 0, id < enumCount else { return nil }
        var low = Int(enumStarts[id])
        var high = Int(enumStarts[id + 1])
        while low < high {
            let middle = (low + high) / 2
            let entry = enumCases[middle]
            if entry.value == value {
                return text.elements(Int(entry.start)..<Int(entry.end))
            }
            if entry.value < value { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// How many literal pieces the field's `@display` format has (arguments go between them); 0 without one.
    @inlinable
    package func displayPieceCount(field id: Int) -> Int {
        guard id >= 0, id < fieldCount else { return 0 }
        return Int(fieldPieceStarts[id + 1] - fieldPieceStarts[id])
    }

    /// Piece `position` of the field's `@display` format.
    package func displayPiece(field id: Int, _ position: Int) -> UnsafeBufferPointer<UInt8> {
        guard id >= 0, id < fieldCount, position >= 0, position < displayPieceCount(field: id) else {
            return text.elements(0..<0)
        }
        let pair = 2 * (Int(fieldPieceStarts[id]) + position)
        return text.elements(Int(pieceBounds[pair])..<Int(pieceBounds[pair + 1]))
    }

    @usableFromInline @inline(__always)
    func name(_ slot: Int) -> UnsafeBufferPointer<UInt8>? {
        let start = Int(bounds[2 * slot])
        guard start >= 0 else { return nil }
        return text.elements(start..<Int(bounds[2 * slot + 1]))
    }

    /// The field's name; empty for an ID out of range.
    @inlinable
    package func fieldName(_ id: Int) -> UnsafeBufferPointer<UInt8> {
        guard id >= 0, id < fieldCount else { return text.elements(0..<0) }
        return name(id) ?? text.elements(0..<0)
    }

    /// The struct's name; empty for an ID out of range.
    @inlinable
    package func structName(_ id: Int) -> UnsafeBufferPointer<UInt8> {
        guard id >= 0, id < structCount else { return text.elements(0..<0) }
        return name(fieldCount + id) ?? text.elements(0..<0)
    }

    /// What views call a protocol layer: its `@label`, else its struct's name; empty for an ID out of range.
    @inlinable
    package func layerLabel(_ id: Int) -> UnsafeBufferPointer<UInt8> {
        guard id >= 0, id < structCount else { return text.elements(0..<0) }
        return name(fieldCount + 2 * structCount + id) ?? text.elements(0..<0)
    }

    /// The struct's `@protocol` abbreviation, or nil when it is not a protocol layer.
    @inlinable
    package func protocolAbbreviation(_ id: Int) -> UnsafeBufferPointer<UInt8>? {
        guard id >= 0, id < structCount else { return nil }
        return name(fieldCount + structCount + id)
    }

    /// The field's `@hex`/`@mac`/… display hint; `.automatic` for an ID out of range.
    @inlinable
    package func display(ofField id: Int) -> DisplayHint {
        guard id >= 0, id < fieldCount else { return .automatic }
        return fieldDisplay[id]
    }

    /// The field's `@scale(n)`: filters and field output see its value times this; 1 for a field
    /// without one or an ID out of range.
    @inlinable
    package func scale(ofField id: Int) -> Int64 {
        guard id >= 0, id < fieldCount else { return 1 }
        return fieldScales[id]
    }

    /// The field's `@hex(bits)`: the width in bits field output writes its hex at; 0 for a field
    /// without one (its own width) or an ID out of range.
    @inlinable
    package func hexWidth(ofField id: Int) -> Int {
        guard id >= 0, id < fieldCount else { return 0 }
        return fieldHexWidths[id]
    }
}
