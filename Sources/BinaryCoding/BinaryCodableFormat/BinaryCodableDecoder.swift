import Foundation

/// Decodes `Decodable` values from BinaryCodable's format (up to version 2.0.3), as
/// ``BinaryCodableEncoder`` writes it. Keyed containers are read by key, in any order; a key
/// that is absent is nil (or `keyNotFound` for a non-optional property); keys the type does
/// not ask for are skipped.
///
/// ```swift
/// let value = try BinaryCodableDecoder().decode(Record.self, from: bytes)
/// ```
///
/// Errors are `DecodingError`s whose `codingPath` names the property and whose description
/// names the byte offset; the `underlyingError` is a ``BinaryCodingError``. Only the shortest
/// varints and one entry per key are accepted, so a value has one encoding for a given key order.
public struct BinaryCodableDecoder: Sendable {
    /// The nesting limit (``BinaryCodableOptions/sortKeys`` does not matter when reading).
    public var options: BinaryCodableOptions
    /// Passed to `init(from:)` as `decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// A decoder with `options`.
    public init(options: BinaryCodableOptions = BinaryCodableOptions()) {
        self.options = options
    }

    /// Decodes a `T` from all of `bytes` (a top-level value has no length: it takes them all).
    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        let context = BinaryCodableDecodingContext(bytes: bytes, options: options, userInfo: userInfo)
        return try context.decodeValue(type, BinaryCodableRegion(dataType: nil, range: 0..<bytes.count), codingPath: [])
    }

    /// Decodes a `T` from all of `data`.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try decode(type, from: [UInt8](data))
    }

    /// Decodes the elements of a data stream (what ``BinaryCodableEncoder/encodeStreamElement(_:)``
    /// wrote, one after another) from the start of `bytes`, as many as are complete; returns them
    /// and the bytes they took. An element cut short at the end is left for more bytes to
    /// complete; bytes that cannot be an element are an error.
    public func decodeStreamElements<T: Decodable>(_ type: T.Type, fromPrefixOf bytes: [UInt8]) throws -> (elements: [T], bytesUsed: Int) {
        let context = BinaryCodableDecodingContext(bytes: bytes, options: options, userInfo: userInfo)
        var cursor = BinaryCodableCursor(position: 0, end: bytes.count)
        var elements: [T] = []
        while cursor.position < cursor.end {
            let start = cursor.position
            guard let extent = try context.elementExtent(T.self, cursor.position, codingPath: []) else { return (elements, start) }
            elements.append(try context.readElement(T.self, &cursor, codingPath: [IndexKey(index: elements.count)]))
            guard cursor.position == extent else {
                throw BinaryCodingError.constraintViolated(offset: cursor.position, reason: "a stream element ends before its bytes do")
                    .decodingError([IndexKey(index: elements.count - 1)])
            }
        }
        return (elements, cursor.position)
    }
}

/// Where a value's bytes are, and the data type its key gave (nil where the bytes are
/// delimited some other way: the whole input, or a length before them).
struct BinaryCodableRegion {
    let dataType: BinaryCodableDataType?
    let range: Range<Int>
}

struct BinaryCodableCursor {
    var position: Int
    let end: Int
}

/// A keyed container's entries: where each value is, by key.
struct BinaryCodableEntry {
    let key: BinaryCodableWireKey
    let region: BinaryCodableRegion
}

final class BinaryCodableDecodingContext {
    let bytes: [UInt8]
    let options: BinaryCodableOptions
    let userInfo: [CodingUserInfoKey: Any]
    var depth = 0

    init(bytes: [UInt8], options: BinaryCodableOptions, userInfo: [CodingUserInfoKey: any Sendable]) {
        self.bytes = bytes
        self.options = options
        self.userInfo = userInfo
    }

    func decodeValue<T: Decodable>(_ type: T.Type, _ region: BinaryCodableRegion, codingPath: [any CodingKey]) throws -> T {
        if let special = try decodeSpecially(type, region, codingPath) { return special }
        depth += 1
        defer { depth -= 1 }
        guard depth <= options.nestingLimit else {
            throw BinaryCodingError.nestingTooDeep(offset: region.range.lowerBound, limit: options.nestingLimit).decodingError(codingPath)
        }
        if let optional = T.self as? any BinaryCodableDecodableOptional.Type {
            try expectDelimited(region, "an optional", codingPath)
            var cursor = BinaryCodableCursor(position: region.range.lowerBound, end: region.range.upperBound)
            let value = try optional.readOptional(from: self, &cursor, codingPath: codingPath)
            try expectEnd(cursor, codingPath)
            guard let typed = value as? T else { throw unsupported(T.self, region, codingPath) }
            return typed
        }
        return try T(from: BinaryCodableValueDecoder(context: self, region: region, codingPath: codingPath))
    }

