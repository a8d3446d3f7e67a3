import BinaryIO

/// A checked schema: every struct and enum of the loaded files, with names
/// resolved, types checked and expressions compiled. Immutable and shareable.
public final class Schema: Sendable {
    /// All structs, indexed by ``StructType/id``.
    public let structs: [StructType]
    /// All enums, indexed by ``EnumType/id``.
    public let enums: [EnumType]
    /// All fields of all structs, indexed by ``Field/id``; a switch case with attributes has one of
    /// its own (the switch's field's name and slot, the case's filter name and display).
    public let fields: [Field]
    /// Every name as UTF-8 in one buffer, for fast rendering.
    package let names: NameTable
    /// The dispatch tables (`table udp.port: u16`) with every registration on them, in declaration order.
    package let dispatchTables: [DispatchTable]
    let structsByName: [String: Int]
    let linkTypes: [Int: Int]
    let plan: ExecutionPlan
    /// What the checker warns about in schemas that load (`a - 1 & mask`, which C reads otherwise).
    public let warnings: [Diagnostic]

    init(structs: [StructType], enums: [EnumType], fields: [Field], dispatchTables: [DispatchTable] = [],
         warnings: [Diagnostic] = []) {
        self.warnings = warnings
        self.structs = structs
        self.enums = enums
        self.fields = fields
        self.dispatchTables = dispatchTables
        self.names = NameTable(fields: fields, structs: structs, enums: enums)
        var byName: [String: Int] = [:]
        var links: [Int: Int] = [:]
        for structure in structs {
            byName[structure.name] = structure.id
            for linkType in structure.linkTypes where links[linkType] == nil { links[linkType] = structure.id }
        }
        self.structsByName = byName
        self.linkTypes = links
        self.plan = ExecutionPlan(structs: structs, tables: dispatchTables, totalFieldCount: fields.count)
    }

    /// The field of its struct `field` is: itself, or for the field a switch case with attributes
    /// reads its value as, the switch's field (which holds the `@size`, the condition, ...).
    package func declaredField(_ field: Field) -> Field {
        guard structs.indices.contains(field.structID), structs[field.structID].fields.indices.contains(field.slot) else { return field }
        return structs[field.structID].fields[field.slot]
    }

    /// The struct named `name`, if any.
    public func structType(named name: String) -> StructType? {
        structsByName[name].map { structs[$0] }
    }

    /// The struct that a libpcap link type (DLT number) starts at, from the schemas' `@linktype` attributes.
    public func rootStruct(forLinkType linkType: Int) -> StructType? {
        linkTypes[linkType].map { structs[$0] }
    }

    /// Names of all structs, sorted.
    public var structNames: [String] { structs.map(\.name).sorted() }

    /// This schema with keys `low...high` of dispatch table `table` read as struct `structID`, before
    /// anything registered on them (a `dissect -d` decode-as, for one run). Nil when there is no such
    /// table or struct.
    package func overriding(table name: String, keys: ClosedRange<Int64>, with structID: Int) -> Schema? {
        guard let index = dispatchTables.firstIndex(where: { $0.name == name }), structs.indices.contains(structID) else {
            return nil
        }
        var tables = dispatchTables
        tables[index] = tables[index].overriding(with: DispatchTable.Entry(
            low: keys.lowerBound, high: keys.upperBound, structID: structID, isOverride: true,
            location: SchemaLocation(path: "<command line>", line: 1, column: 1)))
        return Schema(structs: structs, enums: enums, fields: fields, dispatchTables: tables, warnings: warnings)
    }

    /// The same schema, carrying `warnings`.
    func with(warnings: [Diagnostic]) -> Schema {
        warnings.isEmpty ? self
            : Schema(structs: structs, enums: enums, fields: fields, dispatchTables: dispatchTables, warnings: warnings)
    }
}

