/// A field's `@checksum(algorithm, covered..., options...)` after checking.
package struct ChecksumSpec: Sendable {
    /// One piece of what the checksum covers, in the order the algorithm takes it.
    package enum Item: Sendable, Hashable {
        /// `self`: every byte of the struct declaring the checksum field.
        case wholeStruct
        /// `a` (first == last) or `a...b`: from the first byte of field `first` to the last byte of
        /// field `last`, by slot in the declaring struct.
        case fields(first: Int, last: Int)
        /// `ip_pseudo(n)`: the IPv4 or IPv6 pseudo-header (RFC 9293 §3.1, RFC 8200 §8.1) of the nearest
        /// enclosing struct with `src` and `dst` address fields, for upper-layer protocol `n`; its
        /// length is the length of everything else covered.
        case ipPseudoHeader(protocolNumber: UInt8)
    }

    package let algorithm: ChecksumAlgorithm
    package let items: [Item]
    /// `on_request`: verified only when a walk asks for it (tshark leaves TCP and UDP checksums
    /// unverified by default: a capture on the sending host sees them before the NIC fills them in).
    package let onRequest: Bool
    /// `when(condition)`: verified only when this holds, evaluated after the struct is read.
    package let condition: Program?

    /// For an internet checksum of the declaring struct's own fields, itself among them and with no
    /// `when` (the IPv4 header's), the slot of the last field it covers: the walk can verify it as
    /// soon as that field is read. Nil for the others, verified after the walk.
    func lastSlotVerifiableDuringWalk(ownSlot: Int) -> Int? {
        guard algorithm == .internet, items.count == 1, condition == nil,
              case .fields(let first, let last) = items[0], first <= ownSlot, ownSlot <= last else { return nil }
        return last
    }
}

/// Which `@checksum` fields a walk verifies. A checksum is named by its struct's `@protocol`
/// name (`ip`, `tcp`), or by the struct's name when it has none.
public struct ChecksumSelection: Sendable, Hashable {
    /// Verify every checksum not marked `on_request`.
    public var includesDefaults: Bool
    /// Verify every checksum.
    public var includesAll: Bool
    /// Verify the checksums with these names, `on_request` or not.
    public var names: Set<String>

    /// A selection of the defaults (or not), everything (or not) and named checksums.
    public init(includesDefaults: Bool = true, includesAll: Bool = false, names: Set<String> = []) {
        self.includesDefaults = includesDefaults
        self.includesAll = includesAll
        self.names = names
    }

    /// The checksums not marked `on_request` (in the bundled schemas, the IPv4 header's).
    public static let `default` = ChecksumSelection()
    /// Every checksum.
    public static let all = ChecksumSelection(includesAll: true)
    /// None: nothing is verified.
    public static let none = ChecksumSelection(includesDefaults: false)

    /// Whether a checksum named `name` is verified.
    func verifies(name: String, onRequest: Bool) -> Bool {
        includesAll || names.contains(name) || (includesDefaults && !onRequest)
    }
}

/// The outcome of verifying one checksum field. A wrong checksum is not an error: the walk goes
/// on, and views mark the field with the value it should hold.
public struct ChecksumResult: Sendable, Hashable {
    /// The checksum field's node.
    public let node: Int
    /// Whether the field holds the value computed over what it covers.
    public let isCorrect: Bool
    /// The value computed over what it covers, as the field would hold it.
    public let expected: UInt64
}

extension Schema {
    /// The names `ChecksumSelection` knows, one per struct with a `@checksum` field, sorted.
    public var checksumNames: [String] {
        Set(structs.filter { $0.fields.contains { $0.checksum != nil } }.map(\.checksumName)).sorted()
    }
}

extension StructType {
    /// What ``ChecksumSelection`` calls the checksums of this struct: its `@protocol` name, else its name.
    public var checksumName: String { protocolAbbreviation ?? name }
}
