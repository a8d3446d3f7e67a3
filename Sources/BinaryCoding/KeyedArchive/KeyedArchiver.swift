import Foundation

/// Archives `Encodable` values as a keyed object archive (docs/KeyedArchive.md): values by key,
/// each key string stored once in a symbol table, each class instance stored once in an object
/// table, with its class name when it is registered. ``KeyedUnarchiver`` reads it back.
///
/// ```swift
/// var archiver = KeyedArchiver()
/// archiver.register(Dog.self, as: "Dog")
/// let bytes = try archiver.archive(zoo)
/// ```
///
/// Errors are `EncodingError`s whose `underlyingError` is a ``KeyedArchiveError``: an
/// instance of an unregistered subclass, a key encoded twice into one container (a subclass
/// reusing a key of its superclass), nesting past ``nestingLimit``.
public struct KeyedArchiver: Sendable {
    /// The classes the archive may name.
    public var types: KeyedArchiveTypes
    /// How deep containers may nest within one value or object (default 96). Objects are
    /// written from a queue, so a long chain of references does not count.
    public var nestingLimit: Int = 96
    /// Passed to `encode(to:)` as `encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// An archiver for `types`.
    public init(types: KeyedArchiveTypes = KeyedArchiveTypes()) {
        self.types = types
    }

    /// Registers `type` under `name`: see ``KeyedArchiveTypes``.
    public mutating func register<T: AnyObject & Codable>(_ type: T.Type, as name: String) {
        types.register(type, as: name)
    }

    /// The archive of `value`.
    public func archive<T: Encodable>(_ value: T) throws -> [UInt8] {
        let document = try document(of: value)
        do {
            return try ArchiveFormat.write(document, nestingLimit: nestingLimit)
        } catch {
            throw error.encodingError(T.self, [])
        }
    }

    /// A deep copy of `value`, archived and unarchived in memory: the unarchiver reads the
    /// archiver's tree directly, without bytes in between. Instances shared in `value` are
    /// shared in the copy, cycles are restored (``ArchiveRestorable``), classes keep their
    /// registered subclasses.
    public func makeClone<T: Codable>(of value: T) throws -> T {
        var unarchiver = KeyedUnarchiver(types: types)
        unarchiver.nestingLimit = nestingLimit
        unarchiver.userInfo = userInfo
        return try unarchiver.unarchive(T.self, from: document(of: value))
    }

    func document<T: Encodable>(of value: T) throws -> ArchiveDocument {
        let writer = ArchiveWriter(types: types, nestingLimit: nestingLimit, userInfo: userInfo)
        let root = try writer.encodeValue(value, codingPath: [])
        try writer.drainObjects()
        return ArchiveDocument(symbols: writer.symbols, objects: writer.objects, root: root)
    }
}

extension Encodable where Self: Decodable {
    /// A deep copy of this value through ``KeyedArchiver/makeClone(of:)``, with `types`
    /// registered: shared instances stay shared, cycles are restored.
    public func makeClone(types: KeyedArchiveTypes = KeyedArchiveTypes()) throws -> Self {
        try KeyedArchiver(types: types).makeClone(of: self)
    }
}

/// The state of one archiving: symbols, objects and the queue of objects still to write.
final class ArchiveWriter {
    let types: KeyedArchiveTypes
    let nestingLimit: Int
    let userInfo: [CodingUserInfoKey: Any]
    private(set) var symbols: [String] = []
    private var symbolIndex: [String: Int] = [:]
    private(set) var objects: [ArchiveObject] = []
    private var objectIndex: [ObjectIdentifier: Int] = [:]
    /// Keeps every archived instance alive until the end, so no identifier is reused.
    private var retained: [AnyObject] = []
    /// Objects given an index but not yet written, in index order.
    private var pending: [(index: Int, codingPath: [any CodingKey], write: () throws -> ArchiveValue)] = []
    private var depth = 0
    /// A key collision found where the `Encoder` API cannot throw (a nested container or
    /// super encoder), thrown when the archive is finished.
    private var deferredError: EncodingError?

    init(types: KeyedArchiveTypes, nestingLimit: Int, userInfo: [CodingUserInfoKey: any Sendable]) {
        self.types = types
        self.nestingLimit = max(0, nestingLimit)
        self.userInfo = userInfo
    }

    func symbol(_ string: String) -> Int {
        if let index = symbolIndex[string] { return index }
        symbols.append(string)
        symbolIndex[string] = symbols.count - 1
        return symbols.count - 1
    }

    func encodeValue<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws -> ArchiveValue {
        if type(of: value) is AnyClass { return try encodeObject(value, codingPath: codingPath) }
        if T.self == [UInt8].self || T.self == Data.self {
            if let bytes = value as? [UInt8] { return .bytes(bytes) }
            if let data = value as? Data { return .bytes([UInt8](data)) }
        }
        return try encodeContents(value, codingPath: codingPath)
    }

