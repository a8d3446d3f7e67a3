/// IPv4 and IPv6 defragmentation: fragments in, whole datagrams out, every byte with its
/// provenance (which frame, which offset in it).
///
/// The caller dissects each frame; when it sees an IPv4 fragment (MF set or a non-zero
/// offset) or an IPv6 Fragment header, it hands the fragment's payload to ``add(_:)``.
/// When the last missing byte arrives, `add` returns the reassembled payload (the bytes
/// after the IP header, or after the IPv6 Fragment header) with ``Provenance`` runs that
/// cover every byte exactly once, in order.
///
/// Time is counted in frames, not seconds: the defragmenter's clock is the largest frame
/// number it has been given (by ``add(_:)`` or ``advance(toFrame:)``), so the output of a
/// capture is the same on every run and machine.
///
/// Overlaps (see ``OverlapPolicy``): by default each byte comes from the fragment with the
/// lowest offset that covers it, ties going to the first received, which is what Wireshark
/// 4.x shows (checked with tshark on crafted fragments: a later frame with a lower offset
/// wins, and the datagram is marked "Conflicting data in fragment overlap"). Overlapping
/// bytes that differ set ``Datagram/Flags/overlapConflict`` (a classic IDS evasion);
/// identical ones (retransmissions, duplicates) only set ``Datagram/Flags/overlap``.
///
/// Differences from Wireshark, by design: a fragment that reaches past the datagram's end,
/// or a second last fragment with another end, is rejected (``Rejection``) instead of being
/// kept with a flag; and once a datagram completes it is forgotten, so a later fragment with
/// the same key starts a new datagram (identification reuse) rather than being compared
/// with the finished one. Non-last IPv4 fragments whose length is not a multiple of 8 are
/// accepted as they are.
///
/// Memory: only bytes that would appear in the output are kept (a byte covered twice is
/// held once), so a datagram holds at most ``Limits/maxDatagramBytes`` bytes; nothing is
/// ever allocated from a length or offset read from the input before the bytes exist.
/// Each ``add(_:)`` costs O(log f + k + f) for f pieces held by the datagram and k pieces the
/// fragment overlaps; ``Limits/maxFragmentsPerDatagram`` bounds f.
public struct Defragmenter: Sendable {
    // MARK: Public types

    /// What identifies the fragments of one datagram.
    public struct Key: Sendable, Hashable, CustomStringConvertible {
        /// The IP version.
        public enum Version: UInt8, Sendable, Hashable {
            case v4 = 4
            case v6 = 6
        }

        public var version: Version
        /// The source address bytes (4 for IPv4, 16 for IPv6; not checked).
        public var source: [UInt8]
        /// The destination address bytes.
        public var destination: [UInt8]
        /// IPv4: the 16-bit Identification. IPv6: the Fragment header's 32-bit Identification.
        public var identification: UInt32
        /// IPv4: the Protocol field, part of the key (RFC 791). IPv6: `nil`: RFC 8200 keys on
        /// addresses and identification only, and lets the Fragment headers' Next Header differ
        /// (the first fragment's wins; see ``Fragment/protocolNumber``).
        public var protocolNumber: UInt8?

        public init(version: Version, source: [UInt8], destination: [UInt8], identification: UInt32, protocolNumber: UInt8?) {
            self.version = version
            self.source = source
            self.destination = destination
            self.identification = identification
            self.protocolNumber = protocolNumber
        }

        /// The RFC 791 key: addresses, identification and protocol.
        public static func ipv4(source: [UInt8], destination: [UInt8], identification: UInt16, protocolNumber: UInt8) -> Key {
            Key(version: .v4, source: source, destination: destination, identification: UInt32(identification), protocolNumber: protocolNumber)
        }

        /// The RFC 8200 key: addresses and identification.
        public static func ipv6(source: [UInt8], destination: [UInt8], identification: UInt32) -> Key {
            Key(version: .v6, source: source, destination: destination, identification: identification, protocolNumber: nil)
        }

        public var description: String {
            let hex = { (bytes: [UInt8]) in bytes.map { String($0, radix: 16) }.joined(separator: ":") }
            return "IPv\(version.rawValue) \(hex(source)) > \(hex(destination)) id 0x\(String(identification, radix: 16))"
                + (protocolNumber.map { " proto \($0)" } ?? "")
        }
    }

