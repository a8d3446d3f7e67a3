import Reassembly

/// IP fragments or TCP segments, as the input describes them, through the reassemblers with small
/// limits (so caps and evictions happen): memory stays within the caps, and every byte that comes
/// out is a byte some input frame put in, at the place its provenance says.
///
/// Input: byte 0 picks the reassembler (bit 0: IP fragments or a TCP stream) and the TCP framer
/// (bits 1-3), byte 1 the overlap policy and the TCP stream's first sequence number; then records
/// of five bytes, one fragment or segment each (frame = record number); the bytes after
/// `recordCount` records are the data both cut their payloads from.
enum ReassemblyTarget {
    static let recordSize = 5
    static let framers: [PDUFramer] = [.dnsOverTCP, .tlsRecords, .bgp, .mqtt, .http1]
    /// Where a fragment's or a segment's payload starts in its frame (Ethernet + IPv4, + TCP).
    static let fragmentOffset = 34
    static let segmentOffset = 54

    static func run(_ bytes: [UInt8]) throws(InvariantViolation) {
        guard bytes.count >= 3 else { return }
        let recordCount = min(Int(bytes[2]), (bytes.count - 3) / recordSize)
        let records = bytes[3..<(3 + recordCount * recordSize)]
        let data = Array(bytes[(3 + recordCount * recordSize)...])
        guard !data.isEmpty else { return }
        if bytes[0] & 1 == 0 {
            try fragments(records, data: data, lowestOffsetWins: bytes[1] & 1 == 0)
        } else {
            try stream(records, data: data, framer: framers[Int(bytes[0] >> 1) % framers.count], start: UInt32(bytes[1]) << 24)
        }
    }

    /// The payload a record cuts from `data`: `length` bytes from `position`, wrapping around.
    private static func payload(_ data: [UInt8], from position: Int, length: Int) -> [UInt8] {
        (0..<length).map { data[(position + $0) % data.count] }
    }

    private static func fragments(_ records: ArraySlice<UInt8>, data: [UInt8], lowestOffsetWins: Bool) throws(InvariantViolation) {
        let limits = Defragmenter.Limits(maxDatagramBytes: 2048, maxFragmentsPerDatagram: 16, maxPendingDatagrams: 3,
                                         maxTotalBytes: 4096, timeoutFrames: 12)
        var defragmenter = Defragmenter(limits: limits, overlapPolicy: lowestOffsetWins ? .lowestOffset : .firstReceived)
        let keys = (0..<4).map { index in
            Defragmenter.Key.ipv4(source: [10, 0, 0, UInt8(index)], destination: [10, 0, 0, 9], identification: 7, protocolNumber: 17)
        }
        // What each frame put in: its fragment's bytes, found at `fragmentOffset` in the frame.
        var fed: [Int: (key: Int, bytes: [UInt8])] = [:]
        var frame = 0
        var start = records.startIndex
        while start < records.endIndex {
            let record = records[start..<(start + recordSize)]
            let first = record[record.startIndex]
            let keyIndex = Int(first & 3)
            let offset = (Int(record[record.startIndex + 1]) << 8 | Int(record[record.startIndex + 2])) * 8
            let length = Int(record[record.startIndex + 3])
            let bytes = payload(data, from: offset + Int(record[record.startIndex + 4]), length: length)
            fed[frame] = (keyIndex, bytes)
            defragmenter.advance(toFrame: frame)
            let outcome = defragmenter.add(Defragmenter.Fragment(key: keys[keyIndex], protocolNumber: 17, offset: offset,
                                                                 moreFragments: first & 4 != 0, bytes: bytes, frame: frame,
                                                                 frameOffset: fragmentOffset))
            try require(defragmenter.bytesHeld <= max(limits.maxTotalBytes, limits.maxDatagramBytes),
                        "frame \(frame): \(defragmenter.bytesHeld) bytes held, over the cap")
            if case .completed(let datagram) = outcome {
                try require(datagram.payload.count <= limits.maxDatagramBytes, "a datagram of \(datagram.payload.count) bytes")
                try traced(datagram.payload, datagram.provenance, fed: fed.mapValues(\.bytes), gaps: [], unit: "datagram",
                           payloadOffset: fragmentOffset)
                for run in datagram.provenance {
                    try require(fed[run.frame]?.key == keyIndex, "a datagram's bytes from frame \(run.frame), another datagram's")
                }
            }
            frame += 1
            start += recordSize
        }
        defragmenter.finish()
        try require(defragmenter.bytesHeld == 0, "\(defragmenter.bytesHeld) bytes held after finish")
    }

