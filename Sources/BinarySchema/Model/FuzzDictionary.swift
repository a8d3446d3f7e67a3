import BinaryIO

/// libFuzzer dictionaries drawn from schemas: the byte strings a mutator should try, so a
/// fuzzer reaches the layers behind a magic number or an enum value without guessing them.
package enum FuzzDictionary {
    /// Values a schema's bytes are compared with: every enum case at its type's width and byte
    /// order, every constant in a constraint, condition, length or switch, every byte string
    /// literal and string terminator, every dispatch table key registered (ports, protocol
    /// numbers), and the `@linktype`
    /// numbers as the 2- and 4-byte little- and big-endian integers capture headers store.
    package static func entries(for schema: Schema) -> [[UInt8]] {
        var entries = Set<[UInt8]>()
        for enumeration in schema.enums where enumeration.base.bits % 8 == 0 {
            for entry in enumeration.cases {
                entries.insert(encode(entry.value, bytes: enumeration.base.bits / 8, endianness: enumeration.base.endianness))
            }
        }
        for table in schema.dispatchTables {
            for entry in table.entries {
                for value in Set([entry.low, entry.high]) where value > 1 {
                    for width in widths(of: value) { entries.insert(encode(value, bytes: width, endianness: .big)) }
                }
            }
        }
        for field in schema.fields {
            var programs = field.constraints
            if let condition = field.condition { programs.append(condition) }
            if let size = field.size { programs.append(size) }
            // An aggregate's body is a program of its own: `count(options, it.kind == 30)`.
            while let program = programs.popLast() {
                for case .constant(let value) in program.operations where value > 1 {
                    for width in widths(of: value) { entries.insert(encode(value, bytes: width, endianness: .big)) }
                }
                entries.formUnion(program.literals)
                programs.append(contentsOf: program.bodies)
            }
            entries.formUnion(terminators(of: field.type))
        }
        for structure in schema.structs {
            // `@pdu` lengths and accept conditions: a marker or a content type starts a PDU.
            for program in [structure.pduFraming?.length, structure.pduFraming?.accept].compactMap({ $0 }) {
                for case .constant(let value) in program.operations where value > 1 {
                    for width in widths(of: value) { entries.insert(encode(value, bytes: width, endianness: .big)) }
                }
            }
            for linkType in structure.linkTypes {
                for width in [2, 4] {
                    entries.insert(encode(Int64(linkType), bytes: width, endianness: .little))
                    entries.insert(encode(Int64(linkType), bytes: width, endianness: .big))
                }
            }
        }
        return entries.filter { !$0.isEmpty }.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// The words of the schema language: keywords, built-in types, attributes, operators.
    package static let languageEntries: [String] = [
        "struct", "enum", "typealias", "import", "endian", "big", "little", "bit_order", "msb", "lsb",
        "switch", "if", "it", "parent", "peek(", "zeros(", "peek_caseless(", "find(", "find_any(", "find(\"\\r\\n\", ", " = 0 if ", "len(", "has(", "remaining()", "offset()", "_ =>", " => ", "..",
        "u1", "u3", "u4", "u8", "u12", "u16", "u24", "u32", "u48", "u64", "i8", "i16", "i32", "i64",
        "u16le", "u32be", "f32", "f64", "bool", "varint", "zigzag", "bytes", "string", "cstring", "mac", "ipv4",
        "ipv6", "guid", "uuid", "dns_name", "@protocol(\"", "@linktype(", "@summary(\"{", "@offset_base", "@size(", "@assert(",
        "@display(\"{}\"", "@pdu(", "length: ", "accept: ", "@hex", "@dec", "@bin", "@flag", "@ascii", "@mac", "@ipv4", "@ipv6", "== ", " != ",
        " <= ", " >= ", " && ", " || ", " << ", " >> ", "[..]", "[", "]", "{", "}", "(", ")", ":", ",", ".", "\"",
        "//", "/*", "*/", "0x", "0b", "table ", "register ", "dispatch ", "heuristic ", "override ", "...",
        "min(", "max(", "udp.port", "tcp.port", "ip.proto", "ethertype", "let ", " = ", "@little_endian(", "struct P(n: u8) ", "P(1)", "@at(", "@align(", ".last", "[0]",
        "[until \"", "[until 0x", "\\r\\n", "\\0", "\\x", "x\"", "@text", "@encoding(\"", "utf-8", "ascii", "latin1",
        "utf-16le", "utf-16be", "== \"",
        "@checksum(", "internet", "crc32", "crc32c", "crc16_ccitt", "crc16_xmodem", "crc16_kermit", "adler32", "self",
        "ip_pseudo(", "on_request", "when(", "src", "dst", "pseudo_src", "pseudo_dst", "hidden", "{?", "{? {", "@label(\"",
        "hidden let ", "@requires(", "@name(\"", "@name(\"\")", "[*]", "{len(", "import \"ip\"",
        "index()", "count(", "any(", "all(", "first(", "sum(", ", it.", "parent.items[index() - 1]", "[i]", "[0][0]",
        "@pad(0x20)", "@pad(0)", "let k: E = ", "enum E: u8 { a = 1 } ", "[until sum(", "lazy ", "lazy x: u8 @at(0)", "@scale(4)", "@hex(16)",
    ]

    /// The terminators of a type's strings, in arrays and switch cases too.
    private static func terminators(of type: FieldType) -> [[UInt8]] {
        switch type {
        case .string(let extent, _, _):
            if case .terminator(let bytes) = extent.form { return [bytes] }
            return []
        case .array(let element, _): return terminators(of: element)
        case .switchOn(let choice): return (choice.cases.map(\.type) + [choice.defaultType].compactMap { $0 }).flatMap(terminators(of:))
        default: return []
        }
    }

    /// One dictionary line per entry: `"\x08\x00"`, libFuzzer's format.
    package static func text(_ entries: [[UInt8]]) -> String {
        entries.map { entry in
            "\"" + entry.map { byte in
                let hex = String(byte, radix: 16)
                return "\\x" + (hex.count == 1 ? "0" + hex : hex)
            }.joined() + "\""
        }.joined(separator: "\n") + "\n"
    }

    private static func widths(of value: Int64) -> [Int] {
        switch value {
        case ...0xFF: return [1]
        case ...0xFFFF: return [2]
        case ...0xFFFF_FFFF: return [2, 4]
        default: return [8]
        }
    }

    private static func encode(_ value: Int64, bytes: Int, endianness: Endianness) -> [UInt8] {
        guard bytes > 0, bytes <= 8 else { return [] }
        let littleEndian = (0..<bytes).map { UInt8(truncatingIfNeeded: UInt64(bitPattern: value) >> UInt64($0 * 8)) }
        return endianness == .little ? littleEndian : littleEndian.reversed()
    }
}
