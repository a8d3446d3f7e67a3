/// The schema's `@checksum` fields, lowered once for the pass that verifies them after a walk.
struct ChecksumPlan: ~Copyable {
    struct Entry {
        var slot: Int32
        var algorithm: ChecksumAlgorithm
        /// The field reads its value little-endian (an internet checksum's words are big-endian).
        var littleEndian: Bool
        var itemStart: Int32
        var itemCount: Int32
        /// Program index of `when(...)`, or -1.
        var condition: Int32
        var onRequest: Bool
        /// An `ip_pseudo` item, whose length is that of the other items: they are measured first.
        var hasPseudoHeader: Bool
        /// An internet checksum over one span (the IPv4 header's): verified by one sum, as read.
        var isSingleInternetSpan: Bool
    }

    /// Per struct: its checksums, and the slots of its `src` and `dst` fields when both are IPv4 or
    /// both IPv6 addresses (-1 otherwise), where `ip_pseudo` takes its addresses from.
    struct StructEntry {
        var start: Int32
        var count: Int32
        var sourceSlot: Int32
        var destinationSlot: Int32
        /// The slots of its `pseudo_src` and `pseudo_dst` addresses, or -1: what an extension header
        /// between the checksum and the IP header gives the pseudo-header instead of `src` and `dst`
        /// (a routing header's final destination, RFC 8200 8.1; a Home Address option's source,
        /// RFC 6275 6.3).
        var pseudoSourceSlot: Int32
        var pseudoDestinationSlot: Int32
    }

    let structs: Table<StructEntry>
    let entries: Table<Entry>
    let items: Table<ChecksumSpec.Item>
    /// Each entry's name for ``ChecksumSelection``.
    let names: [String]
    /// Each entry's ``ChecksumSpec/lastSlotVerifiableDuringWalk(ownSlot:)``.
    let lastSlots: [Int?]

    /// `lower` turns a `when` condition into a program index of the plan being built.
    init(structs structTypes: [StructType], lower: (Program) -> Int32) {
        var structs: [StructEntry] = []
        var entries: [Entry] = []
        var items: [ChecksumSpec.Item] = []
        var names: [String] = []
        var lastSlots: [Int?] = []
        for structure in structTypes {
            let start = Int32(entries.count)
            for field in structure.fields {
                guard let checksum = field.checksum else { continue }
                var littleEndian = false
                if case .integer(let integer) = field.type { littleEndian = integer.endianness == .little }
                entries.append(Entry(slot: Int32(field.slot), algorithm: checksum.algorithm, littleEndian: littleEndian,
                                     itemStart: Int32(items.count), itemCount: Int32(checksum.items.count),
                                     condition: checksum.condition.map(lower) ?? -1, onRequest: checksum.onRequest,
                                     hasPseudoHeader: checksum.items.contains {
                                         if case .ipPseudoHeader = $0 { return true } else { return false }
                                     },
                                     isSingleInternetSpan: checksum.algorithm == .internet && checksum.items.count == 1
                                         && checksum.items.allSatisfy { if case .ipPseudoHeader = $0 { false } else { true } }))
                items += checksum.items
                names.append(structure.checksumName)
                lastSlots.append(checksum.lastSlotVerifiableDuringWalk(ownSlot: field.slot))
            }
            func addressSlot(_ name: String) -> (slot: Int32, bytes: Int)? {
                for field in structure.fields where field.name == name {
                    if case .address(let byteCount, _) = field.type, byteCount == 4 || byteCount == 16 {
                        return (Int32(field.slot), byteCount)
                    }
                }
                return nil
            }
            var source: Int32 = -1
            var destination: Int32 = -1
            if let from = addressSlot("src"), let to = addressSlot("dst"), from.bytes == to.bytes {
                source = from.slot
                destination = to.slot
            }
            structs.append(StructEntry(start: start, count: Int32(entries.count) - start, sourceSlot: source,
                                       destinationSlot: destination, pseudoSourceSlot: addressSlot("pseudo_src")?.slot ?? -1,
                                       pseudoDestinationSlot: addressSlot("pseudo_dst")?.slot ?? -1))
        }
        self.structs = Table(structs)
        self.entries = Table(entries)
        self.items = Table(items)
        self.names = names
        self.lastSlots = lastSlots
    }

