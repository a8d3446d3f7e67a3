import BinaryIO
import BinarySchema
#if canImport(Glibc)
import Glibc
#endif

/// Writes paths and values straight into a ``TextSink``: the one place values become text, for
/// every view and for ``ValueFormatter``.
enum ValueWriter {
    /// The node's text: its `@display` format filled in when it has one, else its value.
    /// A value in a summary line: as ``writeDisplay(_:_:into:)``, but text without its quotes, as
    /// tcpdump prints a request line (`GET /index.html HTTP/1.1`, escapes still shown).
    /// An enum shows its case's name alone (`echo_request`, not `echo_request (8)`), or its number
    /// when it names no case.
    static func writeSummaryValue(_ dissection: Dissection, _ index: Int, into sink: inout TextSink) {
        let node = dissection.nodes[index]
        let names = dissection.schema.names
        if case .string = node.kind, names.displayPieceCount(field: Int(node.fieldID)) == 0 {
            writeString(dissection, node, quoted: false, into: &sink)
        } else if case .enumeration(let enumID) = node.kind, names.displayPieceCount(field: Int(node.fieldID)) == 0 {
            let raw: Int64?
            switch node.value {
            case .unsigned(let value): raw = Int64(bitPattern: value)
            case .signed(let value): raw = value
            default: raw = nil
            }
            if let raw, let name = names.caseName(ofEnum: Int(enumID), value: raw) {
                sink.append(contentsOf: name)
            } else {
                let hint = names.display(ofField: Int(node.fieldID))
                writeInteger(node.value, hint: hint == .hex ? .hex : .decimal, bits: node.bitWidth, into: &sink)
            }
        } else {
            writeDisplay(dissection, index, into: &sink)
        }
    }

    static func writeDisplay(_ dissection: Dissection, _ index: Int, into sink: inout TextSink) {
        let names = dissection.schema.names
        let fieldID = Int(dissection.nodes[index].fieldID)
        let pieces = names.displayPieceCount(field: fieldID)
        guard pieces > 0 else {
            writeValue(dissection, index, into: &sink)
            return
        }
        let count = dissection.displayArgumentCount(of: index)
        withUnsafeTemporaryAllocation(of: Int64.self, capacity: max(1, count)) { arguments in
            guard count == 0 || dissection.displayArguments(of: index, into: arguments) else {
                writeValue(dissection, index, into: &sink)
                return
            }
            for position in 0..<pieces {
                if position > 0 {
                    // A piece with no argument left keeps its placeholder.
                    if position - 1 < count {
                        sink.appendDecimal(arguments[position - 1])
                    } else {
                        sink.append("{}" as StaticString)
                    }
                }
                sink.append(contentsOf: names.displayPiece(field: fieldID, position))
            }
        }
    }

    /// After a verified checksum field's value: ` [correct]`, or ` [incorrect, should be 0x1c47]`
    /// (Wireshark's words) with the value in the field's own notation.
    static func writeChecksum(_ result: ChecksumResult, _ dissection: Dissection, _ index: Int, into sink: inout TextSink) {
        guard !result.isCorrect else {
            sink.append(" [correct]" as StaticString)
            return
        }
        sink.append(" [incorrect, should be " as StaticString)
        let node = dissection.nodes[index]
        writeInteger(.unsigned(result.expected), hint: dissection.schema.names.display(ofField: Int(node.fieldID)),
                     bits: node.bitWidth, into: &sink)
        sink.append(byte: UInt8(ascii: "]"))
    }

    /// A frame's verified checksums, met in node order as a view goes through the nodes: the view
    /// compares each node with ``upcoming`` (`Int.max` when none is left; most frames verify
    /// nothing), and only there looks further.
    struct ChecksumCursor {
        private let count: Int
        private var position = 0
        /// The node of the next checksum field.
        private(set) var upcoming = Int.max

        init(_ dissection: Dissection) {
            count = dissection.checksumCount
            if count > 0 { upcoming = dissection.checksumResult(at: 0).node }
        }

        /// The result for node `index` (nodes given in increasing order), moving past it.
        mutating func take(_ index: Int, in dissection: Dissection) -> ChecksumResult? {
            var found: ChecksumResult?
            while position < count {
                let result = dissection.checksumResult(at: position)
                if result.node > index {
                    upcoming = result.node
                    return found
                }
                if result.node == index { found = result }
                position += 1
            }
            upcoming = Int.max
            return found
        }

