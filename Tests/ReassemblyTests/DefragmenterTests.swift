import Reassembly
import Testing

private let keyA = Defragmenter.Key.ipv4(source: [10, 0, 0, 1], destination: [10, 0, 0, 2], identification: 0x1234, protocolNumber: 17)
private let keyB = Defragmenter.Key.ipv4(source: [10, 0, 0, 1], destination: [10, 0, 0, 2], identification: 0x1235, protocolNumber: 17)
private let keyC = Defragmenter.Key.ipv4(source: [10, 0, 0, 3], destination: [10, 0, 0, 2], identification: 0x1234, protocolNumber: 17)
private let key6 = Defragmenter.Key.ipv6(source: Array(repeating: 0xfe, count: 16), destination: Array(repeating: 1, count: 16), identification: 0xdead_beef)

/// The frames a test "captured": frame number → bytes, so provenance can be checked against them.
private struct Capture {
    var frames: [Int: [UInt8]] = [:]
    var next = 1

    /// A fragment in a new frame, its bytes after `headerLength` filler bytes.
    mutating func fragment(_ key: Defragmenter.Key, _ offset: Int, more: Bool, _ bytes: [UInt8], headerLength: Int = 34, protocolNumber: UInt8 = 17) -> Defragmenter.Fragment {
        let frame = next
        next += 1
        frames[frame] = Array(repeating: 0xee, count: headerLength) + bytes
        return Defragmenter.Fragment(key: key, protocolNumber: protocolNumber, offset: offset, moreFragments: more, bytes: bytes, frame: frame, frameOffset: headerLength)
    }
}

private func datagram(_ outcome: Defragmenter.Outcome) -> Defragmenter.Datagram? {
    if case .completed(let datagram) = outcome { return datagram }
    return nil
}

private func pattern(_ count: Int, seed: UInt8 = 0) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ Int(seed) &+ $0 / 251) }
}

/// The runs cover 0..<payload.count exactly once, in order, and each byte is the byte its
/// run names in the captured frame.
private func checkProvenance(_ datagram: Defragmenter.Datagram, _ capture: Capture, sourceLocation: SourceLocation = #_sourceLocation) {
    var next = 0
    for run in datagram.provenance {
        #expect(run.unitOffset == next, "runs must be contiguous and ordered", sourceLocation: sourceLocation)
        #expect(run.length > 0, sourceLocation: sourceLocation)
        guard let frame = capture.frames[run.frame], run.frameOffset + run.length <= frame.count,
              run.unitOffset + run.length <= datagram.payload.count else {
            Issue.record("run \(run) out of bounds", sourceLocation: sourceLocation)
            return
        }
        #expect(Array(frame[run.frameOffset..<(run.frameOffset + run.length)])
            == Array(datagram.payload[run.unitOffset..<(run.unitOffset + run.length)]), sourceLocation: sourceLocation)
        next = run.unitOffset + run.length
    }
    #expect(next == datagram.payload.count, "runs must reach the end", sourceLocation: sourceLocation)
}

@Suite struct DefragmenterTests {
    /// Splits `payload` at the given cut points into fragments (last one MF=0).
    private func split(_ payload: [UInt8], at cuts: [Int], key: Defragmenter.Key, capture: inout Capture) -> [Defragmenter.Fragment] {
        let bounds = [0] + cuts + [payload.count]
        return (0..<(bounds.count - 1)).map { index in
            capture.fragment(key, bounds[index], more: index < bounds.count - 2, Array(payload[bounds[index]..<bounds[index + 1]]))
        }
    }