    /// Primitives, Data and [UInt8], at no nesting level; nil for other types.
    @inline(never)
    private func decodeSpecially<T: Decodable>(_ type: T.Type, _ region: BinaryCodableRegion,
                                               _ codingPath: [any CodingKey]) throws -> T? {
        if let primitive = T.self as? any BinaryCodablePrimitive.Type {
            let expected = primitive.binaryCodableDataType
            if let found = region.dataType, found != expected {
                throw BinaryCodingError.unsupportedType(
                    offset: region.range.lowerBound, type: String(describing: T.self),
                    reason: "its data type is \(expected.name), the key says \(found.name)").decodingError(codingPath)
            }
            do {
                if let value = try primitive.binaryCodableValue(bytes, region.range) as? T { return value }
            } catch {
                throw error.decodingError(codingPath)
            }
            throw unsupported(T.self, region, codingPath)
        }
        if T.self == Data.self || T.self == [UInt8].self {
            try expectDelimited(region, "bytes", codingPath)
            let slice = Array(bytes[region.range])
            let converted: Any = T.self == Data.self ? Data(slice) : slice
            if let value = converted as? T { return value }
            throw unsupported(T.self, region, codingPath)
        }
        return nil
    }

    private func unsupported(_ type: Any.Type, _ region: BinaryCodableRegion, _ codingPath: [any CodingKey]) -> DecodingError {
        BinaryCodingError.unsupportedType(offset: region.range.lowerBound, type: String(describing: type), reason: "cannot build it")
            .decodingError(codingPath)
    }

    /// A container, an optional or bytes: data type variableLength, or delimited otherwise.
    func expectDelimited(_ region: BinaryCodableRegion, _ what: String, _ codingPath: [any CodingKey]) throws {
        if let found = region.dataType, found != .variableLength {
            throw BinaryCodingError.unsupportedType(
                offset: region.range.lowerBound, type: what,
                reason: "it needs data type variableLength, the key says \(found.name)").decodingError(codingPath)
        }
    }

    func expectEnd(_ cursor: BinaryCodableCursor, _ codingPath: [any CodingKey]) throws {
        guard cursor.position == cursor.end else {
            throw BinaryCodingError.constraintViolated(
                offset: cursor.position, reason: "\(cursor.end - cursor.position) bytes left in the value").decodingError(codingPath)
        }
    }

    // MARK: Wire pieces

    func readVarint(_ cursor: inout BinaryCodableCursor, _ codingPath: [any CodingKey]) throws -> UInt64 {
        do {
            let (value, next) = try BinaryCodableVarint.read(bytes, at: cursor.position, end: cursor.end)
            cursor.position = next
            return value
        } catch {
            throw error.decodingError(codingPath)
        }
    }

    /// `count` bytes at the cursor, checked against what is left before anything is made of them.
    func take(_ count: UInt64, _ cursor: inout BinaryCodableCursor, _ codingPath: [any CodingKey]) throws -> Range<Int> {
        let available = cursor.end - cursor.position
        guard count <= UInt64(available), let length = Int(exactly: count) else {
            throw BinaryCodingError.prematureEnd(offset: cursor.position, needed: Int(clamping: count), available: available)
                .decodingError(codingPath)
        }
        let range = cursor.position..<(cursor.position + length)
        cursor.position = range.upperBound
        return range
    }

    /// The bytes of one value of `dataType` at the cursor.
    func readValue(_ dataType: BinaryCodableDataType, _ cursor: inout BinaryCodableCursor,
                   _ codingPath: [any CodingKey]) throws -> Range<Int> {
        switch dataType {
        case .variableLengthInteger:
            let start = cursor.position
            _ = try readVarint(&cursor, codingPath)
            return start..<cursor.position
        case .variableLength:
            let length = try readVarint(&cursor, codingPath)
            return try take(length, &cursor, codingPath)
        case .eightBytes, .fourBytes, .byte, .twoBytes:
            return try take(UInt64(dataType.fixedWidth ?? 0), &cursor, codingPath)
        }
    }

