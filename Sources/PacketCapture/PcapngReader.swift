import CPcap

#if canImport(Glibc)
import Glibc
#endif

/// A pcapng reader of our own, for the files libpcap refuses: libpcap reads only files whose
/// interfaces all have one link type, this one gives each packet its own interface's. Reads
/// block by block from a `FILE` it owns; every length in the file is checked before it is used.
/// Enhanced, simple and (obsolete) packet blocks are delivered; every other block is skipped.
/// A damaged block ends the reading with a ``PcapError`` that gives its byte offset; the packets
/// before it have been delivered.
final class PcapngReader {
    /// One packet, its bytes in the reader's buffer until the next read.
    struct Packet {
        /// libpcap's link type number (DLT) of the packet's interface.
        let linkType: Int
        let seconds: Int
        let nanoseconds: Int
        let bytes: UnsafeBufferPointer<UInt8>
        let originalLength: Int
    }

    /// An interface of the current section.
    private struct Interface {
        let linkType: Int
        let snapshotLength: Int
        /// Timestamp units per second: 10^n or 2^n (if_tsresol), a million by default.
        let unitsPerSecond: UInt64
        /// Seconds added to every timestamp (if_tsoffset).
        let offsetSeconds: Int
    }

    /// Blocks longer than this (64 MiB) are taken for damage: a bound on the memory one block takes.
    static let maximumBlockLength = 1 << 26
    static let sectionHeaderType: UInt32 = 0x0A0D_0D0A
    static let byteOrderMagic: UInt32 = 0x1A2B_3C4D

    private let file: UnsafeMutablePointer<FILE>
    private let source: String
    /// The current block's body, reused; grown as needed.
    private var buffer: UnsafeMutableRawBufferPointer
    /// A block's type and length (and a section header's byte-order magic).
    private let head = UnsafeMutableRawBufferPointer.allocate(byteCount: 12, alignment: 4)
    private var littleEndian = true
    private var interfaces: [Interface] = []
    /// Byte offset of the next block in the file.
    private var offset = 0
    private var sawSection = false
    /// What must outlive the file (the memory an in-memory file reads).
    private let keeping: AnyObject?