    /// One fragment as the caller dissected it.
    public struct Fragment: Sendable {
        public var key: Key
        /// The protocol of the payload: IPv4's Protocol, IPv6's Fragment header Next Header.
        /// The reassembled datagram takes the value of its first fragment at offset 0.
        public var protocolNumber: UInt8
        /// Where these bytes go in the datagram's payload, in bytes (the 13-bit field times 8).
        public var offset: Int
        /// MF (IPv4) or M (IPv6): more fragments follow. `false` marks the last fragment,
        /// whose end is the datagram's length.
        public var moreFragments: Bool
        /// The fragment's payload bytes (after the IP header / Fragment header).
        public var bytes: [UInt8]
        /// The frame they were read from, numbered as the caller numbers frames (the clock).
        public var frame: Int
        /// Where `bytes` start in that frame.
        public var frameOffset: Int

        public init(key: Key, protocolNumber: UInt8, offset: Int, moreFragments: Bool, bytes: [UInt8], frame: Int, frameOffset: Int) {
            self.key = key
            self.protocolNumber = protocolNumber
            self.offset = offset
            self.moreFragments = moreFragments
            self.bytes = bytes
            self.frame = frame
            self.frameOffset = frameOffset
        }
    }

    /// The caps that bound the defragmenter's memory and work. Values below their minimum
    /// are raised to it (see each).
    public struct Limits: Sendable, Hashable {
        /// The largest reassembled payload. A fragment reaching past it is rejected
        /// (``Rejection/beyondLimit``). 65535 by default: an IPv4 datagram's total length is a
        /// 16-bit field (so its payload is at most 65515), and RFC 8200 caps a reassembled
        /// IPv6 payload at 65535 too. Jumbograms (RFC 2675) carry no Fragment header, so
        /// there is nothing larger to reassemble. At least 1.
        public var maxDatagramBytes: Int
        /// How many fragments one datagram may accept; more are rejected
        /// (``Rejection/tooManyFragments``). 1024 by default: 64 KiB in 64-byte fragments.
        /// Bounds the per-fragment work, which grows with the pieces held. At least 1.
        public var maxFragmentsPerDatagram: Int
        /// How many datagrams may be pending at once; a new datagram at the cap evicts the
        /// oldest pending one (by its first fragment). 1024 by default. At least 1.
        public var maxPendingDatagrams: Int
        /// How many payload bytes all pending datagrams may hold together; bytes that would
        /// pass it evict the oldest other pending datagrams first. 16 MiB by default. Never
        /// below `maxDatagramBytes`, so the datagram being added to always fits.
        public var maxTotalBytes: Int
        /// A pending datagram is evicted once the clock passes its first fragment's frame by
        /// more than this many frames. 10000 by default. At least 0.
        public var timeoutFrames: Int

        public init(
            maxDatagramBytes: Int = 65535,
            maxFragmentsPerDatagram: Int = 1024,
            maxPendingDatagrams: Int = 1024,
            maxTotalBytes: Int = 16 << 20,
            timeoutFrames: Int = 10000
        ) {
            self.maxDatagramBytes = max(maxDatagramBytes, 1)
            self.maxFragmentsPerDatagram = max(maxFragmentsPerDatagram, 1)
            self.maxPendingDatagrams = max(maxPendingDatagrams, 1)
            self.maxTotalBytes = max(maxTotalBytes, self.maxDatagramBytes)
            self.timeoutFrames = max(timeoutFrames, 0)
        }
    }

    /// Which fragment's bytes a datagram keeps where fragments overlap.
    public enum OverlapPolicy: Sendable, Hashable {
        /// The fragment with the lowest offset covering a byte wins; among equal offsets, the
        /// first received. What Wireshark shows (the default).
        case lowestOffset
        /// The first fragment received covering a byte wins (BSD-right-like engines differ;
        /// this is the simplest deterministic alternative).
        case firstReceived
    }

    /// A reassembled datagram.
    public struct Datagram: Sendable, Hashable {
        /// What a datagram saw on its way.
        public struct Flags: OptionSet, Sendable, Hashable {
            public let rawValue: UInt8
            public init(rawValue: UInt8) { self.rawValue = rawValue }
            /// Some fragment covered bytes already held (duplicates included).
            public static let overlap = Flags(rawValue: 1 << 0)
            /// Some overlapping bytes differed from those held.
            public static let overlapConflict = Flags(rawValue: 1 << 1)
        }

