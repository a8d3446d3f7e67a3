import BinaryIO
import Foundation

/// Decodes `Decodable` values from bytes written by ``BinaryEncoder`` with the same
/// ``BinaryCodingOptions``: values in the order `init(from:)` asks for them, no metadata.
///
/// ```swift
/// let header = try BinaryDecoder().decode(Header.self, from: bytes)
/// ```
///
/// Errors are `DecodingError`s whose `codingPath` names the property and whose description
/// names the byte offset; the `underlyingError` is a ``BinaryCodingError``.
public struct BinaryDecoder: Sendable {
    /// The wire format; must match the encoder's.
    public var options: BinaryCodingOptions
    /// Passed to `init(from:)` as `decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// A decoder for the format `options` describes.
    public init(options: BinaryCodingOptions = BinaryCodingOptions()) {
        self.options = options
    }

    /// Decodes a `T` that must use every byte: bytes left over are an error.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        let prefix = try decode(type, fromPrefixOf: bytes)
        let (value, used) = (prefix.value, prefix.bytesUsed)
        guard used == bytes.count else {
            let error = BinaryCodingError.constraintViolated(
                offset: used, reason: "\(bytes.count - used) byte\(bytes.count - used == 1 ? "" : "s") left after the value")
            throw error.decodingError([])
        }
        return value
    }

    /// Decodes a `T` that must use every byte of `data`.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try decode(type, from: [UInt8](data))
    }

    /// A value decoded from the start of a buffer, and how much of the buffer it took.
    public struct Prefix<Value> {
        /// The value decoded.
        public let value: Value
        /// Bytes it was decoded from; the rest of the buffer follows.
        public let bytesUsed: Int
    }

    /// Decodes a `T` from the start of `bytes`; returns it and how many bytes it used.
    public func decode<T: Decodable>(_ type: T.Type, fromPrefixOf bytes: [UInt8]) throws -> Prefix<T> {
        let state = DecodingState(bytes: bytes, options: options, userInfo: userInfo)
        let value = try state.decodeValue(type, codingPath: [])
        return Prefix(value: value, bytesUsed: state.reader.offset)
    }
}

/// The cursor and settings shared by every container of one decode.
final class DecodingState {
    // One decode runs on one thread; the cursor is touched on every value, so skip the runtime exclusivity checks.
    @exclusivity(unchecked) var reader: ByteReader
    let options: BinaryCodingOptions
    let userInfo: [CodingUserInfoKey: Any]
    /// ``BinaryCodingOptions/containerFraming``: unkeyed containers have a count, containers nested by key their key.
    let framed: Bool
    @exclusivity(unchecked) var depth = 0
    /// An enum case key read by `allKeys`, for the `nestedContainer(forKey:)` that follows.
    @exclusivity(unchecked) var pendingKey: String?

    init(bytes: [UInt8], options: BinaryCodingOptions, userInfo: [CodingUserInfoKey: any Sendable]) {
        self.reader = ByteReader(bytes)
        self.options = options
        self.userInfo = userInfo
        self.framed = options.containerFraming
    }

    // MARK: Values

    // decodeValue recurses once per nesting level, so what it keeps in its frame bounds how
    // deep a value fits a stack: the casts and errors live in out-of-line helpers, whose
    // frames are gone before the recursion goes on (see BinaryCodingOptions.maximumNestingLimit).
    func decodeValue<T: Decodable>(_ type: T.Type, codingPath: [any CodingKey]) throws -> T {
        if T.self == [UInt8].self || T.self == Data.self, let bytes = try decodeBytes(T.self, codingPath) { return bytes }
        depth += 1
        defer { depth -= 1 }
        guard depth <= options.nestingLimit else { throw tooDeep(codingPath) }
        if let special = try decodeSpecially(T.self, codingPath) { return special }
        return try T(from: SequentialDecoder(state: self, codingPath: codingPath))
    }

