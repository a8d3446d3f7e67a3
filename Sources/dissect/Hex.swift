import ArgumentParser
import BinarySchema
import CapturePipeline
import Dissector
import Foundation

struct Hex: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Dissect frames given as hex: every byte labeled with its field.",
        discussion: """
            Bytes come from the HEX arguments, from --file (raw bytes), or from standard input \
            (hex text). Hex may be separated by spaces, colons, dashes or commas, with optional \
            0x; the output of xxd, hexdump -C, od -Ax -tx1 and tcpdump -x/-xx/-X/-XX can be \
            pasted as it is.

            Several packets of tcpdump's output pasted at once (with -v or not) are dissected \
            one by one as frames 1, 2, ...: a frame starts at each packet line, and wherever a \
            dump starts again at offset 0. Times printed with -tt or -tttt (local time) are \
            shown with the frames; tcpdump's default time of day has no date and is left out. \
            tcpdump -x and -X dump from the IP header, not the link layer: give --root IPv4 \
            (or IPv6); a note says so when the bytes look like an IP packet.

            --root takes a struct name as `dissect schema list` shows it; case does not matter \
            when only one struct matches, and a name that matches none gets the closest names.

            A malformed frame keeps every field decoded before the error; the failing field is \
            marked with ✗ and the exact reason, and the bytes after it are still shown. With \
            --original-length, the bytes are a capture cut short: a field that runs past them is \
            marked [|tcp], not as an error.

            Exit status: 0 when every frame matches its schema, 2 when one does not (it is still \
            shown in full), 1 for an error that stops the command (unreadable input, a schema that \
            does not check), 64 for a usage error.

            Examples:
              dissect hex 'ffffffffffff 001122334455 0806 ...'
              xxd frame.bin | dissect hex --format tree
              tcpdump -r dump.pcap -xx | dissect hex --format summary
              tcpdump -r dump.pcap -x -c 1 | dissect hex --root IPv4
              dissect hex --file header.bin --no-bundled --schema bmp.schema --root BMPFile
            """
    )

    @OptionGroup var schemas: SchemaOptions
    @OptionGroup var view: ViewOptions
    @OptionGroup var checksums: ChecksumOptions

    @Option(help: ArgumentHelp("The struct to start at, as `dissect schema list` names it; case does not matter when only one struct matches (default: Ethernet).", valueName: "struct"))
    var root: String?

    @Option(help: ArgumentHelp("Read raw bytes from this file instead of hex text.", valueName: "path"))
    var file: String?

    @Option(help: ArgumentHelp("The frame's length on the wire, when the bytes are a capture cut short by a snapshot length.", valueName: "bytes"))
    var originalLength: Int?

    @Argument(help: ArgumentHelp("The bytes, as hex.", valueName: "hex"))
    var hex: [String] = []

    func validate() throws {
        if let originalLength, originalLength < 0 { throw ValidationError("--original-length needs a length of 0 or more") }
        try view.checkLayerOptions(view: view.format)
    }

    func run() throws {
        let schema = try schemas.load()
        let rootStruct = try NameSuggestions.structType(named: root ?? "Ethernet", in: schema, option: "--root")
        _ = try view.layerSelection(for: schema)
        let options = schemas.walkOptions(checksums: try checksums.selection(for: schema))
        let frames = try readFrames()
        if root == nil, let first = frames.first, let version = Self.ipVersion(of: first.bytes) {
            // tcpdump -x and -X dump from the network layer: say so rather than guess the root.
            printError("note: the bytes look like an IPv\(version) packet, not an Ethernet frame (tcpdump -x and -X leave out the link layer): add --root IPv\(version)")
        }
        var interpreter = Interpreter(schema: schema, options: options)
        let label = file.map { ($0 as NSString).lastPathComponent } ?? "frame"
        let numbered = frames.count > 1
        // As `dissect -r` writes frames: those of several lines each set apart by a blank line.
        let separator = view.format.isOneLinePerFrame ? "\n" : "\n\n"
        // The HTML view is one page around the frames' lines.
        var text = view.format == .html ? HTMLPage.head(title: file ?? "hex") : ""
        var renderOptions = view.renderOptions
        // Times as tcpdump printed them: to its digits (6, or 9 with --nano), in local time.
        renderOptions.timeDigits = frames.lazy.compactMap { $0.header.flatMap(Self.tcpdumpTimeDigits) }.first ?? 6
        let localOffsets = LocalOffsets()
        var malformed = 0
        for (index, frame) in frames.enumerated() {
            let dissection = interpreter.dissect(frame.bytes, root: rootStruct, originalLength: originalLength)
            if dissection.error != nil { malformed += 1 }
            var time = frame.header.flatMap(Self.tcpdumpTime)
            if let seconds = time?.seconds { time?.utcOffset = localOffsets.offset(at: seconds) }
            let info = FrameInfo(label: label, number: numbered ? index + 1 : nil, time: time)
            if index > 0 { text += separator }
            text += view.format.render(dissection, frame: info, options: renderOptions)
        }
        text += "\n"
        if view.format == .html { text += HTMLPage.tail }
        var output: [UInt8] = []
        if view.symbols == .ascii {
            Array(text.utf8).withUnsafeBufferPointer { SymbolSet.appendASCII(of: $0, to: &output) }
        } else {
            output = Array(text.utf8)
        }
        try output.withUnsafeBytes { try StandardStream.output.write($0) }
        // A script can tell bytes that do not match the schema from bytes that do (a capture's
        // malformed packets are the capture's news, and leave `dissect -r` at 0, as tcpdump).
        if malformed > 0 { throw ExitCode(Self.malformedExitStatus) }
    }

    /// The exit status when a frame does not match its schema (the walk stopped at an error; a
    /// frame the capture cut short is no error).
    static let malformedExitStatus: Int32 = 2

    /// 4 or 6 when `bytes` read as a whole IPv4 or IPv6 packet (the version nibble, and the
    /// header's length field equal to the byte count), else nil.
    static func ipVersion(of bytes: [UInt8]) -> Int? {
        guard bytes.count >= 20 else { return nil }
        switch bytes[0] >> 4 {
        case 4:
            let total = Int(bytes[2]) << 8 | Int(bytes[3])
            return bytes[0] & 0x0f >= 5 && total == bytes.count ? 4 : nil
        case 6:
            guard bytes.count >= 40 else { return nil }
            let payload = Int(bytes[4]) << 8 | Int(bytes[5])
            return payload + 40 == bytes.count ? 6 : nil
        default:
            return nil
        }
    }

    /// The time at the start of a tcpdump packet line when it names a moment: `-tt`'s seconds
    /// since the epoch (`1763704905.551769`) or `-tttt`'s local date and time
    /// (`2026-11-21 06:01:45.551769`). Nil for the default time of day, which has no date (and
    /// looks like `-ttt`'s and `-ttttt`'s intervals).
    /// The digits of a second in a tcpdump packet line's time (`06:01:45.551769` gives 6).
    static func tcpdumpTimeDigits(_ header: String) -> Int? {
        let words = header.split(separator: " ", maxSplits: 2)
        // -tttt puts the date first: the time is the second word.
        for word in words.prefix(2) {
            guard let dot = word.lastIndex(of: ".") else { continue }
            let digits = word[word.index(after: dot)...]
            if !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }) { return digits.count }
        }
        return nil
    }

    static func tcpdumpTime(_ header: String) -> CaptureTime? {
        let words = header.split(separator: " ", maxSplits: 2)
        guard let first = words.first else { return nil }
        func fraction(_ digits: Substring) -> Int? {
            guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(digits) else { return nil }
            var nanoseconds = value
            for _ in digits.count..<9 { nanoseconds *= 10 }
            return nanoseconds
        }
        let parts = first.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count == 2, parts[0].count <= 12, parts[0].allSatisfy({ $0.isASCII && $0.isNumber }),
           let seconds = Int(parts[0]), let nanoseconds = fraction(parts[1]) {
            return CaptureTime(seconds: seconds, nanoseconds: nanoseconds)
        }
        guard words.count >= 2 else { return nil }
        let date = first.split(separator: "-", omittingEmptySubsequences: false)
        let time = words[1].split(separator: ":", omittingEmptySubsequences: false)
        guard date.count == 3, time.count == 3 else { return nil }
        let secondParts = time[2].split(separator: ".", omittingEmptySubsequences: false)
        guard secondParts.count == 2, let nanoseconds = fraction(secondParts[1]) else { return nil }
        let numbers = [date[0], date[1], date[2], time[0], time[1], secondParts[0]].map { part -> Int? in
            part.count <= 4 && part.allSatisfy({ $0.isASCII && $0.isNumber }) ? Int(part) : nil
        }
        guard numbers.allSatisfy({ $0 != nil }) else { return nil }
        var components = DateComponents()
        components.year = numbers[0]
        components.month = numbers[1]
        components.day = numbers[2]
        components.hour = numbers[3]
        components.minute = numbers[4]
        components.second = numbers[5]
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone.current
        guard let moment = calendar.date(from: components) else { return nil }
        let seconds = moment.timeIntervalSince1970.rounded()
        guard seconds.isFinite, abs(seconds) < 1e15 else { return nil }
        return CaptureTime(seconds: Int(seconds), nanoseconds: nanoseconds)
    }

    private func readFrames() throws -> [HexFrame] {
        if let file {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw ValidationError("cannot read '\(file)'")
            }
            return [HexFrame(bytes: [UInt8](data), header: nil)]
        }
        let text: String
        if hex.isEmpty {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            text = String(decoding: data, as: UTF8.self)
        } else {
            text = hex.joined(separator: " ")
        }
        do {
            return try HexInput.frames(text)
        } catch {
            throw ValidationError(error.description)
        }
    }
}
