/// Why hex text could not be read as bytes.
public struct HexInputError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

/// Reads bytes written as hex text.
public enum HexInput {
    /// Parses hex digits separated freely by whitespace, colons, dashes or commas,
    /// with optional `0x` prefixes (`3c:22:fb`, `0x45 0x00`, `4500 003c`).
    public static func parse(_ text: String) throws(HexInputError) -> [UInt8] {
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
