import BinarySchema
import Foundation

/// A display filter in Wireshark's language (`dns.qry.name contains "corp" and udp.port == 53`),
/// compiled once against a schema's filter names (`Schema.filterFields`) and asked of each frame.
///
/// Tests: a field or protocol alone (it is there); `==`, `!=`, `<`, `<=`, `>`, `>=` (and `eq`,
/// `ne`, `lt`, `le`, `gt`, `ge`); `contains`; `matches` (a regular expression); `in {80 443
/// 8000..8080}`; `and`, `or`, `not` (`&&`, `||`, `!`) and parentheses; byte slices
/// (`eth.src[0:3] == 00:1b:21`). Values are read as the field's type: integers (decimal, `0x`
/// hex, `0` octal) and `true`/`false`; IPv4 and IPv6 addresses with an optional `/prefix`; MAC
/// addresses and bytes as hex pairs joined by `:`, `-` or `.`; strings quoted. A repeated field
/// matches when any occurrence does, and `!=` when none is equal, as in Wireshark 4. The
/// either-direction names `ip.addr`, `ipv6.addr`, `eth.addr`, `tcp.port`, `udp.port` and
/// `sctp.port` stand for both their source and destination fields; `frame.number`, `frame.len`
/// and `frame.cap_len` are the frame's.
///
/// A value is not thread-safe: it keeps the filter names it met per frame; give each thread its own copy.
public struct DisplayFilter {
    /// The filter as written.
    public let text: String
    private let root: Node
    private var names = FilterNameIndex()

    /// Compiles `text` against `schema`'s filter names: an unknown name, a value that does not fit
    /// its field's type, or text that does not parse throws, located, with a suggestion where one fits.
    public init(_ text: String, schema: Schema) throws(DisplayFilterError) {
        self.text = text
        let syntax = try FilterParser.parse(text)
        var compiler = Compiler(schema: schema)
        root = try compiler.compile(syntax)
        names.intern = compiler.intern
        names.internedText = compiler.internedText
        names.restrictToInternedNames()
    }

    /// Whether the frame `dissection` shows (number `frameNumber`, from 1, of `originalLength` bytes on the wire) passes.
    public mutating func matches(_ dissection: Dissection, frameNumber: Int = 0, originalLength: Int? = nil) -> Bool {
        names.fill(dissection)
        let frame = FrameFields(number: frameNumber, length: originalLength ?? dissection.bytes.count,
                                capturedLength: dissection.bytes.count)
        return Self.evaluate(root, dissection, names, frame)
    }

    // MARK: - Compiled form

    fileprivate struct FrameFields {
        let number: Int
        let length: Int
        let capturedLength: Int
    }

    fileprivate enum FrameField { case number, length, capturedLength }

    fileprivate enum Value {
        case integer(Int64)
        case bytes([UInt8])
        /// An address or bytes with a prefix length in bits (`10.0.0.0/8`).
        case network([UInt8], prefix: Int)
        case text(String)
        case pattern(Regex<AnyRegexOutput>)
    }

    fileprivate enum Target {
        /// Interned filter names: a node whose name is any of them.
        case fields([Int32], slice: (start: Int, length: Int?)?)
        case frame(FrameField)
    }

    fileprivate indirect enum Node {
        case and(Node, Node)
        case or(Node, Node)
        case not(Node)
        case exists(Target)
        case compare(Target, FilterRelation, Value)
        /// Two fields (`tcp.srcport < tcp.dstport`): passes when some pair of their occurrences does.
        case compareFields(Target, FilterRelation, Target)
        case member(Target, [(Value, Value?)])
    }

