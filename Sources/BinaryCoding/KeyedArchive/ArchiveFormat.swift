/// The archive's bytes (docs/KeyedArchive.md, Schemas/examples/keyed-archive.schema):
///
///     "KARC" version=1
///     symbol_count:varint  (length:varint UTF-8)×symbol_count
///     object_count:varint  (class:varint value)×object_count     class 0: none, n: symbol n-1
///     root:value
///
/// A value is a tag byte and what the tag says: little-endian 64-bit integers and IEEE floats,
/// varint lengths and counts, keys as symbol indices, class instances as object indices.
enum ArchiveFormat {
    static let magic: [UInt8] = Array("KARC".utf8)
    static let version: UInt8 = 1

    enum Tag: UInt8 {
        case null = 0, `false` = 1, `true` = 2, int = 3, uint = 4, float = 5, double = 6
        case string = 7, bytes = 8, keyed = 9, unkeyed = 10, object = 11
    }

    // MARK: Writing

    static func write(_ document: ArchiveDocument, nestingLimit: Int) throws(KeyedArchiveError) -> [UInt8] {
        var out = ArchiveByteWriter()
        out.bytes.append(contentsOf: magic)
        out.bytes.append(version)
        out.varint(document.symbols.count)
        for symbol in document.symbols { out.text(symbol) }
        out.varint(document.objects.count)
        for object in document.objects {
            out.varint(object.className.map { $0 + 1 } ?? 0)
            try out.value(object.body, depth: 0, limit: nestingLimit)
        }
        try out.value(document.root, depth: 0, limit: nestingLimit)
        return out.bytes
    }

    // MARK: Reading

    static func read(_ bytes: [UInt8], nestingLimit: Int) throws(KeyedArchiveError) -> ArchiveDocument {
        var input = ArchiveByteReader(bytes: bytes, limit: max(0, nestingLimit))
        guard bytes.count >= 4, Array(bytes[0..<4]) == magic else { throw .badMagic }
        input.offset = 4
        let version = try input.byte()
        guard version == Self.version else { throw .unsupportedVersion(version) }
        // Each symbol takes a byte at least, each object two: counts past that are lies.
        let symbolCount = try input.count(minimumBytesEach: 1)
        var symbols: [String] = []
        symbols.reserveCapacity(symbolCount)
        var seen = Set<String>()
        for _ in 0..<symbolCount {
            let offset = input.offset
            let symbol = try input.text()
            guard seen.insert(symbol).inserted else { throw .duplicateSymbol(offset: offset, symbol: symbol) }
            symbols.append(symbol)
        }
        input.symbols = symbols
        let objectCount = try input.count(minimumBytesEach: 2)
        input.objectCount = objectCount
        var objects: [ArchiveObject] = []
        objects.reserveCapacity(objectCount)
        for _ in 0..<objectCount {
            let offset = input.offset
            let className = try input.varint()
            var symbol: Int?
            if className != 0 {
                guard className <= UInt64(symbols.count) else {
                    throw .undefinedSymbol(offset: offset, index: className - 1, count: symbols.count)
                }
                symbol = Int(className) - 1
            }
            objects.append(ArchiveObject(className: symbol, body: try input.value(depth: 0)))
        }
        let root = try input.value(depth: 0)
        guard input.offset == bytes.count else {
            throw .trailingBytes(offset: input.offset, count: bytes.count - input.offset)
        }
        return ArchiveDocument(symbols: symbols, objects: objects, root: root)
    }
}

struct ArchiveByteWriter {
    var bytes: [UInt8] = []

