import BinarySchema
import Foundation

/// Encodes `Encodable` values to bytes laid out by a schema struct: the inverse of
/// ``SchemaDecoder``. Properties fill the schema's fields by name (`totalLength` fills
/// `total_length`); conditions, switches and lengths are evaluated over the values written
/// before them, and the value's own lengths must agree with its bytes and arrays.
///
/// Encoding stops at the first field of the root struct the value has no property for, so a
/// type that models just a header encodes just the header: a header decoded with
/// ``SchemaDecoder`` re-encodes to the bytes it came from. DNS names are written uncompressed.
public struct SchemaEncoder {
    /// The schema that lays out the bytes.
    public let schema: Schema
    /// The struct values are written as.
    public let root: StructType
    /// How Swift property names map to schema field names.
    public var keyStrategy: SchemaKeyStrategy = .convertFromSnakeCase
    /// Passed to `encode(to:)` as `encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// An encoder writing values as struct `root` of `schema`.
    public init(schema: Schema, root: StructType) {
        self.schema = schema
        self.root = root
    }

    /// Encodes with the struct named `root`; throws if the schema has none.
    public init(schema: Schema, root: String) throws {
        guard let structure = schema.structType(named: root) else {
            throw BinaryCodingError.unsupportedType(offset: 0, type: root, reason: "the schema has no struct '\(root)'")
        }
        self.init(schema: schema, root: structure)
    }

    /// The bytes of `value`.
    public func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let layout = try LayoutCapture.capture(value, userInfo: userInfo)
        var writer = LayoutWriter(schema: schema, matchesSwiftNames: keyStrategy == .convertFromSnakeCase)
        do {
            return try writer.write(layout, root: root)
        } catch {
            let underlying: BinaryCodingError = error.isOutOfRange
                ? .valueOutOfRange(offset: error.offset, value: error.path, type: error.reason)
                : .constraintViolated(offset: error.offset, reason: "\(error.path): \(error.reason)")
            throw EncodingError.invalidValue(value, EncodingError.Context(
                codingPath: error.propertyPath.compactMap { IndexKey(stringValue: $0) },
                debugDescription: "\(error.path) at offset \(error.offset): \(error.reason)", underlyingError: underlying))
        }
    }
}

/// Records an `Encodable` value's shape (fields, elements, scalars) as a ``LayoutValue``.
enum LayoutCapture {
    static func capture<T: Encodable>(_ value: T, userInfo: [CodingUserInfoKey: any Sendable]) throws -> LayoutValue {
        let box = Box()
        try box.store(value, encoder: CaptureEncoder(box: box, codingPath: [], userInfo: userInfo))
        return box.layout
    }

    /// One value being captured; filled by whichever container its `encode(to:)` asks for.
    final class Box {
        var scalar: LayoutValue?
        var fields: [(name: String, box: Box)]?
        var elements: [Box]?

        var layout: LayoutValue {
            if let fields { return .fields(fields.map { ($0.name, $0.box.layout) }) }
            if let elements { return .elements(elements.map(\.layout)) }
            return scalar ?? .fields([])
        }

        /// Stores a value: bytes and optionals directly, anything else through its `encode(to:)`.
        func store<T: Encodable>(_ value: T, encoder: CaptureEncoder) throws {
            if let bytes = value as? [UInt8] {
                scalar = .bytes(bytes)
            } else if let data = value as? Data {
                scalar = .bytes([UInt8](data))
            } else if let optional = value as? any EncodableOptional {
                guard let wrapped = optional.wrappedEncodable else { return }
                try store(wrapped, encoder: encoder)
            } else {
                try value.encode(to: encoder)
            }
        }

        func child(_ name: String) -> Box {
            let box = Box()
            if fields == nil { fields = [] }
            fields?.append((name, box))
            return box
        }

        func element() -> Box {
            let box = Box()
            if elements == nil { elements = [] }
            elements?.append(box)
            return box
        }
    }

    struct CaptureEncoder: Encoder {
        let box: Box
        let codingPath: [any CodingKey]
        let captureUserInfo: [CodingUserInfoKey: any Sendable]
        var userInfo: [CodingUserInfoKey: Any] { captureUserInfo }

        init(box: Box, codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: any Sendable]) {
            self.box = box
            self.codingPath = codingPath
            self.captureUserInfo = userInfo
        }

