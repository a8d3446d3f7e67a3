import BinaryIO
import Foundation

/// Encodes `Encodable` values to bytes that ``BinaryDecoder`` with the same
/// ``BinaryCodingOptions`` reads back: values in the order `encode(to:)` writes them, no
/// metadata, keys ignored (except an enum case's name before its associated values).
/// Dictionaries and sets go out sorted by their entries' bytes, so equal ones give equal bytes.
///
/// ```swift
/// let bytes = try BinaryEncoder().encode(header)
/// ```
public struct BinaryEncoder: Sendable {
    /// The wire format.
    public var options: BinaryCodingOptions
    /// Passed to `encode(to:)` as `encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// An encoder for the format `options` describes.
    public init(options: BinaryCodingOptions = BinaryCodingOptions()) {
        self.options = options
    }

    /// The bytes of `value`.
    public func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let state = EncodingState(options: options, userInfo: userInfo)
        try state.encodeValue(value, codingPath: [])
        return state.writer.bytes
    }
}

/// The output and settings shared by every container of one encode.
final class EncodingState {
    // One encode runs on one thread; the output is touched on every value, so skip the runtime exclusivity checks.
    @exclusivity(unchecked) var writer = ByteWriter()
    let options: BinaryCodingOptions
    let userInfo: [CodingUserInfoKey: Any]
    /// ``BinaryCodingOptions/containerFraming``: unkeyed containers write their count, containers nested by key their key.
    let framed: Bool
    @exclusivity(unchecked) var depth = 0
    /// Unkeyed containers still open: where their count goes, and how many elements so far.
    @exclusivity(unchecked) var openCounts: [(offset: Int, count: Int)] = []
    /// Where `writer` starts in the output: not 0 while a dictionary's or set's entries are
    /// encoded apart to be sorted.
    @exclusivity(unchecked) var baseOffset = 0

    /// The offset in the output of the next byte, for errors.
    var outputOffset: Int { baseOffset + writer.bytes.count }

    init(options: BinaryCodingOptions, userInfo: [CodingUserInfoKey: any Sendable]) {
        self.options = options
        self.userInfo = userInfo
        self.framed = options.containerFraming
    }

    // MARK: Values

    // encodeValue recurses once per nesting level, so what it keeps in its frame bounds how
    // deep a value fits a stack: the casts and errors live in out-of-line helpers, whose
    // frames are gone before the recursion goes on (see BinaryCodingOptions.maximumNestingLimit).
    func encodeValue<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws {
        if try encodeBytes(value, codingPath) { return }
        depth += 1
        defer { depth -= 1 }
        guard depth <= options.nestingLimit else { throw tooDeep(T.self, codingPath) }
        if try encodeSpecially(value, codingPath) { return }
        // Counts of unkeyed containers this value opens are placed before their elements once it is done.
        let mark = openCounts.count
        let writesKeys = framed || isEnum(value)
        try value.encode(to: SequentialEncoder(state: self, codingPath: codingPath, writesKeys: writesKeys))
        if openCounts.count > mark { try insertCounts(since: mark, T.self, codingPath) }
    }

    /// `[UInt8]` and `Data` as a count and bytes, at no nesting level; false for other values.
    @inline(never)
    private func encodeBytes<T: Encodable>(_ value: T, _ codingPath: [any CodingKey]) throws -> Bool {
        if let bytes = value as? [UInt8] {
            try encodeLength(bytes.count, [UInt8].self, codingPath)
            writer.writeBytes(bytes)
            return true
        }
        if let data = value as? Data {
            try encodeLength(data.count, Data.self, codingPath)
            writer.writeBytes(data)
            return true
        }
        return false
    }

    /// Without framing, only an enum's containers nested by key write the key: its case name,
    /// which its synthesized `init(from:)` needs to pick the case.
    @inline(never)
    private func isEnum<T>(_ value: T) -> Bool {
        Mirror(reflecting: value).displayStyle == .enum
    }

    @inline(never)
    private func tooDeep(_ type: Any.Type, _ codingPath: [any CodingKey]) -> EncodingError {
        BinaryCodingError.nestingTooDeep(offset: outputOffset, limit: options.nestingLimit).encodingError(type, codingPath)
    }