    /// The entries of a keyed container, every key read and checked once: a known data type,
    /// UTF-8 string keys, values within the container, no key twice.
    func entries(_ region: BinaryCodableRegion, codingPath: [any CodingKey]) throws -> [BinaryCodableEntry] {
        try expectDelimited(region, "a keyed container", codingPath)
        var cursor = BinaryCodableCursor(position: region.range.lowerBound, end: region.range.upperBound)
        var entries: [BinaryCodableEntry] = []
        var seen: Set<BinaryCodableWireKey> = []
        while cursor.position < cursor.end {
            let keyOffset = cursor.position
            let raw = try readVarint(&cursor, codingPath)
            guard let dataType = BinaryCodableDataType(rawValue: UInt8(truncatingIfNeeded: raw & 0x07)) else {
                throw BinaryCodingError.constraintViolated(offset: keyOffset, reason: "unknown data type \(raw & 0x07) in a key")
                    .decodingError(codingPath)
            }
            let key: BinaryCodableWireKey
            if raw & 0x08 != 0 {
                let range = try take(raw >> 4, &cursor, codingPath)
                guard let string = String(validating: bytes[range], as: UTF8.self) else {
                    throw BinaryCodingError.invalidUTF8(offset: range.lowerBound).decodingError(codingPath)
                }
                key = .string(string)
            } else {
                key = .int(Int(truncatingIfNeeded: Int64(bitPattern: raw) >> 4))
            }
            let value = try readValue(dataType, &cursor, codingPath)
            guard seen.insert(key).inserted else {
                throw BinaryCodingError.duplicateEntry(offset: keyOffset).decodingError(codingPath)
            }
            entries.append(BinaryCodableEntry(key: key, region: BinaryCodableRegion(dataType: dataType, range: value)))
        }
        return entries
    }

    // MARK: Sequence elements

    /// One element of a sequence at the cursor: an optional's presence byte and value, a bare
    /// Bool, integer, float or ``FixedSize``, or anything else after its length.
    func readElement<T: Decodable>(_ type: T.Type, _ cursor: inout BinaryCodableCursor, codingPath: [any CodingKey]) throws -> T {
        if T.self is any BinaryCodableDecodableOptional.Type {
            // Its presence byte goes first; the region runs to the end of the sequence, and the
            // cursor moves past what the optional used.
            depth += 1
            defer { depth -= 1 }
            guard depth <= options.nestingLimit,
                  let optional = T.self as? any BinaryCodableDecodableOptional.Type else {
                throw BinaryCodingError.nestingTooDeep(offset: cursor.position, limit: options.nestingLimit).decodingError(codingPath)
            }
            guard let value = try optional.readOptional(from: self, &cursor, codingPath: codingPath) as? T else {
                throw unsupported(T.self, BinaryCodableRegion(dataType: nil, range: cursor.position..<cursor.position), codingPath)
            }
            return value
        }
        if let bare = T.self as? any BinaryCodableBareElement.Type {
            let dataType = bare.binaryCodableDataType
            let range = try readValue(dataType, &cursor, codingPath)
            return try decodeValue(T.self, BinaryCodableRegion(dataType: dataType, range: range), codingPath: codingPath)
        }
        let range = try readValue(.variableLength, &cursor, codingPath)
        return try decodeValue(T.self, BinaryCodableRegion(dataType: nil, range: range), codingPath: codingPath)
    }

    /// Where the element starting at `offset` ends, or nil when the bytes end before it does.
    func elementExtent<T: Decodable>(_ type: T.Type, _ offset: Int, codingPath: [any CodingKey]) throws -> Int? {
        var cursor = BinaryCodableCursor(position: offset, end: bytes.count)
        do {
            if let optional = T.self as? any BinaryCodableDecodableOptional.Type {
                return try optional.optionalExtent(in: self, &cursor, codingPath: codingPath)
            }
            let dataType = (T.self as? any BinaryCodableBareElement.Type)?.binaryCodableDataType ?? .variableLength
            _ = try readValue(dataType, &cursor, codingPath)
            return cursor.position
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, let underlying = context.underlyingError as? BinaryCodingError,
               case .prematureEnd = underlying { return nil }
            throw error
        }
    }
}