    /// `[UInt8]` or `Data`: a count and bytes, at no nesting level.
    @inline(never)
    private func decodeBytes<T: Decodable>(_ type: T.Type, _ codingPath: [any CodingKey]) throws -> T? {
        let bytes = try decodeByteArray(codingPath)
        let converted: Any = T.self == Data.self ? Data(bytes) : bytes
        return converted as? T
    }

    @inline(never)
    private func tooDeep(_ codingPath: [any CodingKey]) -> DecodingError {
        BinaryCodingError.nestingTooDeep(offset: reader.offset, limit: options.nestingLimit).decodingError(codingPath)
    }

    /// Optionals, dictionaries and sets, which are not decoded through their `init(from:)`; nil for other types.
    @inline(never)
    private func decodeSpecially<T: Decodable>(_ type: T.Type, _ codingPath: [any CodingKey]) throws -> T? {
        if let optional = T.self as? any DecodableOptional.Type {
            guard try decodePresence(codingPath) else {
                if let absent = optional.absent as? T { return absent }
                throw unsupported(T.self, "optional", codingPath)
            }
            if let present = try optional.decodeWrapped(from: self, codingPath: codingPath) as? T { return present }
            throw unsupported(T.self, "optional", codingPath)
        }
        if let dictionary = T.self as? any DecodableDictionary.Type {
            if let value = try dictionary.decodeEntries(from: self, codingPath: codingPath) as? T { return value }
            throw unsupported(T.self, "dictionary", codingPath)
        }
        if let set = T.self as? any DecodableSet.Type {
            if let value = try set.decodeElements(from: self, codingPath: codingPath) as? T { return value }
            throw unsupported(T.self, "set", codingPath)
        }
        if !framed, let array = T.self as? any DecodableArray.Type {
            if let value = try array.decodeElements(from: self, codingPath: codingPath) as? T { return value }
            throw unsupported(T.self, "array", codingPath)
        }
        return nil
    }

    /// An unkeyed container: with framing, its count first; without, as many elements as
    /// `init(from:)` asks for.
    func unkeyedContainer(_ codingPath: [any CodingKey]) throws -> SequentialUnkeyedDecodingContainer {
        if framed {
            return SequentialUnkeyedDecodingContainer(state: self, codingPath: codingPath, count: try decodeLength(codingPath))
        }
        return SequentialUnkeyedDecodingContainer(state: self, codingPath: codingPath)
    }

    private func unsupported(_ type: Any.Type, _ what: String, _ codingPath: [any CodingKey]) -> DecodingError {
        BinaryCodingError.unsupportedType(offset: reader.offset, type: String(describing: type), reason: "cannot build this \(what)")
            .decodingError(codingPath)
    }

    /// An optional's presence flag: one byte, 0 (absent) or 1 (present), read like a `Bool`.
    func decodePresence(_ codingPath: @autoclosure () -> [any CodingKey]) throws -> Bool {
        try decodeBool(codingPath())
    }

    // MARK: Primitives

    func decodeBool(_ codingPath: @autoclosure () -> [any CodingKey]) throws -> Bool {
        let offset = reader.offset
        let byte = try read(codingPath()) { (reader: inout ByteReader) throws(ByteReadError) in
            try reader.readUInt(byteCount: 1, endianness: .big)
        }
        guard byte <= 1 else {
            throw BinaryCodingError.boolOutOfRange(offset: offset, byte: UInt8(truncatingIfNeeded: byte)).decodingError(codingPath())
        }
        return byte == 1
    }

