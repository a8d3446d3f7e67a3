import BinarySchema
import Foundation

/// Decodes `Decodable` types from bytes laid out by a schema struct: the schema gives
/// widths, byte order, bit fields, lengths and dispatch; the Swift type names the fields it
/// wants. Walks the bytes with the same interpreter as the dissector, then fills the type.
///
/// ```swift
/// let decoder = try SchemaDecoder(schema: SchemaLoader.loadBundled(), root: "IPv4")
/// let header = try decoder.decode(IPv4Header.self, from: packet)
/// ```
///
/// Swift properties match schema fields by name: `totalLength` reads `total_length` (see
/// ``SchemaKeyStrategy``). A property the schema lacks is `keyNotFound`; schema fields the type does
/// not ask for are skipped. An optional property is nil when its conditional field is absent.
/// Malformed bytes fail only when a property needs a field at or after the damage: the error
/// is a `DecodingError` at that property, with a ``BinaryCodingError`` naming the offset.
///
/// A decoder reuses its working memory between calls: use one per thread.
public struct SchemaDecoder {
    /// The schema that lays out the bytes.
    public let schema: Schema
    /// The struct the bytes are read as.
    public let root: StructType
    /// How Swift property names map to schema field names.
    public var keyStrategy: SchemaKeyStrategy = .convertFromSnakeCase
    /// Passed to `init(from:)` as `decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    private let workspace: Workspace

    /// Decodes with `root` as the layout of the top-level type.
    public init(schema: Schema, root: StructType, options: Interpreter.Options = Interpreter.Options()) {
        self.schema = schema
        self.root = root
        self.workspace = Workspace(interpreter: Interpreter(schema: schema, options: options))
    }

    /// Decodes with the struct named `root`; throws if the schema has none.
    public init(schema: Schema, root: String, options: Interpreter.Options = Interpreter.Options()) throws {
        guard let structure = schema.structType(named: root) else {
            throw BinaryCodingError.unsupportedType(offset: 0, type: root,
                                                    reason: "the schema has no struct '\(root)'")
        }
        self.init(schema: schema, root: structure, options: options)
    }

    /// Decodes a `T` from `bytes`.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        let strategy = keyStrategy
        let info: [CodingUserInfoKey: Any] = userInfo
        return try workspace.interpreter.withDissection(of: bytes, root: root) { dissection in
            let context = SchemaDecodingContext(dissection: dissection, strategy: strategy, userInfo: info)
            return try context.decodeValue(type, node: 0, codingPath: [])
        }
    }

    /// Decodes a `T` from `data`.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try decode(type, from: [UInt8](data))
    }

    /// Holds the interpreter whose working memory successive decodes reuse.
    private final class Workspace {
        var interpreter: Interpreter

        init(interpreter: Interpreter) {
            self.interpreter = interpreter
        }
    }
}

/// How Swift property names are matched to schema field names by ``SchemaDecoder`` and ``SchemaEncoder``.
public enum SchemaKeyStrategy: Sendable {
    /// `totalLength` matches `total_length` (the default).
    case convertFromSnakeCase
    /// Names must be equal.
    case useSchemaNames
}

/// One decode's dissection and settings.
final class SchemaDecodingContext {
    /// Deepest nesting of Swift values: a struct and an array for each of the interpreter's
    /// 64 struct levels. Only a type can nest deeper (through single-value containers on one
    /// node); measured in a debug build with such a type, 128 levels take about 167 KiB of
    /// stack (1.3 KB a level), a third of a 512 KiB thread stack.
    static let nestingLimit = 128

    let dissection: Dissection
    let strategy: SchemaKeyStrategy
    let userInfo: [CodingUserInfoKey: Any]
    @exclusivity(unchecked) var depth = 0

    init(dissection: Dissection, strategy: SchemaKeyStrategy, userInfo: [CodingUserInfoKey: Any]) {
        self.dissection = dissection
        self.strategy = strategy
        self.userInfo = userInfo
    }

