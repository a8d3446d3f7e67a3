import Foundation
import Dissector
import PacketCapture

/// Packets read from a capture for one worker, their bytes end to end in one buffer: a share
/// costs two allocations, not one per packet, and none of them is freed on another thread per
/// packet.
package struct PacketShare: Sendable {
    package struct Record: Sendable {
        package let range: Range<Int>
        /// The packet's number: its place in the file (or in a live capture).
        package let number: Int
        package let seconds: Int
        package let nanoseconds: Int
        package let originalLength: Int
        /// The link type of the packet's interface.
        package let linkType: Int

        package var count: Int { range.count }
    }

    package private(set) var bytes: [UInt8] = []
    package private(set) var records: [Record] = []

    /// When the capture's first packet was taken (the start of -ttttt's times).
    package var firstTime: CaptureTime?
    /// When the packet before this share's first was taken (the start of -ttt's first time).
    package private(set) var previousTime: CaptureTime?

    /// The share that follows `previous`, with room for `packets` packets and `bytes` bytes.
    package init(packets: Int, bytes: Int, after previous: PacketShare) {
        self.init(packets: packets, bytes: bytes)
        firstTime = previous.firstTime
        previousTime = previous.records.last.map { CaptureTime(seconds: $0.seconds, nanoseconds: $0.nanoseconds) }
            ?? previous.previousTime
    }

    /// Room for `packets` packets and `bytes` bytes.
    package init(packets: Int, bytes: Int) {
        records.reserveCapacity(packets)
        self.bytes.reserveCapacity(bytes)
    }

    package var count: Int { records.count }
    package var byteCount: Int { bytes.count }

    package mutating func append(_ packet: BorrowedPacket) {
        let start = bytes.count
        bytes.append(contentsOf: packet.bytes)
        records.append(Record(range: start..<bytes.count, number: packet.position, seconds: packet.seconds,
                              nanoseconds: packet.nanoseconds, originalLength: packet.originalLength, linkType: packet.linkType))
    }
}

/// The local time zone's offset from UTC (TZ, as tcpdump honours it) at capture times, asked of
/// the C library once per quarter hour of capture time: offsets change (summer time) only on
/// quarter hours, and asking costs a lookup in the zone's rules.
package final class LocalOffsets {
    private var quarter = Int.min
    private var offset = 0

    package init() {
        tzset()
    }

    /// Seconds east of UTC at `seconds` since 1970.
    package func offset(at seconds: Int) -> Int {
        let quarter = seconds >= 0 ? seconds / 900 : (seconds + 1) / 900 - 1
        if quarter != self.quarter {
            self.quarter = quarter
            var time = time_t(clamping: seconds)
            var local = tm()
            offset = localtime_r(&time, &local) != nil ? local.tm_gmtoff : 0
        }
        return offset
    }
}

/// Warnings for records that captured more bytes than the packet had on the wire: a record header
/// no capturing tool writes (tcpdump prints `[Invalid header: len(64) < caplen(74)]` instead of
/// the packet, tshark marks the frame malformed). The packet is still dissected, with all its
/// captured bytes. The first few are noted one by one, the rest counted at the end.
package struct InvalidLengthNotes {
    package static let limit = 10
    private let emit: (String) -> Void
    package private(set) var count = 0

    package init(emit: @escaping (String) -> Void = printError) {
        self.emit = emit
    }

    package mutating func note(packet: Int, captured: Int, original: Int) {
        count += 1
        guard count <= Self.limit else { return }
        emit("warning: packet \(packet): captured length \(captured) is more than the original length \(original) (invalid record header)")
    }

    package func finish() {
        let more = count - Self.limit
        guard more > 0 else { return }
        emit("warning: \(more) more packet\(more == 1 ? "" : "s") with a captured length more than the original length")
    }
}