    private static func evaluate(_ node: Node, _ dissection: Dissection, _ names: FilterNameIndex, _ frame: FrameFields) -> Bool {
        switch node {
        case .and(let left, let right):
            return evaluate(left, dissection, names, frame) && evaluate(right, dissection, names, frame)
        case .or(let left, let right):
            return evaluate(left, dissection, names, frame) || evaluate(right, dissection, names, frame)
        case .not(let inner):
            return !evaluate(inner, dissection, names, frame)
        case .exists(let target):
            return exists(target, dissection, names)
        case .compare(let target, .notEqual, let value):
            // Wireshark 4: the field is there, and no occurrence is equal.
            return exists(target, dissection, names) && !compare(target, .equal, value, dissection, names, frame)
        case .compare(let target, let relation, let value):
            return compare(target, relation, value, dissection, names, frame)
        case .compareFields(let left, .notEqual, let right):
            return exists(left, dissection, names) && exists(right, dissection, names)
                && !compareFields(left, .equal, right, dissection, names, frame)
        case .compareFields(let left, let relation, let right):
            return compareFields(left, relation, right, dissection, names, frame)
        case .member(let target, let items):
            let test: (Occurrence) -> Bool = { occurrence in
                items.contains { low, high in
                    guard let high else { return Self.holds(.equal, occurrence, low) }
                    return Self.holds(.greaterOrEqual, occurrence, low) && Self.holds(.lessOrEqual, occurrence, high)
                }
            }
            if case .frame(let field) = target { return test(.integer(Int64(frame.value(field)))) }
            return anyOccurrence(target, dissection, names, test)
        }
    }

    private static func exists(_ target: Target, _ dissection: Dissection, _ names: FilterNameIndex) -> Bool {
        if case .frame = target { return true }
        return anyOccurrence(target, dissection, names) { _ in true }
    }

    private static func compare(_ target: Target, _ relation: FilterRelation, _ value: Value, _ dissection: Dissection,
                                _ names: FilterNameIndex, _ frame: FrameFields) -> Bool {
        if case .frame(let field) = target {
            return Self.holds(relation, .integer(Int64(frame.value(field))), value)
        }
        return anyOccurrence(target, dissection, names) { occurrence in Self.holds(relation, occurrence, value) }
    }

    /// Whether some occurrence of `left` and some of `right` hold `relation`.
    private static func compareFields(_ left: Target, _ relation: FilterRelation, _ right: Target, _ dissection: Dissection,
                                      _ names: FilterNameIndex, _ frame: FrameFields) -> Bool {
        if case .frame(let field) = right {
            return compare(left, relation, .integer(Int64(frame.value(field))), dissection, names, frame)
        }
        var values: [Value] = []
        _ = anyOccurrence(right, dissection, names) { occurrence in
            switch occurrence {
            case .integer(let number): values.append(.integer(number))
            case .bytes(let bytes): values.append(.bytes(Array(bytes)))
            case .text(let text): values.append(.text(text))
            case .none: break
            }
            return false
        }
        if case .frame(let field) = left {
            return values.contains { Self.holds(relation, .integer(Int64(frame.value(field))), $0) }
        }
        return anyOccurrence(left, dissection, names) { occurrence in values.contains { Self.holds(relation, occurrence, $0) } }
    }

    /// What a node holds, as the filter compares it.
    fileprivate enum Occurrence {
        case integer(Int64)
        case bytes(ArraySlice<UInt8>)
        case text(String)
        case none
    }

    private static func anyOccurrence(_ target: Target, _ dissection: Dissection, _ names: FilterNameIndex,
                                      _ test: (Occurrence) -> Bool) -> Bool {
        guard case .fields(let wanted, let slice) = target else { return false }
        for node in names.namedNodes {
            let index = Int(node)
            // An array is named as its elements, which are the occurrences (`-T fields` the same).
            guard wanted.contains(names.ids[index]), dissection.nodes[index].kind != .array else { continue }
            if test(occurrence(of: index, dissection, slice: slice)) { return true }
        }
        return false
    }

    private static func occurrence(of index: Int, _ dissection: Dissection, slice: (start: Int, length: Int?)?) -> Occurrence {
        let node = dissection.nodes[index]
        if let slice {
            let raw = dissection.rawBytes(of: index)
            let start = raw.startIndex + slice.start
            guard start <= raw.endIndex else { return .none }
            let end = slice.length.map { min(raw.endIndex, start + $0) } ?? raw.endIndex
            guard slice.length.map({ end - start == $0 }) ?? true else { return .none }
            return .bytes(raw[start..<end])
        }
        switch node.value {
        case .unsigned, .signed, .boolean:
            return ValueWriter.filterInteger(dissection, index).map(Occurrence.integer) ?? .none
        case .string, .text:
            return dissection.text(of: index).map(Occurrence.text) ?? .none
        case .bytes:
            return .bytes(dissection.rawBytes(of: index))
        case .none, .float:
            return .none
        }
    }