        func nested(_ box: Box, _ key: any CodingKey) -> CaptureEncoder {
            CaptureEncoder(box: box, codingPath: codingPath + [key], userInfo: captureUserInfo)
        }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            if box.fields == nil { box.fields = [] }
            return KeyedEncodingContainer(KeyedCapture<Key>(encoder: self))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            if box.elements == nil { box.elements = [] }
            return UnkeyedCapture(encoder: self)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer { SingleCapture(encoder: self) }
    }

    struct KeyedCapture<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: CaptureEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }

        private func put<T: Encodable>(_ value: T, _ key: Key) throws {
            let child = encoder.box.child(key.stringValue)
            try child.store(value, encoder: encoder.nested(child, key))
        }

        mutating func encodeNil(forKey key: Key) throws {}
        mutating func encode(_ value: Bool, forKey key: Key) throws { encoder.box.child(key.stringValue).scalar = .boolean(value) }
        mutating func encode(_ value: String, forKey key: Key) throws { encoder.box.child(key.stringValue).scalar = .text(value) }
        mutating func encode(_ value: Double, forKey key: Key) throws { encoder.box.child(key.stringValue).scalar = .float(value) }
        mutating func encode(_ value: Float, forKey key: Key) throws { encoder.box.child(key.stringValue).scalar = .float(Double(value)) }
        mutating func encode(_ value: Int, forKey key: Key) throws { encoder.box.child(key.stringValue).scalar = .integer(Int64(value)) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { encoder.box.child(key.stringValue).scalar = .integer(Int64(value)) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { encoder.box.child(key.stringValue).scalar = .integer(Int64(value)) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { encoder.box.child(key.stringValue).scalar = .integer(Int64(value)) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { encoder.box.child(key.stringValue).scalar = .integer(value) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { encoder.box.child(key.stringValue).scalar = .unsigned(UInt64(value)) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { encoder.box.child(key.stringValue).scalar = .unsigned(UInt64(value)) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { encoder.box.child(key.stringValue).scalar = .unsigned(UInt64(value)) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { encoder.box.child(key.stringValue).scalar = .unsigned(UInt64(value)) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { encoder.box.child(key.stringValue).scalar = .unsigned(value) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try put(value, key) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                            forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            let child = encoder.box.child(key.stringValue)
            return encoder.nested(child, key).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let child = encoder.box.child(key.stringValue)
            return encoder.nested(child, key).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder { encoder }
        mutating func superEncoder(forKey key: Key) -> any Encoder { encoder.nested(encoder.box.child(key.stringValue), key) }
    }

    struct UnkeyedCapture: UnkeyedEncodingContainer {
        let encoder: CaptureEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }
        var count: Int { encoder.box.elements?.count ?? 0 }

        private func next() -> (Box, CaptureEncoder) {
            let key = IndexKey(index: count)
            let box = encoder.box.element()
            return (box, encoder.nested(box, key))
        }

        mutating func encodeNil() throws {}
        mutating func encode(_ value: Bool) throws { next().0.scalar = .boolean(value) }
        mutating func encode(_ value: String) throws { next().0.scalar = .text(value) }
        mutating func encode(_ value: Double) throws { next().0.scalar = .float(value) }
        mutating func encode(_ value: Float) throws { next().0.scalar = .float(Double(value)) }
        mutating func encode(_ value: Int) throws { next().0.scalar = .integer(Int64(value)) }
        mutating func encode(_ value: Int8) throws { next().0.scalar = .integer(Int64(value)) }
        mutating func encode(_ value: Int16) throws { next().0.scalar = .integer(Int64(value)) }
        mutating func encode(_ value: Int32) throws { next().0.scalar = .integer(Int64(value)) }
        mutating func encode(_ value: Int64) throws { next().0.scalar = .integer(value) }
        mutating func encode(_ value: UInt) throws { next().0.scalar = .unsigned(UInt64(value)) }
        mutating func encode(_ value: UInt8) throws { next().0.scalar = .unsigned(UInt64(value)) }
        mutating func encode(_ value: UInt16) throws { next().0.scalar = .unsigned(UInt64(value)) }
        mutating func encode(_ value: UInt32) throws { next().0.scalar = .unsigned(UInt64(value)) }
        mutating func encode(_ value: UInt64) throws { next().0.scalar = .unsigned(value) }
        mutating func encode<T: Encodable>(_ value: T) throws {
            let (box, nested) = next()
            try box.store(value, encoder: nested)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            next().1.container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { next().1.unkeyedContainer() }
        mutating func superEncoder() -> any Encoder { next().1 }
    }

    struct SingleCapture: SingleValueEncodingContainer {
        let encoder: CaptureEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }

        mutating func encodeNil() throws {}
        mutating func encode(_ value: Bool) throws { encoder.box.scalar = .boolean(value) }
        mutating func encode(_ value: String) throws { encoder.box.scalar = .text(value) }
        mutating func encode(_ value: Double) throws { encoder.box.scalar = .float(value) }
        mutating func encode(_ value: Float) throws { encoder.box.scalar = .float(Double(value)) }
        mutating func encode(_ value: Int) throws { encoder.box.scalar = .integer(Int64(value)) }
        mutating func encode(_ value: Int8) throws { encoder.box.scalar = .integer(Int64(value)) }
        mutating func encode(_ value: Int16) throws { encoder.box.scalar = .integer(Int64(value)) }
        mutating func encode(_ value: Int32) throws { encoder.box.scalar = .integer(Int64(value)) }
        mutating func encode(_ value: Int64) throws { encoder.box.scalar = .integer(value) }
        mutating func encode(_ value: UInt) throws { encoder.box.scalar = .unsigned(UInt64(value)) }
        mutating func encode(_ value: UInt8) throws { encoder.box.scalar = .unsigned(UInt64(value)) }
        mutating func encode(_ value: UInt16) throws { encoder.box.scalar = .unsigned(UInt64(value)) }
        mutating func encode(_ value: UInt32) throws { encoder.box.scalar = .unsigned(UInt64(value)) }
        mutating func encode(_ value: UInt64) throws { encoder.box.scalar = .unsigned(value) }
        mutating func encode<T: Encodable>(_ value: T) throws { try encoder.box.store(value, encoder: encoder) }
    }
}