/// A struct declaration after checking.
public final class StructType: Sendable {
    /// Index in ``Schema/structs``.
    public let id: Int
    /// The name it was declared with.
    public let name: String
    /// Short protocol name that starts field paths (`ip` in `ip.ttl`), from `@protocol("ip")`.
    public let protocolAbbreviation: String?
    /// What views call the layer (summary, tree, heading), from `@label("IPv4")`: the struct's
    /// name unless a schema gives another (a struct name that is an implementation detail).
    public let label: String?
    /// libpcap DLT numbers that start dissection here, from `@linktype(N)`.
    public let linkTypes: [Int]
    /// Whether `dns_name` compression pointers inside count from this struct's first byte.
    public let isOffsetBase: Bool
    /// `@link`: a link-layer header (Ethernet, a VLAN tag, SLL), which the summary view leaves out
    /// unless asked, as tcpdump does without `-e`.
    public let isLinkLayer: Bool
    /// `@summary("{src} > {dst} ttl {ttl}")`: the one-line summary of this layer; each `{path}`
    /// is a field's display text (a path below this struct, `#path` for its length in bytes);
    /// `{?text {path}}` is shown only when every field it names is present.
    public let summaryFormat: String?
    /// ``summaryFormat`` split once into literal text and field paths.
    package let summarySegments: [SummarySegment]
    /// IDs into ``Schema/fields``, in declaration order.
    package let fieldIDs: [Int]
    /// The fields themselves, in declaration order.
    public let fields: [Field]
    /// Where it was declared.
    public let location: SchemaLocation
    /// `@pdu(...)`: how the PDUs of the protocol this struct reads (a struct a `tcp.port`
    /// registration or heuristic names) are delimited in a reassembled byte stream; nil when the
    /// schema does not say.
    public let pduFraming: PDUFraming?
    /// `@requires(condition)`: conditions checked before the first field is read; one that fails
    /// stops the walk (a heuristic that has not claimed its payload gives it up).
    package let requirements: [Program]

    init(id: Int, name: String, protocolAbbreviation: String?, label: String? = nil, linkTypes: [Int], isOffsetBase: Bool,
         isLinkLayer: Bool = false, summaryFormat: String?, fields: [Field], location: SchemaLocation, pduFraming: PDUFraming? = nil,
         requirements: [Program] = []) {
        self.pduFraming = pduFraming
        self.requirements = requirements
        self.id = id
        self.name = name
        self.protocolAbbreviation = protocolAbbreviation
        self.label = label
        self.linkTypes = linkTypes
        self.isOffsetBase = isOffsetBase
        self.isLinkLayer = isLinkLayer
        self.summaryFormat = summaryFormat
        func slot(of path: [SummarySegment.Step]) -> Int {
            guard case .field(let name)? = path.first, let field = fields.first(where: { $0.name == name }) else { return -1 }
            return field.slot
        }
        self.summarySegments = (summaryFormat.map(SummarySegment.parse) ?? []).map { segment in
            var resolved = segment
            resolved.firstSlot = slot(of: segment.path)
            if case .range = segment.form { resolved.extraFirstSlot = slot(of: segment.lengthPath) }
            return resolved
        }
        self.fields = fields
        self.fieldIDs = fields.map(\.id)
        self.location = location
    }
}

