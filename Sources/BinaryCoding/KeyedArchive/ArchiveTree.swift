/// The archive in memory, between the coders and the bytes: what ``KeyedArchiver`` builds,
/// what ``KeyedUnarchiver`` reads, and what `makeClone` hands from one to the other without
/// a byte buffer. docs/KeyedArchive.md describes the byte form of each piece.
enum ArchiveValue {
    case null
    case bool(Bool)
    /// Every signed integer, as 64 bits.
    case int(Int64)
    /// Every unsigned integer, as 64 bits.
    case uint(UInt64)
    case float(Float)
    case double(Double)
    case string(String)
    /// `Data` and `[UInt8]`, as they are.
    case bytes([UInt8])
    case keyed(ArchiveKeyedNode)
    case unkeyed(ArchiveUnkeyedNode)
    /// A class instance: its index in the object table.
    case object(Int)

    /// What the value is, for type-mismatch messages.
    var kind: String {
        switch self {
        case .null: return "nil"
        case .bool: return "a Bool"
        case .int: return "a signed integer"
        case .uint: return "an unsigned integer"
        case .float: return "a Float"
        case .double: return "a Double"
        case .string: return "a String"
        case .bytes: return "bytes"
        case .keyed: return "a keyed container"
        case .unkeyed: return "an unkeyed container"
        case .object(let index): return "a reference to object #\(index)"
        }
    }
}

/// A keyed container: key symbols (indices into the symbol table) and their values, in the
/// order they were encoded. A key appears once.
final class ArchiveKeyedNode {
    private(set) var keys: [Int] = []
    private(set) var values: [ArchiveValue] = []
    /// Symbol → position, built on the first lookup of a container with many keys.
    private var positions: [Int: Int]?

    init() {}

    /// Adds `value` under `key`; false when the container holds `key` already.
    func insert(_ key: Int, _ value: ArchiveValue) -> Bool {
        guard position(of: key) == nil else { return false }
        keys.append(key)
        values.append(value)
        positions?[key] = keys.count - 1
        return true
    }

    /// Replaces the value at `position` (a superclass encoder or nested container filled in later).
    func replace(at position: Int, with value: ArchiveValue) {
        guard values.indices.contains(position) else { return }
        values[position] = value
    }

    func position(of key: Int) -> Int? {
        if keys.count <= 8 { return keys.firstIndex(of: key) }
        if let positions { return positions[key] }
        var built: [Int: Int] = [:]
        built.reserveCapacity(keys.count)
        for (position, symbol) in keys.enumerated() where built[symbol] == nil { built[symbol] = position }
        positions = built
        return built[key]
    }

    func value(for key: Int) -> ArchiveValue? {
        position(of: key).map { values[$0] }
    }
}

/// An unkeyed container's values in order.
final class ArchiveUnkeyedNode {
    var values: [ArchiveValue]

    init(_ values: [ArchiveValue] = []) {
        self.values = values
    }
}

/// One class instance: its registered class name (a symbol), if any, and its contents.
struct ArchiveObject {
    var className: Int?
    var body: ArchiveValue
}

/// A whole archive: the symbol table, the object table and the root value.
struct ArchiveDocument {
    var symbols: [String]
    var objects: [ArchiveObject]
    var root: ArchiveValue
}
