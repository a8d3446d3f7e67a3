import BinaryIO

/// How ``BinaryEncoder`` writes and ``BinaryDecoder`` reads values: no metadata, values in
/// the order `encode(to:)` and `init(from:)` use them, keys ignored.
public struct BinaryCodingOptions: Sendable, Hashable {
    /// How integers are stored.
    public enum IntegerEncoding: Sendable, Hashable {
        /// At the type's full width: `Int8` one byte, `Int32` four; `Int` and `UInt` always eight.
        case fixedWidth
        /// LEB128 varints; signed types zigzag-encoded first (as protobuf's `sint64`).
        case varint
    }

    /// How the element count of a `String` (its UTF-8 bytes), `Array`, `Data`, `Set` or
    /// `Dictionary` is stored before its elements.
    public enum LengthEncoding: Sendable, Hashable {
        case varint, u8, u16, u32, u64
    }

    /// Byte order of fixed-width integers and floats. Default: big-endian.
    public var byteOrder: Endianness = .big
    /// Default: fixed width.
    public var integerEncoding: IntegerEncoding = .fixedWidth
    /// Default: varint.
    public var lengthEncoding: LengthEncoding = .varint
    /// Deepest nesting of values (structs, arrays, optionals, dictionaries) decoded or encoded,
    /// clamped to `0...maximumNestingLimit`. Default: ``maximumNestingLimit``.
    public var nestingLimit: Int = BinaryCodingOptions.maximumNestingLimit {
        didSet { nestingLimit = min(max(nestingLimit, 0), Self.maximumNestingLimit) }
    }

    /// The highest nesting limit (96): values this deep encode and decode on a 512 KiB thread
    /// stack, with half of it to spare.
    ///
    /// Each level recurses through the coder. Measured in a debug build (the worse case) by
    /// recording a local's address at the deepest level of values nested this deep
    /// (NestingMeasurementTests: an enum chain, a class chain, arrays and dictionaries of
    /// structs), the costliest (encoding dictionaries) takes about 2.4 KB of stack per level,
    /// so 96 levels take about 225 KiB; NestingBoundTests codes each at the bound on a 512 KiB
    /// thread and checks it uses less than half. The coders keep their recursive frames small
    /// for this (casts and errors out of line). A higher limit
    /// would let a value or input that is merely deep overflow a secondary thread's stack, a
    /// crash no error can report.
    public static let maximumNestingLimit = 96

    /// Whether containers that `encode(to:)` opens by hand carry framing of their own: an
    /// unkeyed container its element count before its elements, a container nested by key
    /// (`nestedContainer(keyedBy:forKey:)`, `nestedUnkeyedContainer(forKey:)`) the key's name.
    /// Default: true, so any type, including one that decodes until `isAtEnd`, reads back.
    ///
    /// When false (the ``classic`` preset), a hand-written container writes only its values,
    /// and the decoder reads exactly as many as `init(from:)` asks for: an unkeyed container
    /// has no `count` and `isAtEnd` is always false, so a type that decodes until `isAtEnd`
    /// cannot read back (it runs into the end of the input, or into more elements than bytes
    /// were left, each a `prematureEnd`). `Array` and `ContiguousArray` then write their count
    /// themselves, as sets and dictionaries always do; an enum with associated values still
    /// writes its case name, which its synthesized `init(from:)` reads through `allKeys`.
    public var containerFraming = true

    /// The defaults: big-endian fixed-width integers, varint lengths, 96 levels of nesting,
    /// framed containers.
    public init() {}

    /// The classic no-metadata binary Codable format: every integer big-endian at its full width,
    /// `Int`/`UInt` as 8 bytes, every count as an 8-byte integer, `String` as its UTF-8 count then
    /// bytes, `Bool` one byte, floats big-endian, containers written by hand without framing
    /// (see ``containerFraming``). It differs from that format on purpose in two places, so that
    /// every value it writes reads back: an `Optional` is a one-byte presence flag then the value
    /// (the classic decoder reads every optional as nil), and an enum with associated values
    /// writes its case name first (the classic decoder cannot decode one).
    public static let classic: BinaryCodingOptions = {
        var options = BinaryCodingOptions()
        options.lengthEncoding = .u64
        options.containerFraming = false
        return options
    }()
}
