/// Every field, struct and protocol name of a schema as UTF-8 in one buffer, so views can copy
/// a name per field without touching the reference-counted ``Field`` and ``StructType`` objects.
/// Pointers it returns stay valid as long as the table (and so its schema) is alive.
public final class NameTable: @unchecked Sendable {
    // Immutable after init, so safe to share between threads.
    private let text: UnsafeMutablePointer<UInt8>
    /// Start and end of each name in `text`: fields, then struct names, then abbreviations
    /// (start -1 for a struct that is no protocol layer).
    private let bounds: UnsafeMutablePointer<Int32>
    /// Per field: its display hint, and whether it has a `@display` format.
    private let fieldDisplay: UnsafeMutablePointer<DisplayHint>
    private let fieldHasFormat: UnsafeMutablePointer<Bool>
    private let fieldCount: Int
    private let structCount: Int

    init(fields: [Field], structs: [StructType]) {
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
        fieldCount = fields.count
        structCount = structs.count
        text = .allocate(capacity: max(1, bytes.count))
        text.initialize(from: bytes, count: bytes.count)
        bounds = .allocate(capacity: max(1, pairs.count))
        bounds.initialize(from: pairs, count: pairs.count)
        fieldDisplay = .allocate(capacity: max(1, fields.count))
        fieldDisplay.initialize(from: fields.map(\.display), count: fields.count)
        fieldHasFormat = .allocate(capacity: max(1, fields.count))
        fieldHasFormat.initialize(from: fields.map { !$0.displayPieces.isEmpty }, count: fields.count)
    }

    deinit {
        text.deallocate()
        bounds.deallocate()
        fieldDisplay.deallocate()
        fieldHasFormat.deallocate()
    }

    @inline(__always)
    private func name(_ slot: Int) -> UnsafeBufferPointer<UInt8>? {
        let start = Int(bounds[2 * slot])
        guard start >= 0 else { return nil }
        return UnsafeBufferPointer(start: text + start, count: Int(bounds[2 * slot + 1]) - start)
    }

    /// The field's name; empty for an ID out of range.
    @inline(__always)
    public func fieldName(_ id: Int) -> UnsafeBufferPointer<UInt8> {
        guard id >= 0, id < fieldCount else { return UnsafeBufferPointer(start: text, count: 0) }
        return name(id) ?? UnsafeBufferPointer(start: text, count: 0)
    }

    /// The struct's name; empty for an ID out of range.
    @inline(__always)
    public func structName(_ id: Int) -> UnsafeBufferPointer<UInt8> {
        guard id >= 0, id < structCount else { return UnsafeBufferPointer(start: text, count: 0) }
        return name(fieldCount + id) ?? UnsafeBufferPointer(start: text, count: 0)
    }

    /// The struct's `@protocol` abbreviation, or nil when it is not a protocol layer.
    @inline(__always)
    public func protocolAbbreviation(_ id: Int) -> UnsafeBufferPointer<UInt8>? {
        guard id >= 0, id < structCount else { return nil }
        return name(fieldCount + structCount + id)
    }

    /// The field's `@hex`/`@mac`/… display hint; `.automatic` for an ID out of range.
    @inline(__always)
    public func display(ofField id: Int) -> DisplayHint {
        guard id >= 0, id < fieldCount else { return .automatic }
        return fieldDisplay[id]
    }

    /// Whether the field has a `@display("…{}…", …)` format.
    @inline(__always)
    public func hasDisplayFormat(field id: Int) -> Bool {
        id >= 0 && id < fieldCount && fieldHasFormat[id]
    }

    /// Whether the field is named `name`.
    @inline(__always)
    public func field(_ id: Int, isNamed name: String) -> Bool {
        let stored = fieldName(id)
        var name = name
        return name.withUTF8 { $0.count == stored.count && $0.elementsEqual(stored) }
    }
}
