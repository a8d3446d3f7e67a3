// Side-by-side benchmarks, each run in one go against its peers:
//
//   dissect-bench [seconds-per-round]          the schema interpreter against hand-written Swift
//                                              (a parser and a dissector) on Ethernet/IPv4/TCP frames
//   dissect-bench codable [seconds-per-round]  BinaryDecoder and SchemaDecoder against a hand-written
//                                              parser and PropertyListDecoder on a 20-field header
//   dissect-bench views [seconds-per-view] [view]  rendering speed of each view on the corpus frames
//   dissect-bench archive [seconds-per-round]  KeyedArchiver against property lists and JSON on an object graph
//
//   swift build -c release --product dissect-bench && .build/release/dissect-bench
//
// Frames are the real Ethernet/IPv4/TCP frames of Corpus/captures/tcp.pcap (handshake with
// options, data, close), walked round-robin. No output is produced per frame; each side
// folds what it read into a checksum so nothing is optimized away.

import BinarySchema
import Foundation

// MARK: - Frames

func loadFrames(_ path: String) -> [[UInt8]] {
    guard let data = FileManager.default.contents(atPath: path) else {
        fatalError("cannot read \(path); run from the repository root")
    }
    let bytes = [UInt8](data)
    func u32(_ offset: Int) -> Int {
        Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
    }
    var frames: [[UInt8]] = []
    var offset = 24
    while offset + 16 <= bytes.count {
        let length = u32(offset + 8)
        frames.append(Array(bytes[(offset + 16)..<(offset + 16 + length)]))
        offset += 16 + length
    }
    return frames
}

// MARK: - The hand-written parser: same fields, bounds-checked, no allocation

struct TCPOptionFields {
    var kind: UInt8 = 0
    var length: UInt8 = 0
    var value: UInt64 = 0
}

struct FrameFields {
    var destination: (UInt16, UInt32) = (0, 0)
    var source: (UInt16, UInt32) = (0, 0)
    var etherType: UInt16 = 0
    var version: UInt8 = 0, ihl: UInt8 = 0, dscp: UInt8 = 0, ecn: UInt8 = 0
    var totalLength: UInt16 = 0, identification: UInt16 = 0
    var reserved = false, dontFragment = false, moreFragments = false
    var fragmentOffset: UInt16 = 0
    var ttl: UInt8 = 0, proto: UInt8 = 0, ipChecksum: UInt16 = 0
    var sourceAddress: UInt32 = 0, destinationAddress: UInt32 = 0
    var sourcePort: UInt16 = 0, destinationPort: UInt16 = 0
    var sequence: UInt32 = 0, acknowledgment: UInt32 = 0
    var dataOffset: UInt8 = 0, flags: UInt16 = 0
    var window: UInt16 = 0, tcpChecksum: UInt16 = 0, urgentPointer: UInt16 = 0
    var options = (TCPOptionFields(), TCPOptionFields(), TCPOptionFields(), TCPOptionFields(), TCPOptionFields(),
                   TCPOptionFields(), TCPOptionFields(), TCPOptionFields(), TCPOptionFields(), TCPOptionFields())
    var optionCount = 0
    var payload: Range<Int> = 0..<0
}

enum HandParseError: Error { case truncated, malformed }

