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
/// Plain values only, so feeding it copies no table and retains nothing.
struct ChecksumAccumulator {
    private let algorithm: ChecksumAlgorithm
    /// `internet`: the running sum of 16-bit words, and whether a word's first byte is pending.
    private var sum: UInt64 = 0
    private var odd = false
    /// CRCs: the register.
    private var register: UInt32
    /// Adler-32's two sums.
    private var a: UInt32 = 1
    private var b: UInt32 = 0

    init(_ algorithm: ChecksumAlgorithm) {
        self.algorithm = algorithm
        register = Self.parameters(algorithm)?.initial ?? 0
    }

    private static func parameters(_ algorithm: ChecksumAlgorithm) -> CRCParameters? {
        switch algorithm {
        case .crc32: return .crc32
        case .crc32c: return .crc32c
        case .crc16CCITT: return .crc16CCITT
        case .crc16XMODEM: return .crc16XMODEM
        case .crc16KERMIT: return .crc16KERMIT
        case .internet, .adler32: return nil
        }
    }

    // Built once, on first use.
    private static let crc32Table = CRCParameters.crc32.table()
    private static let crc32cTable = CRCParameters.crc32c.table()
    private static let crc16Table = CRCParameters.crc16CCITT.table()
    private static let crc16ReflectedTable = CRCParameters.crc16KERMIT.table()

    private static func table(_ algorithm: ChecksumAlgorithm) -> [UInt32] {
        switch algorithm {
        case .crc32: return crc32Table
        case .crc32c: return crc32cTable
        case .crc16KERMIT: return crc16ReflectedTable
        default: return crc16Table
        }
    }

    /// Adler-32's modulus: the largest prime below 2^16.
    private static let adlerModulus: UInt32 = 65521
    /// The most bytes Adler-32's sums take before they must be reduced to stay within 32 bits (zlib's NMAX).
    private static let adlerBlock = 5552

    /// Feeds `bytes`, copied first: for tests and one-off sums.
    mutating func update(_ bytes: ArraySlice<UInt8>) {
        update(Array(bytes), 0..<bytes.count)
    }

    /// Feeds `bytes[range]`, without making a slice of them; a range not within `bytes` feeds nothing.
    mutating func update(_ bytes: [UInt8], _ range: Range<Int>) {
        guard !range.isEmpty, range.lowerBound >= 0, range.upperBound <= bytes.count else { return }
        switch algorithm {
        case .internet:
            var index = range.lowerBound
            if odd {
                sum &+= UInt64(bytes[index])
                index += 1
            }
            sum &+= Self.internetSum(bytes, index..<range.upperBound)
            odd = (range.upperBound - index) % 2 == 1
        case .adler32:
            var rest = bytes[range]
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
        case .crc32, .crc32c, .crc16CCITT, .crc16XMODEM, .crc16KERMIT:
            guard let parameters = Self.parameters(algorithm) else { return }
            let table = Self.table(algorithm)
            var crc = register
            if parameters.reflected {
                for byte in bytes[range] { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
            } else {
                let shift = UInt32(parameters.width - 8)
                let mask = parameters.mask
                for byte in bytes[range] { crc = (table[Int(((crc >> shift) ^ UInt32(byte)) & 0xFF)] ^ (crc << 8)) & mask }
            }
            register = crc
        }
    }

    /// Feeds one byte (the pseudo-header's protocol and length).
    mutating func update(byte: UInt8) {
        switch algorithm {
        case .internet:
            sum &+= odd ? UInt64(byte) : UInt64(byte) << 8
            odd.toggle()
        case .adler32:
            a = (a + UInt32(byte)) % Self.adlerModulus
            b = (b + a) % Self.adlerModulus
        case .crc32, .crc32c, .crc16CCITT, .crc16XMODEM, .crc16KERMIT:
            guard let parameters = Self.parameters(algorithm) else { return }
            let table = Self.table(algorithm)
            register = parameters.reflected
                ? table[Int((register ^ UInt32(byte)) & 0xFF)] ^ (register >> 8)
                : (table[Int(((register >> UInt32(parameters.width - 8)) ^ UInt32(byte)) & 0xFF)] ^ (register << 8)) & parameters.mask
        }
    }

    /// Feeds `count` zero bytes: the checksum field's own place in what it covers.
    mutating func updateZeros(_ count: Int) {
        guard count > 0 else { return }
        if algorithm == .internet {
            // Zero bytes add nothing to the sum; only the position within a word moves.
            odd = odd != (count % 2 == 1)
            return
        }
        for _ in 0..<count { update(byte: 0) }
    }

    /// The checksum of everything fed. For `internet`, the folded one's complement sum itself,
    /// before the final complement: ``ChecksumVerifier`` needs both.
    var value: UInt64 {
        switch algorithm {
        case .internet:
            return UInt64(Self.fold(sum))
        case .adler32:
            return UInt64(b) << 16 | UInt64(a)
        case .crc32, .crc32c, .crc16CCITT, .crc16XMODEM, .crc16KERMIT:
            guard let parameters = Self.parameters(algorithm) else { return 0 }
            return UInt64((register ^ parameters.xorOut) & parameters.mask)
        }
    }

    /// Whether the next byte fed is the second of a 16-bit word (`internet`).
    var isOddPosition: Bool { odd }

    /// The sum of `bytes[range]` (checked to lie within `bytes`; else 0) as 16-bit big-endian words,
    /// an odd last byte padded with zero, not folded.
    static func internetSum(_ bytes: [UInt8], _ range: Range<Int>) -> UInt64 {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count, !range.isEmpty else { return 0 }
        // Once per IPv4 header read, by default: unchecked reads, the range being checked above, four
        // words at a time. A UInt64 sum of 16-bit words cannot overflow before 2^48 words.
        return unsafe bytes.withUnsafeBytes { buffer in
            var index = range.lowerBound
            var total: UInt64 = 0
            while index &+ 8 <= range.upperBound {
                let words = UInt64(bigEndian: unsafe buffer.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                total &+= (words &>> 48) &+ (words &>> 32 & 0xFFFF) &+ (words &>> 16 & 0xFFFF) &+ (words & 0xFFFF)
                index &+= 8
            }
            while index &+ 1 < range.upperBound {
                total &+= UInt64(unsafe buffer[index]) &<< 8 | UInt64(unsafe buffer[index &+ 1])
                index &+= 2
            }
            if index < range.upperBound { total &+= UInt64(unsafe buffer[index]) &<< 8 }
            return total
        }
    }

    /// Carries folded back in until the sum fits 16 bits (one's complement addition).
    static func fold(_ sum: UInt64) -> UInt16 {
        var folded = sum
        while folded >> 16 != 0 { folded = (folded & 0xFFFF) + (folded >> 16) }
        return UInt16(truncatingIfNeeded: folded)
    }
}
