import Foundation

/// Encodes `Encodable` values in BinaryCodable's format (up to version 2.0.3), byte for byte:
/// keyed containers as key and value pairs whose key carries the value's data type, integers of
/// 32 and 64 bits as (zig-zag) varints, smaller ones and floats little-endian, nil properties
/// left out, sequences as their elements one after another.
///
/// ```swift
/// let bytes = try BinaryCodableEncoder().encode(value)   // read back by BinaryCodableDecoder
/// ```
///
/// Not supported: `encodeNil()` on an unkeyed container (BinaryCodable's
/// `prependNilIndexSetForUnkeyedContainers`); it throws an `EncodingError`. Optional elements
/// of arrays need no such call: each has its presence byte.
public struct BinaryCodableEncoder: Sendable {
    /// Key order and nesting limit.
    public var options: BinaryCodableOptions
    /// Passed to `encode(to:)` as `encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// An encoder with `options`.
    public init(options: BinaryCodableOptions = BinaryCodableOptions()) {
        self.options = options
    }

    /// The bytes of `value`: its content without a key or a length (a struct's properties, an
    /// array's elements), so top-level sequences concatenate.
    public func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let context = BinaryCodableEncodingContext(options: options, userInfo: userInfo)
        let node = try context.encodeValue(value, codingPath: [])
        if let error = context.deferredError { throw error }
        var bytes: [UInt8] = []
        try context.writeContent(node, to: &bytes)
        return bytes
    }

    /// One element of a data stream: written as an element of an unkeyed container (a length
    /// before it unless it is a Bool, an integer, a float or ``FixedSize``; an optional's
    /// presence byte before it), so elements written one after another can be read back one by one.
    public func encodeStreamElement<T: Encodable>(_ value: T) throws -> [UInt8] {
        let context = BinaryCodableEncodingContext(options: options, userInfo: userInfo)
        let element = BinaryCodableElement(node: try context.encodeValue(value, codingPath: []), bare: value is any BinaryCodableBareElement)
        if let error = context.deferredError { throw error }
        var bytes: [UInt8] = []
        try context.writeElement(element, [], to: &bytes)
        return bytes
    }
}

/// A value encoded, before it is written: a tree, because a nested value's length goes before it.
final class BinaryCodableNode {
    enum Kind {
        /// Nothing encoded (yet).
        case empty
        /// `encodeNil()` on a single-value container: an absent key in a keyed container.
        case none
        case primitive(BinaryCodableDataType, [UInt8])
        case keyed(BinaryCodableKeyedStorage)
        case unkeyed(BinaryCodableUnkeyedStorage)
        /// An Optional: a presence byte, then the value as a sequence element.
        case optional(BinaryCodableElement?)
    }

    var kind: Kind

    init(_ kind: Kind = .empty) {
        self.kind = kind
    }

    var dataType: BinaryCodableDataType {
        if case .primitive(let dataType, _) = kind { return dataType }
        return .variableLength
    }
}

/// A node in a sequence, and whether its type goes without a length (``BinaryCodableBareElement``).
struct BinaryCodableElement {
    let node: BinaryCodableNode
    let bare: Bool
}

final class BinaryCodableKeyedStorage {
    var keys: [BinaryCodableWireKey] = []
    var values: [BinaryCodableWireKey: BinaryCodableNode] = [:]
}

final class BinaryCodableUnkeyedStorage {
    var elements: [BinaryCodableElement] = []
}

final class BinaryCodableEncodingContext {
    let options: BinaryCodableOptions
    let userInfo: [CodingUserInfoKey: Any]
    var depth = 0
    /// An error found where Codable allows no throw (a nested container's key out of range).
    var deferredError: EncodingError?

    init(options: BinaryCodableOptions, userInfo: [CodingUserInfoKey: any Sendable]) {
        self.options = options
        self.userInfo = userInfo
    }

