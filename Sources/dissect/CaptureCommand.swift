import ArgumentParser
import BinarySchema
import Dissector
import Foundation
import PacketCapture

struct CaptureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capture",
        abstract: "Dissect packets from a pcap/pcapng file or a live interface (the default command).",
        discussion: """
            The capture's link type picks the first schema struct (@linktype in the schemas: \
            Ethernet, Linux cooked SLL/SLL2, raw IP, BSD loopback…); a link type no schema \
            claims is shown as raw bytes, with a note. Frames stream: each is printed as soon as \
            it is dissected and nothing is kept after, so memory stays flat however large the \
            capture. A damaged file: every packet before the damage is shown, then the error \
            (exit status 1).

            Each frame starts with its number, capture time (UTC) and captured/original length.

            Examples:
              dissect -r capture.pcapng                      every frame, a row per field
              dissect -r capture.pcap -f hex 'tcp port 443'  annotated hex dump of TLS traffic
              tcpdump -w - | dissect -r - -f summary         from standard input
              dissect -i eth0 -c 10 -f tree udp              ten UDP packets, live
              dissect -i any --duration 30 -w out.pcap       capture 30 s to a file
              dissect -r big.pcap -q                         dissect all, print only totals
              dissect -D                                     interfaces you can capture on
            """
    )

    @Option(name: .customShort("r"), help: ArgumentHelp("Read packets from a pcap or pcapng file ('-' for standard input).", valueName: "file"))
    var readFile: String?

    @Option(name: .customShort("i"), help: ArgumentHelp("Capture live on this interface ('any' for all; see -D).", valueName: "interface"))
    var interface: String?

    @Option(name: .customShort("c"), help: ArgumentHelp("Stop after this many packets (counted after the filter).", valueName: "count"))
    var count: Int?

    @Option(help: ArgumentHelp("Stop after this many seconds.", valueName: "seconds"))
    var duration: Double?

    @Option(name: .customShort("w"), help: ArgumentHelp("Write the packets (after the filter) to this pcap file ('-' for standard output). Nothing is printed unless --print is given.", valueName: "file"))
    var writeFile: String?

    @Flag(help: "With -w, also print each packet.")
    var print = false

    @Flag(name: [.customShort("q"), .long], help: "Dissect every packet but print only the totals: packets, bytes, packets with errors.")
    var quiet = false

    @Option(name: .customShort("s"), help: ArgumentHelp("Live: bytes kept of each packet (default 262144: all).", valueName: "snaplen"))
    var snapshotLength: Int32 = 262_144

    @Flag(name: .customShort("p"), help: "Live: do not put the interface into promiscuous mode.")
    var noPromiscuous = false

    @Flag(help: "Live: let the kernel batch packets (higher throughput, later output) instead of delivering each at once.")
    var buffered = false

    @Flag(name: .customShort("n"), help: "Accepted for tcpdump habits: dissect never resolves addresses or ports.")
    var noResolve = false

    @Flag(name: [.customShort("D"), .customLong("list-interfaces")], help: "List the interfaces libpcap can capture on, then exit.")
    var listInterfaces = false

    @OptionGroup var schemas: SchemaOptions
    @OptionGroup var view: ViewOptions

    @Argument(help: ArgumentHelp("A BPF filter, as for tcpdump (e.g. tcp port 80 and host 10.0.0.1).", valueName: "filter"))
    var filter: [String] = []

    func validate() throws {
        if listInterfaces { return }
        // `dissect` alone: teach rather than complain.
        if CommandLine.arguments.count == 1 { throw CleanExit.helpRequest(Dissect.self) }
        switch (readFile, interface) {
        case (nil, nil): throw ValidationError("give -r FILE to read a capture or -i INTERFACE to capture live (-D lists interfaces)")
        case (.some, .some): throw ValidationError("-r and -i cannot be used together")
        default: break
        }
        if let count, count <= 0 { throw ValidationError("-c needs a positive count") }
        if let duration, !(duration > 0) { throw ValidationError("--duration needs a positive number of seconds") }
        if snapshotLength <= 0 { throw ValidationError("-s needs a positive snapshot length") }
        if quiet && print { throw ValidationError("--quiet and --print cannot be used together") }
    }

    func run() throws {
        if listInterfaces {
            try listTheInterfaces()
            return
        }
        let capture = try openCapture()
        if !filter.isEmpty { try capture.setFilter(filter.joined(separator: " ")) }
        let writer = try writeFile.map { path throws(PcapError) in try CaptureWriter(path: path, for: capture) }
        let output = try makeOutput(for: capture, writing: writer != nil)
        capture.stopOnInterrupt()

        let live = interface != nil
        let deadline = duration.map { Date(timeIntervalSinceNow: $0) }
        var seen = 0
        var failure: PcapError?
        loop: while count.map({ seen < $0 }) ?? true {
            if let deadline, Date() >= deadline { break }
            let next: Capture.Next
            do {
                next = try capture.next()
            } catch {
                failure = error
                break
            }
            switch next {
            case .end: break loop
            case .timeout: continue
            case .packet(let packet):
                seen += 1
                writer?.write(packet)
                output?.show(packet, number: seen, flush: live)
                if live { writer?.flush() }
            }
        }
        output?.finish()
        if quiet, let output { printError(output.totals) }
        if live { reportStatistics(of: capture, seen: seen) }
        if let failure {
            printError("Error: \(failure.description) (after \(seen) packet\(seen == 1 ? "" : "s"))")
            throw ExitCode(1)
        }
    }

    private func openCapture() throws -> Capture {
        if let readFile { return try Capture.open(file: readFile) }
        var options = Capture.LiveOptions()
        options.snapshotLength = snapshotLength
        options.promiscuous = !noPromiscuous
        options.immediate = !buffered
        return try Capture.open(interface: interface ?? "any", options: options)
    }

    /// What shows each packet: nothing with -w (unless --print), the totals with -q, else the view.
    private func makeOutput(for capture: Capture, writing: Bool) throws -> PacketPrinter? {
        if writing && !print { return nil }
        let schema = try schemas.load()
        var root = schema.rootStruct(forLinkType: capture.linkType)
        if root == nil {
            printError("note: no schema claims link type \(capture.linkType) (\(capture.linkTypeName)); frames are shown as raw bytes")
            root = schema.structType(named: "Unrecognized")
        }
        guard let root else {
            throw ValidationError("no schema claims link type \(capture.linkType) (\(capture.linkTypeName)), and the bundled 'Unrecognized' struct is not loaded")
        }
        return PacketPrinter(schema: schema, root: root, view: quiet ? nil : view.format, options: view.renderOptions)
    }

    private func listTheInterfaces() throws {
        for (position, device) in try Capture.interfaces().enumerated() {
            var line = "\(position + 1). \(device.name)"
            var notes: [String] = []
            if let description = device.description { notes.append(description) }
            if device.isLoopback { notes.append("loopback") }
            notes.append(device.isUp ? "up" : "down")
            line += " (\(notes.joined(separator: ", ")))"
            Swift.print(line)
        }
    }

    private func reportStatistics(of capture: Capture, seen: Int) {
        var lines = ["\(seen) packet\(seen == 1 ? "" : "s") captured"]
        if let statistics = capture.statistics() {
            lines.append("\(statistics.received) packets received by filter")
            lines.append("\(statistics.dropped) packets dropped by kernel")
            if statistics.droppedByInterface > 0 {
                lines.append("\(statistics.droppedByInterface) packets dropped by interface")
            }
        }
        printError(lines.joined(separator: "\n"))
    }
}

