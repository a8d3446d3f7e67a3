/// How ``BinaryCodableEncoder`` writes and ``BinaryCodableDecoder`` reads BinaryCodable's
/// format (versions up to 2.0.3).
public struct BinaryCodableOptions: Sendable, Hashable {
    /// Write the properties of a keyed container (a struct, a dictionary, an enum's associated
    /// values) ordered by key: integer keys ascending, then string keys by their UTF-8 bytes.
    /// The format allows any order; sorted, equal values give equal bytes even when they hold
    /// dictionaries (whose own order changes from one process to the next), and sets are
    /// written sorted too. Off: the order `encode(to:)` writes them in, as BinaryCodable does
    /// by default. The decoder reads any order. Default: on.
    public var sortKeys = true
    /// Deepest nesting of values decoded or encoded, clamped to
    /// `0...BinaryCodingOptions.maximumNestingLimit`. Default: that maximum (96).
    public var nestingLimit: Int = BinaryCodingOptions.maximumNestingLimit {
        didSet { nestingLimit = min(max(nestingLimit, 0), BinaryCodingOptions.maximumNestingLimit) }
    }

    /// Sorted keys, 96 levels of nesting.
    public init() {}
}

/// The data type in the low three bits of a key: how to find where the value ends.
enum BinaryCodableDataType: UInt8, Sendable {
    /// A varint (zig-zag for signed types): Int, Int32, Int64, UInt, UInt32, UInt64.
    case variableLengthInteger = 0
    /// Eight bytes little-endian: Double, FixedSize<Int64> and the like.
    case eightBytes = 1
    /// A varint length, then that many bytes: String, Data, structs, arrays, optionals.
    case variableLength = 2
    /// Four bytes little-endian: Float, FixedSize<Int32>, FixedSize<UInt32>.
    case fourBytes = 5
    /// One byte: Bool, UInt8, Int8.
    case byte = 6
    /// Two bytes little-endian: Int16, UInt16.
    case twoBytes = 7

    /// Bytes of a value of a fixed-width type; nil for the two variable ones.
    var fixedWidth: Int? {
        switch self {
        case .variableLengthInteger, .variableLength: return nil
        case .eightBytes: return 8
        case .fourBytes: return 4
        case .byte: return 1
        case .twoBytes: return 2
        }
    }

    var name: String {
        switch self {
        case .variableLengthInteger: return "variableLengthInteger"
        case .eightBytes: return "eightBytes"
        case .variableLength: return "variableLength"
        case .fourBytes: return "fourBytes"
        case .byte: return "byte"
        case .twoBytes: return "twoBytes"
        }
    }
}

/// A key as it is on the wire: an integer (`CodingKey.intValue`) or a string.
enum BinaryCodableWireKey: Hashable {
    case int(Int)
    case string(String)

    /// Integer keys are kept in 60 bits: the key varint shifts them left by four.
    static let intKeyRange: ClosedRange<Int> = -(1 << 59)...((1 << 59) - 1)

    init(_ key: some CodingKey) {
        if let int = key.intValue { self = .int(int) } else { self = .string(key.stringValue) }
    }

    /// Integer keys first, ascending, then string keys by their UTF-8 bytes.
    static func precedes(_ left: BinaryCodableWireKey, _ right: BinaryCodableWireKey) -> Bool {
        switch (left, right) {
        case (.int(let a), .int(let b)): return a < b
        case (.int, .string): return true
        case (.string, .int): return false
        case (.string(let a), .string(let b)): return a.utf8.lexicographicallyPrecedes(b.utf8)
        }
    }
}