    /// Optionals, dictionaries and sets, which are not coded through their `encode(to:)`; false for other values.
    @inline(never)
    private func encodeSpecially<T: Encodable>(_ value: T, _ codingPath: [any CodingKey]) throws -> Bool {
        if let optional = value as? any EncodableOptional {
            guard let wrapped = optional.wrappedEncodable else {
                writer.writeUInt(0, byteCount: 1, endianness: .big)
                return true
            }
            writer.writeUInt(1, byteCount: 1, endianness: .big)
            try encodeValue(wrapped, codingPath: codingPath)
            return true
        }
        if let dictionary = value as? any EncodableDictionary {
            try dictionary.encodeEntries(to: self, codingPath: codingPath)
            return true
        }
        if let set = value as? any EncodableSet {
            try set.encodeElements(to: self, codingPath: codingPath)
            return true
        }
        if !framed, let array = value as? any EncodableArray {
            try array.encodeElements(to: self, codingPath: codingPath)
            return true
        }
        return false
    }

    /// Places the counts of the unkeyed containers opened since `mark` before their elements.
    @inline(never)
    private func insertCounts(since mark: Int, _ type: Any.Type, _ codingPath: [any CodingKey]) throws {
        while openCounts.count > mark {
            let (offset, count) = openCounts.removeLast()
            writer.insert(try lengthBytes(count, type, codingPath), atByte: offset)
        }
    }

    /// A dictionary's or set's count, then its entries in one order whatever the order they
    /// come in, so equal collections encode to equal bytes: each entry is encoded apart, then
    /// all go out sorted by their bytes. Keys are self-delimiting, so that orders a dictionary
    /// by its keys' bytes.
    func encodeUnordered<Entries: Collection>(_ entries: Entries, _ type: Any.Type, _ codingPath: [any CodingKey],
                                              _ encodeEntry: (Entries.Element, [any CodingKey]) throws -> Void) throws {
        try encodeLength(entries.count, type, codingPath)
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(entries.count)
        let encoded = try detached {
            for (index, entry) in entries.enumerated() {
                let start = writer.bytes.count
                try encodeEntry(entry, codingPath + [IndexKey(index: index)])
                ranges.append(start..<writer.bytes.count)
            }
        }
        ranges.sort { encoded[$0].lexicographicallyPrecedes(encoded[$1]) }
        for range in ranges { writer.writeBytes(encoded[range]) }
    }

    /// Runs `body` writing to an empty output, and returns what it wrote. Errors inside name
    /// the offsets the bytes would have had in the output.
    private func detached(_ body: () throws -> Void) throws -> [UInt8] {
        var outer = ByteWriter()
        swap(&outer, &writer)
        let outerBase = baseOffset
        baseOffset += outer.bytes.count
        // Swapped back, not copied: a copy of the output would be copied again on the next write.
        defer {
            swap(&outer, &writer)
            baseOffset = outerBase
        }
        try body()
        return writer.bytes
    }

    /// Opens an unkeyed container at the current position; returns its index in `openCounts`,
    /// or nil when containers are not framed (no count is written).
    func openUnkeyed() -> Int? {
        guard framed else { return nil }
        openCounts.append((writer.bytes.count, 0))
        return openCounts.count - 1
    }

    // MARK: Primitives

    func encodeBool(_ value: Bool) {
        writer.writeUInt(value ? 1 : 0, byteCount: 1, endianness: .big)
    }

    func encodeInteger<T: FixedWidthInteger>(_ value: T) {
        switch options.integerEncoding {
        case .fixedWidth:
            writer.writeUInt(UInt64(truncatingIfNeeded: value), byteCount: T.bitWidth / 8, endianness: options.byteOrder)
        case .varint:
            if T.isSigned {
                writer.writeZigZag(Int64(truncatingIfNeeded: value))
            } else {
                writer.writeVarint(UInt64(truncatingIfNeeded: value))
            }
        }
    }

    func encodeFloat(_ value: Float) {
        writer.writeUInt(UInt64(value.bitPattern), byteCount: 4, endianness: options.byteOrder)
    }

    func encodeDouble(_ value: Double) {
        writer.writeUInt(value.bitPattern, byteCount: 8, endianness: options.byteOrder)
    }

    func encodeString(_ value: String, _ codingPath: [any CodingKey]) throws {
        let utf8 = Array(value.utf8)
        try encodeLength(utf8.count, String.self, codingPath)
        writer.writeBytes(utf8)
    }

    /// A count in the configured length encoding.
    func encodeLength(_ count: Int, _ type: Any.Type, _ codingPath: [any CodingKey]) throws {
        writer.writeBytes(try lengthBytes(count, type, codingPath))
    }