    func decodeInteger<T: FixedWidthInteger>(_ type: T.Type, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> T {
        let offset = reader.offset
        let order = options.byteOrder
        switch options.integerEncoding {
        case .fixedWidth:
            let byteCount = T.bitWidth / 8
            let raw = try read(codingPath()) { (reader: inout ByteReader) throws(ByteReadError) in
                try reader.readUInt(byteCount: byteCount, endianness: order)
            }
            return T(truncatingIfNeeded: raw)
        case .varint:
            if T.isSigned {
                let raw = try readCanonicalVarint(codingPath())
                let value = Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
                guard let exact = T(exactly: value) else { throw outOfRange(String(value), T.self, offset, codingPath) }
                return exact
            }
            let value = try readCanonicalVarint(codingPath())
            guard let exact = T(exactly: value) else { throw outOfRange(String(value), T.self, offset, codingPath) }
            return exact
        }
    }

    func decodeFloat(_ codingPath: @autoclosure () -> [any CodingKey]) throws -> Float {
        let order = options.byteOrder
        let raw = try read(codingPath()) { (reader: inout ByteReader) throws(ByteReadError) in
            try reader.readUInt(byteCount: 4, endianness: order)
        }
        return Float(bitPattern: UInt32(truncatingIfNeeded: raw))
    }

    func decodeDouble(_ codingPath: @autoclosure () -> [any CodingKey]) throws -> Double {
        let order = options.byteOrder
        let raw = try read(codingPath()) { (reader: inout ByteReader) throws(ByteReadError) in
            try reader.readUInt(byteCount: 8, endianness: order)
        }
        return Double(bitPattern: raw)
    }

    func decodeString(_ codingPath: @autoclosure () -> [any CodingKey]) throws -> String {
        let count = try decodeLength(codingPath())
        let range = try read(codingPath()) { (reader: inout ByteReader) throws(ByteReadError) in try reader.readUTF8(count) }
        return String(decoding: reader.bytes[range], as: UTF8.self)
    }

    /// An enum case's name: varint length and UTF-8, whatever the length encoding.
    func decodeCaseName(_ codingPath: @autoclosure () -> [any CodingKey]) throws -> String {
        let length = try readCanonicalVarint(codingPath())
        guard length <= UInt64(reader.remainingBytes) else {
            throw BinaryCodingError.prematureEnd(offset: reader.offset, needed: Int(clamping: length),
                                                 available: reader.remainingBytes).decodingError(codingPath())
        }
        let range = try read(codingPath()) { (reader: inout ByteReader) throws(ByteReadError) in try reader.readUTF8(Int(length)) }
        return String(decoding: reader.bytes[range], as: UTF8.self)
    }

    func decodeByteArray(_ codingPath: @autoclosure () -> [any CodingKey]) throws -> [UInt8] {
        let count = try decodeLength(codingPath())
        let range = try read(codingPath()) { (reader: inout ByteReader) throws(ByteReadError) in try reader.readBytes(count) }
        return Array(reader.bytes[range])
    }

    /// A collection's element count, checked against the bytes left (each element takes at
    /// least one), so a huge count fails at once without allocating.
    func decodeLength(_ codingPath: @autoclosure () -> [any CodingKey]) throws -> Int {
        let offset = reader.offset
        let raw: UInt64
        switch options.lengthEncoding {
        case .varint:
            raw = try readCanonicalVarint(codingPath())
        case .u8, .u16, .u32, .u64:
            let byteCount = options.lengthEncoding == .u8 ? 1 : options.lengthEncoding == .u16 ? 2
                : options.lengthEncoding == .u32 ? 4 : 8
            let order = options.byteOrder
            raw = try read(codingPath()) { (reader: inout ByteReader) throws(ByteReadError) in
                try reader.readUInt(byteCount: byteCount, endianness: order)
            }
        }
        let available = reader.remainingBytes
        guard raw <= UInt64(available) else {
            throw BinaryCodingError.prematureEnd(offset: offset, needed: Int(clamping: raw), available: available)
                .decodingError(codingPath())
        }
        return Int(raw)
    }

    /// A LEB128 varint in its shortest form, the only one the encoder writes: a longer one
    /// (`0xB3 0x00` for 51) would not survive a round trip.
    func readCanonicalVarint(_ codingPath: @autoclosure () -> [any CodingKey]) throws -> UInt64 {
        let start = reader.offset
        let value = try read(codingPath()) { (reader: inout ByteReader) throws(ByteReadError) in try reader.readVarint() }
        let used = reader.offset - start
        let shortest = max(1, (64 - value.leadingZeroBitCount + 6) / 7)
        guard used == shortest else {
            throw BinaryCodingError.nonCanonical(offset: start, reason: "a \(used)-byte varint for a value that takes \(shortest)")
                .decodingError(codingPath())
        }
        return value
    }

    /// Runs a read, turning a ``ByteReadError`` into a `DecodingError` at `codingPath`.
    @inline(__always)
    func read<Value>(_ codingPath: @autoclosure () -> [any CodingKey],
                     _ body: (inout ByteReader) throws(ByteReadError) -> Value) throws -> Value {
        do {
            return try body(&reader)
        } catch {
            throw Self.convert(error).decodingError(codingPath())
        }
    }

    static func convert(_ error: ByteReadError) -> BinaryCodingError {
        switch error {
        case .prematureEnd(let offset, let needed, let available):
            return .prematureEnd(offset: offset, needed: needed, available: available)
        case .misaligned(let offset, _):
            return .unsupportedType(offset: offset, type: "bytes", reason: "read inside a byte")
        case .varintOverflow(let offset):
            return .valueOutOfRange(offset: offset, value: "varint", type: "a 64-bit integer")
        case .invalidUTF8(let offset):
            return .invalidUTF8(offset: offset)
        case .missingTerminator(let offset, let scanned):
            return .prematureEnd(offset: offset, needed: scanned + 1, available: scanned)
        case .outOfRange(let offset, let position):
            return .valueOutOfRange(offset: offset, value: String(position), type: "a position in the input")
        }
    }

    private func outOfRange(_ value: String, _ type: Any.Type, _ offset: Int, _ codingPath: () -> [any CodingKey]) -> DecodingError {
        BinaryCodingError.valueOutOfRange(offset: offset, value: value, type: String(describing: type)).decodingError(codingPath())
    }
}

/// The `Decoder` handed to `init(from:)`.
struct SequentialDecoder: Decoder {
    let state: DecodingState
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { state.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(SequentialKeyedDecodingContainer<Key>(state: state, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try state.unkeyedContainer(codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SequentialSingleValueDecodingContainer(state: state, codingPath: codingPath)
    }
}

/// A class, so the standard library's container box copies one reference per call, not the fields.
final class SequentialKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let state: DecodingState
    let codingPath: [any CodingKey]

    init(state: DecodingState, codingPath: [any CodingKey]) {
        self.state = state
        self.codingPath = codingPath
    }

    /// Keys are not stored, except an enum's case name, which this reads (once) for
    /// synthesized enum decoding.
    var allKeys: [Key] {
        if state.pendingKey == nil { state.pendingKey = try? state.decodeCaseName(codingPath) }
        return state.pendingKey.flatMap { Key(stringValue: $0) }.map { [$0] } ?? []
    }

    func contains(_ key: Key) -> Bool { true }

    private func path(_ key: Key) -> [any CodingKey] { codingPath + [key] }

    func decodeNil(forKey key: Key) throws -> Bool { try !state.decodePresence(path(key)) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try state.decodeBool(path(key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try state.decodeString(path(key)) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try state.decodeDouble(path(key)) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try state.decodeFloat(path(key)) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try state.decodeInteger(Int.self, path(key)) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try state.decodeInteger(Int8.self, path(key)) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try state.decodeInteger(Int16.self, path(key)) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try state.decodeInteger(Int32.self, path(key)) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try state.decodeInteger(Int64.self, path(key)) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try state.decodeInteger(UInt.self, path(key)) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try state.decodeInteger(UInt8.self, path(key)) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try state.decodeInteger(UInt16.self, path(key)) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try state.decodeInteger(UInt32.self, path(key)) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try state.decodeInteger(UInt64.self, path(key)) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try state.decodeValue(type, codingPath: path(key)) }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard try state.decodePresence(path(key)) else { return nil }
        return try state.decodeValue(type, codingPath: path(key))
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present(key) { try state.decodeBool(path(key)) } }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try present(key) { try state.decodeString(path(key)) } }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try present(key) { try state.decodeDouble(path(key)) } }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try present(key) { try state.decodeFloat(path(key)) } }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try present(key) { try state.decodeInteger(Int.self, path(key)) } }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try present(key) { try state.decodeInteger(Int8.self, path(key)) } }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try present(key) { try state.decodeInteger(Int16.self, path(key)) } }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try present(key) { try state.decodeInteger(Int32.self, path(key)) } }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try present(key) { try state.decodeInteger(Int64.self, path(key)) } }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try present(key) { try state.decodeInteger(UInt.self, path(key)) } }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try present(key) { try state.decodeInteger(UInt8.self, path(key)) } }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try present(key) { try state.decodeInteger(UInt16.self, path(key)) } }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try present(key) { try state.decodeInteger(UInt32.self, path(key)) } }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try present(key) { try state.decodeInteger(UInt64.self, path(key)) } }

    private func present<T>(_ key: Key, _ body: () throws -> T) throws -> T? {
        try state.decodePresence(path(key)) ? try body() : nil
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type,
                                               forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try consumeCaseKey(key)
        return KeyedDecodingContainer(SequentialKeyedDecodingContainer<NestedKey>(state: state, codingPath: path(key)))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try consumeCaseKey(key)
        return try state.unkeyedContainer(path(key))
    }

    /// A nested container by key is how enums with associated values are coded: the key
    /// (the case name) precedes it. `allKeys` may have read it already. Without framing, only
    /// an enum's nested container has its key, and its synthesized `init(from:)` reads it
    /// through `allKeys` first: a key `allKeys` did not read is not in the bytes.
    private func consumeCaseKey(_ key: Key) throws {
        guard state.framed || state.pendingKey != nil else { return }
        let name: String
        if let pending = state.pendingKey {
            name = pending
        } else {
            name = try state.decodeCaseName(path(key))
        }
        state.pendingKey = nil
        guard name == key.stringValue else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: path(key), debugDescription: "expected case '\(key.stringValue)' but the bytes hold '\(name)'"))
        }
    }

    func superDecoder() throws -> any Decoder { SequentialDecoder(state: state, codingPath: codingPath) }
    func superDecoder(forKey key: Key) throws -> any Decoder { SequentialDecoder(state: state, codingPath: path(key)) }
}