/// A piece of a `@summary`: literal text, then (unless `path` is empty) a field's value.
package struct SummarySegment: Sendable {
    /// One step of a path below the summarized struct: a field by name, or an array element.
    package enum Step: Sendable, Hashable {
        case field(String)
        case element(Int)
        /// `[*]`: the first element of the array for which the rest of the path is present.
        case anyElement
    }

    /// How a placeholder shows its field.
    package enum Form: Sendable {
        /// `{path}`: the field's displayed value.
        case value
        /// `{#path}`: the field's length in bytes.
        case length
        /// `{path?}`: nothing; an optional group holding it shows only when the value is not 0.
        case nonzero
        /// `{path!}`: nothing; an optional group holding it shows only when the value is 0 or the
        /// field is absent.
        case zero
        /// `{#path?}`: nothing; an optional group holding it shows only when the field has bytes.
        case lengthNonzero
        /// `{#path!}`: nothing; an optional group holding it shows only when the field has no bytes
        /// or is absent.
        case lengthZero
        /// `{flags|fin:F syn:S ack:.}`: the letter of each 1-bit field (below the path) that is
        /// set, in the order written (``SummarySegment/letterPairs``), or `none` when none is.
        case letters
        /// `{len(path)}`: the number of elements of an array, or of bytes of any other field.
        case count
        /// `{seq:#payload}`: the number, then, when the second field (``SummarySegment/lengthPath``)
        /// has bytes, `:` and the number plus that length (modulo the number's width), as
        /// tcpdump's `seq 1000:1088`.
        case range
    }

    /// A placeholder's parts: its path's text, its form, and what the form takes.
    /// (The form's data is kept beside it, not in enum payloads: an array in a multi-payload
    /// enum is stored with tag bits in its pointer, where LeakSanitizer cannot see it.)
    struct Placeholder {
        var path: Substring
        var form: Form
        var letterPairs: [(field: String, letter: String)] = []
        var lengthPath: [Step] = []
    }

    package let literal: String
    package let path: [Step]
    package let form: Form
    /// For ``Form/letters``: each 1-bit field's name and its letter.
    package let letterPairs: [(field: String, letter: String)]
    /// For ``Form/range``: the path of the field whose length ends the range.
    package let lengthPath: [Step]
    /// `{#payload}`: the field's length in bytes rather than its value.
    package var lengthOnly: Bool {
        if case .length = form { return true }
        return false
    }
    /// On the first segment of an optional group `{?…}`: how many segments (this one included)
    /// the group holds, shown only when every field they name is present; 0 otherwise.
    package internal(set) var groupLength = 0
    /// The slot, in the summarized struct, of the field the path starts at (-1 if none):
    /// resolved once at load so views find it without searching by name.
    package internal(set) var firstSlot = -1
    /// For a ``Form/range(_:)``: the slot its length path starts at (-1 if none).
    package internal(set) var extraFirstSlot = -1

    init(literal: String, path: [Step], form: Form = .value, letterPairs: [(field: String, letter: String)] = [],
         lengthPath: [Step] = []) {
        self.literal = literal
        self.path = path
        self.form = form
        self.letterPairs = letterPairs
        self.lengthPath = lengthPath
    }

    /// `ip.flags.mf` or `answers[0].name` as steps.
    static func steps(_ text: Substring) -> [Step] {
        var path: [Step] = []
        for part in text.split(separator: ".") {
            var name = part
            var indices: [Step] = []
            while let bracket = name.lastIndex(of: "["), name.hasSuffix("]") {
                let inside = name[name.index(after: bracket)..<name.index(before: name.endIndex)]
                if inside == "*" {
                    indices.insert(.anyElement, at: 0)
                } else if let position = Int(inside) {
                    indices.insert(.element(position), at: 0)
                } else {
                    break
                }
                name = name[..<bracket]
            }
            if !name.isEmpty { path.append(.field(String(name))) }
            path += indices
        }
        return path
    }

    /// A placeholder's path text and form: `#path`, `path?`, `path!`, `path|a:A b:B`, `path:#other`.
    /// Its marks are ASCII, looked for in the bytes: finding them by Character was most of the
    /// cost of reading the bundled schemas' summaries.
    static func form(of placeholder: Substring) -> Placeholder {
        let bytes = placeholder.utf8
        let first = bytes.first, last = bytes.last
        if placeholder.hasPrefix("len("), last == UInt8(ascii: ")") {
            return Placeholder(path: placeholder.dropFirst(4).dropLast(), form: .count)
        }
        if first == UInt8(ascii: "#") {
            if last == UInt8(ascii: "?") { return Placeholder(path: placeholder.dropFirst().dropLast(), form: .lengthNonzero) }
            if last == UInt8(ascii: "!") { return Placeholder(path: placeholder.dropFirst().dropLast(), form: .lengthZero) }
            return Placeholder(path: placeholder.dropFirst(), form: .length)
        }
        if let bar = bytes.firstIndex(of: UInt8(ascii: "|")) {
            let pairs = placeholder[placeholder.index(after: bar)...].split(separator: " ").compactMap { (pair: Substring) -> (field: String, letter: String)? in
                guard let colon = pair.utf8.firstIndex(of: UInt8(ascii: ":")) else { return nil }
                return (String(pair[..<colon]), String(pair[colon...].dropFirst()))
            }
            return Placeholder(path: placeholder[..<bar], form: .letters, letterPairs: pairs)
        }
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
            var other = placeholder[placeholder.index(after: colon)...]
            if other.utf8.first == UInt8(ascii: "#") { other = other.dropFirst() }
            return Placeholder(path: placeholder[..<colon], form: .range, lengthPath: steps(other))
        }
        if last == UInt8(ascii: "?") { return Placeholder(path: placeholder.dropLast(), form: .nonzero) }
        if last == UInt8(ascii: "!") { return Placeholder(path: placeholder.dropLast(), form: .zero) }
        return Placeholder(path: placeholder, form: .value)
    }

    /// A lexical piece of a summary format, with its offset (in characters) in the format.
    enum Token {
        /// Text shown as it is.
        case literal(Substring)
        /// `{path}` or `{#path}`: the text between the braces.
        case placeholder(Substring, offset: Int)
        /// A `{` without its `}`.
        case unterminatedPlaceholder(offset: Int)
        /// `{?` opening an optional group.
        case groupOpen(offset: Int)
        /// The `}` closing the open optional group.
        case groupClose(offset: Int)
    }

    /// The format's tokens. Inside an optional group, a `}` outside a placeholder closes the group;
    /// a `{?` inside a group is a placeholder named `?…` (which no field is: the checker reports it).
    static func tokens(_ format: String) -> [Token] {
        // The braces and `?` are ASCII, so the bytes are walked rather than the characters
        // (grapheme breaking made this most of a load's time); offsets count characters, which
        // in an ASCII format are its bytes.
        let bytes = format.utf8
        let isASCII = bytes.allSatisfy { $0 < 0x80 }
        func offset(_ index: String.Index) -> Int {
            isASCII ? bytes.distance(from: bytes.startIndex, to: index) : format.distance(from: format.startIndex, to: index)
        }
        var tokens: [Token] = []
        var inGroup = false
        var literalStart = bytes.startIndex
        var index = bytes.startIndex
        func flush(_ end: String.Index) {
            if literalStart < end { tokens.append(.literal(format[literalStart..<end])) }
        }
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "{") {
                flush(index)
                let next = bytes.index(after: index)
                if !inGroup, next < bytes.endIndex, bytes[next] == UInt8(ascii: "?") {
                    tokens.append(.groupOpen(offset: offset(index)))
                    inGroup = true
                    index = bytes.index(after: next)
                    literalStart = index
                    continue
                }
                guard let close = bytes[next...].firstIndex(of: UInt8(ascii: "}")) else {
                    tokens.append(.unterminatedPlaceholder(offset: offset(index)))
                    return tokens
                }
                tokens.append(.placeholder(format[next..<close], offset: offset(index)))
                index = bytes.index(after: close)
                literalStart = index
                continue
            }
            if byte == UInt8(ascii: "}"), inGroup {
                flush(index)
                tokens.append(.groupClose(offset: offset(index)))
                inGroup = false
                index = bytes.index(after: index)
                literalStart = index
                continue
            }
            index = bytes.index(after: index)
        }
        flush(bytes.endIndex)
        return tokens
    }

    static func parse(_ format: String) -> [SummarySegment] {
        var segments: [SummarySegment] = []
        var literal = ""
        var groupStart: Int?
        func flushLiteral() {
            if !literal.isEmpty { segments.append(SummarySegment(literal: literal, path: [])) }
            literal = ""
        }
        func closeGroup() {
            flushLiteral()
            if let start = groupStart, start < segments.count { segments[start].groupLength = segments.count - start }
            groupStart = nil
        }
        for token in tokens(format) {
            switch token {
            case .literal(let text):
                literal += text
            case .unterminatedPlaceholder:
                break
            case .groupOpen:
                flushLiteral()
                groupStart = segments.count
            case .groupClose:
                closeGroup()
            case .placeholder(let placeholder, _):
                let parts = form(of: placeholder)
                segments.append(SummarySegment(literal: literal, path: steps(parts.path), form: parts.form,
                                               letterPairs: parts.letterPairs, lengthPath: parts.lengthPath))
                literal = ""
            }
        }
        if groupStart != nil { closeGroup() } else { flushLiteral() }
        return segments
    }
}