        public var key: Key
        /// The payload protocol: that of the first fragment received at offset 0.
        public var protocolNumber: UInt8
        /// The reassembled payload.
        public var payload: [UInt8]
        /// Runs covering each byte of `payload` exactly once, in order of `unitOffset`.
        /// Adjacent bytes from one frame at consecutive offsets share a run.
        public var provenance: [Provenance]
        public var flags: Flags
        /// The fragments accepted for this datagram (duplicates included).
        public var fragmentCount: Int
    }

    /// Why a fragment was not taken. Every rejection but ``tooManyFragments`` counts as a
    /// malformed fragment in ``Statistics``. The datagram it names stays pending.
    public enum Rejection: Sendable, Hashable {
        /// A negative offset or frame offset, or one whose sum with the length overflows.
        case invalidOffset
        /// The fragment reaches past ``Limits/maxDatagramBytes``.
        case beyondLimit
        /// The fragment reaches past the end set by the datagram's last fragment.
        case pastEnd
        /// A last fragment whose end differs from the known end, or ends before bytes
        /// already held.
        case conflictingEnd
        /// The datagram already has ``Limits/maxFragmentsPerDatagram`` fragments.
        case tooManyFragments
    }

    /// What ``add(_:)`` did with a fragment.
    public enum Outcome: Sendable, Hashable {
        /// Held: the datagram still misses bytes or its last fragment.
        case pending
        /// The fragment completed its datagram, which is no longer pending.
        case completed(Datagram)
        /// The fragment was not taken.
        case rejected(Rejection)
    }

    /// Counts for an end-of-run report.
    public struct Statistics: Sendable, Hashable {
        /// Datagrams returned whole.
        public var completed = 0
        /// Pending datagrams evicted to make room (pending count or total bytes).
        public var evictedByCap = 0
        /// Pending datagrams evicted by ``Limits/timeoutFrames``.
        public var evictedByTimeout = 0
        /// Pending datagrams dropped by ``Defragmenter/finish()``.
        public var incompleteAtFinish = 0
        /// Fragments rejected as malformed (every ``Rejection`` but `tooManyFragments`).
        public var malformedFragments = 0
        /// Fragments rejected by ``Limits/maxFragmentsPerDatagram``.
        public var fragmentsOverCap = 0
        /// Fragments that covered bytes already held (duplicates included).
        public var overlappingFragments = 0
        /// Fragments whose overlapping bytes differed from those held.
        public var overlapConflicts = 0
        /// The most payload bytes held at once.
        public var peakBytesHeld = 0
    }

    // MARK: State

    public let limits: Limits
    public let overlapPolicy: OverlapPolicy
    public private(set) var statistics = Statistics()
    /// Payload bytes held by all pending datagrams.
    public private(set) var bytesHeld = 0
    /// The clock: the largest frame number seen (`Int.min` before any).
    public private(set) var clock = Int.min

    /// A run of held bytes, all from one fragment.
    private struct Piece: Sendable {
        var start: Int
        var bytes: [UInt8]
        var frame: Int
        var frameOffset: Int
        /// The offset of the fragment they came from (the lowest-offset policy's rank).
        var fragmentOffset: Int
        var end: Int { start + bytes.count }
    }

    private struct Pending: Sendable {
        var serial: Int
        var firstFrame: Int
        /// Sorted by `start`, disjoint, within 0..<end once the end is known.
        var pieces: [Piece] = []
        var held = 0
        var end: Int?
        var protocolNumber: UInt8
        var protocolFromOffsetZero = false
        var flags: Datagram.Flags = []
        var fragmentCount = 0
    }

    private var pending: [Key: Pending] = [:]
    /// Keys in order of creation; entries whose serial no longer matches are stale.
    private var order: [(key: Key, serial: Int)] = []
    private var orderHead = 0
    private var nextSerial = 0

    public init(limits: Limits = Limits(), overlapPolicy: OverlapPolicy = .lowestOffset) {
        self.limits = limits
        self.overlapPolicy = overlapPolicy
    }

    /// How many datagrams are pending.
    public var pendingCount: Int { pending.count }

    // MARK: Operations

    /// Moves the clock to `frame` (if later) and evicts the datagrams it times out. Call it
    /// for frames that carry no fragment so timeouts count every frame.
    public mutating func advance(toFrame frame: Int) {
        if frame > clock { clock = frame }
        while let (key, entry) = oldest() {
            let (age, overflow) = clock.subtractingReportingOverflow(entry.firstFrame)
            guard overflow || age > limits.timeoutFrames else { break }
            remove(key)
            statistics.evictedByTimeout += 1
        }
    }