    private static func holds(_ relation: FilterRelation, _ occurrence: Occurrence, _ value: Value) -> Bool {
        switch (occurrence, value) {
        case (.integer(let left), .integer(let right)):
            switch relation {
            case .equal: return left == right
            case .notEqual: return left != right
            case .less: return left < right
            case .lessOrEqual: return left <= right
            case .greater: return left > right
            case .greaterOrEqual: return left >= right
            case .contains, .matches: return false
            }
        case (.bytes(let left), .bytes(let right)):
            switch relation {
            case .equal: return left.elementsEqual(right)
            case .notEqual: return !left.elementsEqual(right)
            case .contains: return contains(left, right)
            case .less: return left.lexicographicallyPrecedes(right)
            case .lessOrEqual: return !right.lexicographicallyPrecedes(left)
            case .greater: return right.lexicographicallyPrecedes(left)
            case .greaterOrEqual: return !left.lexicographicallyPrecedes(right)
            case .matches: return false
            }
        case (.bytes(let left), .network(let prefix, let bits)):
            guard relation == .equal, left.count == prefix.count else { return false }
            return inNetwork(left, prefix, bits)
        case (.bytes(let left), .text(let right)):
            // Bytes that are text (an HTTP body, a payload) against a string.
            let text = Array(right.utf8)
            switch relation {
            case .equal: return left.elementsEqual(text)
            case .contains: return contains(left, text[...])
            default: return false
            }
        case (.bytes(let left), .pattern(let pattern)):
            guard relation == .matches else { return false }
            return (try? pattern.firstMatch(in: String(decoding: left, as: UTF8.self))) != nil
        case (.text(let left), .text(let right)):
            switch relation {
            case .equal: return left == right
            case .notEqual: return left != right
            case .contains: return contains(left.utf8[...], right.utf8[...])
            case .less: return left < right
            case .lessOrEqual: return left <= right
            case .greater: return left > right
            case .greaterOrEqual: return left >= right
            case .matches: return false
            }
        case (.text(let left), .pattern(let pattern)):
            guard relation == .matches else { return false }
            return (try? pattern.firstMatch(in: left)) != nil
        case (.text(let left), .bytes(let right)):
            let bytes = Array(left.utf8)
            switch relation {
            case .equal: return bytes == right
            case .contains: return contains(bytes[...], right[...])
            default: return false
            }
        default:
            return false
        }
    }

    private static func contains<Haystack: Collection, Needle: Collection>(_ haystack: Haystack, _ needle: Needle) -> Bool
    where Haystack.Element == UInt8, Needle.Element == UInt8 {
        let haystack = Array(haystack)
        let needle = Array(needle)
        guard !needle.isEmpty else { return true }
        guard haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }

    private static func contains(_ haystack: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
        contains(haystack, needle[...])
    }

    private static func inNetwork(_ address: ArraySlice<UInt8>, _ network: [UInt8], _ bits: Int) -> Bool {
        var remaining = bits
        for (byte, expected) in zip(address, network) {
            guard remaining > 0 else { return true }
            let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
            if byte & mask != expected & mask { return false }
            remaining -= 8
        }
        return true
    }
}

extension DisplayFilter.FrameFields {
    func value(_ field: DisplayFilter.FrameField) -> Int {
        switch field {
        case .number: return number
        case .length: return length
        case .capturedLength: return capturedLength
        }
    }
}

/// Looks names up and reads values by the type of the field they meet.
private struct Compiler {
    let schema: Schema
    var intern: [String: Int32] = [:]
    var internedText: [String] = []
    /// Filter name → its type as `schema list --fields` shows it.
    let types: [String: String]
    let protocols: Set<String>