/// BinaryCodable's varint: seven bits a byte, least significant first, a set high bit for
/// "more follows"; unlike LEB128 the ninth byte is taken whole, so any 64-bit value fits in
/// nine bytes (protobuf needs ten).
enum BinaryCodableVarint {
    static func write(_ value: UInt64, to bytes: inout [UInt8]) {
        var rest = value
        for _ in 0..<8 {
            if rest < 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: rest))
                return
            }
            bytes.append(UInt8(truncatingIfNeeded: rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: rest))
    }

    static func encoded(_ value: UInt64) -> [UInt8] {
        var bytes: [UInt8] = []
        write(value, to: &bytes)
        return bytes
    }

    static func zigZag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value &<< 1) ^ (value >> 63))
    }

    static func unZigZag(_ value: UInt64) -> Int64 {
        Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }

    /// Reads a varint at `offset`, before `end`; returns it and the offset after it. Only the
    /// shortest form is accepted (no needless trailing zero byte), so each value has one encoding.
    static func read(_ bytes: [UInt8], at offset: Int, end: Int) throws(BinaryCodingError) -> (value: UInt64, next: Int) {
        var value: UInt64 = 0
        var position = offset
        for index in 0..<9 {
            guard position < end, position >= 0, position < bytes.count else {
                throw .prematureEnd(offset: position, needed: 1, available: 0)
            }
            let byte = bytes[position]
            position += 1
            if index == 8 {
                // The ninth byte: all eight bits are value.
                guard byte != 0 else { throw .nonCanonical(offset: offset, reason: "a varint with a needless zero byte") }
                return (value | UInt64(byte) << 56, position)
            }
            value |= UInt64(byte & 0x7F) << UInt64(7 * index)
            if byte & 0x80 == 0 {
                guard byte != 0 || index == 0 else {
                    throw .nonCanonical(offset: offset, reason: "a varint with a needless zero byte")
                }
                return (value, position)
            }
        }
        // Not reached: the ninth byte always returns.
        throw .nonCanonical(offset: offset, reason: "a varint longer than nine bytes")
    }
}

/// Types written without a length before them in a sequence (an unkeyed container, a data
/// stream, an optional's value), because their size follows from their data type: Bool, the
/// integers, the floats and ``FixedSize``. Every other element (String, Data, structs, arrays,
/// enums, even one that encodes a single integer) has its length first: a decoder knows the
/// Swift type of an element, not what its `encode(to:)` writes.
protocol BinaryCodableBareElement {
    static var binaryCodableDataType: BinaryCodableDataType { get }
}

/// The types with a wire form of their own: BinaryCodable's primitives.
protocol BinaryCodablePrimitive {
    static var binaryCodableDataType: BinaryCodableDataType { get }
    /// The value's bytes: without a length, without a key.
    var binaryCodableBytes: [UInt8] { get }
    /// The value from exactly the bytes `range` of `bytes`.
    static func binaryCodableValue(_ bytes: [UInt8], _ range: Range<Int>) throws(BinaryCodingError) -> Self
}

private func littleEndianBytes(_ value: UInt64, _ count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * $0)) }
}

private func littleEndianValue(_ bytes: [UInt8], _ range: Range<Int>, _ width: Int) throws(BinaryCodingError) -> UInt64 {
    guard range.count == width, range.lowerBound >= 0, range.upperBound <= bytes.count else {
        throw .prematureEnd(offset: range.lowerBound, needed: width, available: max(0, range.count))
    }
    var value: UInt64 = 0
    for (index, position) in range.enumerated() { value |= UInt64(bytes[position]) << UInt64(8 * index) }
    return value
}

/// A varint that must fill `range` exactly.
private func varintValue(_ bytes: [UInt8], _ range: Range<Int>) throws(BinaryCodingError) -> UInt64 {
    let (value, next) = try BinaryCodableVarint.read(bytes, at: range.lowerBound, end: range.upperBound)
    guard next == range.upperBound else {
        throw .constraintViolated(offset: next, reason: "\(range.upperBound - next) bytes after a varint that should fill its value")
    }
    return value
}

extension Bool: BinaryCodablePrimitive, BinaryCodableBareElement {
    static var binaryCodableDataType: BinaryCodableDataType { .byte }
    var binaryCodableBytes: [UInt8] { [self ? 1 : 0] }
    static func binaryCodableValue(_ bytes: [UInt8], _ range: Range<Int>) throws(BinaryCodingError) -> Bool {
        let byte = try littleEndianValue(bytes, range, 1)
        guard byte <= 1 else { throw .boolOutOfRange(offset: range.lowerBound, byte: UInt8(truncatingIfNeeded: byte)) }
        return byte == 1
    }
}

