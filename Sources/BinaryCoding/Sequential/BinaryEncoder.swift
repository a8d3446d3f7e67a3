import BinaryIO
import Foundation

/// Encodes `Encodable` values to bytes that ``BinaryDecoder`` with the same
/// ``BinaryCodingOptions`` reads back: values in the order `encode(to:)` writes them, no
/// metadata, keys ignored (except an enum case's name before its associated values).
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
    @exclusivity(unchecked) var depth = 0
    /// Unkeyed containers still open: where their count goes, and how many elements so far.
    @exclusivity(unchecked) var openCounts: [(offset: Int, count: Int)] = []

    init(options: BinaryCodingOptions, userInfo: [CodingUserInfoKey: any Sendable]) {
        self.options = options
        self.userInfo = userInfo
    }

    // MARK: Values

    func encodeValue<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws {
        if let bytes = value as? [UInt8] {
            try encodeLength(bytes.count, value, codingPath)
            writer.writeBytes(bytes)
            return
        }
        if let data = value as? Data {
            try encodeLength(data.count, value, codingPath)
            writer.writeBytes(data)
            return
        }
        depth += 1
        defer { depth -= 1 }
        guard depth <= options.nestingLimit else {
            throw BinaryCodingError.nestingTooDeep(offset: writer.bytes.count, limit: options.nestingLimit)
                .encodingError(value, codingPath)
        }
        if let optional = value as? any EncodableOptional {
            guard let wrapped = optional.wrappedEncodable else {
                writer.writeUInt(0, byteCount: 1, endianness: .big)
                return
            }
            writer.writeUInt(1, byteCount: 1, endianness: .big)
            try encodeValue(wrapped, codingPath: codingPath)
            return
        }
        if let dictionary = value as? any EncodableDictionary {
            try dictionary.encodeEntries(to: self, codingPath: codingPath)
            return
        }
        // Counts of unkeyed containers this value opens are placed before their elements once it is done.
        let mark = openCounts.count
        try value.encode(to: SequentialEncoder(state: self, codingPath: codingPath))
        while openCounts.count > mark {
            let (offset, count) = openCounts.removeLast()
            writer.insert(try lengthBytes(count, value, codingPath), atByte: offset)
        }
    }

    /// Opens an unkeyed container at the current position; returns its index in `openCounts`.
    func openUnkeyed() -> Int {
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
        try encodeLength(utf8.count, value, codingPath)
        writer.writeBytes(utf8)
    }

    /// A count in the configured length encoding.
    func encodeLength(_ count: Int, _ value: Any, _ codingPath: [any CodingKey]) throws {
        writer.writeBytes(try lengthBytes(count, value, codingPath))
    }

    /// The bytes of a count; a count the encoding cannot hold is an error.
    func lengthBytes(_ count: Int, _ value: Any, _ codingPath: [any CodingKey]) throws -> [UInt8] {
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
            throw BinaryCodingError.valueOutOfRange(offset: writer.bytes.count, value: "count \(count)",
                                                    type: "the \(byteCount)-byte length encoding")
                .encodingError(value, codingPath)
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
    var userInfo: [CodingUserInfoKey: Any] { state.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(SequentialKeyedEncodingContainer<Key>(state: state, codingPath: codingPath))
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
        offset: state.writer.bytes.count, type: "nil",
        reason: "a bare nil has no binary form; encode an Optional (or use encodeIfPresent) so a presence flag is written")
        .encodingError(Optional<Int>.none as Any, codingPath)
}

struct SequentialKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let state: EncodingState
    let codingPath: [any CodingKey]

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

    /// A nested container by key is how enums with associated values are coded: the case name goes first.
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                        forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        state.encodeCaseName(key.stringValue)
        return KeyedEncodingContainer(SequentialKeyedEncodingContainer<NestedKey>(state: state, codingPath: path(key)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        state.encodeCaseName(key.stringValue)
        return SequentialUnkeyedEncodingContainer(state: state, codingPath: path(key), index: state.openUnkeyed())
    }

    mutating func superEncoder() -> any Encoder { SequentialEncoder(state: state, codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { SequentialEncoder(state: state, codingPath: path(key)) }
}

struct SequentialUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let state: EncodingState
    let codingPath: [any CodingKey]
    /// This container's entry in `state.openCounts`.
    let index: Int

    var count: Int { state.openCounts.indices.contains(index) ? state.openCounts[index].count : 0 }

    private func next() -> [any CodingKey] {
        let position = count
        if state.openCounts.indices.contains(index) { state.openCounts[index].count += 1 }
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

// MARK: - Types coded specially: optionals, dictionaries

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
        try state.encodeLength(count, self, codingPath)
        for (index, (key, value)) in enumerated() {
            let path = codingPath + [IndexKey(index: index)]
            try state.encodeValue(key, codingPath: path)
            try state.encodeValue(value, codingPath: path)
        }
    }
}