    /// Takes ownership of `file` (closed when the reader is released).
    init(file: UnsafeMutablePointer<FILE>, source: String, keeping: AnyObject? = nil) {
        self.file = file
        self.source = source
        self.keeping = keeping
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 8)
    }

    deinit {
        fclose(file)
        buffer.deallocate()
        head.deallocate()
    }

    /// Whether `file` starts with a pcapng section header; the file is rewound.
    static func isPcapng(_ file: UnsafeMutablePointer<FILE>) -> Bool {
        var head: [UInt8] = [0, 0, 0, 0]
        let count = head.withUnsafeMutableBytes { fread($0.baseAddress, 1, 4, file) }
        rewind(file)
        return count == 4 && head == [0x0A, 0x0D, 0x0D, 0x0A]
    }

    private func damaged(_ blockOffset: Int, _ reason: String) -> PcapError {
        PcapError(kind: .read, message: "damaged pcapng block at byte offset \(blockOffset): \(reason)", subject: source)
    }

    /// The next packet, or nil at the end of the file.
    func next() throws(PcapError) -> Packet? {
        while true {
            let blockOffset = offset
            let got = fread(head.baseAddress, 1, 8, file)
            if got == 0, feof(file) != 0 { return nil }
            guard got == 8 else {
                throw damaged(blockOffset, ferror(file) != 0 ? "read error" : "the file ends inside a block header")
            }
            let header = UnsafeRawBufferPointer(head)
            let rawType = Self.word(header, 0, littleEndian: true)
            if rawType == Self.sectionHeaderType {
                // The byte order is the section header's own: its magic, right after the length.
                guard fread(head.baseAddress.map { $0 + 8 }, 1, 4, file) == 4 else {
                    throw damaged(blockOffset, "the file ends inside a section header")
                }
                if Self.word(header, 8, littleEndian: true) == Self.byteOrderMagic {
                    littleEndian = true
                } else if Self.word(header, 8, littleEndian: false) == Self.byteOrderMagic {
                    littleEndian = false
                } else {
                    throw damaged(blockOffset, "section header without the byte-order magic")
                }
                let length = try checkedLength(header, blockOffset: blockOffset, minimum: 28)
                let body = try readBody(length - 12, length: length, blockOffset: blockOffset)
                let major = u16(body, 0)
                guard major == 1 else { throw damaged(blockOffset, "pcapng version \(major), not 1") }
                interfaces.removeAll(keepingCapacity: true)
                sawSection = true
                offset = blockOffset + length
                continue
            }
            guard sawSection else { throw damaged(blockOffset, "no section header before the first block") }
            let type = Self.word(header, 0, littleEndian: littleEndian)
            let length = try checkedLength(header, blockOffset: blockOffset, minimum: 12)
            let body = try readBody(length - 8, length: length, blockOffset: blockOffset)
            offset = blockOffset + length
            // The body as read, less the trailing copy of the length (checked in readBody).
            let content = UnsafeRawBufferPointer(rebasing: body[0..<(body.count - 4)])
            switch type {
            case 1: try addInterface(content, blockOffset: blockOffset)
            case 6: return try enhancedPacket(content, blockOffset: blockOffset)
            case 3: return try simplePacket(content, blockOffset: blockOffset)
            case 2: return try obsoletePacket(content, blockOffset: blockOffset)
            default: continue
            }
        }
    }

    /// The block's total length, checked: at least `minimum`, a multiple of 4, at most the limit.
    private func checkedLength(_ header: UnsafeRawBufferPointer, blockOffset: Int, minimum: Int) throws(PcapError) -> Int {
        let length = Int(Self.word(header, 4, littleEndian: littleEndian))
        guard length >= minimum else { throw damaged(blockOffset, "block length \(length) is less than \(minimum)") }
        guard length % 4 == 0 else { throw damaged(blockOffset, "block length \(length) is not a multiple of 4") }
        guard length <= Self.maximumBlockLength else {
            throw damaged(blockOffset, "block length \(length) is more than \(Self.maximumBlockLength)")
        }
        return length
    }

    /// Reads the rest of a block of `length` bytes (`count` more bytes: the rest of its body and
    /// its trailing length) into the buffer, and checks the trailing length against the leading one.
    private func readBody(_ count: Int, length: Int, blockOffset: Int) throws(PcapError) -> UnsafeRawBufferPointer {
        if count > buffer.count {
            buffer.deallocate()
            buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 2 * buffer.count), alignment: 8)
        }
        let got = count == 0 ? 0 : fread(buffer.baseAddress, 1, count, file)
        guard got == count, count >= 4 else {
            throw damaged(blockOffset, ferror(file) != 0 ? "read error" : "the file ends inside the block (\(got) of \(count) bytes)")
        }
        let body = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
        let trailing = Int(u32(body, count - 4))
        guard trailing == length else {
            throw damaged(blockOffset, "block length \(length) at its start, \(trailing) at its end")
        }
        return body
    }

    private func addInterface(_ body: UnsafeRawBufferPointer, blockOffset: Int) throws(PcapError) {
        guard body.count >= 8 else { throw damaged(blockOffset, "interface description of \(body.count) bytes") }
        var unitsPerSecond: UInt64 = 1_000_000
        var offsetSeconds = 0
        var position = 8
        while position + 4 <= body.count {
            let code = u16(body, position), length = Int(u16(body, position + 2))
            position += 4
            if code == 0 { break }
            guard length <= body.count - position else {
                throw damaged(blockOffset, "option \(code) of \(length) bytes runs past the block")
            }
            if code == 9, length == 1 {
                let value = body[position]
                let exponent = UInt64(value & 0x7F)
                if value & 0x80 != 0 {
                    guard exponent <= 63 else { throw damaged(blockOffset, "if_tsresol 2^-\(exponent) is too fine") }
                    unitsPerSecond = 1 << exponent
                } else {
                    guard exponent <= 19 else { throw damaged(blockOffset, "if_tsresol 10^-\(exponent) is too fine") }
                    unitsPerSecond = (0..<exponent).reduce(1) { power, _ in power * 10 }
                }
            } else if code == 14, length == 8 {
                offsetSeconds = Int(Int64(bitPattern: u64(body, position)))
            }
            position += (length + 3) & ~3
        }
        interfaces.append(Interface(linkType: Self.dlt(forLinkType: Int(u16(body, 0))),
                                    snapshotLength: Int(u32(body, 4)), unitsPerSecond: unitsPerSecond,
                                    offsetSeconds: offsetSeconds))
    }

    private func interface(_ id: Int, blockOffset: Int) throws(PcapError) -> Interface {
        guard id >= 0, id < interfaces.count else {
            throw damaged(blockOffset, "packet on interface \(id), of \(interfaces.count) described")
        }
        return interfaces[id]
    }

    private func enhancedPacket(_ body: UnsafeRawBufferPointer, blockOffset: Int) throws(PcapError) -> Packet {
        guard body.count >= 20 else { throw damaged(blockOffset, "enhanced packet block of \(body.count) bytes") }
        let interface = try interface(Int(u32(body, 0)), blockOffset: blockOffset)
        let ticks = UInt64(u32(body, 4)) << 32 | UInt64(u32(body, 8))
        return try packet(body, dataAt: 20, captured: Int(u32(body, 12)), original: Int(u32(body, 16)),
                          ticks: ticks, interface: interface, blockOffset: blockOffset)
    }

    private func obsoletePacket(_ body: UnsafeRawBufferPointer, blockOffset: Int) throws(PcapError) -> Packet {
        guard body.count >= 20 else { throw damaged(blockOffset, "packet block of \(body.count) bytes") }
        let interface = try interface(Int(u16(body, 0)), blockOffset: blockOffset)
        let ticks = UInt64(u32(body, 4)) << 32 | UInt64(u32(body, 8))
        return try packet(body, dataAt: 20, captured: Int(u32(body, 12)), original: Int(u32(body, 16)),
                          ticks: ticks, interface: interface, blockOffset: blockOffset)
    }

    /// A simple packet block: interface 0, no timestamp; the captured length is what the block
    /// holds, up to the original length and the interface's snapshot length.
    private func simplePacket(_ body: UnsafeRawBufferPointer, blockOffset: Int) throws(PcapError) -> Packet {
        guard body.count >= 4 else { throw damaged(blockOffset, "simple packet block of \(body.count) bytes") }
        let interface = try interface(0, blockOffset: blockOffset)
        let original = Int(u32(body, 0))
        var captured = min(original, body.count - 4)
        if interface.snapshotLength > 0 { captured = min(captured, interface.snapshotLength) }
        return Packet(linkType: interface.linkType, seconds: 0, nanoseconds: 0,
                      bytes: bytes(body, from: 4, count: captured), originalLength: original)
    }

    private func packet(_ body: UnsafeRawBufferPointer, dataAt start: Int, captured: Int, original: Int, ticks: UInt64,
                        interface: Interface, blockOffset: Int) throws(PcapError) -> Packet {
        guard captured <= body.count - start else {
            throw damaged(blockOffset, "captured length \(captured) is more than the block's \(body.count - start) bytes")
        }
        let units = interface.unitsPerSecond
        let whole = ticks / units, fraction = ticks % units
        // fraction < units, so fraction × 10^9 / units < 10^9: no overflow.
        let product = fraction.multipliedFullWidth(by: 1_000_000_000)
        let nanoseconds = units.dividingFullWidth(product).quotient
        let (seconds, overflow) = Int(clamping: whole).addingReportingOverflow(interface.offsetSeconds)
        return Packet(linkType: interface.linkType, seconds: overflow ? (interface.offsetSeconds < 0 ? Int.min : Int.max) : seconds,
                      nanoseconds: Int(nanoseconds), bytes: bytes(body, from: start, count: captured), originalLength: original)
    }

    private func bytes(_ body: UnsafeRawBufferPointer, from start: Int, count: Int) -> UnsafeBufferPointer<UInt8> {
        let slice = UnsafeRawBufferPointer(rebasing: body[start..<(start + count)])
        return slice.bindMemory(to: UInt8.self)
    }

    /// libpcap's DLT number for a file's LINKTYPE number, as libpcap reports it: they differ for
    /// a few old types (LINKTYPE_RAW 101 is DLT_RAW).
    static func dlt(forLinkType linkType: Int) -> Int {
        switch linkType {
        case 100: return Int(DLT_ATM_RFC1483)
        case 101: return Int(DLT_RAW)
        case 102: return Int(DLT_SLIP_BSDOS)
        case 103: return Int(DLT_PPP_BSDOS)
        default: return linkType
        }
    }

    private static func word(_ bytes: UnsafeRawBufferPointer, _ at: Int, littleEndian: Bool) -> UInt32 {
        let value = bytes[at..<(at + 4)].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return littleEndian ? value : value.byteSwapped
    }

    private func u16(_ body: UnsafeRawBufferPointer, _ at: Int) -> UInt16 {
        let value = UInt16(body[at]) | UInt16(body[at + 1]) << 8
        return littleEndian ? value : value.byteSwapped
    }

    private func u32(_ body: UnsafeRawBufferPointer, _ at: Int) -> UInt32 {
        let value = (0..<4).reduce(UInt32(0)) { $0 | UInt32(body[at + $1]) << (8 * UInt32($1)) }
        return littleEndian ? value : value.byteSwapped
    }

    private func u64(_ body: UnsafeRawBufferPointer, _ at: Int) -> UInt64 {
        let value = (0..<8).reduce(UInt64(0)) { $0 | UInt64(body[at + $1]) << (8 * UInt64($1)) }
        return littleEndian ? value : value.byteSwapped
    }
}