    /// Drops every pending datagram (end of capture), counted as incomplete.
    public mutating func finish() {
        statistics.incompleteAtFinish += pending.count
        pending.removeAll()
        order.removeAll()
        orderHead = 0
        bytesHeld = 0
    }

    /// Adds one fragment; returns the datagram if this fragment completed it.
    public mutating func add(_ fragment: Fragment) -> Outcome {
        advance(toFrame: fragment.frame)
        let length = fragment.bytes.count
        let start = fragment.offset
        guard start >= 0, fragment.frameOffset >= 0,
              case (let end, false) = start.addingReportingOverflow(length),
              case (_, false) = fragment.frameOffset.addingReportingOverflow(length)
        else { return reject(.invalidOffset) }
        guard end <= limits.maxDatagramBytes else { return reject(.beyondLimit) }

        if let entry = pending[fragment.key] {
            if let known = entry.end {
                if !fragment.moreFragments && end != known { return reject(.conflictingEnd) }
                if end > known { return reject(.pastEnd) }
            } else if !fragment.moreFragments, let last = entry.pieces.last, last.end > end {
                return reject(.conflictingEnd)
            }
            guard entry.fragmentCount < limits.maxFragmentsPerDatagram else {
                statistics.fragmentsOverCap += 1
                return .rejected(.tooManyFragments)
            }
        } else {
            if pending.count >= limits.maxPendingDatagrams, let (victim, _) = oldest() {
                remove(victim)
                statistics.evictedByCap += 1
            }
            pending[fragment.key] = Pending(serial: nextSerial, firstFrame: fragment.frame, protocolNumber: fragment.protocolNumber)
            order.append((fragment.key, nextSerial))
            nextSerial += 1
        }

        // Make room first: the fragment adds at most the bytes it covers that are not held.
        guard let uncovered = pending[fragment.key].map({ Self.uncoveredBytes(in: start..<end, of: $0.pieces) }) else {
            return .pending
        }
        while bytesHeld + uncovered > limits.maxTotalBytes, let victim = oldest(excluding: fragment.key) {
            remove(victim)
            statistics.evictedByCap += 1
        }

        guard var entry = pending.removeValue(forKey: fragment.key) else { return .pending }
        bytesHeld -= entry.held
        let seen = insert(fragment, start: start, end: end, into: &entry)
        if seen.contains(.overlap) { statistics.overlappingFragments += 1 }
        if seen.contains(.overlapConflict) { statistics.overlapConflicts += 1 }
        bytesHeld += entry.held
        statistics.peakBytesHeld = max(statistics.peakBytesHeld, bytesHeld)

        if let known = entry.end, entry.held == known {
            bytesHeld -= entry.held
            statistics.completed += 1
            return .completed(Self.assemble(entry, key: fragment.key))
        }
        pending[fragment.key] = entry
        compactOrderIfNeeded()
        return .pending
    }

    // MARK: Internals

    private mutating func reject(_ reason: Rejection) -> Outcome {
        statistics.malformedFragments += 1
        return .rejected(reason)
    }

    /// The oldest pending datagram (skipping, and dropping, stale order entries).
    private mutating func oldest() -> (Key, Pending)? {
        while orderHead < order.count {
            let (key, serial) = order[orderHead]
            if let entry = pending[key], entry.serial == serial { return (key, entry) }
            orderHead += 1
        }
        return nil
    }

    /// The oldest pending datagram other than `excluded`, without consuming order entries.
    private mutating func oldest(excluding excluded: Key) -> Key? {
        _ = oldest()
        var index = orderHead
        while index < order.count {
            let (key, serial) = order[index]
            if key != excluded, let entry = pending[key], entry.serial == serial { return key }
            index += 1
        }
        return nil
    }

    private mutating func remove(_ key: Key) {
        if let entry = pending.removeValue(forKey: key) { bytesHeld -= entry.held }
    }

    /// Drops consumed and stale entries once they outnumber the live ones.
    private mutating func compactOrderIfNeeded() {
        guard order.count > 2 * pending.count + 64 else { return }
        order = order[orderHead...].filter { pending[$0.key]?.serial == $0.serial }
        orderHead = 0
    }

    private static func uncoveredBytes(in range: Range<Int>, of pieces: [Piece]) -> Int {
        var covered = 0
        var index = firstPiece(endingAfter: range.lowerBound, in: pieces)
        while index < pieces.count, pieces[index].start < range.upperBound {
            covered += min(pieces[index].end, range.upperBound) - max(pieces[index].start, range.lowerBound)
            index += 1
        }
        return range.count - covered
    }