        /// The result for node `index`, nodes given in any order.
        func find(_ index: Int, in dissection: Dissection) -> ChecksumResult? {
            for position in 0..<count where dissection.checksumResult(at: position).node == index {
                return dissection.checksumResult(at: position)
            }
            return nil
        }
    }

    /// ``writeChecksum(_:_:_:into:)`` for node `index` if it is a checksum field; for views going
    /// through the nodes in order, once they reach ``ChecksumCursor/upcoming``.
    static func writeChecksum(_ cursor: inout ChecksumCursor, _ dissection: Dissection, _ index: Int,
                              into sink: inout TextSink) {
        if let result = cursor.take(index, in: dissection) { writeChecksum(result, dissection, index, into: &sink) }
    }

    /// The node's value as its display hint shows it.
    static func writeValue(_ dissection: Dissection, _ index: Int, into sink: inout TextSink) {
        let node = dissection.nodes[index]
        let fieldHint = dissection.schema.names.display(ofField: Int(node.fieldID))
        let hint = fieldHint == .automatic ? node.impliedDisplay : fieldHint
        switch node.kind {
        case .structure(let structID):
            if !writeFlags(dissection, index, into: &sink) {
                sink.append(contentsOf: dissection.schema.names.structName(Int(structID)))
            }
        case .array:
            if let count = elementCount(dissection, index) {
                sink.appendDecimal(count)
                sink.append(count == 1 ? " element" as StaticString : " elements")
            }
        case .enumeration(let enumID):
            let raw: Int64?
            switch node.value {
            case .unsigned(let value): raw = Int64(bitPattern: value)
            case .signed(let value): raw = value
            default: raw = nil
            }
            if let raw {
                if let name = dissection.schema.names.caseName(ofEnum: Int(enumID), value: raw) {
                    sink.append(contentsOf: name)
                } else {
                    sink.append("unknown" as StaticString)
                }
                sink.append(" (" as StaticString)
                writeInteger(node.value, hint: hint == .hex ? .hex : .decimal, bits: node.bitWidth, into: &sink)
                sink.append(byte: UInt8(ascii: ")"))
            } else {
                writeInteger(node.value, hint: .decimal, bits: node.bitWidth, into: &sink)
            }
        case .integer:
            writeInteger(node.value, hint: hint, bits: node.bitWidth, into: &sink)
        case .float:
            if case .float(let value) = node.value { sink.append(String(value)) }
        case .boolean:
            if case .boolean(let value) = node.value { sink.append(value ? "true" as StaticString : "false") }
        case .bytes:
            writeBytes(dissection.rawBytes(of: index), hint: hint, into: &sink)
        case .string:
            writeString(dissection, node, into: &sink)
        case .dnsName:
            sink.append(dissection.text(of: index) ?? "")
        }
    }

    /// The elements an array node lists. The walk counts only the elements it finished, so an
    /// array holding the failing (or cut) node also counts the element that failed, as the views list it.
    static func elementCount(_ dissection: Dissection, _ index: Int) -> UInt64? {
        let node = dissection.nodes[index]
        guard case .unsigned(let finished) = node.value else { return nil }
        let end = min(Int(node.subtreeEnd), dissection.nodes.count)
        guard dissection.stopNode > index, dissection.stopNode < end else { return finished }
        var listed: UInt64 = 0
        var child = index + 1
        while child < end {
            listed += 1
            child = max(child + 1, Int(dissection.nodes[child].subtreeEnd))
        }
        return listed
    }

    /// Whether a node is a computed value (`let name = expr`): the only integers and bools that
    /// span no bits, so no table is needed to tell.
    @inline(__always)
    static func isDerived(_ node: FieldNode) -> Bool {
        guard node.bitEnd == node.bitStart else { return false }
        switch node.kind {
        case .integer, .boolean, .enumeration: return true
        default: return false
        }
    }