    /// The bytes of a count; a count the encoding cannot hold is an error.
    func lengthBytes(_ count: Int, _ type: Any.Type, _ codingPath: [any CodingKey]) throws -> [UInt8] {
        var bytes = ByteWriter()
        let limit: UInt64
        let byteCount: Int
        switch options.lengthEncoding {
        case .varint:
            bytes.writeVarint(UInt64(count))
            return bytes.bytes
        case .u8: (limit, byteCount) = (UInt64(UInt8.max), 1)
        case .u16: (limit, byteCount) = (UInt64(UInt16.max), 2)
        case .u32: (limit, byteCount) = (UInt64(UInt32.max), 4)
        case .u64: (limit, byteCount) = (UInt64.max, 8)
        }
        guard UInt64(count) <= limit else {
            throw BinaryCodingError.valueOutOfRange(offset: outputOffset, value: "count \(count)",
                                                    type: "the \(byteCount)-byte length encoding")
                .encodingError(type, codingPath)
        }
        bytes.writeUInt(UInt64(count), byteCount: byteCount, endianness: options.byteOrder)
        return bytes.bytes
    }

    /// An enum case's name before its associated values: varint length and UTF-8, whatever
    /// the length encoding, so it can never fail.
    func encodeCaseName(_ name: String) {
        let utf8 = Array(name.utf8)
        writer.writeVarint(UInt64(utf8.count))
        writer.writeBytes(utf8)
    }
}

/// The `Encoder` handed to `encode(to:)`.
struct SequentialEncoder: Encoder {
    let state: EncodingState
    let codingPath: [any CodingKey]
    /// Whether its keyed containers write the key of a container nested in them.
    var writesKeys: Bool
    var userInfo: [CodingUserInfoKey: Any] { state.userInfo }

    init(state: EncodingState, codingPath: [any CodingKey], writesKeys: Bool) {
        self.state = state
        self.codingPath = codingPath
        self.writesKeys = writesKeys
    }

    init(state: EncodingState, codingPath: [any CodingKey]) {
        self.init(state: state, codingPath: codingPath, writesKeys: state.framed)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(SequentialKeyedEncodingContainer<Key>(state: state, codingPath: codingPath, writesKeys: writesKeys))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        SequentialUnkeyedEncodingContainer(state: state, codingPath: codingPath, index: state.openUnkeyed())
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SequentialSingleValueEncodingContainer(state: state, codingPath: codingPath)
    }
}

/// Nil is coded only through `Optional` and `encodeIfPresent`, which write a presence flag.
private func nilWithoutOptional(_ state: EncodingState, _ codingPath: [any CodingKey]) -> EncodingError {
    BinaryCodingError.unsupportedType(
        offset: state.outputOffset, type: "nil",
        reason: "a bare nil has no binary form; encode an Optional (or use encodeIfPresent) so a presence flag is written")
        .encodingError(Optional<Int>.self, codingPath)
}