/// An enum declaration after checking.
public struct EnumType: Sendable {
    /// One `name = value` of an enum.
    public struct Case: Sendable, Hashable {
        /// The case's name.
        public let name: String
        /// Its value.
        public let value: Int64
    }

    /// Index in ``Schema/enums``.
    public let id: Int
    /// The name it was declared with.
    public let name: String
    /// The integer it is read as.
    package let base: IntegerType
    /// The cases in declaration order; a value may have several names (the first one shows).
    public let cases: [Case]
    let namesByValue: [Int64: String]

    init(id: Int, name: String, base: IntegerType, cases: [(name: String, value: Int64)]) {
        self.id = id
        self.name = name
        self.base = base
        self.cases = cases.map { Case(name: $0.name, value: $0.value) }
        var byValue: [Int64: String] = [:]
        for entry in cases where byValue[entry.value] == nil { byValue[entry.value] = entry.name }
        self.namesByValue = byValue
    }

    /// The case name for `value`, or nil for a value the enum does not list.
    public func caseName(for value: Int64) -> String? { namesByValue[value] }
}

/// A fixed-width integer's wire layout.
package struct IntegerType: Sendable, Hashable {
    /// Width in bits, 1...64.
    package let bits: Int
    package let isSigned: Bool
    package let endianness: Endianness
    package let bitOrder: BitOrder
    /// Written with a `le`/`be` suffix: a `@little_endian` byte order chosen at run time does not change it.
    package let hasExplicitEndianness: Bool
}