@inline(never)
func handParse(_ bytes: [UInt8]) throws(HandParseError) -> FrameFields {
    var fields = FrameFields()
    try bytes.withUnsafeBufferPointer { (buffer: UnsafeBufferPointer<UInt8>) throws(HandParseError) in
        let count = buffer.count
        func u16(_ offset: Int) -> UInt16 { UInt16(buffer[offset]) << 8 | UInt16(buffer[offset + 1]) }
        func u32(_ offset: Int) -> UInt32 { UInt32(u16(offset)) << 16 | UInt32(u16(offset + 2)) }
        guard count >= 14 else { throw .truncated }
        fields.destination = (u16(0), u32(2))
        fields.source = (u16(6), u32(8))
        fields.etherType = u16(12)
        guard fields.etherType == 0x0800 else { return }
        guard count >= 34 else { throw .truncated }
        let versionIHL = buffer[14]
        fields.version = versionIHL >> 4
        fields.ihl = versionIHL & 0x0F
        guard fields.version == 4, fields.ihl >= 5 else { throw .malformed }
        fields.dscp = buffer[15] >> 2
        fields.ecn = buffer[15] & 3
        fields.totalLength = u16(16)
        fields.identification = u16(18)
        let flagsFragment = u16(20)
        fields.reserved = flagsFragment & 0x8000 != 0
        fields.dontFragment = flagsFragment & 0x4000 != 0
        fields.moreFragments = flagsFragment & 0x2000 != 0
        fields.fragmentOffset = flagsFragment & 0x1FFF
        fields.ttl = buffer[22]
        fields.proto = buffer[23]
        fields.ipChecksum = u16(24)
        fields.sourceAddress = u32(26)
        fields.destinationAddress = u32(30)
        let headerLength = Int(fields.ihl) * 4
        let ipEnd = 14 + Int(fields.totalLength)
        guard Int(fields.totalLength) >= headerLength else { throw .malformed }
        guard ipEnd <= count, 14 + headerLength <= count else { throw .truncated }
        guard fields.proto == 6, fields.fragmentOffset == 0, !fields.moreFragments else { return }
        let tcp = 14 + headerLength
        guard tcp + 20 <= ipEnd else { throw .truncated }
        fields.sourcePort = u16(tcp)
        fields.destinationPort = u16(tcp + 2)
        fields.sequence = u32(tcp + 4)
        fields.acknowledgment = u32(tcp + 8)
        fields.dataOffset = buffer[tcp + 12] >> 4
        fields.flags = u16(tcp + 12) & 0x01FF
        fields.window = u16(tcp + 14)
        fields.tcpChecksum = u16(tcp + 16)
        fields.urgentPointer = u16(tcp + 18)
        guard fields.dataOffset >= 5 else { throw .malformed }
        let optionsEnd = tcp + Int(fields.dataOffset) * 4
        guard optionsEnd <= ipEnd else { throw .truncated }
        var offset = tcp + 20
        while offset < optionsEnd {
            var option = TCPOptionFields()
            option.kind = buffer[offset]
            if option.kind <= 1 {
                offset += 1
            } else {
                guard offset + 1 < optionsEnd else { throw .truncated }
                option.length = buffer[offset + 1]
                let end = offset + Int(option.length)
                guard option.length >= 2, end <= optionsEnd else { throw .malformed }
                switch (option.kind, option.length) {
                case (2, 4): option.value = UInt64(u16(offset + 2))
                case (3, 3): option.value = UInt64(buffer[offset + 2])
                case (8, 10): option.value = UInt64(u32(offset + 2)) << 32 | UInt64(u32(offset + 6))
                default: break
                }
                offset = end
            }
            withUnsafeMutableBytes(of: &fields.options) { raw in
                let slots = raw.bindMemory(to: TCPOptionFields.self)
                if fields.optionCount < slots.count { slots[fields.optionCount] = option }
            }
            fields.optionCount += 1
        }
        fields.payload = optionsEnd..<ipEnd
    }
    return fields
}

// MARK: - The hand-written dissector: the same parse, recording every field as the interpreter does

/// What a hand-written dissector records per field (as Wireshark's proto_tree_add_item does):
/// which field, where (bits), and the value.
struct RecordedField {
    var field: Int32
    var parent: Int32
    var bitStart: Int
    var bitWidth: Int
    var value: UInt64
}

