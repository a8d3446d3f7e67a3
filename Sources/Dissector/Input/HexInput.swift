import Foundation

/// Why hex text could not be read as bytes.
public struct HexInputError: Error, Sendable, CustomStringConvertible {
    /// What is wrong with the text, and where.
    public let message: String
    /// The message.
    public var description: String { message }
}

/// One frame of hex text: its bytes, and the line that headed its dump (tcpdump's packet line).
public struct HexFrame: Sendable, Equatable {
    /// The frame's bytes.
    public var bytes: [UInt8]
    /// The first line before the dump that is not part of it, trimmed (tcpdump's
    /// `06:01:45.551769 IP a > b: …`), if any.
    public var header: String?

    /// A frame of these bytes.
    public init(bytes: [UInt8], header: String?) {
        self.bytes = bytes
        self.header = header
    }
}

/// Reads bytes written as hex text, including the dumps of common tools pasted as they are.
public enum HexInput {
    /// Parses any of:
    /// - hex digits separated freely by whitespace, colons, dashes or commas, with optional
    ///   `0x` prefixes (`3c:22:fb`, `0x45 0x00`, `4500 003c`);
    /// - `xxd` and `tcpdump -x`/`-xx`/`-X`/`-XX` output (lines with an `offset:` first; their
    ///   ASCII column and tcpdump's packet lines are skipped);
    /// - `hexdump -C` and `od -Ax -tx1` output (an offset, then bytes; `|ascii|` skipped).
    ///
    /// Every frame's bytes, one after the other: ``frames(_:)`` keeps them apart.
    public static func parse(_ text: String) throws(HexInputError) -> [UInt8] {
        try frames(text).flatMap(\.bytes)
    }

    /// The frames in `text`, read as ``parse(_:)`` reads it, split where a dump starts again:
    /// several packets of `tcpdump -xx` (or `-x`, `-X`, `-XX`, with or without `-v`) pasted
    /// together give a frame each. A dump starts again at a line with offset 0 after bytes, and
    /// after any line that is not a dump line (tcpdump's packet line). Plain hex is one frame.
    /// Always at least one frame (an empty one for text without bytes).
    public static func frames(_ text: String) throws(HexInputError) -> [HexFrame] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingWhitespace }
        if lines.contains(where: { Self.colonOffset($0) != nil }) {
            var frames: [HexFrame] = []
            var current = HexFrame(bytes: [], header: nil)
            func finish() {
                if !current.bytes.isEmpty { frames.append(current) }
                current = HexFrame(bytes: [], header: nil)
            }
            for line in lines where !line.isEmpty {
                guard let (offset, rest) = Self.colonOffset(line) else {
                    // tcpdump's packet line, or its -v continuation lines: the first one after a
                    // dump ends it and heads the next.
                    if !current.bytes.isEmpty { finish() }
                    if current.header == nil { current.header = String(line) }
                    continue
                }
                if offset == 0, !current.bytes.isEmpty { finish() }
                // The hex ends where two spaces set off the ASCII column.
                let hexPart = String(rest.trimmingWhitespace).components(separatedBy: "  ").first ?? ""
                current.bytes += try parsePlain(String(hexPart))
            }
            finish()
            return frames.isEmpty ? [HexFrame(bytes: [], header: nil)] : frames
        }
        if let frames = offsetDump(lines) { return frames }
        return [HexFrame(bytes: try parsePlain(text), header: nil)]
    }

    /// The offset and the rest of a line that starts with an `offset:` token (`00000010:`,
    /// `0x0010:`), or nil. An offset too long for an Int reads as nonzero.
    private static func colonOffset(_ line: Substring) -> (offset: Int, rest: Substring)? {
        guard let first = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first, first.hasSuffix(":") else { return nil }
        var digits = first.dropLast()
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
        guard !digits.isEmpty, digits.allSatisfy(\.isHexDigit) else { return nil }
        return (Int(digits, radix: 16) ?? Int.max, line.dropFirst(first.count))
    }

    /// `hexdump -C` and `od` output: each line's first token is the offset of its first byte, and
    /// the last line may hold only the final offset. Nil unless every offset agrees with the count;
    /// offset 0 after bytes starts another frame (dumps pasted one after the other).
    private static func offsetDump(_ lines: [Substring]) -> [HexFrame]? {
        var frames: [HexFrame] = []
        var bytes: [UInt8] = []
        for line in lines where !line.isEmpty {
            let beforeASCII = line.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false).first ?? line
            let tokens = beforeASCII.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let offsetToken = tokens.first, offsetToken.count >= 6, let offset = Int(offsetToken, radix: 16) else {
                return nil
            }
            if offset == 0, !bytes.isEmpty {
                frames.append(HexFrame(bytes: bytes, header: nil))
                bytes = []
            }
            guard offset == bytes.count else { return nil }
            if tokens.count == 1 { continue }
            for token in tokens.dropFirst() {
                guard token.count == 2, let byte = UInt8(token, radix: 16) else { return nil }
                bytes.append(byte)
            }
        }
        if !bytes.isEmpty { frames.append(HexFrame(bytes: bytes, header: nil)) }
        return frames.isEmpty ? nil : frames
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