    /// The entries `selection` verifies, per struct. One internet checksum of a struct's own
    /// fields, itself among them and with no `when` (the IPv4 header's), is verified during the
    /// walk, as soon as its last field is read; the others after the walk.
    func schedule(for selection: ChecksumSelection) -> ChecksumSchedule {
        var ranges: [ChecksumSchedule.Span] = []
        var chosen: [Int32] = []
        var inline: [ChecksumSchedule.Inline] = []
        for structIndex in 0..<structs.count {
            let structure = structs[structIndex]
            let start = Int32(chosen.count)
            var early = ChecksumSchedule.Inline(afterSlot: -1, entry: -1)
            for index in structure.start..<(structure.start + structure.count)
            where selection.verifies(name: names[Int(index)], onRequest: entries[index].onRequest) {
                if early.entry < 0, let last = lastSlots[Int(index)] {
                    early = ChecksumSchedule.Inline(afterSlot: Int32(last), entry: index)
                } else {
                    chosen.append(index)
                }
            }
            ranges.append(ChecksumSchedule.Span(start: start, count: Int32(chosen.count) - start))
            inline.append(early)
        }
        return ChecksumSchedule(structs: ranges, entries: chosen, inline: inline)
    }
}

/// The checksums one interpreter's options select: per struct ID, a span of plan entry indices.
/// Lowered once, so the pass after a walk skips a struct whose checksums are all off (TCP's, by
/// default) by one load. Unchecked: the tables are written once, in `init`, and only read after.
final class ChecksumSchedule: @unchecked Sendable {
    struct Span {
        var start: Int32
        var count: Int32
    }

    /// A checksum verified during the walk: after the field in `afterSlot` is read, plan entry
    /// `entry`; -1 for none.
    struct Inline {
        var afterSlot: Int32
        var entry: Int32
    }

    let structs: Table<Span>
    let entries: Table<Int32>
    /// Per struct ID.
    let inline: Table<Inline>
    /// No checksum is left for the pass after the walk.
    let isEmpty: Bool

    init(structs: [Span], entries: [Int32], inline: [Inline]) {
        self.structs = Table(structs)
        self.entries = Table(entries)
        self.inline = Table(inline)
        isEmpty = entries.isEmpty
    }
}

/// One verified checksum field, kept beside the nodes.
struct ChecksumMark: Sendable {
    let node: Int32
    let isCorrect: Bool
    let expected: UInt64
}

/// Verifies the enabled `@checksum` fields of a finished walk and records the outcome beside the
/// nodes. It runs after the walk because a checksum may cover bytes read after it (TCP's covers
/// the payload). A checksum whose field or covered bytes were not all read (absent, or cut short by
/// the walk's error), or whose `when` does not hold, is left unverified: no mark.
enum ChecksumVerifier {
    static func run(store: NodeStore, plan: ExecutionPlan, schedule: ChecksumSchedule, bytes: [UInt8], errorNode: Int32) {
        // Every struct read is looked at, a dozen per packet: the frames in place (appending marks
        // leaves them as they are), skipped by a loop of its own that keeps to registers.
        let frames = unsafe store.frames.elements
        var frameIndex = unsafe nextFrameWithChecksums(from: 0, in: frames, schedule.structs)
        while frameIndex < frames.count {
            let frame = unsafe frames[frameIndex]
            let span = schedule.structs[frame.structID]
            for position in span.start..<(span.start + span.count) {
                if let mark = verify(plan.checksums.entries[schedule.entries[position]], frame: frame,
                                     frameIndex: Int32(truncatingIfNeeded: frameIndex), store: store, plan: plan,
                                     bytes: bytes, errorNode: errorNode) {
                    store.checksumMarks.append(mark)
                }
            }
            frameIndex = unsafe nextFrameWithChecksums(from: frameIndex + 1, in: frames, schedule.structs)
        }
        sortMarks(store)
    }