@inline(never)
func handDissect(_ bytes: [UInt8], into fields: inout [RecordedField]) throws(HandParseError) {
    fields.removeAll(keepingCapacity: true)
    try bytes.withUnsafeBufferPointer { (buffer: UnsafeBufferPointer<UInt8>) throws(HandParseError) in
        let count = buffer.count
        var id: Int32 = 0
        func add(_ parent: Int32, _ bitStart: Int, _ bitWidth: Int, _ value: UInt64) -> Int32 {
            id += 1
            fields.append(RecordedField(field: id, parent: parent, bitStart: bitStart, bitWidth: bitWidth, value: value))
            return Int32(fields.count - 1)
        }
        func bits(_ bitStart: Int, _ width: Int) -> UInt64 {
            var value: UInt64 = 0
            for bit in bitStart..<(bitStart + width) {
                value = value << 1 | UInt64(buffer[bit >> 3] >> (7 - UInt8(bit & 7)) & 1)
            }
            return value
        }
        func bytes(_ offset: Int, _ length: Int) -> UInt64 {
            var value: UInt64 = 0
            for index in offset..<(offset + length) { value = value << 8 | UInt64(buffer[index]) }
            return value
        }
        guard count >= 14 else { throw .truncated }
        let ethernet = add(-1, 0, count * 8, 0)
        _ = add(ethernet, 0, 48, bytes(0, 6))
        _ = add(ethernet, 48, 48, bytes(6, 6))
        let etherType = bytes(12, 2)
        _ = add(ethernet, 96, 16, etherType)
        guard etherType == 0x0800 else { return }
        guard count >= 34 else { throw .truncated }
        let ip = add(-1, 112, 160, 0)
        let version = bits(112, 4), ihl = bits(116, 4)
        _ = add(ip, 112, 4, version)
        _ = add(ip, 116, 4, ihl)
        guard version == 4, ihl >= 5 else { throw .malformed }
        _ = add(ip, 120, 6, bits(120, 6))
        _ = add(ip, 126, 2, bits(126, 2))
        let totalLength = bytes(16, 2)
        _ = add(ip, 128, 16, totalLength)
        _ = add(ip, 144, 16, bytes(18, 2))
        let flags = add(ip, 160, 3, 0)
        _ = add(flags, 160, 1, bits(160, 1))
        _ = add(flags, 161, 1, bits(161, 1))
        let moreFragments = bits(162, 1)
        _ = add(flags, 162, 1, moreFragments)
        let fragmentOffset = bits(163, 13)
        _ = add(ip, 163, 13, fragmentOffset)
        _ = add(ip, 176, 8, bytes(22, 1))
        let proto = bytes(23, 1)
        _ = add(ip, 184, 8, proto)
        _ = add(ip, 192, 16, bytes(24, 2))
        _ = add(ip, 208, 32, bytes(26, 4))
        _ = add(ip, 240, 32, bytes(30, 4))
        let headerLength = Int(ihl) * 4
        let ipEnd = 14 + Int(totalLength)
        guard Int(totalLength) >= headerLength else { throw .malformed }
        guard ipEnd <= count, 14 + headerLength <= count else { throw .truncated }
        _ = add(ip, 272, (headerLength - 20) * 8, 0)
        guard proto == 6, fragmentOffset == 0, moreFragments == 0 else { return }
        let tcp = 14 + headerLength
        guard tcp + 20 <= ipEnd else { throw .truncated }
        let segment = add(ip, tcp * 8, (ipEnd - tcp) * 8, 0)
        _ = add(segment, tcp * 8, 16, bytes(tcp, 2))
        _ = add(segment, tcp * 8 + 16, 16, bytes(tcp + 2, 2))
        _ = add(segment, tcp * 8 + 32, 32, bytes(tcp + 4, 4))
        _ = add(segment, tcp * 8 + 64, 32, bytes(tcp + 8, 4))
        let dataOffset = bits(tcp * 8 + 96, 4)
        _ = add(segment, tcp * 8 + 96, 4, dataOffset)
        _ = add(segment, tcp * 8 + 100, 3, bits(tcp * 8 + 100, 3))
        let tcpFlags = add(segment, tcp * 8 + 103, 9, 0)
        for flag in 0..<9 { _ = add(tcpFlags, tcp * 8 + 103 + flag, 1, bits(tcp * 8 + 103 + flag, 1)) }
        _ = add(segment, tcp * 8 + 112, 16, bytes(tcp + 14, 2))
        _ = add(segment, tcp * 8 + 128, 16, bytes(tcp + 16, 2))
        _ = add(segment, tcp * 8 + 144, 16, bytes(tcp + 18, 2))
        guard dataOffset >= 5 else { throw .malformed }
        let optionsEnd = tcp + Int(dataOffset) * 4
        guard optionsEnd <= ipEnd else { throw .truncated }
        let options = add(segment, (tcp + 20) * 8, (optionsEnd - tcp - 20) * 8, 0)
        var offset = tcp + 20
        while offset < optionsEnd {
            let option = add(options, offset * 8, 0, 0)
            let kind = buffer[offset]
            _ = add(option, offset * 8, 8, UInt64(kind))
            if kind <= 1 {
                offset += 1
                continue
            }
            guard offset + 1 < optionsEnd else { throw .truncated }
            let length = Int(buffer[offset + 1])
            _ = add(option, offset * 8 + 8, 8, UInt64(length))
            let end = offset + length
            guard length >= 2, end <= optionsEnd else { throw .malformed }
            switch (kind, length) {
            case (2, 4): _ = add(option, offset * 8 + 16, 16, bytes(offset + 2, 2))
            case (3, 3): _ = add(option, offset * 8 + 16, 8, bytes(offset + 2, 1))
            case (8, 10):
                let timestamps = add(option, offset * 8 + 16, 64, 0)
                _ = add(timestamps, offset * 8 + 16, 32, bytes(offset + 2, 4))
                _ = add(timestamps, offset * 8 + 48, 32, bytes(offset + 6, 4))
            default: _ = add(option, offset * 8 + 16, (length - 2) * 8, 0)
            }
            offset = end
        }
        _ = add(segment, optionsEnd * 8, (ipEnd - optionsEnd) * 8, 0)
    }
}

