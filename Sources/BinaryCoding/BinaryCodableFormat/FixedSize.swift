/// The integer types ``FixedSize`` can hold: 32- and 64-bit ones, `Int` and `UInt`.
public protocol FixedSizeCompatible: FixedWidthInteger, Codable, Sendable {}

extension Int32: FixedSizeCompatible {}
extension UInt32: FixedSizeCompatible {}
extension Int64: FixedSizeCompatible {}
extension UInt64: FixedSizeCompatible {}
extension Int: FixedSizeCompatible {}
extension UInt: FixedSizeCompatible {}

/// An integer that ``BinaryCodableEncoder`` writes little-endian at its full width (data type
/// `fourBytes` for 32-bit types, `eightBytes` for 64-bit ones, `Int` and `UInt`) instead of as
/// a varint: smaller for values that are mostly large, such as hashes or timestamps.
///
/// ```swift
/// struct Record: Codable { @FixedSize var id: UInt64 }
/// ```
///
/// Other coders see the plain integer.
@propertyWrapper
public struct FixedSize<Value: FixedSizeCompatible>: Codable, Sendable, Hashable {
    /// The integer.
    public var wrappedValue: Value

    /// Wraps `wrappedValue`.
    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }

    /// The plain integer, for coders other than BinaryCodable's.
    public init(from decoder: any Decoder) throws {
        wrappedValue = try decoder.singleValueContainer().decode(Value.self)
    }

    /// The plain integer, for coders other than BinaryCodable's.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

extension FixedSize: BinaryCodablePrimitive, BinaryCodableBareElement {
    static var binaryCodableDataType: BinaryCodableDataType { Value.bitWidth == 32 ? .fourBytes : .eightBytes }

    var binaryCodableBytes: [UInt8] {
        let raw = UInt64(truncatingIfNeeded: wrappedValue)
        return (0..<(Value.bitWidth / 8)).map { UInt8(truncatingIfNeeded: raw >> UInt64(8 * $0)) }
    }

    static func binaryCodableValue(_ bytes: [UInt8], _ range: Range<Int>) throws(BinaryCodingError) -> FixedSize<Value> {
        let width = Value.bitWidth / 8
        guard range.count == width, range.lowerBound >= 0, range.upperBound <= bytes.count else {
            throw .prematureEnd(offset: range.lowerBound, needed: width, available: max(0, range.count))
        }
        var raw: UInt64 = 0
        for (index, position) in range.enumerated() { raw |= UInt64(bytes[position]) << UInt64(8 * index) }
        return FixedSize(wrappedValue: Value(truncatingIfNeeded: raw))
    }
}
