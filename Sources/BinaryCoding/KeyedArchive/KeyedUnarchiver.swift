import Foundation

/// A class whose instances take part in reference cycles, restored in a second phase.
///
/// `init(from:)` cannot hand out `self`, so an instance cannot receive a reference to itself,
/// or to an object that is still being decoded (its owner, say), while it is decoded: asking
/// for one there is the error ``KeyedArchiveError/referenceCycle(object:type:)``, never an
/// endless recursion. Instead `init(from:)` leaves those properties empty (a `weak var owner:
/// Owner?` set to `nil`), and once the root value and every object it needs exist, the
/// unarchiver calls `restored(from:)` on each instance of a conforming class, in object-table
/// order, where they can be decoded by key: every instance exists by then.
///
/// ```swift
/// final class Child: Codable, ArchiveRestorable {
///     var name: String
///     weak var parent: Parent?
///     init(from decoder: any Decoder) throws {
///         name = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .name)
///     }
///     func restored(from references: KeyedUnarchiver.References) throws {
///         parent = try references.decodeIfPresent(Parent.self, forKey: CodingKeys.parent)
///     }
/// }
/// ```
///
/// Encoding needs nothing special: `encode(to:)` writes the reference, and an instance met
/// again (even while it is being written) is written as a reference to its first copy.
public protocol ArchiveRestorable: AnyObject {
    /// Called once all instances exist: decode the references `init(from:)` left out.
    func restored(from references: KeyedUnarchiver.References) throws
}

/// Reads archives written by ``KeyedArchiver`` into `Decodable` values: properties are looked
/// up by key (any order), a class instance archived once decodes to one instance however
/// often it is referenced (`===`), registered classes decode as the class archived, and
/// cycles are closed in a second phase (``ArchiveRestorable``).
///
/// ```swift
/// var unarchiver = KeyedUnarchiver()
/// unarchiver.register(Dog.self, as: "Dog")
/// let zoo = try unarchiver.unarchive(Zoo.self, from: bytes)
/// ```
///
/// Every problem is a `DecodingError`: a missing key is `keyNotFound` with its coding path, a
/// value of the wrong kind `typeMismatch`, and bad bytes, unknown class names, reference
/// cycles and nesting past ``nestingLimit`` are `dataCorrupted` with a ``KeyedArchiveError``
/// (and the byte offset, for bytes) underneath.
public struct KeyedUnarchiver: Sendable {
    /// The classes an archive may name.
    public var types: KeyedArchiveTypes
    /// How deep containers may nest (default 96), in the bytes and while decoding, where an
    /// object decoded inside another's `init(from:)` counts as a level.
    public var nestingLimit: Int = 96
    /// Passed to `init(from:)` as `decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// An unarchiver for `types`.
    public init(types: KeyedArchiveTypes = KeyedArchiveTypes()) {
        self.types = types
    }

    /// Registers `type` under `name`: see ``KeyedArchiveTypes``.
    public mutating func register<T: AnyObject & Codable>(_ type: T.Type, as name: String) {
        types.register(type, as: name)
    }

