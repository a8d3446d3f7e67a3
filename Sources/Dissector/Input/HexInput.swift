import Foundation

/// Why hex text could not be read as bytes.
public struct HexInputError: Error, Sendable, CustomStringConvertible {
    /// What is wrong with the text, and where.
    public let message: String
    /// The message.
    public var description: String { message }
}

/// Reads bytes written as hex text, including the dumps of common tools pasted as they are.
public enum HexInput {
    /// Parses any of:
    /// - hex digits separated freely by whitespace, colons, dashes or commas, with optional
    ///   `0x` prefixes (`3c:22:fb`, `0x45 0x00`, `4500 003c`);
    /// - `xxd` and `tcpdump -x`/`-xx`/`-X`/`-XX` output (lines with an `offset:` first; their
    ///   ASCII column and tcpdump's packet lines are skipped);
    /// - `hexdump -C` and `od -Ax -tx1` output (an offset, then bytes; `|ascii|` skipped).
    public static func parse(_ text: String) throws(HexInputError) -> [UInt8] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingWhitespace }
        if lines.contains(where: { Self.colonOffset($0) != nil }) {
            var bytes: [UInt8] = []
            for line in lines {
                guard let rest = Self.colonOffset(line) else { continue }
                // The hex ends where two spaces set off the ASCII column.
                let hexPart = String(rest.trimmingWhitespace).components(separatedBy: "  ").first ?? ""
                bytes += try parsePlain(String(hexPart))
            }
            return bytes
        }
        if let bytes = offsetDump(lines) { return bytes }
        return try parsePlain(text)
    }

    /// The rest of a line that starts with an `offset:` token (`00000010:`, `0x0010:`), or nil.
    private static func colonOffset(_ line: Substring) -> Substring? {
        guard let first = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first, first.hasSuffix(":") else { return nil }
        var digits = first.dropLast()
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
        guard !digits.isEmpty, digits.allSatisfy(\.isHexDigit) else { return nil }
        return line.dropFirst(first.count)
    }

    /// `hexdump -C` and `od` output: each line's first token is the offset of its first byte, and
    /// the last line may hold only the final offset. Nil unless every offset agrees with the count.
    private static func offsetDump(_ lines: [Substring]) -> [UInt8]? {
        var bytes: [UInt8] = []
        var sawDumpLine = false
        for line in lines where !line.isEmpty {
            let beforeASCII = line.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false).first ?? line
            let tokens = beforeASCII.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let offsetToken = tokens.first, offsetToken.count >= 6, let offset = Int(offsetToken, radix: 16),
                  offset == bytes.count else { return nil }
            if tokens.count == 1 { continue }
            for token in tokens.dropFirst() {
                guard token.count == 2, let byte = UInt8(token, radix: 16) else { return nil }
                bytes.append(byte)
            }
            sawDumpLine = true
        }
        return sawDumpLine ? bytes : nil
    }

    private static func parsePlain(_ text: String) throws(HexInputError) -> [UInt8] {
        var bytes: [UInt8] = []
        var pending: UInt8?
        let scalars = Array(text.unicodeScalars)
        var index = 0
        var line = 1
        var column = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            column += 1
            if scalar == "\n" {
                line += 1
                column = 0
            }
            if scalar == "0", index < scalars.count, scalars[index] == "x" || scalars[index] == "X", pending == nil {
                index += 1
                column += 1
                continue
            }
            if let digit = hexDigit(scalar) {
                if let high = pending {
                    bytes.append(high << 4 | digit)
                    pending = nil
                } else {
                    pending = digit
                }
                continue
            }
            if scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar == ":" || scalar == "-"
                || scalar == "," {
                if pending != nil {
                    throw HexInputError(message: "odd hex digit before '\(scalar.escaped(asASCII: true))' at line \(line), column \(column): write bytes as two digits")
                }
                continue
            }
            throw HexInputError(message: "'\(scalar.escaped(asASCII: true))' at line \(line), column \(column) is not a hex digit")
        }
        if pending != nil { throw HexInputError(message: "odd number of hex digits: the last byte has one digit") }
        return bytes
    }

    private static func hexDigit(_ scalar: Unicode.Scalar) -> UInt8? {
        switch scalar.value {
        case 0x30...0x39: return UInt8(scalar.value - 0x30)
        case 0x41...0x46: return UInt8(scalar.value - 0x41 + 10)
        case 0x61...0x66: return UInt8(scalar.value - 0x61 + 10)
        default: return nil
        }
    }
}

extension Substring {
    var trimmingWhitespace: Substring {
        var result = self
        while let first = result.first, first.isWhitespace { result = result.dropFirst() }
        while let last = result.last, last.isWhitespace { result = result.dropLast() }
        return result
    }
}