    /// Verifies plan entry `entry` of the struct in frame `frameIndex` during the walk (its fields
    /// up to the last one it covers are read), recording the outcome. Out of line: the walk's loop
    /// stays small enough for its fast paths to be inlined.
    @inline(never)
    static func verifyDuringWalk(after slot: Int32, structID: Int32, frameIndex: Int32, store: NodeStore, plan: ExecutionPlan,
                                 schedule: ChecksumSchedule, bytes: [UInt8]) {
        let entry = schedule.inline[structID]
        guard entry.afterSlot == slot, let frame = store.frame(frameIndex),
              let mark = verify(plan.checksums.entries[entry.entry], frame: frame, frameIndex: frameIndex, store: store, plan: plan,
                                bytes: bytes, errorNode: -1) else { return }
        store.checksumMarks.append(mark)
    }

    /// Puts the marks in node order.
    static func sortMarks(_ store: NodeStore) {
        // A struct's checksum may follow a nested struct's (PNG's CRC after its chunk data): keep node
        // order, by insertion. Frames come in pre-order, so a mark is out of order only behind the
        // marks of structs enclosing it (at most 64 deep): each moves past a bounded few.
        var sorted = 1
        while sorted < store.checksumMarks.count {
            let mark = store.checksumMarks[sorted]
            var position = sorted
            while position > 0, store.checksumMarks[position - 1].node > mark.node {
                store.checksumMarks[position] = store.checksumMarks[position - 1]
                position -= 1
            }
            store.checksumMarks[position] = mark
            sorted += 1
        }
    }

    /// The first frame from `start` on whose struct has checksums to verify, or `frames.count`.
    private static func nextFrameWithChecksums(from start: Int, in frames: UnsafeBufferPointer<Frame>,
                                               _ structs: borrowing Table<ChecksumSchedule.Span>) -> Int {
        var index = start
        while index < frames.count, structs[unsafe frames[index].structID].count == 0 { index += 1 }
        return index
    }