/// How a value is shown, from display attributes such as `@hex`.
public enum DisplayHint: String, Sendable, Hashable {
    case automatic, hex, decimal, binary, mac, ipv4, ipv6, flag, ascii
    /// 16 bytes as `4b324fc8-1670-01d3-1278-5a47bf6ee188`, the first three groups little-endian
    /// on the wire (Microsoft's GUID: DCE/RPC, SMB2, CLDAP); `uuid`, all big-endian (RFC 9562).
    case guid, uuid
}

/// A field's declared extent: a count or length, the rest of the scope, until a condition, or
/// (strings) up to and including a terminator. Made with `.expression(program)`, `.rest`,
/// `.until(program)` or `.terminator(bytes)`, and read through ``form``.
///
/// A struct, not an enum of the four forms: a schema keeps its extents for as long as it lives
/// (a fuzz target keeps one in a static until exit), and leak checkers that find live memory by
/// scanning for pointers to it (valgrind, LeakSanitizer) must see the program or bytes an extent
/// holds. In an enum whose every payload is a reference, Swift stores the case in the unused high
/// bits of the reference itself (`.until` set bit 62, `.terminator` bit 63), a word no scanner
/// takes for a pointer; the programs of `until` conditions and the terminators' bytes were reported
/// "definitely lost" while still in use. Here the kind is a field of its own and the references
/// are plain words (`Program?` is nil as 0), in a field's type and in an array's box alike
/// (`LeakCheckerVisibilityTests` checks both).
package struct Extent: Sendable {
    /// The extent's form, for a `switch`: made on each read, never stored.
    package enum Form {
        case expression(Program)
        case rest
        case until(Program)
        case terminator([UInt8])
    }

    private enum Kind: UInt8 { case expression, rest, until, terminator }

    private let kind: Kind
    /// The length, count or `until` condition; nil for the rest of the scope and terminators.
    private let program: Program?
    /// A terminator's bytes; empty otherwise.
    private let bytes: [UInt8]

    private init(kind: Kind, program: Program? = nil, bytes: [UInt8] = []) {
        self.kind = kind
        self.program = program
        self.bytes = bytes
    }

    /// A count or length.
    package static func expression(_ program: Program) -> Extent { Extent(kind: .expression, program: program) }
    /// The rest of the scope.
    package static var rest: Extent { Extent(kind: .rest) }
    /// Elements until a condition holds.
    package static func until(_ program: Program) -> Extent { Extent(kind: .until, program: program) }
    /// (Strings) up to and including a terminator.
    package static func terminator(_ bytes: [UInt8]) -> Extent { Extent(kind: .terminator, bytes: bytes) }

    package var form: Form {
        switch kind {
        case .expression: return .expression(program!)
        case .rest: return .rest
        case .until: return .until(program!)
        case .terminator: return .terminator(bytes)
        }
    }
}

