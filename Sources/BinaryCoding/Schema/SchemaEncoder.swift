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
    /// Deepest nesting of structs written (`Interpreter.Options.nestingLimit`), clamped as it is.
    public var nestingLimit: Int = Interpreter.Options.defaultNestingLimit {
        didSet { nestingLimit = min(max(0, nestingLimit), Interpreter.Options.maximumNestingLimit) }
    }

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
        var writer = LayoutWriter(schema: schema, matchesSwiftNames: keyStrategy == .convertFromSnakeCase,
                                  nestingLimit: nestingLimit)
        do {
            return try writer.write(layout, root: root)
        } catch {
            let underlying: BinaryCodingError = error.isOutOfRange
                ? .valueOutOfRange(offset: error.offset, value: error.path, type: error.reason)
                : .constraintViolated(offset: error.offset, reason: "\(error.path): \(error.reason)")
            // The type's name, not the value: see BinaryCodingError.encodingError.
            throw EncodingError.invalidValue(String(describing: T.self), EncodingError.Context(
                codingPath: error.propertyPath.compactMap { IndexKey(stringValue: $0) },
                debugDescription: "\(error.path) at offset \(error.offset): \(error.reason)", underlyingError: underlying))
        }
    }
}

/// Records an `Encodable` value's shape (fields, elements, scalars) as a ``LayoutValue``.
///
/// Capturing recurses once per level of the value, and so do building and comparing the
/// layout, so it stops at ``BinaryCodingOptions/maximumNestingLimit`` levels with
/// `nestingTooDeep`, the bound the sequential coders keep on a 512 KiB stack.
enum LayoutCapture {
    static let nestingLimit = BinaryCodingOptions.maximumNestingLimit
    /// Containers per value level: an enum case's associated value sits in a container nested
    /// under the case's key, so paths grow two keys per level.
    static let pathLimit = 2 * nestingLimit

    static func capture<T: Encodable>(_ value: T, userInfo: [CodingUserInfoKey: any Sendable]) throws -> LayoutValue {
        let box = Box()
        let depth = Depth()
        try box.store(value, encoder: CaptureEncoder(box: box, codingPath: [], userInfo: userInfo, depth: depth))
        if let tooDeep = depth.exceededAt {
            // A container nested past the limit without a value stored in it: its box was left out of the tree.
            throw BinaryCodingError.nestingTooDeep(offset: 0, limit: pathLimit).encodingError(T.self, tooDeep)
        }
        return box.layout
    }

    /// How deep the capture is, shared by every container of one capture.
    final class Depth {
        var current = 0
        /// Where a nested container first went past the limit.
        var exceededAt: [any CodingKey]?
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

        /// Stores a value: bytes, optionals and sets directly, anything else through its `encode(to:)`.
        func store<T: Encodable>(_ value: T, encoder: CaptureEncoder) throws {
            let depth = encoder.depth
            depth.current += 1
            defer { depth.current -= 1 }
            guard depth.current <= LayoutCapture.nestingLimit, encoder.codingPath.count < LayoutCapture.pathLimit else {
                throw Self.tooDeep(T.self, encoder.codingPath)
            }
            if try storeSpecially(value, encoder: encoder) { return }
            try value.encode(to: encoder)
        }

        // store recurses once per nesting level: the casts and the error are out of line, so
        // they take no room in its frame.

        @inline(never)
        private static func tooDeep(_ type: Any.Type, _ codingPath: [any CodingKey]) -> EncodingError {
            BinaryCodingError.nestingTooDeep(offset: 0, limit: LayoutCapture.nestingLimit).encodingError(type, codingPath)
        }

        /// Bytes, optionals and sets; false for other values.
        @inline(never)
        private func storeSpecially<T: Encodable>(_ value: T, encoder: CaptureEncoder) throws -> Bool {
            if let bytes = value as? [UInt8] {
                scalar = .bytes(bytes)
            } else if let data = value as? Data {
                scalar = .bytes([UInt8](data))
            } else if let optional = value as? any EncodableOptional {
                guard let wrapped = optional.wrappedEncodable else { return true }
                try store(wrapped, encoder: encoder)
            } else if let set = value as? any EncodableSet {
                // As Set.encode(to:) would, in one order: equal sets give equal bytes.
                var elements = encoder.unkeyedContainer()
                for element in set.canonicalElements { try elements.encode(element) }
            } else {
                return false
            }
            return true
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
        let depth: Depth
        var userInfo: [CodingUserInfoKey: Any] { captureUserInfo }

        init(box: Box, codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: any Sendable], depth: Depth) {
            self.box = box
            self.codingPath = codingPath
            self.captureUserInfo = userInfo
            self.depth = depth
        }

        func nested(_ box: Box, _ key: any CodingKey) -> CaptureEncoder {
            CaptureEncoder(box: box, codingPath: codingPath + [key], userInfo: captureUserInfo, depth: depth)
        }

        /// The encoder for a field's box: past the path limit the box is detached (its
        /// container cannot throw, so the capture throws once it is done).
        func child(_ key: any CodingKey) -> CaptureEncoder {
            guard codingPath.count < LayoutCapture.pathLimit else { return detached(key) }
            return nested(box.child(key.stringValue), key)
        }

        /// The encoder for an element's box, detached past the path limit as for ``child(_:)``.
        func element(_ key: any CodingKey) -> CaptureEncoder {
            guard codingPath.count < LayoutCapture.pathLimit else { return detached(key) }
            return nested(box.element(), key)
        }

        private func detached(_ key: any CodingKey) -> CaptureEncoder {
            if depth.exceededAt == nil { depth.exceededAt = codingPath + [key] }
            return CaptureEncoder(box: Box(), codingPath: codingPath, userInfo: captureUserInfo, depth: depth)
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
            let child = encoder.child(key)
            try child.box.store(value, encoder: child)
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
            encoder.child(key).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            encoder.child(key).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder { encoder }
        mutating func superEncoder(forKey key: Key) -> any Encoder { encoder.child(key) }
    }

    struct UnkeyedCapture: UnkeyedEncodingContainer {
        let encoder: CaptureEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }
        var count: Int { encoder.box.elements?.count ?? 0 }

        private func next() -> (Box, CaptureEncoder) {
            let element = encoder.element(IndexKey(index: count))
            return (element.box, element)
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