    @Test func inOrderCompletesOnTheLastFragment() throws {
        var capture = Capture()
        let payload = pattern(3000)
        let fragments = split(payload, at: [1480, 2960], key: keyA, capture: &capture)
        var defrag = Defragmenter()
        #expect(defrag.add(fragments[0]) == .pending)
        #expect(defrag.add(fragments[1]) == .pending)
        #expect(defrag.pendingCount == 1 && defrag.bytesHeld == 2960)
        let whole = try #require(datagram(defrag.add(fragments[2])))
        #expect(whole.payload == payload)
        #expect(whole.key == keyA && whole.protocolNumber == 17 && whole.fragmentCount == 3 && whole.flags.isEmpty)
        #expect(whole.provenance == [
            Provenance(frame: 1, frameOffset: 34, unitOffset: 0, length: 1480),
            Provenance(frame: 2, frameOffset: 34, unitOffset: 1480, length: 1480),
            Provenance(frame: 3, frameOffset: 34, unitOffset: 2960, length: 40),
        ])
        checkProvenance(whole, capture)
        #expect(defrag.pendingCount == 0 && defrag.bytesHeld == 0)
        #expect(defrag.statistics.completed == 1 && defrag.statistics.peakBytesHeld == 3000)
    }

    @Test func reverseOrderCompletesOnTheFirstFragment() throws {
        var capture = Capture()
        let payload = pattern(100, seed: 3)
        let fragments = split(payload, at: [24, 48, 72], key: key6, capture: &capture)
        var defrag = Defragmenter()
        for fragment in fragments.reversed().dropLast() { #expect(defrag.add(fragment) == .pending) }
        let whole = try #require(datagram(defrag.add(fragments[0])))
        #expect(whole.payload == payload && whole.key == key6)
        #expect(whole.provenance.map(\.frame) == [1, 2, 3, 4])
        checkProvenance(whole, capture)
    }

    @Test func shuffledFragmentsComeOutInOrder() throws {
        var capture = Capture()
        let payload = pattern(8000, seed: 9)
        let fragments = split(payload, at: Array(stride(from: 256, to: 8000, by: 256)), key: keyA, capture: &capture)
        var generator = SeededGenerator(state: 42)
        let shuffled = fragments.shuffled(using: &generator)
        #expect(shuffled.map(\.offset) != fragments.map(\.offset))
        var defrag = Defragmenter()
        for fragment in shuffled.dropLast() { #expect(defrag.add(fragment) == .pending) }
        let last = try #require(shuffled.last)
        let whole = try #require(datagram(defrag.add(last)))
        #expect(whole.payload == payload && whole.fragmentCount == fragments.count)
        checkProvenance(whole, capture)
    }

    @Test func duplicatesAreOverlapsButNotConflicts() throws {
        var capture = Capture()
        let payload = pattern(64)
        let fragments = split(payload, at: [32], key: keyA, capture: &capture)
        let again = capture.fragment(keyA, 0, more: true, Array(payload[0..<32]))
        var defrag = Defragmenter()
        #expect(defrag.add(fragments[0]) == .pending)
        #expect(defrag.add(again) == .pending)
        #expect(defrag.bytesHeld == 32, "a duplicate holds no more bytes")
        let whole = try #require(datagram(defrag.add(fragments[1])))
        #expect(whole.payload == payload)
        #expect(whole.flags == .overlap)
        #expect(whole.fragmentCount == 3)
        #expect(whole.provenance.map(\.frame) == [1, 2], "the first copy received is kept")
        #expect(defrag.statistics.overlappingFragments == 1 && defrag.statistics.overlapConflicts == 0)
    }

    /// The tshark experiment: frame 1 holds 8..<16 ("X"), frame 2 holds 0..<16 ending in "Y",
    /// frame 3 the last 8 bytes. Wireshark 4.x shows "AAAAAAAAYYYYYYYYCCCCCCCC" and flags a conflict.
    private func overlapFragments(_ capture: inout Capture) -> [Defragmenter.Fragment] {
        [
            capture.fragment(keyA, 8, more: true, Array("XXXXXXXX".utf8)),
            capture.fragment(keyA, 0, more: true, Array("AAAAAAAAYYYYYYYY".utf8)),
            capture.fragment(keyA, 16, more: false, Array("CCCCCCCC".utf8)),
        ]
    }

    @Test func overlappingDifferentBytesLowestOffsetWinsAsInWireshark() throws {
        var capture = Capture()
        var defrag = Defragmenter()
        let fragments = overlapFragments(&capture)
        #expect(defrag.add(fragments[0]) == .pending)
        #expect(defrag.add(fragments[1]) == .pending)
        #expect(defrag.bytesHeld == 16, "replaced bytes are not held twice")
        let whole = try #require(datagram(defrag.add(fragments[2])))
        #expect(String(decoding: whole.payload, as: UTF8.self) == "AAAAAAAAYYYYYYYYCCCCCCCC")
        #expect(whole.flags == [.overlap, .overlapConflict])
        #expect(whole.provenance == [
            Provenance(frame: 2, frameOffset: 34, unitOffset: 0, length: 16),
            Provenance(frame: 3, frameOffset: 34, unitOffset: 16, length: 8),
        ])
        checkProvenance(whole, capture)
        #expect(defrag.statistics.overlapConflicts == 1 && defrag.statistics.overlappingFragments == 1)
        #expect(defrag.statistics.peakBytesHeld == 24, "the completed datagram's bytes, once")
    }

    @Test func overlappingDifferentBytesFirstReceivedPolicy() throws {
        var capture = Capture()
        var defrag = Defragmenter(overlapPolicy: .firstReceived)
        let fragments = overlapFragments(&capture)
        _ = defrag.add(fragments[0])
        _ = defrag.add(fragments[1])
        let whole = try #require(datagram(defrag.add(fragments[2])))
        #expect(String(decoding: whole.payload, as: UTF8.self) == "AAAAAAAAXXXXXXXXCCCCCCCC")
        #expect(whole.flags.contains(.overlapConflict))
        #expect(whole.provenance.map(\.frame) == [2, 1, 3])
        checkProvenance(whole, capture)
    }

    @Test func sameOffsetConflictKeepsTheFirstReceivedUnderBothPolicies() throws {
        for policy in [Defragmenter.OverlapPolicy.lowestOffset, .firstReceived] {
            var capture = Capture()
            var defrag = Defragmenter(overlapPolicy: policy)
            _ = defrag.add(capture.fragment(keyA, 0, more: true, Array("aaaabbbb".utf8)))
            // Overlaps the middle of the held bytes with a later fragment at a higher offset.
            _ = defrag.add(capture.fragment(keyA, 0, more: true, Array("zzzz".utf8)))
            _ = defrag.add(capture.fragment(keyA, 2, more: true, Array("yyyy".utf8)))
            let whole = try #require(datagram(defrag.add(capture.fragment(keyA, 8, more: false, Array("cc".utf8)))))
            #expect(String(decoding: whole.payload, as: UTF8.self) == "aaaabbbbcc", "\(policy)")
            #expect(whole.flags == [.overlap, .overlapConflict])
            #expect(defrag.statistics.overlapConflicts == 2)
            checkProvenance(whole, capture)
        }
    }

    @Test func lowestOffsetReplacesTheMiddleOfAHeldPiece() throws {
        var capture = Capture()
        var defrag = Defragmenter()
        _ = defrag.add(capture.fragment(keyA, 8, more: true, Array("0123456789".utf8)))   // 8..<18
        _ = defrag.add(capture.fragment(keyA, 4, more: true, Array("abcdefgh".utf8)))     // 4..<12 wins 8..<12
        _ = defrag.add(capture.fragment(keyA, 0, more: true, Array("WXYZ".utf8)))
        let whole = try #require(datagram(defrag.add(capture.fragment(keyA, 18, more: false, Array("!".utf8)))))
        #expect(String(decoding: whole.payload, as: UTF8.self) == "WXYZabcdefgh456789!")
        #expect(whole.provenance.map(\.frame) == [3, 2, 1, 4])
        checkProvenance(whole, capture)
    }

    @Test func aGapNeverCompletesAndTimesOut() throws {
        var capture = Capture()
        let payload = pattern(300)
        let fragments = split(payload, at: [100, 200], key: keyA, capture: &capture)
        var defrag = Defragmenter(limits: .init(timeoutFrames: 50))
        #expect(defrag.add(fragments[0]) == .pending)
        #expect(defrag.add(fragments[2]) == .pending)
        // Frame 1 is the first fragment's: at frame 51 it is 50 frames old, not yet more.
        defrag.advance(toFrame: 51)
        #expect(defrag.pendingCount == 1 && defrag.statistics.evictedByTimeout == 0)
        defrag.advance(toFrame: 52)
        #expect(defrag.pendingCount == 0 && defrag.bytesHeld == 0)
        #expect(defrag.statistics.evictedByTimeout == 1)
        // The missing middle now starts a new datagram, which cannot complete either.
        var late = fragments[1]
        late.frame = 53
        #expect(defrag.add(late) == .pending)
        #expect(defrag.statistics.completed == 0)
        defrag.finish()
        #expect(defrag.statistics.incompleteAtFinish == 1 && defrag.pendingCount == 0 && defrag.bytesHeld == 0)
    }

    @Test func aFragmentTimesOutItsOwnStaleDatagram() {
        var defrag = Defragmenter(limits: .init(timeoutFrames: 10))
        let first = Defragmenter.Fragment(key: keyA, protocolNumber: 17, offset: 0, moreFragments: true, bytes: pattern(16), frame: 1, frameOffset: 34)
        let last = Defragmenter.Fragment(key: keyA, protocolNumber: 17, offset: 16, moreFragments: false, bytes: pattern(8), frame: 100, frameOffset: 34)
        #expect(defrag.add(first) == .pending)
        #expect(defrag.add(last) == .pending, "the first fragment timed out before the last arrived")
        #expect(defrag.statistics.evictedByTimeout == 1 && defrag.pendingCount == 1 && defrag.bytesHeld == 8)
    }

    @Test func perDatagramCap() throws {
        var capture = Capture()
        var defrag = Defragmenter(limits: .init(maxDatagramBytes: 100))
        #expect(defrag.add(capture.fragment(keyA, 96, more: false, pattern(5))) == .rejected(.beyondLimit))
        #expect(defrag.pendingCount == 0, "a rejected fragment creates no datagram")
        #expect(defrag.add(capture.fragment(keyA, 96, more: false, pattern(4))) == .pending)
        let whole = try #require(datagram(defrag.add(capture.fragment(keyA, 0, more: true, pattern(96)))))
        #expect(whole.payload.count == 100)
        #expect(defrag.statistics.malformedFragments == 1)
    }

    @Test func pendingCountCapEvictsTheOldest() throws {
        var capture = Capture()
        var defrag = Defragmenter(limits: .init(maxPendingDatagrams: 2))
        _ = defrag.add(capture.fragment(keyA, 0, more: true, pattern(8)))
        _ = defrag.add(capture.fragment(keyB, 0, more: true, pattern(8)))
        #expect(defrag.statistics.evictedByCap == 0)
        _ = defrag.add(capture.fragment(keyC, 0, more: true, pattern(8)))
        #expect(defrag.pendingCount == 2 && defrag.statistics.evictedByCap == 1)
        // keyA was evicted: its last fragment alone does not complete it.
        #expect(defrag.add(capture.fragment(keyA, 8, more: false, pattern(8))) == .pending)
        #expect(defrag.statistics.evictedByCap == 2, "adding keyA again evicted keyB, now the oldest")
        // keyC survived both evictions.
        let whole = try #require(datagram(defrag.add(capture.fragment(keyC, 8, more: false, pattern(8)))))
        #expect(whole.key == keyC)
    }

    @Test func totalBytesCapEvictsOthersFirst() throws {
        var capture = Capture()
        var defrag = Defragmenter(limits: .init(maxDatagramBytes: 100, maxTotalBytes: 150))
        _ = defrag.add(capture.fragment(keyA, 0, more: true, pattern(80)))
        _ = defrag.add(capture.fragment(keyB, 0, more: true, pattern(60)))
        #expect(defrag.bytesHeld == 140 && defrag.statistics.evictedByCap == 0)
        _ = defrag.add(capture.fragment(keyB, 60, more: true, pattern(20)))
        #expect(defrag.pendingCount == 1 && defrag.bytesHeld == 80 && defrag.statistics.evictedByCap == 1)
        #expect(defrag.statistics.peakBytesHeld == 140)
        // A duplicate needs no room: nothing is evicted for it.
        _ = defrag.add(capture.fragment(keyC, 0, more: true, pattern(60)))
        _ = defrag.add(capture.fragment(keyB, 0, more: true, pattern(60)))
        #expect(defrag.pendingCount == 2 && defrag.statistics.evictedByCap == 1)
        // Limits never let the total fall below one datagram.
        #expect(Defragmenter.Limits(maxDatagramBytes: 100, maxTotalBytes: 10).maxTotalBytes == 100)
    }

    @Test func fragmentCountCap() {
        var capture = Capture()
        var defrag = Defragmenter(limits: .init(maxFragmentsPerDatagram: 3))
        for index in 0..<3 { #expect(defrag.add(capture.fragment(keyA, index * 8, more: true, pattern(8))) == .pending) }
        #expect(defrag.add(capture.fragment(keyA, 24, more: false, pattern(8))) == .rejected(.tooManyFragments))
        #expect(defrag.statistics.fragmentsOverCap == 1 && defrag.statistics.malformedFragments == 0)
    }

    @Test func malformedFragmentsAreRejectedAndCounted() throws {
        var capture = Capture()
        var defrag = Defragmenter()
        let payload = pattern(40)
        func bad(_ offset: Int, more: Bool, _ count: Int, frameOffset: Int = 34) -> Defragmenter.Fragment {
            var fragment = capture.fragment(keyA, offset, more: more, pattern(count))
            fragment.frameOffset = frameOffset
            return fragment
        }
        #expect(defrag.add(bad(-8, more: true, 8)) == .rejected(.invalidOffset))
        #expect(defrag.add(bad(Int.max - 2, more: true, 8)) == .rejected(.invalidOffset))
        #expect(defrag.add(bad(0, more: true, 8, frameOffset: Int.max - 2)) == .rejected(.invalidOffset))
        #expect(defrag.add(bad(0, more: true, 8, frameOffset: -1)) == .rejected(.invalidOffset))
        #expect(defrag.add(bad(Int.max, more: false, 0)) == .rejected(.beyondLimit))
        #expect(defrag.add(bad(65528, more: true, 16)) == .rejected(.beyondLimit))
        #expect(defrag.pendingCount == 0)

        #expect(defrag.add(capture.fragment(keyA, 16, more: true, Array(payload[16..<32]))) == .pending)
        // A last fragment ending before bytes already held.
        #expect(defrag.add(bad(8, more: false, 8)) == .rejected(.conflictingEnd))
        #expect(defrag.add(capture.fragment(keyA, 32, more: false, Array(payload[32..<40]))) == .pending)
        // A second last fragment with another end, and a fragment past the end.
        #expect(defrag.add(bad(40, more: false, 8)) == .rejected(.conflictingEnd))
        #expect(defrag.add(bad(36, more: true, 8)) == .rejected(.pastEnd))
        #expect(defrag.statistics.malformedFragments == 9)
        // The datagram survives the noise and completes with its own bytes.
        let whole = try #require(datagram(defrag.add(capture.fragment(keyA, 0, more: true, Array(payload[0..<16])))))
        #expect(whole.payload == payload && whole.fragmentCount == 3 && whole.flags.isEmpty)
        checkProvenance(whole, capture)
    }

    @Test func theProtocolIsTheFirstOffsetZeroFragments() throws {
        var capture = Capture()
        var defrag = Defragmenter()
        _ = defrag.add(capture.fragment(key6, 8, more: false, pattern(8), protocolNumber: 59))
        let whole = try #require(datagram(defrag.add(capture.fragment(key6, 0, more: true, pattern(8), protocolNumber: 17))))
        #expect(whole.protocolNumber == 17)
    }

    @Test func provenanceCoversEveryByteOnceAcrossMixedOverlaps() throws {
        var capture = Capture()
        let payload = pattern(60, seed: 5)
        var defrag = Defragmenter()
        let pieces: [(Int, Int, Bool)] = [(20, 40, true), (10, 30, true), (30, 50, true), (5, 25, true), (45, 60, false), (0, 15, true)]
        var result: Defragmenter.Datagram?
        for (lower, upper, more) in pieces {
            result = datagram(defrag.add(capture.fragment(keyA, lower, more: more, Array(payload[lower..<upper]), headerLength: 14 + lower % 7)))
        }
        let whole = try #require(result)
        #expect(whole.payload == payload && whole.flags == .overlap)
        checkProvenance(whole, capture)
        #expect(whole.provenance.reduce(0) { $0 + $1.length } == 60)
    }

    @Test func twoFragmentsInOneFrameKeepTheirOwnRuns() throws {
        // A tunnel can carry two fragments of one datagram in a frame: equal offsets, the
        // second longer. Their runs touch in the datagram but not in the frame.
        var capture = Capture()
        let payload = pattern(24, seed: 11)
        let frame = Array(repeating: 0xee, count: 34) + payload[0..<8] + Array(repeating: 0xee, count: 30) + payload[0..<16]
        capture.frames[9] = frame
        var defrag = Defragmenter()
        _ = defrag.add(.init(key: keyA, protocolNumber: 17, offset: 0, moreFragments: true, bytes: Array(payload[0..<8]), frame: 9, frameOffset: 34))
        _ = defrag.add(.init(key: keyA, protocolNumber: 17, offset: 0, moreFragments: true, bytes: Array(payload[0..<16]), frame: 9, frameOffset: 72))
        let whole = try #require(datagram(defrag.add(capture.fragment(keyA, 16, more: false, Array(payload[16..<24])))))
        #expect(whole.payload == payload)
        #expect(whole.provenance == [
            Provenance(frame: 9, frameOffset: 34, unitOffset: 0, length: 8),
            Provenance(frame: 9, frameOffset: 80, unitOffset: 8, length: 8),
            Provenance(frame: 1, frameOffset: 34, unitOffset: 16, length: 8),
        ])
        checkProvenance(whole, capture)
    }

    /// Many datagrams, each split at random points with random identical overlaps, all
    /// fragments interleaved and shuffled: each comes out equal to its original.
    @Test(arguments: [1, 2, 3])
    func randomizedDatagramsReassembleExactly(seed: UInt64) throws {
        var generator = SeededGenerator(state: seed)
        var capture = Capture()
        var originals: [Defragmenter.Key: [UInt8]] = [:]
        var fragments: [Defragmenter.Fragment] = []
        for index in 0..<150 {
            let key = Defragmenter.Key.ipv4(source: [10, 0, 0, UInt8(index % 3)], destination: [10, 0, 1, 1],
                                            identification: UInt16(index), protocolNumber: 6)
            let count = Int.random(in: 1...3000, using: &generator)
            let payload = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            originals[key] = payload
            let cuts = Set((0..<Int.random(in: 0...12, using: &generator)).map { _ in Int.random(in: 1..<max(count, 2), using: &generator) })
                .filter { $0 < count }.sorted()
            let bounds = [0] + cuts + [count]
            for piece in 0..<(bounds.count - 1) {
                // Widen some fragments so they overlap their neighbours with the same bytes.
                let lower = Bool.random(using: &generator) ? max(0, bounds[piece] - Int.random(in: 0...20, using: &generator)) : bounds[piece]
                let upper = piece < bounds.count - 2 && Bool.random(using: &generator)
                    ? min(count - 1, bounds[piece + 1] + Int.random(in: 0...20, using: &generator)) : bounds[piece + 1]
                let isLast = piece == bounds.count - 2
                fragments.append(capture.fragment(key, lower, more: !isLast, Array(payload[lower..<max(lower, upper)]),
                                                  headerLength: Int.random(in: 14...60, using: &generator)))
                if Int.random(in: 0..<10, using: &generator) == 0 {
                    fragments.append(capture.fragment(key, lower, more: !isLast, Array(payload[lower..<max(lower, upper)])))
                }
            }
        }
        fragments.shuffle(using: &generator)
        // Frame numbers in arrival order, as a capture would number them.
        var renumbered = Capture()
        var defrag = Defragmenter()
        var seen: [Defragmenter.Key: Int] = [:]
        for fragment in fragments {
            let header = fragment.frameOffset
            let again = renumbered.fragment(fragment.key, fragment.offset, more: fragment.moreFragments, fragment.bytes,
                                            headerLength: header, protocolNumber: fragment.protocolNumber)
            switch defrag.add(again) {
            case .completed(let whole):
                #expect(whole.payload == originals[whole.key], "\(whole.key)")
                #expect(!whole.flags.contains(.overlapConflict))
                checkProvenance(whole, renumbered)
                seen[whole.key, default: 0] += 1
            case .rejected(let reason):
                Issue.record("rejected \(reason) for \(fragment.key) at \(fragment.offset)")
            case .pending:
                break
            }
        }
        // Every datagram completed (late duplicates of a finished one start a new datagram,
        // which may complete again, equal to the original too).
        #expect(seen.count == originals.count)
        #expect(defrag.statistics.completed == seen.values.reduce(0, +))
        #expect(defrag.statistics.overlapConflicts == 0 && defrag.statistics.malformedFragments == 0)
        #expect(defrag.statistics.evictedByCap == 0 && defrag.statistics.evictedByTimeout == 0)
        #expect(defrag.statistics.overlappingFragments > 0)
    }
}