    /// Decodes a `T` from a whole archive.
    public func unarchive<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        let document: ArchiveDocument
        do {
            document = try ArchiveFormat.read(bytes, nestingLimit: nestingLimit)
        } catch {
            throw error.decodingError([])
        }
        return try unarchive(type, from: document)
    }

    /// Decodes a `T` from a whole archive.
    public func unarchive<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try unarchive(type, from: [UInt8](data))
    }

    func unarchive<T: Decodable>(_ type: T.Type, from document: ArchiveDocument) throws -> T {
        let reader = ArchiveReader(document: document, types: types, nestingLimit: nestingLimit, userInfo: userInfo)
        let value = try reader.decodeValue(T.self, from: document.root, codingPath: [])
        try reader.restoreAll()
        return value
    }

    /// The decoded contents of one ``ArchiveRestorable`` instance, in its second phase: decode
    /// the references its `init(from:)` left out, by key. Every instance exists by now, so a
    /// reference to an object still being decoded cannot happen.
    public struct References {
        let reader: ArchiveReader
        let body: ArchiveValue
        let codingPath: [any CodingKey]

        /// Whether the instance's keyed container holds `key`.
        public func contains(_ key: some CodingKey) -> Bool {
            guard case .keyed(let node) = body, let symbol = reader.symbolIndex[key.stringValue] else { return false }
            return node.position(of: symbol) != nil
        }

        /// The value under `key`: an instance (the same one every reference gives), an array
        /// of instances, or any other `Decodable`. Missing: `keyNotFound`.
        public func decode<T: Decodable>(_ type: T.Type, forKey key: some CodingKey) throws -> T {
            let container = try ArchiveDecoder(reader: reader, value: body, codingPath: codingPath).container(keyedBy: AnyKey.self)
            return try container.decode(T.self, forKey: AnyKey(key))
        }

        /// The value under `key`, or nil when the key is missing or holds nil.
        public func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: some CodingKey) throws -> T? {
            let container = try ArchiveDecoder(reader: reader, value: body, codingPath: codingPath).container(keyedBy: AnyKey.self)
            return try container.decodeIfPresent(T.self, forKey: AnyKey(key))
        }
    }
}

/// A key of any name, for ``KeyedUnarchiver/References``.
struct AnyKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(_ key: some CodingKey) {
        stringValue = key.stringValue
        intValue = key.intValue
    }

    init(name: String) {
        stringValue = name
        intValue = nil
    }

    init?(stringValue: String) {
        self.init(name: stringValue)
    }

    init?(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}

/// The state of one unarchiving: the instances made so far, those being made, and the
/// restorable ones waiting for their second phase.
final class ArchiveReader {
    let document: ArchiveDocument
    let types: KeyedArchiveTypes
    let nestingLimit: Int
    let userInfo: [CodingUserInfoKey: Any]
    let symbolIndex: [String: Int]
    private var instances: [AnyObject?]
    private var inProgress: [Bool]
    private var restoreQueue: [Int] = []
    private var depth = 0

    init(document: ArchiveDocument, types: KeyedArchiveTypes, nestingLimit: Int, userInfo: [CodingUserInfoKey: any Sendable]) {
        self.document = document
        self.types = types
        self.nestingLimit = max(0, nestingLimit)
        self.userInfo = userInfo
        var index: [String: Int] = [:]
        index.reserveCapacity(document.symbols.count)
        for (position, symbol) in document.symbols.enumerated() where index[symbol] == nil { index[symbol] = position }
        symbolIndex = index
        instances = Array(repeating: nil, count: document.objects.count)
        inProgress = Array(repeating: false, count: document.objects.count)
    }

    func symbol(_ index: Int) -> String {
        document.symbols.indices.contains(index) ? document.symbols[index] : ""
    }

    func decodeValue<T: Decodable>(_ type: T.Type, from value: ArchiveValue, codingPath: [any CodingKey]) throws -> T {
        switch value {
        case .object(let index) where T.self is AnyClass:
            return try decodeObject(T.self, index: index, codingPath: codingPath)
        case .bytes(let bytes):
            if let converted = bytes as? T { return converted }
            if T.self == Data.self, let converted = Data(bytes) as? T { return converted }
        default:
            // Bytes are archived as bytes, never as a container of numbers: one form each.
            if T.self == [UInt8].self || T.self == Data.self { throw mismatch(T.self, value, codingPath) }
        }
        depth += 1
        defer { depth -= 1 }
        guard depth <= nestingLimit else {
            throw KeyedArchiveError.nestingTooDeep(offset: nil, limit: nestingLimit).decodingError(codingPath)
        }
        return try T(from: ArchiveDecoder(reader: self, value: value, codingPath: codingPath))
    }