    /// The index of the first piece whose end is after `offset` (binary search).
    private static func firstPiece(endingAfter offset: Int, in pieces: [Piece]) -> Int {
        var low = 0, high = pieces.count
        while low < high {
            let mid = low + (high - low) / 2
            if pieces[mid].end <= offset { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Merges the fragment's bytes into `entry` by the overlap policy; returns what this
    /// fragment saw (overlap, conflict).
    private func insert(_ fragment: Fragment, start: Int, end: Int, into entry: inout Pending) -> Datagram.Flags {
        entry.fragmentCount += 1
        if !fragment.moreFragments { entry.end = end }
        if start == 0 && !entry.protocolFromOffsetZero {
            entry.protocolNumber = fragment.protocolNumber
            entry.protocolFromOffsetZero = true
        }
        guard start < end else { return [] }

        // A slice of the new fragment, absolute offsets lower..<upper.
        func newPiece(_ lower: Int, _ upper: Int) -> Piece {
            Piece(start: lower, bytes: Array(fragment.bytes[(lower - start)..<(upper - start)]),
                  frame: fragment.frame, frameOffset: fragment.frameOffset + (lower - start), fragmentOffset: start)
        }
        func part(of piece: Piece, _ lower: Int, _ upper: Int) -> Piece {
            Piece(start: lower, bytes: Array(piece.bytes[(lower - piece.start)..<(upper - piece.start)]),
                  frame: piece.frame, frameOffset: piece.frameOffset + (lower - piece.start), fragmentOffset: piece.fragmentOffset)
        }
        var replacement: [Piece] = []
        func push(_ piece: Piece) {
            if let last = replacement.last, last.frame == piece.frame, last.fragmentOffset == piece.fragmentOffset,
               last.end == piece.start, last.frameOffset + last.bytes.count == piece.frameOffset {
                replacement[replacement.count - 1].bytes += piece.bytes
            } else {
                replacement.append(piece)
            }
        }

        let first = Self.firstPiece(endingAfter: start, in: entry.pieces)
        var index = first
        var cursor = start
        var overlapped = false, conflicted = false
        while index < entry.pieces.count, entry.pieces[index].start < end {
            let piece = entry.pieces[index]
            if piece.start > cursor { push(newPiece(cursor, piece.start)) }
            let lower = max(piece.start, start), upper = min(piece.end, end)
            overlapped = true
            if !conflicted {
                conflicted = !piece.bytes[(lower - piece.start)..<(upper - piece.start)]
                    .elementsEqual(fragment.bytes[(lower - start)..<(upper - start)])
            }
            let newWins = overlapPolicy == .lowestOffset && piece.fragmentOffset > start
            if newWins {
                if piece.start < lower { push(part(of: piece, piece.start, lower)) }
                push(newPiece(lower, upper))
                if piece.end > upper { push(part(of: piece, upper, piece.end)) }
            } else {
                push(piece)
            }
            cursor = upper
            index += 1
        }
        if cursor < end { push(newPiece(cursor, end)) }

        let removed = entry.pieces[first..<index].reduce(0) { $0 + $1.bytes.count }
        let added = replacement.reduce(0) { $0 + $1.bytes.count }
        entry.pieces.replaceSubrange(first..<index, with: replacement)
        entry.held += added - removed
        var seen: Datagram.Flags = []
        if overlapped { seen.insert(.overlap) }
        if conflicted { seen.insert(.overlapConflict) }
        entry.flags.formUnion(seen)
        return seen
    }

    private static func assemble(_ entry: Pending, key: Key) -> Datagram {
        var payload: [UInt8] = []
        payload.reserveCapacity(entry.held)
        var provenance: [Provenance] = []
        for piece in entry.pieces {
            if let last = provenance.last, last.frame == piece.frame,
               last.frameOffset + last.length == piece.frameOffset, last.unitOffset + last.length == piece.start {
                provenance[provenance.count - 1].length += piece.bytes.count
            } else {
                provenance.append(Provenance(frame: piece.frame, frameOffset: piece.frameOffset, unitOffset: piece.start, length: piece.bytes.count))
            }
            payload += piece.bytes
        }
        return Datagram(key: key, protocolNumber: entry.protocolNumber, payload: payload, provenance: provenance,
                        flags: entry.flags, fragmentCount: entry.fragmentCount)
    }
}