/// The type of a field after checking.
package enum FieldType: Sendable {
    case integer(IntegerType)
    case float(bits: Int, endianness: Endianness, hasExplicitEndianness: Bool)
    case boolean
    case varint(zigzag: Bool)
    case bytes(Extent)
    /// A fixed number of bytes shown as an address (`mac`, `ipv4`, `ipv6`).
    case address(byteCount: Int, display: DisplayHint)
    /// Text in an encoding; `cstring` is `.string(.terminator([0]), .utf8)`.
    /// `padding`: `@pad(b)`, trailing `b` bytes not part of the text.
    case string(Extent, encoding: TextEncoding, padding: UInt8? = nil)
    case enumeration(enumID: Int, base: IntegerType)
    case structure(structID: Int)
    indirect case array(element: FieldType, extent: Extent)
    case switchOn(SwitchType)
    /// A struct with parameters read with the values of `arguments`, computed where it is used.
    case instance(structID: Int, arguments: [Program])
    /// Parameter `index` of the struct (`struct Option(length: u8)`): the argument's value, a derived
    /// leaf of kind integer, bool or enum (`enumID`).
    case parameter(index: Int, isBoolean: Bool, enumID: Int?)
    /// `let name = expr`: a value computed when the walk reaches it, reading no bytes; `let name: E = expr`
    /// is an enum `E`'s value.
    case computed(Program, isBoolean: Bool, enumID: Int? = nil)
    /// `dispatch table(keys...)`: index into ``Schema/dispatchTables`` and the key programs, tried in order.
    case dispatch(table: Int, keys: [Program])
    case dnsName

    var isByteGranular: Bool {
        switch self {
        case .integer, .enumeration, .structure, .switchOn, .dispatch, .instance, .parameter, .computed: return false
        default: return true
        }
    }
}

/// A `switch` choosing a field's type.
package final class SwitchType: Sendable {
    /// The value switched on; nil when each case carries its own condition.
    package let subject: Program?
    /// Cases in order: values to match (or one condition when ``subject`` is nil) and the type chosen.
    package let cases: [(values: [Int64], condition: Program?, type: FieldType)]
    /// The `_` case, if any; with none, an unmatched value is an error.
    package let defaultType: FieldType?
    /// Per case (``cases`` in order, then the default), the field a case with attributes reads its
    /// value as (its own filter name and display hint, the switch's field's name and slot), or -1.
    package let caseFieldIDs: [Int]

    init(subject: Program?, cases: [(values: [Int64], condition: Program?, type: FieldType)], defaultType: FieldType?,
         caseFieldIDs: [Int] = []) {
        self.subject = subject
        self.cases = cases
        self.defaultType = defaultType
        self.caseFieldIDs = caseFieldIDs
    }

    /// The field case `index` (``cases.count`` for the default) is read as, if it has its own.
    package func caseFieldID(_ index: Int) -> Int? {
        caseFieldIDs.indices.contains(index) && caseFieldIDs[index] >= 0 ? caseFieldIDs[index] : nil
    }
}

/// How a field names itself for display filters and field output: Wireshark's filter names
/// (`tcp.srcport`, `dns.qry.name`) have no array indices and skip the structure a schema adds.
public enum FilterNaming: Sendable, Hashable {
    /// This segment after the filter name of what holds the field (`srcport` in `tcp.srcport`):
    /// the field's own name unless `@name("srcport")` gives another.
    case segment(String)
    /// `@name("tls.handshake.extensions_server_name")`: the whole name, whatever holds the field.
    case absolute(String)
    /// `@name("")`: no segment of its own; the field and what it holds are named as if they were
    /// in the struct that holds it (a message's `body`, a switch's chosen struct).
    case transparent
}