    static let eitherDirection: [String: [String]] = [
        "ip.addr": ["ip.src", "ip.dst"], "ipv6.addr": ["ipv6.src", "ipv6.dst"], "eth.addr": ["eth.src", "eth.dst"],
        "tcp.port": ["tcp.srcport", "tcp.dstport"], "udp.port": ["udp.srcport", "udp.dstport"],
        "sctp.port": ["sctp.srcport", "sctp.dstport"],
    ]
    static let frameFields: [String: DisplayFilter.FrameField] = [
        "frame.number": .number, "frame.len": .length, "frame.cap_len": .capturedLength,
    ]

    init(schema: Schema) {
        self.schema = schema
        var types: [String: String] = [:]
        for field in schema.filterFields { types[field.name] = field.type }
        self.types = types
        protocols = Set(schema.structs.compactMap(\.protocolAbbreviation))
    }

    private mutating func id(of name: String) -> Int32 {
        if let id = intern[name] { return id }
        let id = Int32(internedText.count)
        intern[name] = id
        internedText.append(name)
        return id
    }

    mutating func compile(_ syntax: FilterSyntax) throws(DisplayFilterError) -> DisplayFilter.Node {
        switch syntax {
        case .and(let left, let right): return .and(try compile(left), try compile(right))
        case .or(let left, let right): return .or(try compile(left), try compile(right))
        case .not(let inner): return .not(try compile(inner))
        case .exists(let operand):
            return .exists(try target(operand).target)
        case .compare(let operand, let relation, let word):
            let (target, type) = try target(operand)
            if relation == .matches {
                guard word.isQuoted else {
                    throw DisplayFilterError(message: "'matches' takes a quoted regular expression", column: word.column)
                }
                do {
                    return .compare(target, relation, .pattern(try Regex(word.text)))
                } catch {
                    throw DisplayFilterError(message: "'\(word.text)' is not a regular expression: \(error)", column: word.column)
                }
            }
            if let other = try fieldOperand(word, comparedWith: operand, type: operand.slice == nil ? type : "bytes", relation: relation) {
                return .compareFields(target, relation, other)
            }
            return .compare(target, relation, try value(word, type: operand.slice == nil ? type : "bytes", relation: relation))
        case .member(let operand, let items):
            let (target, type) = try target(operand)
            let valueType = operand.slice == nil ? type : "bytes"
            var compiled: [(DisplayFilter.Value, DisplayFilter.Value?)] = []
            for item in items {
                switch item {
                case .single(let word): compiled.append((try value(word, type: valueType, relation: .equal), nil))
                case .range(let low, let high):
                    compiled.append((try value(low, type: valueType, relation: .greaterOrEqual),
                                     try value(high, type: valueType, relation: .lessOrEqual)))
                }
            }
            return .member(target, compiled)
        }
    }

    private mutating func target(_ operand: FilterOperand) throws(DisplayFilterError) -> (target: DisplayFilter.Target, type: String) {
        if let frame = Self.frameFields[operand.name] {
            guard operand.slice == nil else {
                throw DisplayFilterError(message: "'\(operand.name)' is a number, which has no bytes to slice", column: operand.column)
            }
            return (.frame(frame), "u32")
        }
        let names = Self.eitherDirection[operand.name].map { $0.filter { types[$0] != nil } } ?? []
        if !names.isEmpty {
            return (.fields(names.map { id(of: $0) }, slice: operand.slice), types[names[0]] ?? "bytes")
        }
        if let type = types[operand.name] { return (.fields([id(of: operand.name)], slice: operand.slice), type) }
        if protocols.contains(operand.name) { return (.fields([id(of: operand.name)], slice: operand.slice), "struct") }
        throw DisplayFilterError(message: "no field or protocol is named '\(operand.name)'\(suggestion(for: operand.name))",
                                 column: operand.column)
    }