    /// An integer in the notation a hint asks for; `bits` sets the digits of hex and binary (a
    /// computed value, which has no width, takes as many as its value needs).
    private static func writeInteger(_ value: FieldValue, hint: DisplayHint, bits: Int, into sink: inout TextSink) {
        let magnitude: UInt64
        switch value {
        case .unsigned(let raw): magnitude = raw
        case .signed(let raw):
            guard hint == .hex || hint == .binary else {
                sink.appendDecimal(raw)
                return
            }
            magnitude = UInt64(bitPattern: raw)
        case .boolean(let flag):
            sink.append(flag ? "true" as StaticString : "false")
            return
        default:
            return
        }
        let width = bits > 0 ? min(64, bits) : max(1, 64 - magnitude.leadingZeroBitCount)
        let masked = width == 64 ? magnitude : magnitude & ((1 << UInt64(width)) - 1)
        switch hint {
        case .hex:
            sink.append("0x" as StaticString)
            for position in stride(from: (width + 3) / 4 - 1, through: 0, by: -1) {
                sink.append(byte: TextSink.hexDigit(masked >> UInt64(position * 4)))
            }
        case .binary:
            sink.append("0b" as StaticString)
            for position in stride(from: width - 1, through: 0, by: -1) {
                sink.append(byte: (masked >> UInt64(position)) & 1 == 1 ? UInt8(ascii: "1") : UInt8(ascii: "0"))
            }
        case .flag where masked <= 1:
            sink.append(masked == 1 ? "Set" as StaticString : "Not set")
        case .ipv4 where width == 32:
            for position in 0..<4 {
                if position > 0 { sink.append(byte: UInt8(ascii: ".")) }
                sink.appendDecimal((masked >> UInt64(24 - position * 8)) & 0xFF)
            }
        default:
            sink.appendDecimal(magnitude)
        }
    }

