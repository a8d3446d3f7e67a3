#if canImport(Glibc)
import Glibc
#endif

/// What a capture file's first bytes say about its timestamps, read before libpcap consumes
/// them: libpcap delivers every file's times in nanoseconds, and a view should show the digits
/// the file recorded (tcpdump shows a microsecond file's times to the microsecond).
enum FileHeader {
    /// The digits of a second `file` records: 6 or 9, from the pcap magic number or the first
    /// pcapng interface's `if_tsresol`; 9 when the header cannot be seen (a pipe whose first
    /// read returned too little).
    static func timestampDigits(of file: UnsafeMutablePointer<FILE>) -> Int {
        timestampDigits(header: peek(file, count: 512))
    }

    /// The same, from the file's first bytes.
    static func timestampDigits(header bytes: [UInt8]) -> Int {
        guard bytes.count >= 4 else { return 9 }
        switch (bytes[0], bytes[1], bytes[2], bytes[3]) {
        case (0xD4, 0xC3, 0xB2, 0xA1), (0xA1, 0xB2, 0xC3, 0xD4): return 6
        case (0x4D, 0x3C, 0xB2, 0xA1), (0xA1, 0xB2, 0x3C, 0x4D): return 9
        case (0x0A, 0x0D, 0x0D, 0x0A): return pcapngDigits(bytes) ?? 6
        default: return 9
        }
    }

    /// The first interface description's `if_tsresol` (option 9) as digits: 10^-n gives n,
    /// 2^-n the decimal digits that resolve it; nil when the block is not in `bytes`.
    private static func pcapngDigits(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 12 else { return nil }
        let littleEndian = bytes[8] == 0x4D
        func word(_ offset: Int, _ size: Int) -> Int? {
            guard offset >= 0, size > 0, offset <= bytes.count - size else { return nil }
            var value = 0
            for index in 0..<size {
                let byte = Int(bytes[littleEndian ? offset + size - 1 - index : offset + index])
                value = value << 8 | byte
            }
            return value
        }
        // The section header's length, then the next block: an interface description (type 1).
        guard let sectionLength = word(4, 4), sectionLength >= 28, sectionLength % 4 == 0,
              let blockType = word(sectionLength, 4), blockType == 1,
              let blockLength = word(sectionLength + 4, 4), blockLength >= 20
        else { return nil }
        let blockEnd = sectionLength + blockLength - 4
        var option = sectionLength + 16
        while let code = word(option, 2), let length = word(option + 2, 2), code != 0, option + 4 + length <= blockEnd {
            if code == 9, length >= 1, option + 4 < bytes.count {
                let resolution = Int(bytes[option + 4])
                if resolution & 0x80 == 0 { return min(9, max(0, resolution)) }
                // 2^-n seconds: the decimal digits that tell two such ticks apart.
                let power = resolution & 0x7F
                return min(9, (power * 30103 + 99_999) / 100_000)
            }
            option += 4 + (length + 3) / 4 * 4
        }
        return 6
    }

    /// Up to `count` of the stream's first bytes, without consuming them: read again from the
    /// start of a regular file, else what the stream has buffered.
    private static func peek(_ file: UnsafeMutablePointer<FILE>, count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { buffer in pread(fileno(file), buffer.baseAddress, count, 0) }
        if read >= 0 { return Array(bytes.prefix(read)) }
        guard let start = file.pointee._IO_read_ptr, let end = file.pointee._IO_read_end, end > start else { return [] }
        let buffered = min(count, end - start)
        return start.withMemoryRebound(to: UInt8.self, capacity: buffered) { Array(UnsafeBufferPointer(start: $0, count: buffered)) }
    }
}