    /// The field an unquoted word names, when it names one (`tcp.dstport` in `tcp.srcport <
    /// tcp.dstport`), checked to hold values of the same kind as the field it is compared with.
    private mutating func fieldOperand(_ word: FilterWord, comparedWith operand: FilterOperand, type: String,
                                       relation: FilterRelation) throws(DisplayFilterError) -> DisplayFilter.Target? {
        guard !word.isQuoted, word.text.contains("."), !word.text.contains(":"),
              types[word.text] != nil || Self.eitherDirection[word.text] != nil || Self.frameFields[word.text] != nil else { return nil }
        let (target, otherType) = try target(FilterOperand(name: word.text, column: word.column))
        func kind(_ type: String) -> String {
            switch type {
            case "ipv4", "ipv6", "mac", "struct", "array": return type
            case "guid", "uuid": return "guid"
            case "bytes": return "bytes"
            case "string", "dns_name": return "text"
            default: return type.hasPrefix("string") ? "text" : "number"
            }
        }
        // The same kind, or text against bytes (a payload holding text).
        let kinds: Set = [kind(type), kind(otherType)]
        guard kinds.count == 1 || kinds == ["bytes", "text"] else {
            throw DisplayFilterError(message: "'\(operand.name)' (\(type)) cannot be compared with '\(word.text)' (\(otherType))",
                                     column: word.column)
        }
        if relation == .contains || relation == .matches {
            throw DisplayFilterError(message: "'\(relation.rawValue)' takes a value; compare two fields with ==, !=, <, <=, > or >=",
                                     column: word.column)
        }
        return target
    }

    private func suggestion(for name: String) -> String {
        let candidates = Array(types.keys) + Array(protocols) + Array(Self.eitherDirection.keys) + Array(Self.frameFields.keys)
        let close = NameSuggestions.suggestions(for: name, among: candidates.sorted(), limit: 1)
        return close.first.map { ": did you mean \($0)?" } ?? " (dissect schema list --fields lists every name)"
    }

    private func value(_ word: FilterWord, type: String, relation: FilterRelation) throws(DisplayFilterError) -> DisplayFilter.Value {
        func fail(_ what: String) -> DisplayFilterError {
            DisplayFilterError(message: "'\(word.text)' is not \(what)", column: word.column)
        }
        // An enum's value by its case's name, as Wireshark takes a value's name (`ip.proto == UDP`).
        if let type = schema.enums.first(where: { $0.name == type }), !word.isQuoted || relation != .contains,
           let found = type.cases.first(where: { $0.name.caseInsensitiveCompare(word.text) == .orderedSame }) {
            return .integer(found.value)
        }
        if word.isQuoted {
            if type == "bytes" || type == "string" || type.hasPrefix("string") || relation == .contains || type == "dns_name" {
                return .text(word.text)
            }
            throw DisplayFilterError(message: "a quoted string is compared with text or bytes, and this field is \(type)", column: word.column)
        }
        switch type {
        case "ipv4":
            guard let address = Self.address(word.text, bytes: 4, parse: Self.ipv4) else {
                throw fail("an IPv4 address or network (192.0.2.1, 10.0.0.0/8)")
            }
            return address
        case "ipv6":
            guard let address = Self.address(word.text, bytes: 16, parse: Self.ipv6) else {
                throw fail("an IPv6 address or network (2001:db8::1, fe80::/10)")
            }
            return address
        case "guid", "uuid":
            guard let bytes = Self.guid(word.text, littleEndianGroups: type == "guid") else {
                throw fail("a GUID (4b324fc8-1670-01d3-1278-5a47bf6ee188)")
            }
            return .bytes(bytes)
        case "mac", "bytes", "struct", "array":
            guard let bytes = Self.hexBytes(word.text) else { throw fail("bytes: hex pairs joined by ':', '-' or '.' (00:1b:21)") }
            return .bytes(bytes)
        case "string", "dns_name":
            return .text(word.text)
        default:
            // Integers, enums (by number) and bools.
            switch word.text.lowercased() {
            case "true": return .integer(1)
            case "false": return .integer(0)
            default: break
            }
            if Self.integer(word.text) == nil, let type = schema.enums.first(where: { $0.name == type }) {
                let names = type.cases.map(\.name)
                let close = NameSuggestions.suggestions(for: word.text.lowercased(), among: names, limit: 1).first
                throw fail("a number or a name of \(type.name)" + (close.map { ": did you mean \($0)?" } ?? " (\(names.prefix(8).joined(separator: ", "))…)"))
            }
            guard let number = Self.integer(word.text) else {
                // A word like a field name was probably meant as one (`tcp.srcport == tcp.dstprt`).
                let meant = word.text.contains(".") && word.text.contains(where: \.isLetter) ? suggestion(for: word.text) : ""
                throw fail("a number (\(type))" + (meant.hasPrefix(":") ? ", nor a field" + meant : ""))
            }
            return .integer(number)
        }
    }