    /// Bytes as a MAC, IPv4 or IPv6 address, printable text, or hex.
    private static func writeBytes(_ bytes: ArraySlice<UInt8>, hint: DisplayHint, into sink: inout TextSink) {
        switch hint {
        case .mac where !bytes.isEmpty:
            sink.appendHex(bytes, separator: UInt8(ascii: ":"))
        case .ipv4 where bytes.count == 4:
            for (position, byte) in bytes.enumerated() {
                if position > 0 { sink.append(byte: UInt8(ascii: ".")) }
                sink.appendDecimal(byte)
            }
        case .ipv6 where bytes.count == 16:
            writeIPv6(bytes, into: &sink)
        case .guid where bytes.count == 16, .uuid where bytes.count == 16:
            writeGUID(bytes, littleEndianGroups: hint == .guid, into: &sink)
        case .ascii:
            let printable = bytes.map { $0 >= 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: ".") }
            writeQuoted(String(decoding: printable, as: UTF8.self), into: &sink)
        default:
            if bytes.isEmpty { sink.append("(empty)" as StaticString) } else { sink.appendHex(bytes) }
        }
    }

    /// `8-4-4-4-12` hex digits; the first three groups read little-endian for a Microsoft GUID.
    private static func writeGUID(_ bytes: ArraySlice<UInt8>, littleEndianGroups: Bool, into sink: inout TextSink) {
        let first = bytes.startIndex
        for position in 0..<8 {
            if position == 4 || position == 6 { sink.append(byte: UInt8(ascii: "-")) }
            // Little-endian groups: bytes 3 2 1 0, 5 4, 7 6 (no table, no allocation per value).
            let offset = !littleEndianGroups ? position : position < 4 ? 3 - position : position < 6 ? 9 - position : 13 - position
            sink.appendHex(byte: bytes[first + offset])
        }
        sink.append(byte: UInt8(ascii: "-"))
        sink.appendHex(bytes[(first + 8)..<(first + 10)])
        sink.append(byte: UInt8(ascii: "-"))
        sink.appendHex(bytes[(first + 10)..<(first + 16)])
    }

    /// RFC 5952 text: lowercase, leading zeros dropped, the longest run of two or more zero groups as `::`.
    private static func writeIPv6(_ bytes: ArraySlice<UInt8>, into sink: inout TextSink) {
        let first = bytes.startIndex
        @inline(__always) func group(_ index: Int) -> Int {
            Int(bytes[first + index * 2]) << 8 | Int(bytes[first + index * 2 + 1])
        }
        var bestStart = -1
        var bestLength = 0
        var index = 0
        while index < 8 {
            guard group(index) == 0 else {
                index += 1
                continue
            }
            var end = index
            while end < 8, group(end) == 0 { end += 1 }
            if end - index > bestLength {
                bestStart = index
                bestLength = end - index
            }
            index = end
        }
        func writeGroups(_ range: Range<Int>) {
            for position in range {
                if position > range.lowerBound { sink.append(byte: UInt8(ascii: ":")) }
                let value = group(position)
                var started = false
                for shift in stride(from: 12, through: 0, by: -4) {
                    let digit = (value >> shift) & 0xF
                    if digit != 0 || started || shift == 0 {
                        sink.append(byte: TextSink.hexDigit(digit))
                        started = true
                    }
                }
            }
        }
        if bestLength < 2 {
            writeGroups(0..<8)
        } else {
            writeGroups(0..<bestStart)
            sink.append("::" as StaticString)
            writeGroups((bestStart + bestLength)..<8)
        }
    }

    /// Text in double quotes, with quotes, backslashes and control characters escaped: `\"`,
    /// `\\`, `\n`, `\r`, `\t`, `\0` and `\x1b` for the other control bytes (the forms
    /// ``Text/wrap(_:width:)`` keeps whole).
    private static func writeQuoted(_ text: String, into sink: inout TextSink) {
        sink.append(byte: UInt8(ascii: "\""))
        for scalar in text.unicodeScalars { writeEscaped(scalar, into: &sink) }
        sink.append(byte: UInt8(ascii: "\""))
    }

    /// A string node's text, quoted and escaped as ``writeQuoted(_:into:)`` does, decoded in its
    /// encoding; bytes that are not text in it are written `\xHH`, and the string is followed by
    /// ` [invalid ASCII]` (the encoding's name), so no view passes them off as text.
    /// `asField`: as tshark writes a field's value (`-T fields`): quotes and backslashes as they
    /// are (`\\pipe\\srvsvc` is `\pipe\srvsvc`), control characters still escaped.
    private static func writeString(_ dissection: Dissection, _ node: FieldNode, quoted: Bool = true, asField: Bool = false,
                                    into sink: inout TextSink) {
        let range = dissection.textByteRange(of: node)
        if quoted { sink.append(byte: UInt8(ascii: "\"")) }
        dissection.bytes.withUnsafeBufferPointer { bytes in
            node.textEncoding.decode(UnsafeBufferPointer(rebasing: bytes[range])) { piece in
                switch piece {
                case .scalar(let scalar) where asField && (scalar == "\\" || scalar == "\""):
                    sink.append(byte: UInt8(truncatingIfNeeded: scalar.value))
                case .scalar(let scalar): writeEscaped(scalar, into: &sink)
                case .invalid(let byte):
                    sink.append("\\x" as StaticString)
                    sink.appendHex(byte: byte)
                }
                return true
            }
        }
        if quoted { sink.append(byte: UInt8(ascii: "\"")) }
        if node.isInvalidText {
            sink.append(" [invalid " as StaticString)
            sink.append(node.textEncoding.displayName)
            sink.append(byte: UInt8(ascii: "]"))
        }
    }

    @inline(__always)
    private static func writeEscaped(_ scalar: Unicode.Scalar, into sink: inout TextSink) {
        switch scalar {
        case "\"": sink.append("\\\"" as StaticString)
        case "\\": sink.append("\\\\" as StaticString)
        case "\n": sink.append("\\n" as StaticString)
        case "\r": sink.append("\\r" as StaticString)
        case "\t": sink.append("\\t" as StaticString)
        default:
            if scalar.value == 0 {
                sink.append("\\0" as StaticString)
            } else if scalar.value < 0x20 || scalar.value == 0x7F {
                sink.append("\\x" as StaticString)
                sink.appendHex(byte: UInt8(truncatingIfNeeded: scalar.value))
            } else {
                for byte in scalar.utf8 { sink.append(byte: byte) }
            }
        }
    }

    /// A struct made only of 1-bit fields, as the names of those set: `[ack,syn]`. False for other structs.
    private static func writeFlags(_ dissection: Dissection, _ index: Int, into sink: inout TextSink) -> Bool {
        let nodes = dissection.nodes
        let end = min(Int(nodes[index].subtreeEnd), nodes.count)
        // Flags: a struct whose children are all one-bit integers (so each is a leaf).
        guard end > index + 1 else { return false }
        for child in (index + 1)..<end {
            let node = nodes[child]
            guard case .integer = node.kind, node.bitWidth == 1, Int(node.parent) == index else { return false }
        }
        let names = dissection.schema.names
        sink.append(byte: UInt8(ascii: "["))
        var first = true
        for child in (index + 1)..<end where nodes[child].value == .unsigned(1) {
            if !first { sink.append(byte: UInt8(ascii: ",")) }
            PathTable.appendName(of: nodes[child], names, into: &sink)
            first = false
        }
        sink.append(byte: UInt8(ascii: "]"))
        return true
    }

    /// The bits of the bytes a bit field touches, the field's own as 0/1 and the rest as dots;
    /// false (nothing written) for byte-aligned fields.
    @discardableResult
    static func writeBitPattern(_ dissection: Dissection, _ index: Int, into sink: inout TextSink) -> Bool {
        let node = dissection.nodes[index]
        guard node.isBitLevel else { return false }
        let firstByte = node.bitStart >> 3
        let lastByte = (node.bitEnd - 1) >> 3
        guard lastByte >= firstByte, lastByte < dissection.bytes.count else { return false }
        // Each byte is shown most significant bit first; under `bit_order lsb` a field's bit
        // positions count from the least significant bit, so they are mirrored within the byte.
        let mirrored = isLeastSignificantFirst(dissection, index)
        // Each byte is 8 bits and a space in the middle, bytes separated by a space.
        let count = (lastByte - firstByte + 1) * 10 - 1
        sink.withUnreservedBytes(count) { output in
            var position = 0
            for byteIndex in firstByte...lastByte {
                if byteIndex > firstByte {
                    output[position] = UInt8(ascii: " ")
                    position += 1
                }
                let byte = dissection.bytes[byteIndex]
                for bit in 0..<8 {
                    if bit == 4 {
                        output[position] = UInt8(ascii: " ")
                        position += 1
                    }
                    let absolute = byteIndex * 8 + (mirrored ? 7 - bit : bit)
                    if absolute >= node.bitStart, absolute < node.bitEnd {
                        output[position] = (byte >> UInt8(7 - bit)) & 1 == 1 ? UInt8(ascii: "1") : UInt8(ascii: "0")
                    } else {
                        output[position] = UInt8(ascii: ".")
                    }
                    position += 1
                }
            }
        }
        return true
    }

    /// Whether the node's integer was read in `bit_order lsb`: from its field's type, through
    /// arrays and the switch cases that read the node's kind.
    private static func isLeastSignificantFirst(_ dissection: Dissection, _ index: Int) -> Bool {
        guard let field = dissection.field(of: index) else { return false }
        let kind = dissection.nodes[index].kind
        func order(of type: FieldType) -> BitOrder? {
            switch (type, kind) {
            case (.integer(let integer), .integer): return integer.bitOrder
            case (.enumeration(let enumID, let base), .enumeration(let nodeEnum)) where Int32(enumID) == nodeEnum:
                return base.bitOrder
            case (.array(let element, _), _): return order(of: element)
            case (.switchOn(let choice), _):
                for entry in choice.cases { if let found = order(of: entry.type) { return found } }
                return choice.defaultType.flatMap(order(of:))
            default: return nil
            }
        }
        return order(of: field.type) == .lsbFirst
    }
}