struct SequentialKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let state: EncodingState
    let codingPath: [any CodingKey]
    /// Whether a container nested in this one writes its key first (see ``EncodingState/framed``).
    let writesKeys: Bool

    init(state: EncodingState, codingPath: [any CodingKey], writesKeys: Bool) {
        self.state = state
        self.codingPath = codingPath
        self.writesKeys = writesKeys
    }

    init(state: EncodingState, codingPath: [any CodingKey]) {
        self.init(state: state, codingPath: codingPath, writesKeys: state.framed)
    }

    private func path(_ key: Key) -> [any CodingKey] { codingPath + [key] }

    mutating func encodeNil(forKey key: Key) throws { state.writer.writeUInt(0, byteCount: 1, endianness: .big) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { state.encodeBool(value) }
    mutating func encode(_ value: String, forKey key: Key) throws { try state.encodeString(value, path(key)) }
    mutating func encode(_ value: Double, forKey key: Key) throws { state.encodeDouble(value) }
    mutating func encode(_ value: Float, forKey key: Key) throws { state.encodeFloat(value) }
    mutating func encode(_ value: Int, forKey key: Key) throws { state.encodeInteger(value) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { state.encodeInteger(value) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { state.encodeInteger(value) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { state.encodeInteger(value) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { state.encodeInteger(value) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { state.encodeInteger(value) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { state.encodeInteger(value) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { state.encodeInteger(value) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { state.encodeInteger(value) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { state.encodeInteger(value) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try state.encodeValue(value, codingPath: path(key)) }

    /// An optional property: a presence flag, then the value when there is one. Counted as the
    /// decoder's `decodeIfPresent` counts it: the flag adds no nesting level, so what decodes
    /// within the nesting limit also encodes within it.
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        try present(value) { try state.encodeValue($0, codingPath: path(key)) }
    }

    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try present(value) { state.encodeBool($0) } }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try present(value) { try state.encodeString($0, path(key)) } }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try present(value) { state.encodeDouble($0) } }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try present(value) { state.encodeFloat($0) } }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try present(value) { state.encodeInteger($0) } }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try present(value) { state.encodeInteger($0) } }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try present(value) { state.encodeInteger($0) } }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try present(value) { state.encodeInteger($0) } }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try present(value) { state.encodeInteger($0) } }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try present(value) { state.encodeInteger($0) } }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try present(value) { state.encodeInteger($0) } }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try present(value) { state.encodeInteger($0) } }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try present(value) { state.encodeInteger($0) } }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try present(value) { state.encodeInteger($0) } }

    private func present<Value>(_ value: Value?, _ body: (Value) throws -> Void) throws {
        guard let value else {
            state.encodeBool(false)
            return
        }
        state.encodeBool(true)
        try body(value)
    }

    /// A nested container by key is how enums with associated values are coded: the case name
    /// goes first (without framing, only in an enum's container).
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                        forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        if writesKeys { state.encodeCaseName(key.stringValue) }
        return KeyedEncodingContainer(SequentialKeyedEncodingContainer<NestedKey>(state: state, codingPath: path(key)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        if writesKeys { state.encodeCaseName(key.stringValue) }
        return SequentialUnkeyedEncodingContainer(state: state, codingPath: path(key), index: state.openUnkeyed())
    }

    mutating func superEncoder() -> any Encoder { SequentialEncoder(state: state, codingPath: codingPath, writesKeys: writesKeys) }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        SequentialEncoder(state: state, codingPath: path(key), writesKeys: writesKeys)
    }
}