    static func integer(_ text: String) -> Int64? {
        var digits = Substring(text)
        var negative = false
        if digits.hasPrefix("-") { negative = true; digits = digits.dropFirst() }
        let value: Int64?
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
            value = Int64(digits.dropFirst(2), radix: 16)
        } else if digits.count > 1, digits.hasPrefix("0") {
            value = Int64(digits.dropFirst(), radix: 8)
        } else {
            value = Int64(digits, radix: 10)
        }
        return value.map { negative ? -$0 : $0 }
    }

    static func address(_ text: String, bytes: Int, parse: (Substring) -> [UInt8]?) -> DisplayFilter.Value? {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = parse(parts[0]) else { return nil }
        guard parts.count == 2 else { return .bytes(address) }
        guard let bits = Int(parts[1]), bits >= 0, bits <= bytes * 8 else { return nil }
        return .network(address, prefix: bits)
    }

    static func ipv4(_ text: Substring) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3, let value = UInt8(part) else { return nil }
            bytes.append(value)
        }
        return bytes
    }

    static func ipv6(_ text: Substring) -> [UInt8]? {
        var text = text
        var tail: [UInt8] = []
        // An IPv4 address in the last 32 bits (::ffff:192.0.2.1).
        if let lastColon = text.lastIndex(of: ":"), text[text.index(after: lastColon)...].contains("."),
           let v4 = ipv4(text[text.index(after: lastColon)...]) {
            tail = v4
            text = text[...lastColon]
            if text.hasSuffix(":"), !text.hasSuffix("::") { text = text.dropLast() }
        }
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func groups(_ part: String) -> [UInt8]? {
            guard !part.isEmpty else { return [] }
            var bytes: [UInt8] = []
            for group in part.split(separator: ":", omittingEmptySubsequences: false) {
                guard !group.isEmpty, group.count <= 4, let value = UInt16(group, radix: 16) else { return nil }
                bytes += [UInt8(value >> 8), UInt8(value & 0xFF)]
            }
            return bytes
        }
        guard let head = groups(halves[0]) else { return nil }
        if halves.count == 1 {
            let all = head + tail
            return all.count == 16 ? all : nil
        }
        guard let rest = groups(halves[1]) else { return nil }
        let fill = 16 - head.count - rest.count - tail.count
        guard fill >= 0 else { return nil }
        return head + Array(repeating: 0, count: fill) + rest + tail
    }

    /// `4b324fc8-1670-01d3-1278-5a47bf6ee188` as its 16 bytes on the wire (the first three groups
    /// reversed for a Microsoft GUID).
    static func guid(_ text: String, littleEndianGroups: Bool) -> [UInt8]? {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        guard groups.map(\.count) == [8, 4, 4, 4, 12], groups.allSatisfy({ $0.allSatisfy(\.isHexDigit) }) else { return nil }
        var bytes: [UInt8] = []
        for (index, group) in groups.enumerated() {
            guard let groupBytes = hexBytes(String(group)) else { return nil }
            bytes += littleEndianGroups && index < 3 ? groupBytes.reversed() : groupBytes
        }
        return bytes
    }

    /// `00:1b:21`, `00-1b-21`, `001b.21ff`, `001b21`: bytes as hex pairs.
    static func hexBytes(_ text: String) -> [UInt8]? {
        let digits = text.filter { $0 != ":" && $0 != "-" && $0 != "." }
        guard !digits.isEmpty, digits.count % 2 == 0 else {
            // A single byte may be written as one digit between separators (0:1b).
            let parts = text.split(whereSeparator: { $0 == ":" || $0 == "-" })
            guard parts.count > 1 else { return nil }
            var bytes: [UInt8] = []
            for part in parts {
                guard part.count <= 2, let value = UInt8(part, radix: 16) else { return nil }
                bytes.append(value)
            }
            return bytes
        }
        var bytes: [UInt8] = []
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            guard let value = UInt8(digits[index..<next], radix: 16) else { return nil }
            bytes.append(value)
            index = next
        }
        return bytes
    }
}