    private func decodeObject<T: Decodable>(_ type: T.Type, index: Int, codingPath: [any CodingKey]) throws -> T {
        guard document.objects.indices.contains(index) else {
            throw KeyedArchiveError.undefinedObject(offset: 0, index: UInt64(clamping: index), count: document.objects.count)
                .decodingError(codingPath)
        }
        if let existing = instances[index] {
            guard let instance = existing as? T else {
                throw DecodingError.typeMismatch(T.self, DecodingError.Context(
                    codingPath: codingPath, debugDescription: "object #\(index) is a \(Swift.type(of: existing)), not a \(T.self)"))
            }
            return instance
        }
        guard !inProgress[index] else {
            throw KeyedArchiveError.referenceCycle(object: index, type: String(describing: T.self)).decodingError(codingPath)
        }
        let record = document.objects[index]
        var concrete: any Decodable.Type = T.self
        if let className = record.className {
            let name = symbol(className)
            guard let registered = types.type(named: name) else {
                throw KeyedArchiveError.unregisteredType(name).decodingError(codingPath)
            }
            guard registered is T.Type else {
                throw KeyedArchiveError.classMismatch(name: name, expected: String(describing: T.self)).decodingError(codingPath)
            }
            concrete = registered
        }
        inProgress[index] = true
        defer { inProgress[index] = false }
        depth += 1
        defer { depth -= 1 }
        guard depth <= nestingLimit else {
            throw KeyedArchiveError.nestingTooDeep(offset: nil, limit: nestingLimit).decodingError(codingPath)
        }
        let made = try concrete.init(from: ArchiveDecoder(reader: self, value: record.body, codingPath: codingPath))
        guard let instance = made as? T else {
            throw KeyedArchiveError.classMismatch(name: String(describing: concrete), expected: String(describing: T.self))
                .decodingError(codingPath)
        }
        let object = instance as AnyObject
        instances[index] = object
        if object is any ArchiveRestorable { restoreQueue.append(index) }
        return instance
    }

    /// The second phase: `restored(from:)` on every restorable instance, including those
    /// first decoded by another's `restored(from:)`.
    func restoreAll() throws {
        var next = 0
        while next < restoreQueue.count {
            let index = restoreQueue[next]
            next += 1
            guard let restorable = instances[index] as? any ArchiveRestorable else { continue }
            let path: [any CodingKey] = [AnyKey(name: "object #\(index)")]
            try restorable.restored(from: KeyedUnarchiver.References(reader: self, body: document.objects[index].body, codingPath: path))
        }
        restoreQueue.removeAll()
    }
}

// MARK: - Decoder