    static func verify(_ entry: ChecksumPlan.Entry, frame: Frame, frameIndex: Int32, store: NodeStore,
                               plan: ExecutionPlan, bytes: [UInt8], errorNode: Int32) -> ChecksumMark? {
        guard let fieldIndex = store.slotNode(frame, entry.slot), fieldIndex != errorNode else { return nil }
        let field = store.nodes[Int(fieldIndex)]
        guard !field.isBitField, field.bitStart & 7 == 0, field.bitWidth == entry.algorithm.bits,
              case .unsigned(let actual) = field.value else { return nil }
        if entry.condition >= 0 {
            var context = RecordedFrameContext(state: store, plan: plan, frame: frameIndex, bytes: bytes)
            guard let holds = try? Evaluator.run(plan.operations(of: entry.condition), in: &context), holds != 0 else { return nil }
        }
        let own = field.byteOffset..<(field.byteOffset + field.byteLength)
        // RFC 1071 verification as a receiver does it: the covered bytes, the checksum among them as
        // read, sum to all ones. Only a wrong checksum needs the value it should have, below.
        if entry.isSingleInternetSpan {
            guard let range = byteRange(of: plan.checksums.items[entry.itemStart], frame: frame, store: store,
                                        bytes: bytes, errorNode: errorNode) else { return nil }
            if range.lowerBound <= own.lowerBound, own.upperBound <= range.upperBound,
               ChecksumAccumulator.fold(ChecksumAccumulator.internetSum(bytes, range)) == 0xFFFF {
                return ChecksumMark(node: fieldIndex, isCorrect: true, expected: actual)
            }
        }
        // With a pseudo-header, first the length of the rest (all of it read) and the addresses.
        var covered = 0
        var addresses: (source: Range<Int>, destination: Range<Int>)?
        var item = entry.itemStart
        if entry.hasPseudoHeader {
            while item < entry.itemStart + entry.itemCount {
                if case .ipPseudoHeader = plan.checksums.items[item] {
                    guard let found = pseudoHeaderAddresses(frame, store: store, plan: plan, bytes: bytes) else { return nil }
                    addresses = found
                } else {
                    guard let range = byteRange(of: plan.checksums.items[item], frame: frame, store: store, bytes: bytes,
                                                errorNode: errorNode) else { return nil }
                    covered += range.count
                }
                item += 1
            }
            if let addresses, addresses.source.count == 4, covered > 0xFFFF { return nil }
            guard covered <= Int(UInt32.max) else { return nil }
        }
        // Then the sum, with the checksum field's own bytes counted as zero wherever they fall.
        var accumulator = ChecksumAccumulator(entry.algorithm)
        // Whether the field starts in the middle of a 16-bit word of the sum (`internet`).
        var ownIsOdd = false
        item = entry.itemStart
        while item < entry.itemStart + entry.itemCount {
            switch plan.checksums.items[item] {
            case .ipPseudoHeader(let protocolNumber):
                guard let addresses else { return nil }
                accumulator.update(bytes, addresses.source)
                accumulator.update(bytes, addresses.destination)
                if addresses.source.count == 4 {
                    // RFC 9293 §3.1: zero, protocol, 16-bit length.
                    accumulator.update(byte: 0)
                    accumulator.update(byte: protocolNumber)
                    accumulator.update(byte: UInt8(truncatingIfNeeded: covered >> 8))
                    accumulator.update(byte: UInt8(truncatingIfNeeded: covered))
                } else {
                    // RFC 8200 §8.1: 32-bit length, three zero bytes, next header.
                    accumulator.update(byte: UInt8(truncatingIfNeeded: covered >> 24))
                    accumulator.update(byte: UInt8(truncatingIfNeeded: covered >> 16))
                    accumulator.update(byte: UInt8(truncatingIfNeeded: covered >> 8))
                    accumulator.update(byte: UInt8(truncatingIfNeeded: covered))
                    accumulator.updateZeros(3)
                    accumulator.update(byte: protocolNumber)
                }
            case let other:
                guard let range = byteRange(of: other, frame: frame, store: store, bytes: bytes, errorNode: errorNode) else {
                    return nil
                }
                feed(range, zeroing: own, bytes: bytes, into: &accumulator, ownIsOdd: &ownIsOdd)
            }
            item += 1
        }
        let computed = accumulator.value
        guard entry.algorithm == .internet else {
            return ChecksumMark(node: fieldIndex, isCorrect: actual == computed, expected: computed)
        }
        // RFC 1071 verification: the sum including the checksum is all ones. 0x0000 and 0xFFFF are the
        // same number in one's complement, so either passes where the other does. A checksum at an
        // odd position straddles two words: its bytes count swapped.
        let sum = UInt16(truncatingIfNeeded: computed)
        let asRead = UInt16(truncatingIfNeeded: actual)
        let onWire = entry.littleEndian ? asRead.byteSwapped : asRead
        let isCorrect = ChecksumAccumulator.fold(UInt64(sum) + UInt64(ownIsOdd ? onWire.byteSwapped : onWire)) == 0xFFFF
        guard !isCorrect else { return ChecksumMark(node: fieldIndex, isCorrect: true, expected: actual) }
        let expectedOnWire = ownIsOdd ? (~sum).byteSwapped : ~sum
        let expected = entry.littleEndian ? expectedOnWire.byteSwapped : expectedOnWire
        return ChecksumMark(node: fieldIndex, isCorrect: false, expected: UInt64(expected))
    }

    /// The bytes of `self` or a span of fields, when all of them were read.
    private static func byteRange(of item: ChecksumSpec.Item, frame: Frame, store: NodeStore, bytes: [UInt8],
                                  errorNode: Int32) -> Range<Int>? {
        let first: Int32
        let last: Int32
        switch item {
        case .wholeStruct:
            first = frame.node
            last = frame.node
        case .fields(let low, let high):
            guard let lowNode = store.slotNode(frame, Int32(low)), let highNode = store.slotNode(frame, Int32(high)) else {
                return nil
            }
            first = lowNode
            last = highNode
        case .ipPseudoHeader:
            return nil
        }
        guard first >= 0, Int(first) < store.nodeCount, last >= first, Int(last) < store.nodeCount else { return nil }
        let end = store.nodes[Int(last)]
        // The walk stopped inside: the bytes it did not read are not what the checksum covers.
        if errorNode >= first, errorNode < end.subtreeEnd { return nil }
        let lower = store.nodes[Int(first)].byteOffset
        let upper = end.byteOffset + end.byteLength
        guard lower <= upper, upper <= bytes.count else { return nil }
        return lower..<upper
    }