// MARK: - Timing

func measure(seconds: Double, frames: [[UInt8]], _ body: ([UInt8]) -> Int) -> (nanosecondsPerFrame: Double, checksum: Int) {
    let clock = ContinuousClock()
    var processed = 0
    var checksum = 0
    let start = clock.now
    let deadline = start + .milliseconds(Int(seconds * 1000))
    while clock.now < deadline {
        for _ in 0..<64 {
            for frame in frames { checksum &+= body(frame) }
        }
        processed += 64 * frames.count
    }
    let elapsed = clock.now - start
    let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
    return (nanoseconds / Double(processed), checksum)
}

func runBenchmark() {
    let secondsPerRound = CommandLine.arguments.count > 1 ? Double(CommandLine.arguments[1]) ?? 1 : 1
    let frames = loadFrames("Corpus/captures/tcp.pcap")
    let schema: Schema
    do {
        schema = try SchemaLoader.loadBundled()
    } catch {
        fatalError("\(error)")
    }
    guard let ethernet = schema.structType(named: "Ethernet") else { fatalError("no Ethernet struct") }
    var interpreter = Interpreter(schema: schema)

    // Both sides must read every frame without error, or the comparison means nothing.
    for frame in frames {
        precondition(interpreter.dissect(frame, root: ethernet).error == nil, "interpreter failed on a frame")
        do { _ = try handParse(frame) } catch { preconditionFailure("hand-written parser failed on a frame") }
    }

    let runInterpreter: ([UInt8]) -> Int = { frame in
        interpreter.withDissection(of: frame, root: ethernet) { $0.nodes.count }
    }

    var recorded: [RecordedField] = []
    recorded.reserveCapacity(128)
    let runHandDissector: ([UInt8]) -> Int = { frame in
        do {
            try handDissect(frame, into: &recorded)
            return recorded.count
        } catch {
            return -1
        }
    }

    let runHandWritten: ([UInt8]) -> Int = { frame in
        do {
            let fields = try handParse(frame)
            return Int(fields.sequence & 0xFF) &+ fields.optionCount &+ fields.payload.count
        } catch {
            return -1
        }
    }

    // `dissect-bench profile N`: walk N rounds of the frames with the interpreter only, for callgrind or perf.
    if CommandLine.arguments.count > 2, CommandLine.arguments[1] == "profile", let rounds = Int(CommandLine.arguments[2]) {
        var total = 0
        for _ in 0..<rounds { for frame in frames { total &+= runInterpreter(frame) } }
        print("walked \(rounds * frames.count) frames (\(total) fields)")
        return
    }
    print("dissect-bench: \(frames.count) Ethernet/IPv4/TCP frames from Corpus/captures/tcp.pcap, \(secondsPerRound) s per round")
    var interpreterTimes: [Double] = []
    var handTimes: [Double] = []
    var dissectorTimes: [Double] = []
    var sink = 0
    for _ in 0..<5 {
        let hand = measure(seconds: secondsPerRound, frames: frames, runHandWritten)
        let dissector = measure(seconds: secondsPerRound, frames: frames, runHandDissector)
        let interpreted = measure(seconds: secondsPerRound, frames: frames, runInterpreter)
        handTimes.append(hand.nanosecondsPerFrame)
        dissectorTimes.append(dissector.nanosecondsPerFrame)
        interpreterTimes.append(interpreted.nanosecondsPerFrame)
        sink &+= hand.checksum &+ dissector.checksum &+ interpreted.checksum
    }
    let dissectorMedian = dissectorTimes.sorted()[2]
    let nodesPerFrame = Double(frames.map { interpreter.dissect($0, root: ethernet).nodes.count }.reduce(0, +)) / Double(frames.count)
    let handMedian = handTimes.sorted()[2]
    let interpreterMedian = interpreterTimes.sorted()[2]
    print(String(format: "hand-written parser   %8.1f ns/frame  (%.2f M frames/s)", handMedian, 1000 / handMedian))
    print(String(format: "hand-written dissector %7.1f ns/frame  (%.2f M frames/s, records %d fields/frame)", dissectorMedian,
                 1000 / dissectorMedian, recorded.count))
    print(String(format: "schema interpreter    %8.1f ns/frame  (%.2f M frames/s, %.0f fields/frame)", interpreterMedian,
                 1000 / interpreterMedian, nodesPerFrame))
    print(String(format: "ratio interpreter / hand-written parser:     %.2fx (target: within 5x)", interpreterMedian / handMedian))
    print(String(format: "ratio interpreter / hand-written dissector: %.2fx", interpreterMedian / dissectorMedian))
    if sink == 42 { print("") }
}

if CommandLine.arguments.count > 2, CommandLine.arguments[1] == "pcap-floor" {
    exit(runPcapFloor(path: CommandLine.arguments[2]))
} else if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "views" {
    runViewBenchmark(secondsPerView: CommandLine.arguments.count > 2 ? Double(CommandLine.arguments[2]) ?? 1 : 1,
                     only: CommandLine.arguments.count > 3 ? CommandLine.arguments[3] : nil)
} else if CommandLine.arguments.count > 3, CommandLine.arguments[1] == "codable-profile" {
    runCodableProfile(CommandLine.arguments[2], Int(CommandLine.arguments[3]) ?? 1000)
} else if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "archive" {
    runArchiveBenchmark(secondsPerRound: CommandLine.arguments.count > 2 ? Double(CommandLine.arguments[2]) ?? 1 : 1)
} else if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "codable" {
    runCodableBenchmark(secondsPerRound: CommandLine.arguments.count > 2 ? Double(CommandLine.arguments[2]) ?? 1 : 1)
} else {
    runBenchmark()
}