extension ValueWriter {
    /// A node's value as `tshark -T fields` prints it: integers in decimal, or `0x` and whole bytes
    /// of hex where the schema shows hex; enums and flags as their numbers; addresses in their
    /// notation; text as it is; other bytes in hex without separators; a struct of at most 32 bits
    /// (a flags word) as its bits in hex, any other struct or array as nothing.
    /// `value` as C's `%.<digits>g` writes it in the C locale (the process never sets another).
    static func writeGeneral(_ value: Double, digits: Int, into sink: inout TextSink) {
        var buffer = [CChar](repeating: 0, count: 48)
        let written = buffer.withUnsafeMutableBufferPointer { buffer in
            withVaList([value]) { arguments in
                digits <= 6 ? vsnprintf(buffer.baseAddress, buffer.count, "%.6g", arguments)
                    : vsnprintf(buffer.baseAddress, buffer.count, "%.15g", arguments)
            }
        }
        guard written > 0 else { return }
        for character in buffer.prefix(min(Int(written), buffer.count - 1)) { sink.append(byte: UInt8(bitPattern: character)) }
    }

    static func writeFieldValue(_ dissection: Dissection, _ index: Int, into sink: inout TextSink) {
        let node = dissection.nodes[index]
        let fieldHint = dissection.schema.names.display(ofField: Int(node.fieldID))
        let hint = fieldHint == .automatic ? node.impliedDisplay : fieldHint
        let wholeBytes = (node.bitWidth + 7) / 8 * 8
        switch node.kind {
        case .structure:
            // A word of flags (tcp.flags: bit fields) is its value in hex, as tshark prints its
            // FT_UINTn; any other struct but a protocol's own (whose text in tshark is its tree's
            // heading) is its bytes, as tshark prints an FT_NONE or FT_BYTES field (an option).
            if !holdsBitFields(dissection, index) {
                if dissection.structType(of: index)?.protocolAbbreviation == nil { sink.appendHex(dissection.rawBytes(of: index)) }
                return
            }
            guard node.bitWidth > 0, node.bitWidth <= 32 else { return }
            var value: UInt64 = 0
            let bytes = dissection.rawBytes(of: index)
            for byte in bytes { value = value << 8 | UInt64(byte) }
            // The struct's own bits, from the bytes it touches.
            let trailing = bytes.count * 8 - (node.bitStart & 7) - node.bitWidth
            if trailing > 0 { value >>= UInt64(trailing) }
            if node.bitWidth < 64 { value &= (1 << UInt64(node.bitWidth)) - 1 }
            writeInteger(.unsigned(value), hint: .hex, bits: wholeBytes, into: &sink)
        case .array:
            return
        case .enumeration, .integer:
            if dissection.schema.names.scale(ofField: Int(node.fieldID)) != 1, let value = filterInteger(dissection, index) {
                sink.appendDecimal(value)
                return
            }
            switch hint {
            case .hex:
                let width = dissection.schema.names.hexWidth(ofField: Int(node.fieldID))
                writeInteger(node.value, hint: .hex, bits: width > 0 ? width : wholeBytes, into: &sink)
            case .ipv4: writeInteger(node.value, hint: .ipv4, bits: node.bitWidth, into: &sink)
            default: writeInteger(node.value, hint: .decimal, bits: node.bitWidth, into: &sink)
            }
        case .float:
            // tshark's FT_FLOAT and FT_DOUBLE: C's %g to 6 and 15 digits (68, 0.333333333333333, 1.5e+300).
            if case .float(let value) = node.value { writeGeneral(value, digits: node.bitWidth <= 32 ? 6 : 15, into: &sink) }
        case .boolean:
            if case .boolean(let value) = node.value { sink.append(byte: value ? UInt8(ascii: "1") : UInt8(ascii: "0")) }
        case .bytes:
            let bytes = dissection.rawBytes(of: index)
            switch hint {
            case .mac, .ipv4, .ipv6, .guid, .uuid: writeBytes(bytes, hint: hint, into: &sink)
            case .ascii: sink.append(String(decoding: bytes.map { $0 >= 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: ".") }, as: UTF8.self))
            default: sink.appendHex(bytes)
            }
        case .string:
            writeString(dissection, node, quoted: false, asField: true, into: &sink)
        case .dnsName:
            sink.append(dissection.text(of: index) ?? "")
        }
    }
}