    /// `value` through its own `encode(to:)`, one nesting level deeper.
    private func encodeContents<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws -> ArchiveValue {
        depth += 1
        defer { depth -= 1 }
        guard depth <= nestingLimit else {
            throw KeyedArchiveError.nestingTooDeep(offset: nil, limit: nestingLimit).encodingError(T.self, codingPath)
        }
        let encoder = ArchiveEncoder(writer: self, codingPath: codingPath)
        try value.encode(to: encoder)
        return encoder.result ?? .keyed(ArchiveKeyedNode())
    }

    /// A class instance: its index, given the first time it is met; its contents are written
    /// from the queue, so references nest no deeper than one object.
    private func encodeObject<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws -> ArchiveValue {
        let instance = value as AnyObject
        let identifier = ObjectIdentifier(instance)
        if let index = objectIndex[identifier] { return .object(index) }
        let dynamicType = type(of: value)
        var className: Int?
        if let name = types.name(of: dynamicType) {
            className = symbol(name)
        } else if dynamicType != T.self {
            throw KeyedArchiveError.unregisteredType(String(reflecting: dynamicType)).encodingError(T.self, codingPath)
        }
        let index = objects.count
        objects.append(ArchiveObject(className: className, body: .null))
        objectIndex[identifier] = index
        retained.append(instance)
        pending.append((index, codingPath, { [unowned self] in try self.encodeContents(value, codingPath: codingPath) }))
        return .object(index)
    }

    /// Writes the queued objects; each may queue more.
    func drainObjects() throws {
        var next = 0
        while next < pending.count {
            let (index, _, write) = pending[next]
            next += 1
            let saved = depth
            depth = 0
            defer { depth = saved }
            objects[index].body = try write()
        }
        pending.removeAll()
        if let deferredError { throw deferredError }
    }

    func collided(_ key: some CodingKey, _ codingPath: [any CodingKey]) {
        guard deferredError == nil else { return }
        deferredError = KeyedArchiveError.keyCollision(key: key.stringValue, type: "a nested container")
            .encodingError(type(of: key), codingPath + [key])
    }
}

// MARK: - Encoder

/// The `Encoder` for one value: its result is set by the first container asked for; a
/// superclass's `encode(to:)` given the same encoder adds to the same keyed container.
final class ArchiveEncoder: Encoder {
    let writer: ArchiveWriter
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { writer.userInfo }
    private(set) var result: ArchiveValue?
    /// Where the result goes when this encoder is a `superEncoder()`: set as it changes.
    private let slot: ((ArchiveValue) -> Void)?

    init(writer: ArchiveWriter, codingPath: [any CodingKey], slot: ((ArchiveValue) -> Void)? = nil) {
        self.writer = writer
        self.codingPath = codingPath
        self.slot = slot
    }