struct ArchiveDecoder: Decoder {
    let reader: ArchiveReader
    let value: ArchiveValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { reader.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .keyed(let node) = value else { throw mismatch([String: Int].self, value, codingPath) }
        return KeyedDecodingContainer(ArchiveKeyedDecodingContainer<Key>(reader: reader, node: node, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .unkeyed(let node) = value else { throw mismatch([Int].self, value, codingPath) }
        return ArchiveUnkeyedDecodingContainer(reader: reader, values: node.values, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        ArchiveSingleValueDecodingContainer(reader: reader, value: value, codingPath: codingPath)
    }
}

func mismatch(_ type: Any.Type, _ value: ArchiveValue, _ codingPath: [any CodingKey]) -> DecodingError {
    .typeMismatch(type, DecodingError.Context(codingPath: codingPath, debugDescription: "expected \(type), found \(value.kind)"))
}

/// The primitive conversions, strict so that what decodes re-archives to the same value kind:
/// signed integers only from signed values, unsigned from unsigned, each range-checked.
enum ArchivePrimitive {
    static func bool(_ value: ArchiveValue, _ path: [any CodingKey]) throws -> Bool {
        guard case .bool(let bool) = value else { throw mismatch(Bool.self, value, path) }
        return bool
    }

    static func string(_ value: ArchiveValue, _ path: [any CodingKey]) throws -> String {
        guard case .string(let string) = value else { throw mismatch(String.self, value, path) }
        return string
    }

    static func double(_ value: ArchiveValue, _ path: [any CodingKey]) throws -> Double {
        guard case .double(let double) = value else { throw mismatch(Double.self, value, path) }
        return double
    }

    static func float(_ value: ArchiveValue, _ path: [any CodingKey]) throws -> Float {
        guard case .float(let float) = value else { throw mismatch(Float.self, value, path) }
        return float
    }

    static func integer<T: FixedWidthInteger>(_ value: ArchiveValue, _ path: [any CodingKey]) throws -> T {
        switch value {
        case .int(let signed) where T.isSigned:
            guard let exact = T(exactly: signed) else {
                throw KeyedArchiveError.valueOutOfRange(value: String(signed), type: String(describing: T.self)).decodingError(path)
            }
            return exact
        case .uint(let unsigned) where !T.isSigned:
            guard let exact = T(exactly: unsigned) else {
                throw KeyedArchiveError.valueOutOfRange(value: String(unsigned), type: String(describing: T.self)).decodingError(path)
            }
            return exact
        default:
            throw mismatch(T.self, value, path)
        }
    }
}

struct ArchiveKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let reader: ArchiveReader
    let node: ArchiveKeyedNode
    let codingPath: [any CodingKey]

    var allKeys: [Key] { node.keys.compactMap { Key(stringValue: reader.symbol($0)) } }

    func contains(_ key: Key) -> Bool {
        guard let symbol = reader.symbolIndex[key.stringValue] else { return false }
        return node.position(of: symbol) != nil
    }

    private func value(_ key: Key) throws -> ArchiveValue {
        if let symbol = reader.symbolIndex[key.stringValue], let value = node.value(for: symbol) { return value }
        throw DecodingError.keyNotFound(key, DecodingError.Context(
            codingPath: codingPath, debugDescription: "no value for key \"\(key.stringValue)\""))
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        if case .null = try value(key) { return true }
        return false
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try ArchivePrimitive.bool(value(key), codingPath + [key]) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try ArchivePrimitive.string(value(key), codingPath + [key]) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try ArchivePrimitive.double(value(key), codingPath + [key]) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try ArchivePrimitive.float(value(key), codingPath + [key]) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try ArchivePrimitive.integer(value(key), codingPath + [key]) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try ArchivePrimitive.integer(value(key), codingPath + [key]) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try ArchivePrimitive.integer(value(key), codingPath + [key]) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try ArchivePrimitive.integer(value(key), codingPath + [key]) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try ArchivePrimitive.integer(value(key), codingPath + [key]) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try ArchivePrimitive.integer(value(key), codingPath + [key]) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try ArchivePrimitive.integer(value(key), codingPath + [key]) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try ArchivePrimitive.integer(value(key), codingPath + [key]) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try ArchivePrimitive.integer(value(key), codingPath + [key]) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try ArchivePrimitive.integer(value(key), codingPath + [key]) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try reader.decodeValue(T.self, from: value(key), codingPath: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey> {
        try ArchiveDecoder(reader: reader, value: value(key), codingPath: codingPath + [key]).container(keyedBy: NestedKey.self)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ArchiveDecoder(reader: reader, value: value(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        let key = AnyKey(name: "super")
        let value = reader.symbolIndex["super"].flatMap { node.value(for: $0) } ?? .null
        return ArchiveDecoder(reader: reader, value: value, codingPath: codingPath + [key])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ArchiveDecoder(reader: reader, value: try value(key), codingPath: codingPath + [key])
    }
}

struct ArchiveUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let reader: ArchiveReader
    let values: [ArchiveValue]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(reader: ArchiveReader, values: [ArchiveValue], codingPath: [any CodingKey]) {
        self.reader = reader
        self.values = values
        self.codingPath = codingPath
    }

    var count: Int? { values.count }
    var isAtEnd: Bool { currentIndex >= values.count }

    private mutating func next(_ type: Any.Type) throws -> (ArchiveValue, [any CodingKey]) {
        let path = codingPath + [IndexKey(index: currentIndex)]
        guard currentIndex < values.count else {
            throw DecodingError.valueNotFound(type, DecodingError.Context(
                codingPath: path, debugDescription: "the unkeyed container has only \(values.count) values"))
        }
        currentIndex += 1
        return (values[currentIndex - 1], path)
    }

    mutating func decodeNil() throws -> Bool {
        guard currentIndex < values.count else { _ = try next(Never.self); return false }
        if case .null = values[currentIndex] {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { let (v, p) = try next(type); return try ArchivePrimitive.bool(v, p) }
    mutating func decode(_ type: String.Type) throws -> String { let (v, p) = try next(type); return try ArchivePrimitive.string(v, p) }
    mutating func decode(_ type: Double.Type) throws -> Double { let (v, p) = try next(type); return try ArchivePrimitive.double(v, p) }
    mutating func decode(_ type: Float.Type) throws -> Float { let (v, p) = try next(type); return try ArchivePrimitive.float(v, p) }
    mutating func decode(_ type: Int.Type) throws -> Int { let (v, p) = try next(type); return try ArchivePrimitive.integer(v, p) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { let (v, p) = try next(type); return try ArchivePrimitive.integer(v, p) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { let (v, p) = try next(type); return try ArchivePrimitive.integer(v, p) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { let (v, p) = try next(type); return try ArchivePrimitive.integer(v, p) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { let (v, p) = try next(type); return try ArchivePrimitive.integer(v, p) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { let (v, p) = try next(type); return try ArchivePrimitive.integer(v, p) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { let (v, p) = try next(type); return try ArchivePrimitive.integer(v, p) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { let (v, p) = try next(type); return try ArchivePrimitive.integer(v, p) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { let (v, p) = try next(type); return try ArchivePrimitive.integer(v, p) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { let (v, p) = try next(type); return try ArchivePrimitive.integer(v, p) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, path) = try next(type)
        return try reader.decodeValue(T.self, from: value, codingPath: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (value, path) = try next(type)
        return try ArchiveDecoder(reader: reader, value: value, codingPath: path).container(keyedBy: NestedKey.self)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, path) = try next([Int].self)
        return try ArchiveDecoder(reader: reader, value: value, codingPath: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, path) = try next(Int.self)
        return ArchiveDecoder(reader: reader, value: value, codingPath: path)
    }
}

struct ArchiveSingleValueDecodingContainer: SingleValueDecodingContainer {
    let reader: ArchiveReader
    let value: ArchiveValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool {
        if case .null = value { return true }
        return false
    }

    func decode(_ type: Bool.Type) throws -> Bool { try ArchivePrimitive.bool(value, codingPath) }
    func decode(_ type: String.Type) throws -> String { try ArchivePrimitive.string(value, codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try ArchivePrimitive.double(value, codingPath) }
    func decode(_ type: Float.Type) throws -> Float { try ArchivePrimitive.float(value, codingPath) }
    func decode(_ type: Int.Type) throws -> Int { try ArchivePrimitive.integer(value, codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try ArchivePrimitive.integer(value, codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try ArchivePrimitive.integer(value, codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try ArchivePrimitive.integer(value, codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try ArchivePrimitive.integer(value, codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try ArchivePrimitive.integer(value, codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try ArchivePrimitive.integer(value, codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try ArchivePrimitive.integer(value, codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try ArchivePrimitive.integer(value, codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try ArchivePrimitive.integer(value, codingPath) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try reader.decodeValue(T.self, from: value, codingPath: codingPath)
    }
}