extension ValueWriter {
    /// Whether a struct node reads fields narrower than a byte or off a byte boundary: a word of
    /// flags rather than a record.
    static func holdsBitFields(_ dissection: Dissection, _ index: Int) -> Bool {
        let end = min(Int(dissection.nodes[index].subtreeEnd), dissection.nodes.count)
        var child = index + 1
        while child < end {
            if dissection.nodes[child].isBitField { return true }
            child = max(child + 1, Int(dissection.nodes[child].subtreeEnd))
        }
        return false
    }

    /// An integer field's value as filters and field output see it: times its `@scale(n)`, in
    /// the unit of its filter name as tshark gives it (`tcp.hdr_len` 32, not 8 words); the value
    /// as read when the product does not fit.
    static func filterInteger(_ dissection: Dissection, _ index: Int) -> Int64? {
        guard let value = dissection.integer(of: index) else { return nil }
        let scale = dissection.schema.names.scale(ofField: Int(dissection.nodes[index].fieldID))
        guard scale != 1 else { return value }
        let (scaled, overflow) = value.multipliedReportingOverflow(by: scale)
        return overflow ? value : scaled
    }

    /// A bytes node the schema shows as an address (`@mac`, `@ipv4`, `@ipv6`, of the right size)
    /// in its notation, for JSON's typed value; false, writing nothing, for any other node.
    static func writeAddress(_ dissection: Dissection, _ index: Int, into sink: inout TextSink) -> Bool {
        let node = dissection.nodes[index]
        guard case .bytes = node.value else { return false }
        let fieldHint = dissection.schema.names.display(ofField: Int(node.fieldID))
        let hint = fieldHint == .automatic ? node.impliedDisplay : fieldHint
        let bytes = dissection.rawBytes(of: index)
        switch hint {
        case .mac where !bytes.isEmpty, .ipv4 where bytes.count == 4, .ipv6 where bytes.count == 16,
             .guid where bytes.count == 16, .uuid where bytes.count == 16:
            writeBytes(bytes, hint: hint, into: &sink)
            return true
        default:
            return false
        }
    }
}