/// One field of a struct after checking.
public final class Field: Sendable {
    /// Index in ``Schema/fields``.
    public let id: Int
    /// The name it was declared with.
    public let name: String
    /// The name in Swift's camelCase (`total_length` → `totalLength`), as Codable keys spell it.
    public let swiftName: String
    /// The ``StructType/id`` of the struct declaring it.
    public let structID: Int
    /// Position among its struct's fields, used to find its value at run time
    /// (``Dissection/fieldNode(ofStruct:slot:)``).
    public let slot: Int
    package let type: FieldType
    /// Present only when this holds (`if`).
    package let condition: Program?
    /// Must hold once read (`== value` or `@assert`).
    package let constraints: [Program]
    /// `@little_endian(condition)`: the byte order of the field's contents, chosen when it is read.
    package let littleEndianCondition: Program?
    /// `@at(offset)`: read at this byte offset from the start of the nearest `@offset_base` struct
    /// (or of the input), leaving the cursor where it was.
    package let position: Program?
    /// `@align(n)`: padding skipped first so the field starts a multiple of n bytes from its struct's start.
    package let alignment: Int
    /// `@size(n)`: the field occupies exactly n bytes, and its contents must fit in them.
    package let size: Program?
    /// How its value is shown (`@hex`, `@mac`…; `.automatic` without one).
    public let display: DisplayHint
    /// Whether it is a struct's parameter (`struct S(n: u8)`), a value its user passes.
    package var isParameter: Bool {
        if case .parameter = type { return true }
        return false
    }
    /// Whether it is read at an offset (`@at`), wherever that lies, rather than at the cursor.
    package var isPositioned: Bool { position != nil }
    /// Whether it is a computed value (`let name = expr`): derived, with no bytes of its own.
    package var isComputed: Bool {
        if case .computed = type { return true }
        return false
    }
    /// `@display("fmt", args...)`: `{}` placeholders filled by the argument values.
    package let displayFormat: (format: String, arguments: [Program])?
    /// ``displayFormat``'s text split at each `{}`: the literal pieces its arguments go between.
    package let displayPieces: [String]
    /// Where it was declared.
    public let location: SchemaLocation
    /// `@checksum(...)`: the field holds a checksum of the bytes it names, verified after the walk.
    package let checksum: ChecksumSpec?

    /// `hidden let`: a working value of the schema's own, which views leave out unless asked
    /// (``isHidden`` fields still take part in expressions and summaries).
    public let isHidden: Bool
    /// `lazy name: T @at(offset)`: read not where it stands but when an expression of its struct
    /// first needs it, or at the struct's end (``Interpreter/Options/readsLazyFields``).
    package let isLazy: Bool
    /// How the field names itself for filters and field output (`tcp.srcport`), from its name or `@name`.
    public let filterNaming: FilterNaming
    /// `@scale(n)`: what the field's bits count, in the unit its filter name means: filters and
    /// field output see the value times `n` (tshark's `tcp.hdr_len` is bytes, the header holds
    /// words of 4). 1 for any other field.
    package let valueScale: Int64
    /// `@hex(bits)`: the width field output writes its hex at; 0 for the field's own.
    package let hexWidth: Int

    /// The same field, shown with `displayFormat` (a switch's `@display`, given to the fields its
    /// cases with attributes are read as).
    func withDisplayFormat(_ displayFormat: (format: String, arguments: [Program])) -> Field {
        Field(id: id, name: name, structID: structID, slot: slot, type: type, condition: condition, constraints: constraints,
              size: size, display: display, displayFormat: displayFormat, location: location,
              littleEndianCondition: littleEndianCondition, position: position, alignment: alignment, checksum: checksum,
              isHidden: isHidden, isLazy: isLazy, filterNaming: filterNaming, valueScale: valueScale, hexWidth: hexWidth)
    }

    init(id: Int, name: String, structID: Int, slot: Int, type: FieldType, condition: Program?, constraints: [Program],
         size: Program?, display: DisplayHint, displayFormat: (format: String, arguments: [Program])?,
         location: SchemaLocation, littleEndianCondition: Program? = nil, position: Program? = nil, alignment: Int = 0,
         checksum: ChecksumSpec? = nil, isHidden: Bool = false, isLazy: Bool = false, filterNaming: FilterNaming? = nil,
         valueScale: Int64 = 1, hexWidth: Int = 0) {
        self.valueScale = valueScale
        self.hexWidth = hexWidth
        self.isHidden = isHidden
        self.isLazy = isLazy
        self.filterNaming = filterNaming ?? .segment(name)
        self.littleEndianCondition = littleEndianCondition
        self.position = position
        self.alignment = alignment
        self.id = id
        self.name = name
        self.swiftName = Self.camelCase(name)
        self.structID = structID
        self.slot = slot
        self.type = type
        self.condition = condition
        self.constraints = constraints
        self.size = size
        self.display = display
        self.displayFormat = displayFormat
        self.displayPieces = displayFormat.map {
            $0.format.split(separator: "{}", omittingEmptySubsequences: false).map(String.init)
        } ?? []
        self.location = location
        self.checksum = checksum
    }