/// An `Optional` read as a presence byte (0 or 1) and, when 1, its value as a sequence element.
protocol BinaryCodableDecodableOptional {
    static func readOptional(from context: BinaryCodableDecodingContext, _ cursor: inout BinaryCodableCursor,
                             codingPath: [any CodingKey]) throws -> Self
    static func optionalExtent(in context: BinaryCodableDecodingContext, _ cursor: inout BinaryCodableCursor,
                               codingPath: [any CodingKey]) throws -> Int?
}

extension Optional: BinaryCodableDecodableOptional where Wrapped: Decodable {
    static func readOptional(from context: BinaryCodableDecodingContext, _ cursor: inout BinaryCodableCursor,
                             codingPath: [any CodingKey]) throws -> Self {
        let range = try context.take(1, &cursor, codingPath)
        do {
            guard try Bool.binaryCodableValue(context.bytes, range) else { return nil }
        } catch {
            throw error.decodingError(codingPath)
        }
        return try context.readElement(Wrapped.self, &cursor, codingPath: codingPath)
    }

    static func optionalExtent(in context: BinaryCodableDecodingContext, _ cursor: inout BinaryCodableCursor,
                               codingPath: [any CodingKey]) throws -> Int? {
        let range = try context.take(1, &cursor, codingPath)
        guard range.lowerBound < context.bytes.count, context.bytes[range.lowerBound] == 1 else { return cursor.position }
        return try context.elementExtent(Wrapped.self, cursor.position, codingPath: codingPath)
    }
}