    func set(_ value: ArchiveValue) {
        result = value
        slot?(value)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let node: ArchiveKeyedNode
        if case .keyed(let existing) = result {
            node = existing
        } else {
            node = ArchiveKeyedNode()
            set(.keyed(node))
        }
        return KeyedEncodingContainer(ArchiveKeyedEncodingContainer<Key>(writer: writer, node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let node: ArchiveUnkeyedNode
        if case .unkeyed(let existing) = result {
            node = existing
        } else {
            node = ArchiveUnkeyedNode()
            set(.unkeyed(node))
        }
        return ArchiveUnkeyedEncodingContainer(writer: writer, node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        ArchiveSingleValueEncodingContainer(encoder: self)
    }
}

struct ArchiveKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: ArchiveWriter
    let node: ArchiveKeyedNode
    let codingPath: [any CodingKey]

    private func put(_ value: ArchiveValue, _ key: Key) throws {
        guard node.insert(writer.symbol(key.stringValue), value) else {
            throw KeyedArchiveError.keyCollision(key: key.stringValue, type: "a container")
                .encodingError(Key.self, codingPath + [key])
        }
    }

    mutating func encodeNil(forKey key: Key) throws { try put(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try put(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { try put(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try put(.double(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try put(.float(value), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try put(.int(Int64(value)), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try put(.int(Int64(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try put(.int(Int64(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try put(.int(Int64(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try put(.int(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try put(.uint(UInt64(value)), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try put(.uint(UInt64(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try put(.uint(UInt64(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try put(.uint(UInt64(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try put(.uint(value), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let symbol = writer.symbol(key.stringValue)
        // Claim the key first: a collision is reported before the value's contents are written.
        guard node.insert(symbol, .null), let position = node.position(of: symbol) else {
            throw KeyedArchiveError.keyCollision(key: key.stringValue, type: String(describing: T.self))
                .encodingError(T.self, codingPath + [key])
        }
        node.replace(at: position, with: try writer.encodeValue(value, codingPath: codingPath + [key]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey> {
        let nested = ArchiveKeyedNode()
        // This call cannot throw: a collision is kept and thrown when the archive is finished.
        if !node.insert(writer.symbol(key.stringValue), .keyed(nested)) { writer.collided(key, codingPath) }
        return KeyedEncodingContainer(ArchiveKeyedEncodingContainer<NestedKey>(writer: writer, node: nested, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = ArchiveUnkeyedNode()
        if !node.insert(writer.symbol(key.stringValue), .unkeyed(nested)) { writer.collided(key, codingPath) }
        return ArchiveUnkeyedEncodingContainer(writer: writer, node: nested, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(keyedBy: AnyKey(name: "super"))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder(keyedBy: key)
    }

    private func superEncoder(keyedBy key: some CodingKey) -> any Encoder {
        let symbol = writer.symbol(key.stringValue)
        let node = self.node
        if !node.insert(symbol, .keyed(ArchiveKeyedNode())) { writer.collided(key, codingPath) }
        let position = node.position(of: symbol)
        return ArchiveEncoder(writer: writer, codingPath: codingPath + [key]) { value in
            if let position { node.replace(at: position, with: value) }
        }
    }
}

struct ArchiveUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let writer: ArchiveWriter
    let node: ArchiveUnkeyedNode
    let codingPath: [any CodingKey]
    var count: Int { node.values.count }

    private var nextPath: [any CodingKey] { codingPath + [IndexKey(index: node.values.count)] }

    mutating func encodeNil() throws { node.values.append(.null) }
    mutating func encode(_ value: Bool) throws { node.values.append(.bool(value)) }
    mutating func encode(_ value: String) throws { node.values.append(.string(value)) }
    mutating func encode(_ value: Double) throws { node.values.append(.double(value)) }
    mutating func encode(_ value: Float) throws { node.values.append(.float(value)) }
    mutating func encode(_ value: Int) throws { node.values.append(.int(Int64(value))) }
    mutating func encode(_ value: Int8) throws { node.values.append(.int(Int64(value))) }
    mutating func encode(_ value: Int16) throws { node.values.append(.int(Int64(value))) }
    mutating func encode(_ value: Int32) throws { node.values.append(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { node.values.append(.int(value)) }
    mutating func encode(_ value: UInt) throws { node.values.append(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { node.values.append(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt16) throws { node.values.append(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt32) throws { node.values.append(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt64) throws { node.values.append(.uint(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let position = node.values.count
        let path = nextPath
        node.values.append(.null)
        node.values[position] = try writer.encodeValue(value, codingPath: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = ArchiveKeyedNode()
        let path = nextPath
        node.values.append(.keyed(nested))
        return KeyedEncodingContainer(ArchiveKeyedEncodingContainer<NestedKey>(writer: writer, node: nested, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = ArchiveUnkeyedNode()
        let path = nextPath
        node.values.append(.unkeyed(nested))
        return ArchiveUnkeyedEncodingContainer(writer: writer, node: nested, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let position = node.values.count
        let path = nextPath
        let node = self.node
        node.values.append(.keyed(ArchiveKeyedNode()))
        return ArchiveEncoder(writer: writer, codingPath: path) { value in
            if node.values.indices.contains(position) { node.values[position] = value }
        }
    }
}

struct ArchiveSingleValueEncodingContainer: SingleValueEncodingContainer {
    let encoder: ArchiveEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.set(.null) }
    mutating func encode(_ value: Bool) throws { encoder.set(.bool(value)) }
    mutating func encode(_ value: String) throws { encoder.set(.string(value)) }
    mutating func encode(_ value: Double) throws { encoder.set(.double(value)) }
    mutating func encode(_ value: Float) throws { encoder.set(.float(value)) }
    mutating func encode(_ value: Int) throws { encoder.set(.int(Int64(value))) }
    mutating func encode(_ value: Int8) throws { encoder.set(.int(Int64(value))) }
    mutating func encode(_ value: Int16) throws { encoder.set(.int(Int64(value))) }
    mutating func encode(_ value: Int32) throws { encoder.set(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { encoder.set(.int(value)) }
    mutating func encode(_ value: UInt) throws { encoder.set(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { encoder.set(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt16) throws { encoder.set(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt32) throws { encoder.set(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt64) throws { encoder.set(.uint(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        encoder.set(try encoder.writer.encodeValue(value, codingPath: codingPath))
    }
}
