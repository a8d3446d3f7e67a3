/// Why binary decoding or encoding failed, with the byte offset where it did. Thrown to
/// callers wrapped in Swift's `DecodingError` / `EncodingError`, whose `codingPath` says which
/// property, with this as the `underlyingError`.
public enum BinaryCodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The input ends before the value: it needed `needed` bytes at `offset`, `available` were left.
    case prematureEnd(offset: Int, needed: Int, available: Int)
    /// A `Bool` (or an optional's presence flag) byte other than 0 or 1.
    case boolOutOfRange(offset: Int, byte: UInt8)
    /// Bytes that are not UTF-8 where a `String` was expected.
    case invalidUTF8(offset: Int)
    /// Bytes that are not text in the schema field's encoding (`ascii`, `utf-16le`, ...) where a `String` was expected.
    case invalidText(offset: Int, encoding: String)
    /// A value that does not fit the Swift type asked for (e.g. 300 into `UInt8`, a varint past 64 bits).
    case valueOutOfRange(offset: Int, value: String, type: String)
    /// A type this coder cannot represent, or a schema field that cannot become it.
    case unsupportedType(offset: Int, type: String, reason: String)
    /// A schema constraint or length that the value or bytes break.
    case constraintViolated(offset: Int, reason: String)
    /// Values nested deeper than the nesting limit.
    case nestingTooDeep(offset: Int, limit: Int)
    /// An encoding the encoder would never write, such as a varint with needless bytes: each
    /// value has one encoding, so what decodes re-encodes to the same bytes.
    case nonCanonical(offset: Int, reason: String)
    /// A dictionary key or set element equal to one before it in the same collection: a
    /// `Dictionary` or `Set` would drop it silently, so the value would not be what the bytes say.
    case duplicateEntry(offset: Int)

    /// The byte offset the error is at.
    public var offset: Int {
        switch self {
        case .prematureEnd(let offset, _, _), .boolOutOfRange(let offset, _), .invalidUTF8(let offset), .invalidText(let offset, _),
            .valueOutOfRange(let offset, _, _), .unsupportedType(let offset, _, _), .constraintViolated(let offset, _),
            .nestingTooDeep(let offset, _), .nonCanonical(let offset, _), .duplicateEntry(let offset):
            return offset
        }
    }

    /// What went wrong and at which offset, for messages.
    public var description: String {
        switch self {
        case .prematureEnd(let offset, let needed, let available):
            return "premature end of data: needs \(needed) byte\(needed == 1 ? "" : "s") at offset \(offset), \(available) available"
        case .boolOutOfRange(let offset, let byte):
            return "bool out of range: byte \(byte) at offset \(offset); a bool is 0 or 1"
        case .invalidUTF8(let offset):
            return "invalid UTF-8 at offset \(offset)"
        case .invalidText(let offset, let encoding):
            return "invalid \(encoding) text at offset \(offset)"
        case .valueOutOfRange(let offset, let value, let type):
            return "value out of range: \(value) does not fit \(type), at offset \(offset)"
        case .unsupportedType(let offset, let type, let reason):
            return "unsupported type \(type) at offset \(offset): \(reason)"
        case .constraintViolated(let offset, let reason):
            return "constraint violated at offset \(offset): \(reason)"
        case .nestingTooDeep(let offset, let limit):
            return "nesting too deep: more than \(limit) levels at offset \(offset)"
        case .nonCanonical(let offset, let reason):
            return "non-canonical encoding at offset \(offset): \(reason)"
        case .duplicateEntry(let offset):
            return "duplicate entry at offset \(offset): a dictionary key or set element equal to an earlier one"
        }
    }
}

extension BinaryCodingError {
    /// This error as Swift's `DecodingError`, at `codingPath`.
    func decodingError(_ codingPath: [any CodingKey]) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: description, underlyingError: self))
    }

    /// This error as Swift's `EncodingError` for a value of `type`, at `codingPath`. The error
    /// holds the type's name, not the value: a value nested thousands deep would make the error
    /// as deep, and describing it would overflow the stack.
    func encodingError(_ type: Any.Type, _ codingPath: [any CodingKey]) -> EncodingError {
        .invalidValue(String(describing: type), EncodingError.Context(codingPath: codingPath, debugDescription: description,
                                                                      underlyingError: self))
    }
}

/// A coding key for an array position (`[3]`) or a name not known statically.
struct IndexKey: CodingKey {
    let intValue: Int?
    let stringValue: String

    init(index: Int) {
        intValue = index
        stringValue = "Index \(index)"
    }

    init?(intValue: Int) { self.init(index: intValue) }

    init?(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }
}
