/// Why an archive could not be written or read. Thrown wrapped in Swift's `EncodingError` /
/// `DecodingError` (whose `codingPath` says which property) with this as the `underlyingError`;
/// errors in the bytes themselves carry the byte offset.
public enum KeyedArchiveError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The bytes do not start with the archive's magic `KARC`.
    case badMagic
    /// An archive version this code does not read.
    case unsupportedVersion(UInt8)
    /// The bytes end inside a value: it needed `needed` bytes at `offset`, `available` were left.
    case prematureEnd(offset: Int, needed: Int, available: Int)
    /// A count or length larger than the bytes left could hold.
    case countTooLarge(offset: Int, count: UInt64, available: Int)
    /// A varint longer than needed, or past 64 bits: each number has one encoding.
    case badVarint(offset: Int)
    /// Bytes that are not UTF-8 where a key or string was expected.
    case invalidUTF8(offset: Int)
    /// A value tag the format does not define.
    case unknownTag(offset: Int, tag: UInt8)
    /// A key or class name index past the symbol table.
    case undefinedSymbol(offset: Int, index: UInt64, count: Int)
    /// The same string twice in the symbol table.
    case duplicateSymbol(offset: Int, symbol: String)
    /// A reference to an object the object table does not define.
    case undefinedObject(offset: Int, index: UInt64, count: Int)
    /// The same key twice in one keyed container.
    case duplicateKey(offset: Int, key: String)
    /// Containers nested deeper than the nesting limit (objects decoded inside objects count).
    case nestingTooDeep(offset: Int?, limit: Int)
    /// Bytes after the root value.
    case trailingBytes(offset: Int, count: Int)
    /// A class instance whose dynamic type is not registered (encoding), or a class name the
    /// unarchiver has no type for (decoding).
    case unregisteredType(String)
    /// A key encoded twice into one container, as when a subclass encodes a key its superclass
    /// encodes: superclasses and subclasses share one container.
    case keyCollision(key: String, type: String)
    /// A class instance needed while it is still being decoded: a reference cycle, which
    /// `init(from:)` cannot close. Decode that reference in ``ArchiveRestorable/restored(from:)``.
    case referenceCycle(object: Int, type: String)
    /// The registered class `name` is not the type asked for, nor a subclass of it.
    case classMismatch(name: String, expected: String)
    /// A number that does not fit the Swift type asked for.
    case valueOutOfRange(value: String, type: String)

    /// What went wrong, and where, for messages.
    public var description: String {
        switch self {
        case .badMagic: return "not a keyed archive: the bytes do not start with \"KARC\""
        case .unsupportedVersion(let version): return "unsupported keyed archive version \(version) (this code reads 1)"
        case .prematureEnd(let offset, let needed, let available):
            return "premature end of data: needs \(needed) byte\(needed == 1 ? "" : "s") at offset \(offset), \(available) available"
        case .countTooLarge(let offset, let count, let available):
            return "count \(count) at offset \(offset) is more than the \(available) bytes left can hold"
        case .badVarint(let offset): return "malformed varint at offset \(offset): longer than needed or past 64 bits"
        case .invalidUTF8(let offset): return "invalid UTF-8 at offset \(offset)"
        case .unknownTag(let offset, let tag): return "unknown value tag \(tag) at offset \(offset)"
        case .undefinedSymbol(let offset, let index, let count):
            return "symbol \(index) at offset \(offset) is not in the symbol table (\(count) symbols)"
        case .duplicateSymbol(let offset, let symbol): return "symbol \"\(symbol)\" at offset \(offset) is already in the symbol table"
        case .undefinedObject(let offset, let index, let count):
            return "reference to object #\(index) at offset \(offset), which is not defined (\(count) objects)"
        case .duplicateKey(let offset, let key): return "key \"\(key)\" at offset \(offset) appears twice in one container"
        case .nestingTooDeep(let offset, let limit):
            return "nesting too deep: more than \(limit) levels" + (offset.map { " at offset \($0)" } ?? "")
        case .trailingBytes(let offset, let count): return "\(count) byte\(count == 1 ? "" : "s") left after the root value at offset \(offset)"
        case .unregisteredType(let name): return "type \(name) is not registered with the archiver or unarchiver"
        case .keyCollision(let key, let type):
            return "key \"\(key)\" encoded twice by \(type): a subclass and its superclass share one set of keys"
        case .referenceCycle(let object, let type):
            return "reference cycle: object #\(object) (\(type)) is needed while it is being decoded; decode it in restored(from:)"
        case .classMismatch(let name, let expected): return "archived class \"\(name)\" is not \(expected) or a subclass of it"
        case .valueOutOfRange(let value, let type): return "value out of range: \(value) does not fit \(type)"
        }
    }

    func decodingError(_ codingPath: [any CodingKey]) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: description, underlyingError: self))
    }

    func encodingError(_ type: Any.Type, _ codingPath: [any CodingKey]) -> EncodingError {
        .invalidValue(String(describing: type), EncodingError.Context(codingPath: codingPath, debugDescription: description,
                                                                      underlyingError: self))
    }
}

/// The classes an archive may name, for class hierarchies: an `[Animal]` holding a `Dog` and a
/// `Cat` archives each element's class name, and unarchives each as that class.
///
/// ```swift
/// var types = KeyedArchiveTypes()
/// types.register(Dog.self, as: "Dog")
/// types.register(Cat.self, as: "Cat")
/// ```
///
/// An instance whose class is not the static type being encoded (a `Dog` in an `[Animal]`) must
/// be registered; a class that is exactly the static type need not be. Registering a name or
/// a class again replaces the earlier registration.
public struct KeyedArchiveTypes: @unchecked Sendable {
    // Metatypes are immutable; the dictionaries are values. (@unchecked: `any Decodable.Type` is not Sendable.)
    private var typesByName: [String: any (AnyObject & Codable).Type] = [:]
    private var namesByType: [ObjectIdentifier: String] = [:]

    /// No registered classes.
    public init() {}

    /// Archives instances of exactly `type` under `name`, and unarchives `name` as `type`.
    public mutating func register<T: AnyObject & Codable>(_ type: T.Type, as name: String) {
        if let previous = typesByName[name] { namesByType[ObjectIdentifier(previous)] = nil }
        if let previousName = namesByType[ObjectIdentifier(type)] { typesByName[previousName] = nil }
        typesByName[name] = type
        namesByType[ObjectIdentifier(type)] = name
    }

    func name(of type: Any.Type) -> String? {
        namesByType[ObjectIdentifier(type)]
    }

    func type(named name: String) -> (any (AnyObject & Codable).Type)? {
        typesByName[name]
    }
}