    func encodeValue<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws -> BinaryCodableNode {
        // Optionals first: a cast to a primitive would look through them.
        let optional = value as? any EncodableOptional
        if optional == nil, let special = try encodeSpecially(value, codingPath) { return special }
        depth += 1
        defer { depth -= 1 }
        guard depth <= options.nestingLimit else { throw tooDeep(T.self, codingPath) }
        if let optional {
            guard let wrapped = optional.wrappedEncodable else { return BinaryCodableNode(.optional(nil)) }
            let node = try encodeValue(wrapped, codingPath: codingPath)
            return BinaryCodableNode(.optional(BinaryCodableElement(node: node, bare: wrapped is any BinaryCodableBareElement)))
        }
        if options.sortKeys, let set = value as? any EncodableSet {
            let storage = BinaryCodableUnkeyedStorage()
            for (index, element) in set.canonicalElements.enumerated() {
                let node = try encodeValue(element, codingPath: codingPath + [IndexKey(index: index)])
                storage.elements.append(BinaryCodableElement(node: node, bare: element is any BinaryCodableBareElement))
            }
            return BinaryCodableNode(.unkeyed(storage))
        }
        let node = BinaryCodableNode()
        try value.encode(to: BinaryCodableValueEncoder(context: self, node: node, codingPath: codingPath))
        return node
    }

    /// Primitives, Data and [UInt8] at no nesting level; nil for other values.
    @inline(never)
    private func encodeSpecially<T: Encodable>(_ value: T, _ codingPath: [any CodingKey]) throws -> BinaryCodableNode? {
        if let primitive = value as? any BinaryCodablePrimitive {
            return BinaryCodableNode(.primitive(type(of: primitive).binaryCodableDataType, primitive.binaryCodableBytes))
        }
        if let data = value as? Data { return BinaryCodableNode(.primitive(.variableLength, [UInt8](data))) }
        if let bytes = value as? [UInt8] { return BinaryCodableNode(.primitive(.variableLength, bytes)) }
        return nil
    }

    @inline(never)
    private func tooDeep(_ type: Any.Type, _ codingPath: [any CodingKey]) -> EncodingError {
        BinaryCodingError.nestingTooDeep(offset: 0, limit: options.nestingLimit).encodingError(type, codingPath)
    }

    // MARK: Writing

    /// A node's bytes without a length or key.
    func writeContent(_ node: BinaryCodableNode, to bytes: inout [UInt8]) throws {
        switch node.kind {
        case .empty, .none:
            return
        case .primitive(_, let content):
            bytes.append(contentsOf: content)
        case .keyed(let storage):
            let keys = options.sortKeys ? storage.keys.sorted(by: BinaryCodableWireKey.precedes) : storage.keys
            for key in keys {
                guard let child = storage.values[key] else { continue }
                if case .none = child.kind { continue }
                let type = UInt64(child.dataType.rawValue)
                switch key {
                case .int(let int):
                    BinaryCodableVarint.write(UInt64(bitPattern: Int64(int) &<< 4) | type, to: &bytes)
                case .string(let string):
                    let utf8 = Array(string.utf8)
                    BinaryCodableVarint.write(UInt64(utf8.count) << 4 | 0x08 | type, to: &bytes)
                    bytes.append(contentsOf: utf8)
                }
                if child.dataType == .variableLength {
                    try writeDelimited(child, to: &bytes)
                } else {
                    try writeContent(child, to: &bytes)
                }
            }
        case .unkeyed(let storage):
            for element in storage.elements { try writeElement(element, [], to: &bytes) }
        case .optional(let element):
            guard let element else {
                bytes.append(0)
                return
            }
            bytes.append(1)
            try writeElement(element, [], to: &bytes)
        }
    }

    /// A node as an element of a sequence: bare, or an optional's presence byte and value, or
    /// length-prefixed.
    func writeElement(_ element: BinaryCodableElement, _ codingPath: [any CodingKey], to bytes: inout [UInt8]) throws {
        switch element.node.kind {
        case .optional:
            try writeContent(element.node, to: &bytes)
        case .primitive where element.bare:
            try writeContent(element.node, to: &bytes)
        default:
            try writeDelimited(element.node, to: &bytes)
        }
    }

    private func writeDelimited(_ node: BinaryCodableNode, to bytes: inout [UInt8]) throws {
        if case .primitive(_, let content) = node.kind {
            BinaryCodableVarint.write(UInt64(content.count), to: &bytes)
            bytes.append(contentsOf: content)
            return
        }
        var content: [UInt8] = []
        try writeContent(node, to: &content)
        BinaryCodableVarint.write(UInt64(content.count), to: &bytes)
        bytes.append(contentsOf: content)
    }
}