    /// The `src` and `dst` bytes of the nearest enclosing struct that has both as addresses.
    private static func pseudoHeaderAddresses(_ frame: Frame, store: NodeStore, plan: ExecutionPlan,
                                              bytes: [UInt8]) -> (source: Range<Int>, destination: Range<Int>)? {
        var parentIndex = frame.parent
        // Extension headers between the checksum and the addresses may name others (the nearest wins).
        var (pseudoSource, pseudoDestination): (Int32?, Int32?) = (nil, nil)
        while let parent = store.frame(parentIndex) {
            let entry = plan.checksums.structs[parent.structID]
            if pseudoSource == nil, entry.pseudoSourceSlot >= 0 { pseudoSource = store.slotNode(parent, entry.pseudoSourceSlot) }
            if pseudoDestination == nil, entry.pseudoDestinationSlot >= 0 {
                pseudoDestination = store.slotNode(parent, entry.pseudoDestinationSlot)
            }
            if entry.sourceSlot >= 0 {
                guard let source = pseudoSource ?? store.slotNode(parent, entry.sourceSlot),
                      let destination = pseudoDestination ?? store.slotNode(parent, entry.destinationSlot) else { return nil }
                let from = store.nodes[Int(source)]
                let to = store.nodes[Int(destination)]
                let sourceRange = from.byteOffset..<(from.byteOffset + from.byteLength)
                let destinationRange = to.byteOffset..<(to.byteOffset + to.byteLength)
                guard sourceRange.count == destinationRange.count, sourceRange.count == 4 || sourceRange.count == 16,
                      sourceRange.upperBound <= bytes.count, destinationRange.upperBound <= bytes.count else { return nil }
                return (sourceRange, destinationRange)
            }
            parentIndex = parent.parent
        }
        return nil
    }

    /// Feeds `range`, the bytes it shares with `own` (the checksum field) as zeros, noting whether
    /// they start at an odd position of the sum.
    private static func feed(_ range: Range<Int>, zeroing own: Range<Int>, bytes: [UInt8],
                             into accumulator: inout ChecksumAccumulator, ownIsOdd: inout Bool) {
        let overlapStart = max(range.lowerBound, own.lowerBound)
        let overlapEnd = min(range.upperBound, own.upperBound)
        guard overlapStart < overlapEnd else {
            accumulator.update(bytes, range)
            return
        }
        accumulator.update(bytes, range.lowerBound..<overlapStart)
        ownIsOdd = accumulator.isOddPosition
        accumulator.updateZeros(overlapEnd - overlapStart)
        accumulator.update(bytes, overlapEnd..<range.upperBound)
    }
}

extension Dissection {
    /// Every checksum field the walk verified, in node order (``Interpreter/Options/checksums``
    /// says which are verified).
    public var checksums: [ChecksumResult] {
        (0..<state.checksumMarks.count).map { index in
            let mark = state.checksumMarks[index]
            return ChecksumResult(node: Int(mark.node), isCorrect: mark.isCorrect, expected: mark.expected)
        }
    }

    /// The verification of node `index`, when it is a checksum field the walk verified.
    public func checksum(of index: Int) -> ChecksumResult? {
        guard checksumCount > 0 else { return nil }
        let store = state
        var low = 0
        var high = store.checksumMarks.count
        while low < high {
            let middle = low + (high - low) / 2
            let mark = store.checksumMarks[middle]
            let node = Int(mark.node)
            if node == index {
                return ChecksumResult(node: index, isCorrect: mark.isCorrect, expected: mark.expected)
            }
            if node < index { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// Verified checksum `position` (below ``checksumCount``), in node order, without making the
    /// array ``checksums`` does: for views, once per frame.
    package func checksumResult(at position: Int) -> ChecksumResult {
        let mark = state.checksumMarks[position]
        return ChecksumResult(node: Int(mark.node), isCorrect: mark.isCorrect, expected: mark.expected)
    }

    /// Whether a verified checksum is wrong.
    public var hasBadChecksum: Bool {
        guard checksumCount > 0 else { return false }
        let store = state
        for index in 0..<store.checksumMarks.count where !store.checksumMarks[index].isCorrect { return true }
        return false
    }
}