/// Dissects each packet and streams its view to standard output through one reused buffer.
final class PacketPrinter {
    private var interpreter: Interpreter
    private let root: StructType
    private let view: View?
    private let options: RenderOptions
    private var sink = TextSink(capacity: 1 << 17)
    private var frames = 0
    private var bytes = 0
    private var framesWithErrors = 0

    /// `view` nil dissects without printing (for -q).
    init(schema: Schema, root: StructType, view: View?, options: RenderOptions) {
        interpreter = Interpreter(schema: schema)
        self.root = root
        self.view = view
        self.options = options
    }

    func show(_ packet: CapturedPacket, number: Int, flush: Bool) {
        let dissection = interpreter.dissect(packet.bytes, root: root)
        frames += 1
        bytes += packet.bytes.count
        if dissection.error != nil { framesWithErrors += 1 }
        guard let view else { return }
        let frame = FrameInfo(number: number, time: CaptureTime(seconds: packet.seconds, nanoseconds: packet.nanoseconds),
                              originalLength: packet.originalLength)
        view.render(dissection, frame: frame, options: options, into: &sink)
        sink.newline()
        // Frames with several lines each are separated by a blank line, as tshark -V does.
        if view != .summary && view != .json { sink.newline() }
        if flush || sink.count >= 1 << 16 { writeOut() }
    }

    func finish() { writeOut() }

    var totals: String {
        "\(frames) packet\(frames == 1 ? "" : "s"), \(bytes) bytes, \(framesWithErrors) with errors"
    }

    private func writeOut() {
        let buffer = sink.bytes
        if var next = buffer.baseAddress {
            var remaining = buffer.count
            while remaining > 0 {
                let written = write(STDOUT_FILENO, next, remaining)
                if written < 0 {
                    if errno == EINTR { continue }
                    break
                }
                next += written
                remaining -= written
            }
        }
        sink.removeAll()
    }
}