    func decodeValue<T: Decodable>(_ type: T.Type, node: Int, codingPath: [any CodingKey]) throws -> T {
        try checkReadable(node, codingPath)
        if T.self == [UInt8].self || T.self == Data.self, let bytes = try decodeBytes(T.self, node, codingPath) { return bytes }
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.nestingLimit else { throw tooDeep(node, codingPath) }
        if let set = try decodeSet(T.self, node, codingPath) { return set }
        return try T(from: SchemaValueDecoder(context: self, node: node, codingPath: codingPath))
    }

    // decodeValue recurses once per nesting level: what it would keep in its frame is out of line.

    @inline(never)
    private func decodeBytes<T: Decodable>(_ type: T.Type, _ node: Int, _ codingPath: [any CodingKey]) throws -> T? {
        let bytes = try byteArray(node, codingPath)
        let converted: Any = T.self == Data.self ? Data(bytes) : bytes
        return converted as? T
    }

    @inline(never)
    private func tooDeep(_ node: Int, _ codingPath: [any CodingKey]) -> DecodingError {
        BinaryCodingError.nestingTooDeep(offset: dissection.nodes[node].byteOffset, limit: Self.nestingLimit)
            .decodingError(codingPath)
    }

    /// A `Set`, whose elements must differ; nil for other types.
    @inline(never)
    private func decodeSet<T: Decodable>(_ type: T.Type, _ node: Int, _ codingPath: [any CodingKey]) throws -> T? {
        guard let set = T.self as? any DecodableSet.Type else { return nil }
        return try set.decodeElements(from: self, node: node, codingPath: codingPath) as? T
    }

    /// Fails at a node the walk could not read: the failing field itself.
    func checkReadable(_ node: Int, _ codingPath: @autoclosure () -> [any CodingKey]) throws {
        if let error = dissection.error, error.node == node { throw Self.convert(error).decodingError(codingPath()) }
    }

    /// The walk's own error, for a field that is missing because the walk stopped before it.
    func walkError(_ codingPath: [any CodingKey]) -> DecodingError? {
        dissection.error.map { Self.convert($0).decodingError(codingPath) }
    }

    static func convert(_ error: DissectionError) -> BinaryCodingError {
        switch error.kind {
        case .prematureEnd(let needed, let available):
            return .prematureEnd(offset: error.offset, needed: needed, available: available)
        case .boolOutOfRange(let byte):
            return .boolOutOfRange(offset: error.offset, byte: byte)
        case .depthLimit(let limit):
            return .nestingTooDeep(offset: error.offset, limit: limit)
        default:
            return .constraintViolated(offset: error.offset, reason: error.description)
        }
    }

    // MARK: Node values