    /// `snake_case` to `camelCase`; leading underscores are kept.
    static func camelCase(_ name: String) -> String {
        // Names are ASCII identifiers but for the odd one: those are done a byte at a time, the
        // others as characters (this ran for every field, and was a tenth of a load's time).
        let utf8 = name.utf8
        guard utf8.contains(UInt8(ascii: "_")) else { return name }
        if utf8.allSatisfy({ $0 < 0x80 }) {
            var result: [UInt8] = []
            result.reserveCapacity(utf8.count)
            var leading = true
            var upperNext = false
            for byte in utf8 {
                if byte == UInt8(ascii: "_") {
                    if leading { result.append(byte) } else { upperNext = !result.isEmpty }
                    continue
                }
                if leading { leading = false } else if upperNext, byte >= UInt8(ascii: "a"), byte <= UInt8(ascii: "z") {
                    result.append(byte - 32)
                    upperNext = false
                    continue
                }
                upperNext = false
                result.append(byte)
            }
            return String(decoding: result, as: UTF8.self)
        }
        let leading = name.prefix { $0 == "_" }
        let words = name.dropFirst(leading.count).split(separator: "_", omittingEmptySubsequences: true)
        guard let first = words.first else { return name }
        return String(leading) + first + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}

/// A dispatch table: keys (ports, EtherTypes, protocol numbers) mapped to the structs that read
/// the payload, filled by `register` declarations in any file, and heuristic structs tried when
/// no key matches. Wireshark's dissector tables and heuristic lists are the model.
package final class DispatchTable: Sendable {
    /// One registration: a key range (one value when `low == high`) or a heuristic, and its struct.
    package struct Entry: Sendable {
        package let low: Int64
        package let high: Int64
        package let structID: Int
        package let isOverride: Bool
        /// Where it was registered (`dissect -d` entries have the path `<command line>`).
        package let location: SchemaLocation

        package var isRange: Bool { low != high }
    }

    /// The table's name, e.g. `udp.port`.
    package let name: String
    /// The key type as written (`u16`, `EtherType`).
    package let keyTypeName: String
    /// The enum whose case names the keys are, if the key type is an enum.
    package let keyEnumID: Int?
    package let location: SchemaLocation
    /// Exact values and ranges, in registration order, overrides among them (``lookupOrder`` puts them first).
    package let entries: [Entry]
    /// Structs tried in order when no key matches; each claims the payload when its constraints hold.
    package let heuristics: [Entry]

    init(name: String, keyTypeName: String, keyEnumID: Int?, location: SchemaLocation, entries: [Entry], heuristics: [Entry]) {
        self.name = name
        self.keyTypeName = keyTypeName
        self.keyEnumID = keyEnumID
        self.location = location
        self.entries = entries
        self.heuristics = heuristics
    }

    /// The entries in the order a key is looked up: overrides (exact values, then ranges, each
    /// in order), then the other exact values, then the other ranges.
    package var lookupOrder: [Entry] {
        entries.filter { $0.isOverride && !$0.isRange } + entries.filter { $0.isOverride && $0.isRange }
            + entries.filter { !$0.isOverride && !$0.isRange } + entries.filter { !$0.isOverride && $0.isRange }
    }

    /// A copy with `entry`, an override, looked up before every other entry (a `dissect -d` decode-as).
    func overriding(with entry: Entry) -> DispatchTable {
        DispatchTable(name: name, keyTypeName: keyTypeName, keyEnumID: keyEnumID, location: location,
                      entries: [entry] + entries, heuristics: heuristics)
    }
}