/// The `Decoder` handed to `init(from:)`: it reads one region.
struct BinaryCodableValueDecoder: Decoder {
    let context: BinaryCodableDecodingContext
    let region: BinaryCodableRegion
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(try BinaryCodableKeyedDecodingContainer<Key>(context: context, region: region, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try context.expectDelimited(region, "an unkeyed container", codingPath)
        return BinaryCodableUnkeyedDecodingContainer(context: context, region: region, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        BinaryCodableSingleValueDecodingContainer(context: context, region: region, codingPath: codingPath)
    }
}

struct BinaryCodableKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let context: BinaryCodableDecodingContext
    let codingPath: [any CodingKey]
    let entries: [BinaryCodableEntry]
    private let index: [BinaryCodableWireKey: Int]

    init(context: BinaryCodableDecodingContext, region: BinaryCodableRegion, codingPath: [any CodingKey]) throws {
        self.context = context
        self.codingPath = codingPath
        entries = try context.entries(region, codingPath: codingPath)
        var index: [BinaryCodableWireKey: Int] = [:]
        for (position, entry) in entries.enumerated() { index[entry.key] = position }
        self.index = index
    }

    /// Keys as the bytes hold them: integer keys through `Key(intValue:)`, string keys through
    /// `Key(stringValue:)`; those `Key` cannot represent are left out.
    var allKeys: [Key] {
        entries.compactMap { entry in
            switch entry.key {
            case .int(let int): return Key(intValue: int)
            case .string(let string): return Key(stringValue: string)
            }
        }
    }

    /// The entry for `key`: by its integer value if it has one, else by its string; a string
    /// that reads as an integer finds an integer key too (a `[String: …]` dictionary writes
    /// such keys as integers).
    private func entry(_ key: Key) -> BinaryCodableEntry? {
        if let int = key.intValue, let position = index[.int(int)] { return entries[position] }
        if let position = index[.string(key.stringValue)] { return entries[position] }
        if key.intValue == nil, let int = Int(key.stringValue), let position = index[.int(int)] { return entries[position] }
        return nil
    }

    private func region(_ key: Key) throws -> BinaryCodableRegion {
        guard let entry = entry(key) else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(
                codingPath: codingPath, debugDescription: "no key '\(key.stringValue)' in the container"))
        }
        return entry.region
    }

    func contains(_ key: Key) -> Bool { entry(key) != nil }

    /// An absent key is nil.
    func decodeNil(forKey key: Key) throws -> Bool { entry(key) == nil }

    private func value<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        try context.decodeValue(type, try region(key), codingPath: codingPath + [key])
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try value(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try value(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try value(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try value(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try value(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try value(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try value(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try value(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try value(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try value(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try value(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try value(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try value(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try value(type, key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try value(type, key) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type,
                                               forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(try BinaryCodableKeyedDecodingContainer<NestedKey>(
            context: context, region: try region(key), codingPath: codingPath + [key]))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let region = try region(key)
        try context.expectDelimited(region, "an unkeyed container", codingPath + [key])
        return BinaryCodableUnkeyedDecodingContainer(context: context, region: region, codingPath: codingPath + [key])
    }

    func superDecoder() throws -> any Decoder {
        guard let position = index[.string("super")] else {
            throw DecodingError.keyNotFound(IndexKey(stringValue: "super") ?? IndexKey(index: 0), DecodingError.Context(
                codingPath: codingPath, debugDescription: "no key 'super' in the container"))
        }
        return BinaryCodableValueDecoder(context: context, region: entries[position].region, codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        BinaryCodableValueDecoder(context: context, region: try region(key), codingPath: codingPath + [key])
    }
}

struct BinaryCodableUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let context: BinaryCodableDecodingContext
    let codingPath: [any CodingKey]
    private var cursor: BinaryCodableCursor
    private(set) var currentIndex = 0

    init(context: BinaryCodableDecodingContext, region: BinaryCodableRegion, codingPath: [any CodingKey]) {
        self.context = context
        self.codingPath = codingPath
        cursor = BinaryCodableCursor(position: region.range.lowerBound, end: region.range.upperBound)
    }

    /// Unknown until the elements are read: they carry no count.
    var count: Int? { isAtEnd ? currentIndex : nil }
    var isAtEnd: Bool { cursor.position >= cursor.end }

    /// Nil elements are written only through `Optional` (a presence byte): never a bare nil.
    mutating func decodeNil() throws -> Bool { false }

    private mutating func next<T: Decodable>(_ type: T.Type) throws -> T {
        let path = codingPath + [IndexKey(index: currentIndex)]
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(T.self, DecodingError.Context(
                codingPath: path, debugDescription: "the sequence ends at offset \(cursor.position)"))
        }
        let value = try context.readElement(type, &cursor, codingPath: path)
        currentIndex += 1
        return value
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) }
    mutating func decode(_ type: String.Type) throws -> String { try next(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type) }

    /// A nested container is an element after its length.
    private mutating func nestedRegion() throws -> (BinaryCodableRegion, [any CodingKey]) {
        let path = codingPath + [IndexKey(index: currentIndex)]
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any.self, DecodingError.Context(
                codingPath: path, debugDescription: "the sequence ends at offset \(cursor.position)"))
        }
        let range = try context.readValue(.variableLength, &cursor, path)
        currentIndex += 1
        return (BinaryCodableRegion(dataType: nil, range: range), path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (region, path) = try nestedRegion()
        return KeyedDecodingContainer(try BinaryCodableKeyedDecodingContainer<NestedKey>(context: context, region: region, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (region, path) = try nestedRegion()
        return BinaryCodableUnkeyedDecodingContainer(context: context, region: region, codingPath: path)
    }

    mutating func superDecoder() throws -> any Decoder {
        let (region, path) = try nestedRegion()
        return BinaryCodableValueDecoder(context: context, region: region, codingPath: path)
    }
}

/// Reads its region as one value.
struct BinaryCodableSingleValueDecodingContainer: SingleValueDecodingContainer {
    let context: BinaryCodableDecodingContext
    let region: BinaryCodableRegion
    let codingPath: [any CodingKey]

    /// Nil only for a top-level value with no bytes (what a single `encodeNil()` writes).
    func decodeNil() -> Bool { region.dataType == nil && region.range.isEmpty && codingPath.isEmpty }

    private func value<T: Decodable>(_ type: T.Type) throws -> T { try context.decodeValue(type, region, codingPath: codingPath) }

    func decode(_ type: Bool.Type) throws -> Bool { try value(type) }
    func decode(_ type: String.Type) throws -> String { try value(type) }
    func decode(_ type: Double.Type) throws -> Double { try value(type) }
    func decode(_ type: Float.Type) throws -> Float { try value(type) }
    func decode(_ type: Int.Type) throws -> Int { try value(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try value(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try value(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try value(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try value(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try value(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try value(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try value(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try value(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try value(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try value(type) }
}