extension String: BinaryCodablePrimitive {
    static var binaryCodableDataType: BinaryCodableDataType { .variableLength }
    var binaryCodableBytes: [UInt8] { Array(utf8) }
    static func binaryCodableValue(_ bytes: [UInt8], _ range: Range<Int>) throws(BinaryCodingError) -> String {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count else {
            throw .prematureEnd(offset: range.lowerBound, needed: range.count, available: 0)
        }
        guard let string = String(validating: bytes[range], as: UTF8.self) else { throw .invalidUTF8(offset: range.lowerBound) }
        return string
    }
}

extension Float: BinaryCodablePrimitive, BinaryCodableBareElement {
    static var binaryCodableDataType: BinaryCodableDataType { .fourBytes }
    var binaryCodableBytes: [UInt8] { littleEndianBytes(UInt64(bitPattern), 4) }
    static func binaryCodableValue(_ bytes: [UInt8], _ range: Range<Int>) throws(BinaryCodingError) -> Float {
        Float(bitPattern: UInt32(truncatingIfNeeded: try littleEndianValue(bytes, range, 4)))
    }
}

extension Double: BinaryCodablePrimitive, BinaryCodableBareElement {
    static var binaryCodableDataType: BinaryCodableDataType { .eightBytes }
    var binaryCodableBytes: [UInt8] { littleEndianBytes(bitPattern, 8) }
    static func binaryCodableValue(_ bytes: [UInt8], _ range: Range<Int>) throws(BinaryCodingError) -> Double {
        Double(bitPattern: try littleEndianValue(bytes, range, 8))
    }
}

/// Integers of 8 and 16 bits: little-endian at their width.
protocol BinaryCodableSmallInteger: FixedWidthInteger, BinaryCodablePrimitive, BinaryCodableBareElement {}

extension BinaryCodableSmallInteger {
    static var binaryCodableDataType: BinaryCodableDataType { bitWidth == 8 ? .byte : .twoBytes }
    var binaryCodableBytes: [UInt8] { littleEndianBytes(UInt64(truncatingIfNeeded: self), Self.bitWidth / 8) }
    static func binaryCodableValue(_ bytes: [UInt8], _ range: Range<Int>) throws(BinaryCodingError) -> Self {
        Self(truncatingIfNeeded: try littleEndianValue(bytes, range, bitWidth / 8))
    }
}

extension Int8: BinaryCodableSmallInteger {}
extension UInt8: BinaryCodableSmallInteger {}
extension Int16: BinaryCodableSmallInteger {}
extension UInt16: BinaryCodableSmallInteger {}

/// Integers of 32 and 64 bits, Int and UInt: varints, zig-zag first when signed.
protocol BinaryCodableLargeInteger: FixedWidthInteger, BinaryCodablePrimitive, BinaryCodableBareElement {}

extension BinaryCodableLargeInteger {
    static var binaryCodableDataType: BinaryCodableDataType { .variableLengthInteger }
    var binaryCodableBytes: [UInt8] {
        BinaryCodableVarint.encoded(Self.isSigned
            ? BinaryCodableVarint.zigZag(Int64(truncatingIfNeeded: self)) : UInt64(truncatingIfNeeded: self))
    }
    static func binaryCodableValue(_ bytes: [UInt8], _ range: Range<Int>) throws(BinaryCodingError) -> Self {
        let raw = try varintValue(bytes, range)
        if isSigned {
            let signed = BinaryCodableVarint.unZigZag(raw)
            guard let value = Self(exactly: signed) else {
                throw .valueOutOfRange(offset: range.lowerBound, value: String(signed), type: String(describing: Self.self))
            }
            return value
        }
        guard let value = Self(exactly: raw) else {
            throw .valueOutOfRange(offset: range.lowerBound, value: String(raw), type: String(describing: Self.self))
        }
        return value
    }
}

extension Int32: BinaryCodableLargeInteger {}
extension UInt32: BinaryCodableLargeInteger {}
extension Int64: BinaryCodableLargeInteger {}
extension UInt64: BinaryCodableLargeInteger {}
extension Int: BinaryCodableLargeInteger {}
extension UInt: BinaryCodableLargeInteger {}