struct SequentialUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let state: DecodingState
    let codingPath: [any CodingKey]
    /// The element count read before the elements; nil without framing.
    let count: Int?
    private(set) var currentIndex = 0
    /// Without a count: where the container starts, and the bytes left there, which bound
    /// its elements as they bound a count (each element takes at least one byte), so a loop
    /// over elements that take none still ends.
    private let start: (offset: Int, bytesLeft: Int)

    /// A container whose count was read.
    init(state: DecodingState, codingPath: [any CodingKey], count: Int) {
        self.state = state
        self.codingPath = codingPath
        self.count = count
        self.start = (state.reader.offset, state.reader.remainingBytes)
    }

    /// A container without a count (no framing): as many elements as are asked for.
    init(state: DecodingState, codingPath: [any CodingKey]) {
        self.state = state
        self.codingPath = codingPath
        self.count = nil
        self.start = (state.reader.offset, state.reader.remainingBytes)
    }

    /// Without a count, never: the bytes do not say where the elements end.
    var isAtEnd: Bool {
        guard let count else { return false }
        return currentIndex >= count
    }

    /// Moves to the next element, checking there is one; returns its index.
    private mutating func advance() throws -> Int {
        guard count != nil || currentIndex < start.bytesLeft else {
            throw BinaryCodingError.prematureEnd(offset: start.offset, needed: currentIndex + 1, available: start.bytesLeft)
                .decodingError(path(currentIndex))
        }
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any.self, DecodingError.Context(
                codingPath: codingPath + [IndexKey(index: currentIndex)],
                debugDescription: "the array holds \(count ?? 0) elements"))
        }
        currentIndex += 1
        return currentIndex - 1
    }

    private func path(_ index: Int) -> [any CodingKey] { codingPath + [IndexKey(index: index)] }

    /// The path of the next element, for nested containers that keep it.
    private mutating func next() throws -> [any CodingKey] { path(try advance()) }

    /// Nil is coded only through `Optional`, whose own flag says present or absent: a bare
    /// nil is never in the bytes.
    mutating func decodeNil() throws -> Bool { false }

    mutating func decode(_ type: Bool.Type) throws -> Bool { let i = try advance(); return try state.decodeBool(path(i)) }
    mutating func decode(_ type: String.Type) throws -> String { let i = try advance(); return try state.decodeString(path(i)) }
    mutating func decode(_ type: Double.Type) throws -> Double { let i = try advance(); return try state.decodeDouble(path(i)) }
    mutating func decode(_ type: Float.Type) throws -> Float { let i = try advance(); return try state.decodeFloat(path(i)) }
    mutating func decode(_ type: Int.Type) throws -> Int { let i = try advance(); return try state.decodeInteger(Int.self, path(i)) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { let i = try advance(); return try state.decodeInteger(Int8.self, path(i)) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { let i = try advance(); return try state.decodeInteger(Int16.self, path(i)) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { let i = try advance(); return try state.decodeInteger(Int32.self, path(i)) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { let i = try advance(); return try state.decodeInteger(Int64.self, path(i)) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { let i = try advance(); return try state.decodeInteger(UInt.self, path(i)) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { let i = try advance(); return try state.decodeInteger(UInt8.self, path(i)) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { let i = try advance(); return try state.decodeInteger(UInt16.self, path(i)) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { let i = try advance(); return try state.decodeInteger(UInt32.self, path(i)) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { let i = try advance(); return try state.decodeInteger(UInt64.self, path(i)) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try state.decodeValue(type, codingPath: try next()) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(SequentialKeyedDecodingContainer<NestedKey>(state: state, codingPath: try next()))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try state.unkeyedContainer(try next())
    }

    mutating func superDecoder() throws -> any Decoder { SequentialDecoder(state: state, codingPath: try next()) }
}

/// Reading it twice is an error: one value, one read.
struct SequentialSingleValueDecodingContainer: SingleValueDecodingContainer {
    let state: DecodingState
    let codingPath: [any CodingKey]
    private let use = Use()

    final class Use {
        var consumed = false
    }

    init(state: DecodingState, codingPath: [any CodingKey]) {
        self.state = state
        self.codingPath = codingPath
    }

    private func once() throws {
        guard !use.consumed else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: codingPath,
                debugDescription: "a single-value container holds one value; it was already read (at offset \(state.reader.offset))"))
        }
        use.consumed = true
    }

    /// Nil is coded only through `Optional`, whose own flag says present or absent.
    func decodeNil() -> Bool { false }

    func decode(_ type: Bool.Type) throws -> Bool { try once(); return try state.decodeBool(codingPath) }
    func decode(_ type: String.Type) throws -> String { try once(); return try state.decodeString(codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try once(); return try state.decodeDouble(codingPath) }
    func decode(_ type: Float.Type) throws -> Float { try once(); return try state.decodeFloat(codingPath) }
    func decode(_ type: Int.Type) throws -> Int { try once(); return try state.decodeInteger(Int.self, codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try once(); return try state.decodeInteger(Int8.self, codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try once(); return try state.decodeInteger(Int16.self, codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try once(); return try state.decodeInteger(Int32.self, codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try once(); return try state.decodeInteger(Int64.self, codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try once(); return try state.decodeInteger(UInt.self, codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try once(); return try state.decodeInteger(UInt8.self, codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try once(); return try state.decodeInteger(UInt16.self, codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try once(); return try state.decodeInteger(UInt32.self, codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try once(); return try state.decodeInteger(UInt64.self, codingPath) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try once(); return try state.decodeValue(type, codingPath: codingPath) }
}

// MARK: - Types coded specially: optionals, dictionaries, sets

/// An `Optional` being decoded: its presence flag is read first.
protocol DecodableOptional {
    static var absent: Self { get }
    static func decodeWrapped(from state: DecodingState, codingPath: [any CodingKey]) throws -> Self
}

extension Optional: DecodableOptional where Wrapped: Decodable {
    static var absent: Self { nil }

    static func decodeWrapped(from state: DecodingState, codingPath: [any CodingKey]) throws -> Self {
        try state.decodeValue(Wrapped.self, codingPath: codingPath)
    }
}

/// A `Dictionary`: its count, then key and value pairs.
protocol DecodableDictionary {
    static func decodeEntries(from state: DecodingState, codingPath: [any CodingKey]) throws -> Self
}

extension Dictionary: DecodableDictionary where Key: Decodable, Value: Decodable {
    static func decodeEntries(from state: DecodingState, codingPath: [any CodingKey]) throws -> Self {
        let count = try state.decodeLength(codingPath)
        var result: [Key: Value] = [:]
        for index in 0..<count {
            let path = codingPath + [IndexKey(index: index)]
            let offset = state.reader.offset
            let key = try state.decodeValue(Key.self, codingPath: path)
            guard result.index(forKey: key) == nil else {
                throw BinaryCodingError.duplicateEntry(offset: offset).decodingError(path)
            }
            result[key] = try state.decodeValue(Value.self, codingPath: path)
        }
        return result
    }
}

/// A `Set`: its count, then its elements, none equal to another.
protocol DecodableSet {
    static func decodeElements(from state: DecodingState, codingPath: [any CodingKey]) throws -> Self
    static func decodeElements(from context: SchemaDecodingContext, node: Int, codingPath: [any CodingKey]) throws -> Self
}

extension Set: DecodableSet where Element: Decodable {
    static func decodeElements(from state: DecodingState, codingPath: [any CodingKey]) throws -> Self {
        let count = try state.decodeLength(codingPath)
        var result = Set()
        for index in 0..<count {
            let path = codingPath + [IndexKey(index: index)]
            let offset = state.reader.offset
            guard result.insert(try state.decodeValue(Element.self, codingPath: path)).inserted else {
                throw BinaryCodingError.duplicateEntry(offset: offset).decodingError(path)
            }
        }
        return result
    }

    static func decodeElements(from context: SchemaDecodingContext, node: Int, codingPath: [any CodingKey]) throws -> Self {
        guard case .array = context.dissection.nodes[node].kind else {
            throw context.mismatch("a set (unkeyed container)", node, codingPath)
        }
        var result = Set()
        for (index, element) in context.dissection.children(of: node).enumerated() {
            let path = codingPath + [IndexKey(index: index)]
            guard result.insert(try context.decodeValue(Element.self, node: element, codingPath: path)).inserted else {
                throw BinaryCodingError.duplicateEntry(offset: context.dissection.nodes[element].byteOffset).decodingError(path)
            }
        }
        return result
    }
}

/// An `Array` or `ContiguousArray` when unkeyed containers have no count
/// (``BinaryCodingOptions/containerFraming`` off): its count, then its elements.
protocol DecodableArray {
    static func decodeElements(from state: DecodingState, codingPath: [any CodingKey]) throws -> Self
}

extension DecodableArray where Self: RangeReplaceableCollection, Element: Decodable {
    static func decodeElements(from state: DecodingState, codingPath: [any CodingKey]) throws -> Self {
        let count = try state.decodeLength(codingPath)
        // Nothing reserved: the count is bounded by the bytes left, not by the elements' size.
        var result = Self()
        for index in 0..<count {
            result.append(try state.decodeValue(Element.self, codingPath: codingPath + [IndexKey(index: index)]))
        }
        return result
    }
}

extension Array: DecodableArray where Element: Decodable {}
extension ContiguousArray: DecodableArray where Element: Decodable {}