    private static func stream(_ records: ArraySlice<UInt8>, data: [UInt8], framer: PDUFramer, start: UInt32) throws(InvariantViolation) {
        let limits = TCPStream.Limits(maxBufferedBytes: 4096, maxPDULength: 1024, maxWindowAhead: 1 << 16, maxHeldSegments: 16)
        var stream = TCPStream(framer: framer, limits: limits)
        var fed: [Int: [UInt8]] = [:]
        var delivered: [ReassembledPDU] = []
        var frame = 0
        var index = records.startIndex
        while index < records.endIndex {
            let record = records[index..<(index + recordSize)]
            let flags = record[record.startIndex]
            let position = Int(record[record.startIndex + 1]) << 8 | Int(record[record.startIndex + 2])
            var bytes = payload(data, from: position, length: Int(record[record.startIndex + 3]))
            // A segment that disagrees with what it overlaps: its bytes changed.
            if flags & 4 != 0 { bytes = bytes.map { $0 ^ record[record.startIndex + 4] } }
            fed[frame] = bytes
            delivered += stream.receive(TCPSegment(sequenceNumber: start &+ UInt32(position), syn: flags & 1 != 0,
                                                   fin: flags & 2 != 0, payload: bytes, frame: frame, payloadOffset: segmentOffset))
            try require(stream.bufferedByteCount <= limits.maxBufferedBytes + 255,
                        "frame \(frame): \(stream.bufferedByteCount) bytes buffered, over the cap")
            frame += 1
            index += recordSize
        }
        delivered += stream.finish()
        for pdu in delivered {
            try require(pdu.kind == .continuation || pdu.bytes.count <= limits.maxPDULength,
                        "a PDU of \(pdu.bytes.count) bytes over the \(limits.maxPDULength)-byte limit")
            try require(pdu.length == pdu.bytes.count + pdu.missing.reduce(0) { $0 + $1.count },
                        "a PDU of length \(pdu.length) holds \(pdu.bytes.count) bytes and misses \(pdu.missing)")
            try traced(pdu.bytes, pdu.provenance, fed: fed, gaps: pdu.missing, unit: "PDU", payloadOffset: segmentOffset)
        }
    }

    /// Provenance runs in order that, with `gaps`, cover the unit once, and whose bytes are the
    /// bytes the named frame put in at that place (`bytes` holds the unit without its gaps).
    private static func traced(_ bytes: [UInt8], _ provenance: [Provenance], fed: [Int: [UInt8]], gaps: [Range<Int>],
                               unit: String, payloadOffset: Int) throws(InvariantViolation) {
        var pieces = provenance.map { ($0.unitOffset, $0.length) } + gaps.map { ($0.lowerBound, $0.count) }
        pieces.sort { $0.0 < $1.0 }
        var covered = 0
        for (offset, length) in pieces {
            try require(offset == covered && length > 0, "\(unit): runs and gaps leave or cover twice the bytes at \(covered)")
            covered += length
        }
        var position = 0
        for run in provenance {
            guard let frameBytes = fed[run.frame] else { throw InvariantViolation("\(unit): bytes from frame \(run.frame), fed nothing") }
            let inFrame = run.frameOffset - payloadOffset
            try require(inFrame >= 0 && inFrame + run.length <= frameBytes.count && position + run.length <= bytes.count,
                        "\(unit): a run of \(run.length) bytes at \(run.frameOffset) in frame \(run.frame) is not in it")
            try require(Array(bytes[position..<(position + run.length)]) == Array(frameBytes[inFrame..<(inFrame + run.length)]),
                        "\(unit): bytes at \(run.unitOffset) are not frame \(run.frame)'s")
            position += run.length
        }
        try require(position == bytes.count, "\(unit): runs hold \(position) of its \(bytes.count) bytes")
    }
}