struct SequentialUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let state: EncodingState
    let codingPath: [any CodingKey]
    /// This container's entry in `state.openCounts`; nil when it writes no count.
    let index: Int?
    /// Elements so far of a container that writes no count.
    private var uncounted = 0

    init(state: EncodingState, codingPath: [any CodingKey], index: Int?) {
        self.state = state
        self.codingPath = codingPath
        self.index = index
    }

    var count: Int {
        guard let index else { return uncounted }
        return state.openCounts.indices.contains(index) ? state.openCounts[index].count : 0
    }

    private mutating func next() -> [any CodingKey] {
        let position = count
        if let index {
            if state.openCounts.indices.contains(index) { state.openCounts[index].count += 1 }
        } else {
            uncounted += 1
        }
        return codingPath + [IndexKey(index: position)]
    }

    mutating func encodeNil() throws { throw nilWithoutOptional(state, codingPath + [IndexKey(index: count)]) }
    mutating func encode(_ value: Bool) throws { _ = next(); state.encodeBool(value) }
    mutating func encode(_ value: String) throws { try state.encodeString(value, next()) }
    mutating func encode(_ value: Double) throws { _ = next(); state.encodeDouble(value) }
    mutating func encode(_ value: Float) throws { _ = next(); state.encodeFloat(value) }
    mutating func encode(_ value: Int) throws { _ = next(); state.encodeInteger(value) }
    mutating func encode(_ value: Int8) throws { _ = next(); state.encodeInteger(value) }
    mutating func encode(_ value: Int16) throws { _ = next(); state.encodeInteger(value) }
    mutating func encode(_ value: Int32) throws { _ = next(); state.encodeInteger(value) }
    mutating func encode(_ value: Int64) throws { _ = next(); state.encodeInteger(value) }
    mutating func encode(_ value: UInt) throws { _ = next(); state.encodeInteger(value) }
    mutating func encode(_ value: UInt8) throws { _ = next(); state.encodeInteger(value) }
    mutating func encode(_ value: UInt16) throws { _ = next(); state.encodeInteger(value) }
    mutating func encode(_ value: UInt32) throws { _ = next(); state.encodeInteger(value) }
    mutating func encode(_ value: UInt64) throws { _ = next(); state.encodeInteger(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { try state.encodeValue(value, codingPath: next()) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(SequentialKeyedEncodingContainer<NestedKey>(state: state, codingPath: next()))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = next()
        return SequentialUnkeyedEncodingContainer(state: state, codingPath: path, index: state.openUnkeyed())
    }

    mutating func superEncoder() -> any Encoder { SequentialEncoder(state: state, codingPath: next()) }
}

struct SequentialSingleValueEncodingContainer: SingleValueEncodingContainer {
    let state: EncodingState
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { throw nilWithoutOptional(state, codingPath) }
    mutating func encode(_ value: Bool) throws { state.encodeBool(value) }
    mutating func encode(_ value: String) throws { try state.encodeString(value, codingPath) }
    mutating func encode(_ value: Double) throws { state.encodeDouble(value) }
    mutating func encode(_ value: Float) throws { state.encodeFloat(value) }
    mutating func encode(_ value: Int) throws { state.encodeInteger(value) }
    mutating func encode(_ value: Int8) throws { state.encodeInteger(value) }
    mutating func encode(_ value: Int16) throws { state.encodeInteger(value) }
    mutating func encode(_ value: Int32) throws { state.encodeInteger(value) }
    mutating func encode(_ value: Int64) throws { state.encodeInteger(value) }
    mutating func encode(_ value: UInt) throws { state.encodeInteger(value) }
    mutating func encode(_ value: UInt8) throws { state.encodeInteger(value) }
    mutating func encode(_ value: UInt16) throws { state.encodeInteger(value) }
    mutating func encode(_ value: UInt32) throws { state.encodeInteger(value) }
    mutating func encode(_ value: UInt64) throws { state.encodeInteger(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { try state.encodeValue(value, codingPath: codingPath) }
}

// MARK: - Types coded specially: optionals, dictionaries, sets

/// An `Optional` being encoded: a presence flag, then the wrapped value.
protocol EncodableOptional {
    var wrappedEncodable: (any Encodable)? { get }
}

extension Optional: EncodableOptional where Wrapped: Encodable {
    var wrappedEncodable: (any Encodable)? { self }
}

/// A `Dictionary`: its count, then key and value pairs.
protocol EncodableDictionary {
    func encodeEntries(to state: EncodingState, codingPath: [any CodingKey]) throws
}

extension Dictionary: EncodableDictionary where Key: Encodable, Value: Encodable {
    func encodeEntries(to state: EncodingState, codingPath: [any CodingKey]) throws {
        try state.encodeUnordered(self, Self.self, codingPath) { entry, path in
            try state.encodeValue(entry.key, codingPath: path)
            try state.encodeValue(entry.value, codingPath: path)
        }
    }
}

/// A `Set`: its count, then its elements, in the order of their bytes (as `Set.encode(to:)`
/// would write them but for the order).
protocol EncodableSet {
    func encodeElements(to state: EncodingState, codingPath: [any CodingKey]) throws
    /// The elements in a canonical order, for coders that sort no bytes of their own.
    var canonicalElements: [any Encodable] { get }
}

extension Set: EncodableSet where Element: Encodable {
    func encodeElements(to state: EncodingState, codingPath: [any CodingKey]) throws {
        try state.encodeUnordered(self, Self.self, codingPath) { element, path in
            try state.encodeValue(element, codingPath: path)
        }
    }

    /// Sorted by their bytes as ``BinaryEncoder`` writes them with its defaults; an element
    /// that does not encode sorts first (and fails where it is coded).
    var canonicalElements: [any Encodable] {
        map { (bytes: (try? BinaryEncoder().encode($0)) ?? [], element: $0) }
            .sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }
            .map(\.element)
    }
}

/// An `Array` or `ContiguousArray` when unkeyed containers write no count
/// (``BinaryCodingOptions/containerFraming`` off): its count, then its elements.
protocol EncodableArray {
    func encodeElements(to state: EncodingState, codingPath: [any CodingKey]) throws
}

extension EncodableArray where Self: Collection, Element: Encodable {
    func encodeElements(to state: EncodingState, codingPath: [any CodingKey]) throws {
        try state.encodeLength(count, Self.self, codingPath)
        for (index, element) in enumerated() {
            try state.encodeValue(element, codingPath: codingPath + [IndexKey(index: index)])
        }
    }
}

extension Array: EncodableArray where Element: Encodable {}
extension ContiguousArray: EncodableArray where Element: Encodable {}
