/// The algorithms `@checksum` names, written from their published parameters (the CRC
/// catalogue's width, polynomial, reflection, initial value and final XOR; RFC 1071; RFC 1950).
package enum ChecksumAlgorithm: String, Sendable, CaseIterable {
    /// RFC 1071: the 16-bit one's complement of the one's complement sum of 16-bit big-endian words.
    case internet
    /// CRC-32/ISO-HDLC, as zlib, PNG, gzip and ZIP compute it (check value 0xCBF43926).
    case crc32
    /// CRC-32C/ISCSI, Castagnoli's polynomial, as SCTP and iSCSI compute it (check value 0xE3069283).
    case crc32c
    /// CRC-16/IBM-3740, usually called CRC-16/CCITT-FALSE: not reflected, initial value 0xFFFF
    /// (check value 0x29B1).
    case crc16CCITT = "crc16_ccitt"
    /// CRC-16/XMODEM: the CCITT polynomial, not reflected, initial value 0 (check value 0x31C3).
    case crc16XMODEM = "crc16_xmodem"
    /// CRC-16/KERMIT: the CCITT polynomial reflected, initial value 0 (check value 0x2189).
    case crc16KERMIT = "crc16_kermit"
    /// RFC 1950's Adler-32 (check value 0x091E01DE).
    case adler32

    /// The width in bits of the value it computes, which the checksum field must have.
    package var bits: Int {
        switch self {
        case .internet, .crc16CCITT, .crc16XMODEM, .crc16KERMIT: return 16
        case .crc32, .crc32c, .adler32: return 32
        }
    }

    /// The names as a schema writes them, for messages.
    package static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// A CRC's parameters, as the CRC catalogue gives them. Every CRC here reflects its input and its
/// output alike, so one flag stands for both.
struct CRCParameters: Sendable {
    let width: Int
    let polynomial: UInt32
    let initial: UInt32
    let reflected: Bool
    let xorOut: UInt32

    static let crc32 = CRCParameters(width: 32, polynomial: 0x04C1_1DB7, initial: 0xFFFF_FFFF, reflected: true,
                                     xorOut: 0xFFFF_FFFF)
    static let crc32c = CRCParameters(width: 32, polynomial: 0x1EDC_6F41, initial: 0xFFFF_FFFF, reflected: true,
                                      xorOut: 0xFFFF_FFFF)
    static let crc16CCITT = CRCParameters(width: 16, polynomial: 0x1021, initial: 0xFFFF, reflected: false, xorOut: 0)
    static let crc16XMODEM = CRCParameters(width: 16, polynomial: 0x1021, initial: 0, reflected: false, xorOut: 0)
    static let crc16KERMIT = CRCParameters(width: 16, polynomial: 0x1021, initial: 0, reflected: true, xorOut: 0)

    var mask: UInt32 { width == 32 ? UInt32.max : (UInt32(1) << UInt32(width)) - 1 }

    /// The 256 remainders of one byte each, for a byte at a time instead of a bit at a time.
    func table() -> [UInt32] {
        (0..<256).map { (byte: Int) -> UInt32 in
            if reflected {
                // The register shifts right: the polynomial's bits are mirrored to match.
                let mirrored = Self.reverse(polynomial, width: width)
                var remainder = UInt32(byte)
                for _ in 0..<8 { remainder = remainder & 1 == 1 ? (remainder >> 1) ^ mirrored : remainder >> 1 }
                return remainder
            }
            let top = UInt32(1) << UInt32(width - 1)
            var remainder = UInt32(byte) << UInt32(width - 8)
            for _ in 0..<8 { remainder = remainder & top != 0 ? (remainder << 1) ^ polynomial : remainder << 1 }
            return remainder & mask
        }
    }

    /// The low `width` bits of `value` in reverse order.
    static func reverse(_ value: UInt32, width: Int) -> UInt32 {
        var result: UInt32 = 0
        for bit in 0..<width where value >> UInt32(bit) & 1 == 1 { result |= 1 << UInt32(width - 1 - bit) }
        return result
    }
}

/// A checksum computed over bytes fed in pieces (the pieces a `@checksum` covers, in order).
struct ChecksumAccumulator {
    private enum State {
        /// The running sum of 16-bit words; `odd` when a word's first byte is pending.
        case internet(sum: UInt64, odd: Bool)
        case crc(register: UInt32, parameters: CRCParameters, table: [UInt32])
        case adler32(a: UInt32, b: UInt32)
    }

    private var state: State

    init(_ algorithm: ChecksumAlgorithm) {
        switch algorithm {
        case .internet: state = .internet(sum: 0, odd: false)
        case .crc32: state = Self.crc(.crc32, Self.crc32Table)
        case .crc32c: state = Self.crc(.crc32c, Self.crc32cTable)
        case .crc16CCITT: state = Self.crc(.crc16CCITT, Self.crc16Table)
        case .crc16XMODEM: state = Self.crc(.crc16XMODEM, Self.crc16Table)
        case .crc16KERMIT: state = Self.crc(.crc16KERMIT, Self.crc16ReflectedTable)
        case .adler32: state = .adler32(a: 1, b: 0)
        }
    }

    private static func crc(_ parameters: CRCParameters, _ table: [UInt32]) -> State {
        .crc(register: parameters.initial, parameters: parameters, table: table)
    }

    // Built once, on first use.
    private static let crc32Table = CRCParameters.crc32.table()
    private static let crc32cTable = CRCParameters.crc32c.table()
    private static let crc16Table = CRCParameters.crc16CCITT.table()
    private static let crc16ReflectedTable = CRCParameters.crc16KERMIT.table()

    /// Adler-32's modulus: the largest prime below 2^16.
    private static let adlerModulus: UInt32 = 65521
    /// The most bytes Adler-32's sums take before they must be reduced to stay within 32 bits (zlib's NMAX).
    private static let adlerBlock = 5552

    /// Feeds `bytes`.
    mutating func update(_ bytes: ArraySlice<UInt8>) {
        switch state {
        case .internet(var sum, var odd):
            var index = bytes.startIndex
            if odd, index < bytes.endIndex {
                sum &+= UInt64(bytes[index])
                index += 1
                odd = false
            }
            // A UInt64 sum of 16-bit words cannot overflow before 2^48 words.
            while index + 1 < bytes.endIndex {
                sum &+= UInt64(bytes[index]) << 8 | UInt64(bytes[index + 1])
                index += 2
            }
            if index < bytes.endIndex {
                sum &+= UInt64(bytes[index]) << 8
                odd = true
            }
            state = .internet(sum: sum, odd: odd)
        case .crc(var register, let parameters, let table):
            if parameters.reflected {
                for byte in bytes { register = table[Int((register ^ UInt32(byte)) & 0xFF)] ^ (register >> 8) }
            } else {
                let shift = UInt32(parameters.width - 8)
                let mask = parameters.mask
                for byte in bytes {
                    register = (table[Int(((register >> shift) ^ UInt32(byte)) & 0xFF)] ^ (register << 8)) & mask
                }
            }
            state = .crc(register: register, parameters: parameters, table: table)
        case .adler32(var a, var b):
            var rest = bytes[...]
            while !rest.isEmpty {
                let block = rest.prefix(Self.adlerBlock)
                // Within a block neither sum can pass 2^32 (zlib's bound), so the wrapping adds never wrap.
                for byte in block {
                    a &+= UInt32(byte)
                    b &+= a
                }
                a %= Self.adlerModulus
                b %= Self.adlerModulus
                rest = rest.dropFirst(block.count)
            }
            state = .adler32(a: a, b: b)
        }
    }

    /// Feeds one byte (the pseudo-header's protocol and length).
    mutating func update(byte: UInt8) {
        switch state {
        case .internet(let sum, let odd):
            state = .internet(sum: sum &+ (odd ? UInt64(byte) : UInt64(byte) << 8), odd: !odd)
        case .crc(let register, let parameters, let table):
            let next = parameters.reflected
                ? table[Int((register ^ UInt32(byte)) & 0xFF)] ^ (register >> 8)
                : (table[Int(((register >> UInt32(parameters.width - 8)) ^ UInt32(byte)) & 0xFF)] ^ (register << 8)) & parameters.mask
            state = .crc(register: next, parameters: parameters, table: table)
        case .adler32(let a, let b):
            let sum = (a + UInt32(byte)) % Self.adlerModulus
            state = .adler32(a: sum, b: (b + sum) % Self.adlerModulus)
        }
    }

    /// Feeds `count` zero bytes: the checksum field's own place in what it covers.
    mutating func updateZeros(_ count: Int) {
        guard count > 0 else { return }
        if case .internet(let sum, let odd) = state {
            // Zero bytes add nothing to the sum; only the position within a word moves.
            state = .internet(sum: sum, odd: odd != (count % 2 == 1))
            return
        }
        for _ in 0..<count { update(byte: 0) }
    }

    /// The checksum of everything fed. For `internet`, the folded one's complement sum itself,
    /// before the final complement: ``ChecksumVerifier`` needs both.
    var value: UInt64 {
        switch state {
        case .internet(let sum, _):
            return UInt64(Self.fold(sum))
        case .crc(let register, let parameters, _):
            return UInt64((register ^ parameters.xorOut) & parameters.mask)
        case .adler32(let a, let b):
            return UInt64(b) << 16 | UInt64(a)
        }
    }

    /// Carries folded back in until the sum fits 16 bits (one's complement addition).
    static func fold(_ sum: UInt64) -> UInt16 {
        var folded = sum
        while folded >> 16 != 0 { folded = (folded & 0xFFFF) + (folded >> 16) }
        return UInt16(truncatingIfNeeded: folded)
    }
}