    func integer<T: FixedWidthInteger>(_ type: T.Type, _ node: Int, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> T {
        try checkReadable(node, codingPath())
        let entry = dissection.nodes[node]
        let converted: T?
        switch entry.value {
        case .unsigned(let value): converted = T(exactly: value)
        case .signed(let value): converted = T(exactly: value)
        case .boolean(let value): converted = value ? 1 : 0
        default: throw mismatch(String(describing: T.self), node, codingPath())
        }
        guard let converted else {
            let text: String
            switch entry.value {
            case .unsigned(let value): text = String(value)
            case .signed(let value): text = String(value)
            default: text = "?"
            }
            throw BinaryCodingError.valueOutOfRange(offset: entry.byteOffset, value: text, type: String(describing: T.self))
                .decodingError(codingPath())
        }
        return converted
    }

    func bool(_ node: Int, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> Bool {
        try checkReadable(node, codingPath())
        switch dissection.nodes[node].value {
        case .boolean(let value): return value
        case .unsigned(let value) where value <= 1: return value == 1
        case .unsigned(let value):
            throw BinaryCodingError.boolOutOfRange(offset: dissection.nodes[node].byteOffset, byte: UInt8(clamping: value))
                .decodingError(codingPath())
        default: throw mismatch("Bool", node, codingPath())
        }
    }

    func double(_ node: Int, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> Double {
        try checkReadable(node, codingPath())
        switch dissection.nodes[node].value {
        case .float(let value): return value
        case .unsigned(let value): return Double(value)
        case .signed(let value): return Double(value)
        default: throw mismatch("Double", node, codingPath())
        }
    }

    func string(_ node: Int, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> String {
        try checkReadable(node, codingPath())
        let entry = dissection.nodes[node]
        if entry.isInvalidText {
            // The dissector shows such text escaped; a String property must not hold made-up characters.
            let range = dissection.textByteRange(of: entry)
            let offset = entry.textEncoding.firstInvalid(dissection.bytes, in: range) ?? range.lowerBound
            let error: BinaryCodingError = entry.textEncoding == .utf8 ? .invalidUTF8(offset: offset)
                : .invalidText(offset: offset, encoding: entry.textEncoding.name)
            throw error.decodingError(codingPath())
        }
        guard let text = dissection.text(of: node) else { throw mismatch("String", node, codingPath()) }
        return text
    }

    func byteArray(_ node: Int, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> [UInt8] {
        let entry = dissection.nodes[node]
        switch entry.kind {
        case .bytes, .string:
            return Array(dissection.rawBytes(of: node))
        case .array:
            return try dissection.children(of: node).map { try integer(UInt8.self, $0, codingPath()) }
        default:
            throw mismatch("[UInt8]", node, codingPath())
        }
    }

    func mismatch(_ type: String, _ node: Int, _ codingPath: @autoclosure () -> [any CodingKey]) -> DecodingError {
        let field = dissection.path(of: node)
        return BinaryCodingError.unsupportedType(offset: dissection.nodes[node].byteOffset, type: type,
                                                 reason: "schema field \(field) is \(describe(node))")
            .decodingError(codingPath())
    }

    private func describe(_ node: Int) -> String {
        switch dissection.nodes[node].kind {
        case .structure: return "a struct"
        case .array: return "an array"
        case .integer: return "an integer"
        case .enumeration: return "an enum"
        case .float: return "a float"
        case .boolean: return "a bool"
        case .bytes: return "bytes"
        case .string: return "a string"
        case .dnsName: return "a DNS name"
        }
    }

    /// Whether a schema field name matches a Swift key.
    func matches(_ field: Field, _ key: String) -> Bool {
        switch strategy {
        case .convertFromSnakeCase: return field.swiftName == key
        case .useSchemaNames: return field.name == key
        }
    }
}

struct SchemaValueDecoder: Decoder {
    let context: SchemaDecodingContext
    let node: Int
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .structure = context.dissection.nodes[node].kind else {
            throw context.mismatch("a struct (keyed container)", node, codingPath)
        }
        return KeyedDecodingContainer(SchemaKeyedDecodingContainer<Key>(context: context, node: node, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array = context.dissection.nodes[node].kind else {
            throw context.mismatch("an array (unkeyed container)", node, codingPath)
        }
        return SchemaUnkeyedDecodingContainer(context: context, elements: context.dissection.children(of: node),
                                              codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SchemaSingleValueDecodingContainer(context: context, node: node, codingPath: codingPath)
    }
}

/// A class, so the standard library's container box copies one reference per call, and so the
/// lookup hint can move.
final class SchemaKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let context: SchemaDecodingContext
    let node: Int
    let codingPath: [any CodingKey]
    private let nodes: FieldNodes
    /// Where the last field was found: properties usually come in schema order, so the next
    /// lookup starts there.
    private var hint: Int

    init(context: SchemaDecodingContext, node: Int, codingPath: [any CodingKey]) {
        self.context = context
        self.node = node
        self.codingPath = codingPath
        self.nodes = context.dissection.nodes
        self.hint = node + 1
    }

    var allKeys: [Key] {
        context.dissection.children(of: node).compactMap { child in
            context.dissection.field(of: child).flatMap { field in
                Key(stringValue: context.strategy == .convertFromSnakeCase ? field.swiftName : field.name)
            }
        }
    }

    /// The direct child read for `key`, or nil when the walk did not read it.
    private func child(_ key: Key) -> Int? {
        let end = min(Int(nodes[node].subtreeEnd), nodes.count)
        let start = min(hint, end)
        let name = key.stringValue
        return scan(from: start, to: end, name) ?? scan(from: node + 1, to: start, name)
    }

    /// Searches the direct children starting in `start..<end` for the field named `name`.
    private func scan(from start: Int, to end: Int, _ name: String) -> Int? {
        let fields = context.dissection.schema.fields
        var index = start
        while index < end {
            let entry = nodes[index]
            let next = max(index + 1, Int(entry.subtreeEnd))
            if entry.fieldID >= 0, context.matches(fields[Int(entry.fieldID)], name) {
                hint = next
                return index
            }
            index = next
        }
        return nil
    }

    private func path(_ key: Key) -> [any CodingKey] { codingPath + [key] }

    /// The child for `key`, or the error that explains why there is none.
    private func required(_ key: Key) throws -> Int {
        if let found = child(key) { return found }
        if let walkError = context.walkError(path(key)) { throw walkError }
        let structName = context.dissection.structType(of: node)?.name ?? "struct"
        let declared = context.dissection.structType(of: node)?.fields.contains { context.matches($0, key.stringValue) } ?? false
        let reason = declared ? "field of \(structName) is absent here (its condition does not hold)"
            : "schema struct \(structName) has no field for this key"
        throw DecodingError.keyNotFound(key, DecodingError.Context(codingPath: codingPath, debugDescription: reason))
    }

    func contains(_ key: Key) -> Bool { child(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool { child(key) == nil }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try context.bool(try required(key), path(key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try context.string(try required(key), path(key)) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try context.double(try required(key), path(key)) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try context.double(try required(key), path(key))) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try context.integer(Int.self, try required(key), path(key)) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try context.integer(Int8.self, try required(key), path(key)) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try context.integer(Int16.self, try required(key), path(key)) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try context.integer(Int32.self, try required(key), path(key)) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try context.integer(Int64.self, try required(key), path(key)) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try context.integer(UInt.self, try required(key), path(key)) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try context.integer(UInt8.self, try required(key), path(key)) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try context.integer(UInt16.self, try required(key), path(key)) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try context.integer(UInt32.self, try required(key), path(key)) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try context.integer(UInt64.self, try required(key), path(key)) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try context.decodeValue(type, node: try required(key), codingPath: path(key))
    }

    /// A conditional field that is absent decodes as nil; one the walk never reached because
    /// the bytes stopped is still an error.
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        if let found = child(key) { return try context.decodeValue(type, node: found, codingPath: path(key)) }
        if let walkError = context.walkError(path(key)), walkStoppedBefore(key) { throw walkError }
        return nil
    }

    /// Whether the walk stopped inside this struct before reaching `key`'s field.
    private func walkStoppedBefore(_ key: Key) -> Bool {
        guard let error = context.dissection.error else { return false }
        let nodes = context.dissection.nodes
        guard error.node > node, error.node < Int(nodes[node].subtreeEnd) else { return false }
        guard let fields = context.dissection.structType(of: node)?.fields,
              let wanted = fields.firstIndex(where: { context.matches($0, key.stringValue) }) else { return false }
        // The failing node's own field in this struct: the direct child containing it.
        var ancestor = error.node
        while ancestor >= 0, Int(nodes[ancestor].parent) != node { ancestor = Int(nodes[ancestor].parent) }
        guard ancestor >= 0, let failing = context.dissection.field(of: ancestor),
              let failingIndex = fields.firstIndex(where: { $0.slot == failing.slot }) else { return true }
        return wanted >= failingIndex
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type,
                                               forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try SchemaValueDecoder(context: context, node: try required(key), codingPath: path(key)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try SchemaValueDecoder(context: context, node: try required(key), codingPath: path(key)).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { SchemaValueDecoder(context: context, node: node, codingPath: codingPath) }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        SchemaValueDecoder(context: context, node: try required(key), codingPath: path(key))
    }
}

struct SchemaUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let context: SchemaDecodingContext
    let elements: [Int]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(context: SchemaDecodingContext, elements: [Int], codingPath: [any CodingKey]) {
        self.context = context
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next() throws -> (node: Int, path: [any CodingKey]) {
        let path = codingPath + [IndexKey(index: currentIndex)]
        guard currentIndex < elements.count else {
            throw DecodingError.valueNotFound(Any.self, DecodingError.Context(
                codingPath: path, debugDescription: "the array holds \(elements.count) elements"))
        }
        currentIndex += 1
        return (elements[currentIndex - 1], path)
    }

    mutating func decodeNil() throws -> Bool { false }
    mutating func decode(_ type: Bool.Type) throws -> Bool { let (n, p) = try next(); return try context.bool(n, p) }
    mutating func decode(_ type: String.Type) throws -> String { let (n, p) = try next(); return try context.string(n, p) }
    mutating func decode(_ type: Double.Type) throws -> Double { let (n, p) = try next(); return try context.double(n, p) }
    mutating func decode(_ type: Float.Type) throws -> Float { let (n, p) = try next(); return Float(try context.double(n, p)) }
    mutating func decode(_ type: Int.Type) throws -> Int { let (n, p) = try next(); return try context.integer(Int.self, n, p) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { let (n, p) = try next(); return try context.integer(Int8.self, n, p) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { let (n, p) = try next(); return try context.integer(Int16.self, n, p) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { let (n, p) = try next(); return try context.integer(Int32.self, n, p) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { let (n, p) = try next(); return try context.integer(Int64.self, n, p) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { let (n, p) = try next(); return try context.integer(UInt.self, n, p) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { let (n, p) = try next(); return try context.integer(UInt8.self, n, p) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { let (n, p) = try next(); return try context.integer(UInt16.self, n, p) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { let (n, p) = try next(); return try context.integer(UInt32.self, n, p) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { let (n, p) = try next(); return try context.integer(UInt64.self, n, p) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (node, path) = try next()
        return try context.decodeValue(type, node: node, codingPath: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (node, path) = try next()
        return try SchemaValueDecoder(context: context, node: node, codingPath: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (node, path) = try next()
        return try SchemaValueDecoder(context: context, node: node, codingPath: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (node, path) = try next()
        return SchemaValueDecoder(context: context, node: node, codingPath: path)
    }
}

struct SchemaSingleValueDecodingContainer: SingleValueDecodingContainer {
    let context: SchemaDecodingContext
    let node: Int
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { false }
    func decode(_ type: Bool.Type) throws -> Bool { try context.bool(node, codingPath) }
    func decode(_ type: String.Type) throws -> String { try context.string(node, codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try context.double(node, codingPath) }
    func decode(_ type: Float.Type) throws -> Float { Float(try context.double(node, codingPath)) }
    func decode(_ type: Int.Type) throws -> Int { try context.integer(Int.self, node, codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try context.integer(Int8.self, node, codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try context.integer(Int16.self, node, codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try context.integer(Int32.self, node, codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try context.integer(Int64.self, node, codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try context.integer(UInt.self, node, codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try context.integer(UInt8.self, node, codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try context.integer(UInt16.self, node, codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try context.integer(UInt32.self, node, codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try context.integer(UInt64.self, node, codingPath) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try context.decodeValue(type, node: node, codingPath: codingPath) }
}
