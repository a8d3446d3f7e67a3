import BinaryIO

/// How a string field's bytes are text (`@encoding("utf-16le")`; UTF-8 without one).
public enum TextEncoding: UInt8, Sendable, Hashable, CaseIterable {
    case utf8, ascii, latin1, utf16le, utf16be

    /// The name `@encoding` takes.
    public var name: String {
        switch self {
        case .utf8: return "utf-8"
        case .ascii: return "ascii"
        case .latin1: return "latin1"
        case .utf16le: return "utf-16le"
        case .utf16be: return "utf-16be"
        }
    }

    /// The name as views show it in their marker for invalid text: `UTF-8`, `ASCII`, `UTF-16LE`.
    public var displayName: String {
        switch self {
        case .utf8: return "UTF-8"
        case .ascii: return "ASCII"
        case .latin1: return "Latin-1"
        case .utf16le: return "UTF-16LE"
        case .utf16be: return "UTF-16BE"
        }
    }

    /// The encoding an `@encoding` argument names, with the usual spellings (`utf8`, `UTF-8`,
    /// `iso-8859-1`, `utf16le`); nil for one it does not know.
    init?(attribute text: String) {
        switch text.lowercased() {
        case "utf-8", "utf8": self = .utf8
        case "ascii", "us-ascii": self = .ascii
        case "latin1", "latin-1", "iso-8859-1": self = .latin1
        case "utf-16le", "utf16le": self = .utf16le
        case "utf-16be", "utf16be": self = .utf16be
        default: return nil
        }
    }

    /// Bytes per code unit: a terminator is looked for only where a code unit starts.
    var codeUnitSize: Int { self == .utf16le || self == .utf16be ? 2 : 1 }

    /// One code unit's bytes in this encoding: how `string[until 0]` and `cstring` write their NUL.
    func codeUnit(_ value: UInt16) -> [UInt8] {
        switch self {
        case .utf16le: return [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
        case .utf16be: return [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
        default: return [UInt8(truncatingIfNeeded: value)]
        }
    }

    /// The largest code unit: what a terminator written as a number may be.
    var largestCodeUnit: Int { codeUnitSize == 2 ? 0xFFFF : 0xFF }

    /// A piece of decoded text: a character, or a byte the encoding does not allow there.
    package enum Piece: Equatable {
        case scalar(Unicode.Scalar)
        case invalid(UInt8)
    }

    /// Offset of the first byte in `range` that is not text in this encoding, or nil: a byte
    /// of 0x80 or more in ASCII, a malformed sequence in UTF-8, a lone surrogate or an odd last
    /// byte in UTF-16. Latin-1 takes every byte.
    package func firstInvalid(_ bytes: [UInt8], in range: Range<Int>) -> Int? {
        switch self {
        case .utf8: return ByteReader.firstInvalidUTF8(bytes, in: range)
        case .latin1: return nil
        case .ascii: return range.first { bytes[$0] >= 0x80 }
        case .utf16le, .utf16be:
            var found: Int?
            bytes.withUnsafeBufferPointer { buffer in
                decode(UnsafeBufferPointer(rebasing: buffer[range])) { piece, offset in
                    if case .invalid = piece { found = range.lowerBound + offset }
                    return found == nil
                }
            }
            return found
        }
    }

    /// Calls `body` with each character of `bytes` in order, and with each byte that is not
    /// text here (the two bytes of a lone UTF-16 surrogate, each byte of malformed UTF-8), until
    /// `body` returns false.
    package func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (Piece) -> Bool) {
        decode(bytes) { piece, _ in body(piece) }
    }

    /// ``decode(_:_:)`` with each piece's offset in `bytes`.
    private func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (Piece, Int) -> Bool) {
        var index = 0
        let count = bytes.count
        switch self {
        case .latin1:
            while index < count {
                guard body(.scalar(Unicode.Scalar(bytes[index])), index) else { return }
                index += 1
            }
        case .ascii:
            while index < count {
                let byte = bytes[index]
                guard body(byte < 0x80 ? .scalar(Unicode.Scalar(byte)) : .invalid(byte), index) else { return }
                index += 1
            }
        case .utf8:
            while index < count {
                let (piece, length) = Self.utf8Piece(bytes, at: index)
                guard body(piece, index) else { return }
                index += length
            }
        case .utf16le, .utf16be:
            let little = self == .utf16le
            func unit(_ at: Int) -> UInt32 {
                little ? UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at]) : UInt32(bytes[at]) << 8 | UInt32(bytes[at + 1])
            }
            while index + 1 < count {
                let first = unit(index)
                if (0xD800...0xDBFF).contains(first), index + 3 < count {
                    let second = unit(index + 2)
                    if (0xDC00...0xDFFF).contains(second),
                       let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)) {
                        guard body(.scalar(scalar), index) else { return }
                        index += 4
                        continue
                    }
                }
                if let scalar = Unicode.Scalar(first) {
                    guard body(.scalar(scalar), index) else { return }
                } else {
                    guard body(.invalid(bytes[index]), index), body(.invalid(bytes[index + 1]), index + 1) else { return }
                }
                index += 2
            }
            if index < count { _ = body(.invalid(bytes[index]), index) }
        }
    }

    /// The UTF-8 sequence at `index`: its character and length, or its first byte as invalid.
    private static func utf8Piece(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (Piece, Int) {
        let lead = bytes[index]
        if lead < 0x80 { return (.scalar(Unicode.Scalar(lead)), 1) }
        let length: Int
        var minimum: UInt32
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: length = 2; minimum = 0x80; value = UInt32(lead & 0x1F)
        case 0xE0...0xEF: length = 3; minimum = 0x800; value = UInt32(lead & 0x0F)
        case 0xF0...0xF4: length = 4; minimum = 0x10000; value = UInt32(lead & 0x07)
        default: return (.invalid(lead), 1)
        }
        guard bytes.count - index >= length else { return (.invalid(lead), 1) }
        for continuation in 1..<length {
            let byte = bytes[index + continuation]
            guard byte & 0xC0 == 0x80 else { return (.invalid(lead), 1) }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return (.invalid(lead), 1) }
        return (.scalar(scalar), length)
    }

    /// The text of `bytes`, each byte that is not text here written `\xHH`.
    package func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        if self == .utf8, let text = String(validating: bytes, as: UTF8.self) { return text }
        var scalars = String.UnicodeScalarView()
        decode(bytes) { piece in
            switch piece {
            case .scalar(let scalar): scalars.append(scalar)
            case .invalid(let byte): scalars.append(contentsOf: "\\x\(byte < 0x10 ? "0" : "")\(String(byte, radix: 16))".unicodeScalars)
            }
            return true
        }
        return String(scalars)
    }

    /// The bytes of `text` in this encoding, or nil when a character has none (ASCII above
    /// 0x7F, Latin-1 above 0xFF).
    package func encode(_ text: String) -> [UInt8]? {
        switch self {
        case .utf8: return Array(text.utf8)
        case .ascii, .latin1:
            let largest: UInt32 = self == .ascii ? 0x7F : 0xFF
            var bytes: [UInt8] = []
            for scalar in text.unicodeScalars {
                guard scalar.value <= largest else { return nil }
                bytes.append(UInt8(scalar.value))
            }
            return bytes
        case .utf16le, .utf16be:
            var bytes: [UInt8] = []
            for unit in text.utf16 { bytes += codeUnit(unit) }
            return bytes
        }
    }
}