    mutating func varint(_ value: Int) {
        var rest = UInt64(clamping: value)
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: rest))
    }

    mutating func littleEndian(_ value: UInt64, byteCount: Int) {
        for shift in stride(from: 0, to: byteCount * 8, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    mutating func text(_ string: String) {
        let utf8 = Array(string.utf8)
        varint(utf8.count)
        bytes.append(contentsOf: utf8)
    }

    mutating func tag(_ tag: ArchiveFormat.Tag) {
        bytes.append(tag.rawValue)
    }

    mutating func value(_ value: ArchiveValue, depth: Int, limit: Int) throws(KeyedArchiveError) {
        switch value {
        case .null: tag(.null)
        case .bool(let bool): tag(bool ? .true : .false)
        case .int(let int): tag(.int); littleEndian(UInt64(bitPattern: int), byteCount: 8)
        case .uint(let uint): tag(.uint); littleEndian(uint, byteCount: 8)
        case .float(let float): tag(.float); littleEndian(UInt64(float.bitPattern), byteCount: 4)
        case .double(let double): tag(.double); littleEndian(double.bitPattern, byteCount: 8)
        case .string(let string): tag(.string); text(string)
        case .bytes(let data): tag(.bytes); varint(data.count); bytes.append(contentsOf: data)
        case .object(let index): tag(.object); varint(index)
        case .keyed(let node):
            // The archiver checks nesting per value; containers made by hand nest too, so the
            // bytes are checked again here: what is archived can always be unarchived.
            guard depth < limit else { throw .nestingTooDeep(offset: bytes.count, limit: limit) }
            tag(.keyed)
            varint(node.keys.count)
            for (key, element) in zip(node.keys, node.values) {
                varint(key)
                try self.value(element, depth: depth + 1, limit: limit)
            }
        case .unkeyed(let node):
            guard depth < limit else { throw .nestingTooDeep(offset: bytes.count, limit: limit) }
            tag(.unkeyed)
            varint(node.values.count)
            for element in node.values { try self.value(element, depth: depth + 1, limit: limit) }
        }
    }
}

struct ArchiveByteReader {
    let bytes: [UInt8]
    let limit: Int
    var offset = 0
    var symbols: [String] = []
    var objectCount = 0

    init(bytes: [UInt8], limit: Int) {
        self.bytes = bytes
        self.limit = limit
    }

    var remaining: Int { bytes.count - offset }

    mutating func byte() throws(KeyedArchiveError) -> UInt8 {
        guard offset < bytes.count else { throw .prematureEnd(offset: offset, needed: 1, available: 0) }
        offset += 1
        return bytes[offset - 1]
    }

    /// Little-endian, `count` bytes.
    mutating func littleEndian(_ count: Int) throws(KeyedArchiveError) -> UInt64 {
        guard remaining >= count else { throw .prematureEnd(offset: offset, needed: count, available: remaining) }
        var value: UInt64 = 0
        for index in 0..<count { value |= UInt64(bytes[offset + index]) << UInt64(index * 8) }
        offset += count
        return value
    }

    /// Unsigned LEB128 in its shortest form, at most 64 bits.
    mutating func varint() throws(KeyedArchiveError) -> UInt64 {
        let start = offset
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < bytes.count else {
                throw .prematureEnd(offset: start, needed: offset - start + 1, available: offset - start)
            }
            let byte = bytes[offset]
            offset += 1
            let payload = UInt64(byte & 0x7F)
            guard shift < 63 || payload <= 1 else { throw .badVarint(offset: start) }
            value |= payload << shift
            if byte & 0x80 == 0 {
                // A last byte of 0 after others is a longer form than needed.
                guard byte != 0 || offset - start == 1 else { throw .badVarint(offset: start) }
                return value
            }
            shift += 7
            guard shift <= 63 else { throw .badVarint(offset: start) }
        }
    }

    /// A count of things each taking at least `minimumBytesEach` bytes, checked against the bytes left.
    mutating func count(minimumBytesEach: Int) throws(KeyedArchiveError) -> Int {
        let start = offset
        let count = try varint()
        guard count <= UInt64(remaining / minimumBytesEach) else {
            throw .countTooLarge(offset: start, count: count, available: remaining)
        }
        return Int(count)
    }

    mutating func text() throws(KeyedArchiveError) -> String {
        let length = try count(minimumBytesEach: 1)
        let start = offset
        offset += length
        guard let string = String(validating: bytes[start..<offset], as: UTF8.self) else { throw .invalidUTF8(offset: start) }
        return string
    }

    mutating func value(depth: Int) throws(KeyedArchiveError) -> ArchiveValue {
        let start = offset
        let raw = try byte()
        guard let tag = ArchiveFormat.Tag(rawValue: raw) else { throw .unknownTag(offset: start, tag: raw) }
        switch tag {
        case .null: return .null
        case .false: return .bool(false)
        case .true: return .bool(true)
        case .int: return .int(Int64(bitPattern: try littleEndian(8)))
        case .uint: return .uint(try littleEndian(8))
        case .float: return .float(Float(bitPattern: UInt32(truncatingIfNeeded: try littleEndian(4))))
        case .double: return .double(Double(bitPattern: try littleEndian(8)))
        case .string: return .string(try text())
        case .bytes:
            let length = try count(minimumBytesEach: 1)
            offset += length
            return .bytes(Array(bytes[(offset - length)..<offset]))
        case .object:
            let index = try varint()
            guard index < UInt64(objectCount) else { throw .undefinedObject(offset: start, index: index, count: objectCount) }
            return .object(Int(index))
        case .keyed:
            guard depth < limit else { throw .nestingTooDeep(offset: start, limit: limit) }
            // An entry is a key and a value: two bytes at least.
            let count = try self.count(minimumBytesEach: 2)
            let node = ArchiveKeyedNode()
            for _ in 0..<count {
                let keyOffset = offset
                let key = try varint()
                guard key < UInt64(symbols.count) else { throw .undefinedSymbol(offset: keyOffset, index: key, count: symbols.count) }
                let element = try value(depth: depth + 1)
                guard node.insert(Int(key), element) else { throw .duplicateKey(offset: keyOffset, key: symbols[Int(key)]) }
            }
            return .keyed(node)
        case .unkeyed:
            guard depth < limit else { throw .nestingTooDeep(offset: start, limit: limit) }
            let count = try self.count(minimumBytesEach: 1)
            var values: [ArchiveValue] = []
            values.reserveCapacity(count)
            for _ in 0..<count { values.append(try value(depth: depth + 1)) }
            return .unkeyed(ArchiveUnkeyedNode(values))
        }
    }
}