/// The `Encoder` handed to `encode(to:)`: it fills one node.
struct BinaryCodableValueEncoder: Encoder {
    let context: BinaryCodableEncodingContext
    let node: BinaryCodableNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let storage: BinaryCodableKeyedStorage
        if case .keyed(let existing) = node.kind {
            storage = existing
        } else {
            storage = BinaryCodableKeyedStorage()
            node.kind = .keyed(storage)
        }
        return KeyedEncodingContainer(BinaryCodableKeyedEncodingContainer<Key>(context: context, storage: storage, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let storage: BinaryCodableUnkeyedStorage
        if case .unkeyed(let existing) = node.kind {
            storage = existing
        } else {
            storage = BinaryCodableUnkeyedStorage()
            node.kind = .unkeyed(storage)
        }
        return BinaryCodableUnkeyedEncodingContainer(context: context, storage: storage, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        BinaryCodableSingleValueEncodingContainer(context: context, node: node, codingPath: codingPath)
    }
}

struct BinaryCodableKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let context: BinaryCodableEncodingContext
    let storage: BinaryCodableKeyedStorage
    let codingPath: [any CodingKey]

    /// The key on the wire; an integer key outside 60 bits is an error.
    private func wireKey(_ key: Key) throws -> BinaryCodableWireKey {
        let wire = BinaryCodableWireKey(key)
        if case .int(let int) = wire, !BinaryCodableWireKey.intKeyRange.contains(int) {
            throw BinaryCodingError.valueOutOfRange(offset: 0, value: "integer key \(int)", type: "a key (-2^59..<2^59)")
                .encodingError(Key.self, codingPath + [key])
        }
        return wire
    }

    /// Stores `node` under `key`; the same key twice in one container is an error (two
    /// dictionary keys such as "1" and "01" both become the integer key 1).
    private func store(_ node: BinaryCodableNode, _ key: Key) throws {
        let wire = try wireKey(key)
        guard storage.values.updateValue(node, forKey: wire) == nil else {
            throw BinaryCodingError.duplicateEntry(offset: 0).encodingError(Key.self, codingPath + [key])
        }
        storage.keys.append(wire)
    }

    /// For nested containers, which cannot throw: a bad key is reported when `encode` returns.
    private func storeDeferringErrors(_ node: BinaryCodableNode, _ key: Key) {
        do {
            try store(node, key)
        } catch let error as EncodingError {
            if context.deferredError == nil { context.deferredError = error }
        } catch {}
    }

    private func primitive(_ value: some BinaryCodablePrimitive, _ key: Key) throws {
        try store(BinaryCodableNode(.primitive(type(of: value).binaryCodableDataType, value.binaryCodableBytes)), key)
    }

    /// A nil property is left out: an absent key decodes as nil.
    mutating func encodeNil(forKey key: Key) throws {}
    mutating func encode(_ value: Bool, forKey key: Key) throws { try primitive(value, key) }
    mutating func encode(_ value: String, forKey key: Key) throws { try primitive(value, key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try primitive(value, key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try primitive(value, key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try primitive(value, key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try primitive(value, key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try primitive(value, key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try primitive(value, key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try primitive(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try primitive(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try primitive(value, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try primitive(value, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try primitive(value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try primitive(value, key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try store(try context.encodeValue(value, codingPath: codingPath + [key]), key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                        forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let storage = BinaryCodableKeyedStorage()
        storeDeferringErrors(BinaryCodableNode(.keyed(storage)), key)
        return KeyedEncodingContainer(BinaryCodableKeyedEncodingContainer<NestedKey>(
            context: context, storage: storage, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let storage = BinaryCodableUnkeyedStorage()
        storeDeferringErrors(BinaryCodableNode(.unkeyed(storage)), key)
        return BinaryCodableUnkeyedEncodingContainer(context: context, storage: storage, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        let node = BinaryCodableNode()
        let key = IndexKey(stringValue: "super") ?? IndexKey(index: 0)
        if storage.values.updateValue(node, forKey: .string("super")) == nil { storage.keys.append(.string("super")) }
        return BinaryCodableValueEncoder(context: context, node: node, codingPath: codingPath + [key])
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let node = BinaryCodableNode()
        storeDeferringErrors(node, key)
        return BinaryCodableValueEncoder(context: context, node: node, codingPath: codingPath + [key])
    }
}

struct BinaryCodableUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let context: BinaryCodableEncodingContext
    let storage: BinaryCodableUnkeyedStorage
    let codingPath: [any CodingKey]

    var count: Int { storage.elements.count }

    private func nextPath() -> [any CodingKey] { codingPath + [IndexKey(index: count)] }

    private func primitive(_ value: some BinaryCodablePrimitive) {
        storage.elements.append(BinaryCodableElement(
            node: BinaryCodableNode(.primitive(type(of: value).binaryCodableDataType, value.binaryCodableBytes)),
            bare: value is any BinaryCodableBareElement))
    }

    /// Not supported (BinaryCodable needs its `prependNilIndexSetForUnkeyedContainers` option
    /// for it): an `EncodingError`. Optional elements go through `encode(_:)` with a presence byte.
    mutating func encodeNil() throws {
        throw BinaryCodingError.unsupportedType(
            offset: 0, type: "nil",
            reason: "encodeNil() in an unkeyed container needs a nil index set, which this encoder does not write; encode an Optional instead")
            .encodingError(Optional<Int>.self, nextPath())
    }

    mutating func encode(_ value: Bool) throws { primitive(value) }
    mutating func encode(_ value: String) throws { primitive(value) }
    mutating func encode(_ value: Double) throws { primitive(value) }
    mutating func encode(_ value: Float) throws { primitive(value) }
    mutating func encode(_ value: Int) throws { primitive(value) }
    mutating func encode(_ value: Int8) throws { primitive(value) }
    mutating func encode(_ value: Int16) throws { primitive(value) }
    mutating func encode(_ value: Int32) throws { primitive(value) }
    mutating func encode(_ value: Int64) throws { primitive(value) }
    mutating func encode(_ value: UInt) throws { primitive(value) }
    mutating func encode(_ value: UInt8) throws { primitive(value) }
    mutating func encode(_ value: UInt16) throws { primitive(value) }
    mutating func encode(_ value: UInt32) throws { primitive(value) }
    mutating func encode(_ value: UInt64) throws { primitive(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let path = nextPath()
        let node = try context.encodeValue(value, codingPath: path)
        if case .none = node.kind { try encodeNil() }
        storage.elements.append(BinaryCodableElement(node: node, bare: value is any BinaryCodableBareElement))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = nextPath()
        let nested = BinaryCodableKeyedStorage()
        storage.elements.append(BinaryCodableElement(node: BinaryCodableNode(.keyed(nested)), bare: false))
        return KeyedEncodingContainer(BinaryCodableKeyedEncodingContainer<NestedKey>(context: context, storage: nested, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = nextPath()
        let nested = BinaryCodableUnkeyedStorage()
        storage.elements.append(BinaryCodableElement(node: BinaryCodableNode(.unkeyed(nested)), bare: false))
        return BinaryCodableUnkeyedEncodingContainer(context: context, storage: nested, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let path = nextPath()
        let node = BinaryCodableNode()
        storage.elements.append(BinaryCodableElement(node: node, bare: false))
        return BinaryCodableValueEncoder(context: context, node: node, codingPath: path)
    }
}

struct BinaryCodableSingleValueEncodingContainer: SingleValueEncodingContainer {
    let context: BinaryCodableEncodingContext
    let node: BinaryCodableNode
    let codingPath: [any CodingKey]

    private func primitive(_ value: some BinaryCodablePrimitive) {
        node.kind = .primitive(type(of: value).binaryCodableDataType, value.binaryCodableBytes)
    }

    /// Nil: the key is left out of its keyed container; in a sequence it is an error.
    mutating func encodeNil() throws { node.kind = .none }
    mutating func encode(_ value: Bool) throws { primitive(value) }
    mutating func encode(_ value: String) throws { primitive(value) }
    mutating func encode(_ value: Double) throws { primitive(value) }
    mutating func encode(_ value: Float) throws { primitive(value) }
    mutating func encode(_ value: Int) throws { primitive(value) }
    mutating func encode(_ value: Int8) throws { primitive(value) }
    mutating func encode(_ value: Int16) throws { primitive(value) }
    mutating func encode(_ value: Int32) throws { primitive(value) }
    mutating func encode(_ value: Int64) throws { primitive(value) }
    mutating func encode(_ value: UInt) throws { primitive(value) }
    mutating func encode(_ value: UInt8) throws { primitive(value) }
    mutating func encode(_ value: UInt16) throws { primitive(value) }
    mutating func encode(_ value: UInt32) throws { primitive(value) }
    mutating func encode(_ value: UInt64) throws { primitive(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        node.kind = try context.encodeValue(value, codingPath: codingPath).kind
    }
}
