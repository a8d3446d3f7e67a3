import ArgumentParser
import BinaryIO
import BinarySchema
import Dissector
import Foundation
import PacketCapture

/// The capture Ctrl-C (SIGINT) and SIGTERM end, read by their handler. Set once and never
/// cleared: the handler may run on any thread, and a stopper that outlives its loop only
/// ends a capture that has already ended.
nonisolated(unsafe) private var interruptibleCapture: CaptureStopper?

/// Makes Ctrl-C and SIGTERM end the capture `stopper` stops cleanly: the loop sees `.end` and
/// the totals and libpcap's counts are still printed. The handler only sets flags (through
/// ``CaptureStopper/stop()``), which is safe in a signal handler.
private func stopOnInterrupt(_ stopper: CaptureStopper) {
    interruptibleCapture = stopper
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in interruptibleCapture?.stop() }
    sigemptyset(&action.sa_mask)
    sigaction(SIGINT, &action, nil)
    sigaction(SIGTERM, &action, nil)
    // A parent may have started us with them blocked (a test runner, a supervisor's worker
    // thread): unblocked, they reach the handler.
    var handled = sigset_t()
    sigemptyset(&handled)
    sigaddset(&handled, SIGINT)
    sigaddset(&handled, SIGTERM)
    pthread_sigmask(SIG_UNBLOCK, &handled, nil)
}

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
            (exit status 1). A record claiming more captured bytes than the packet's original \
            length is dissected with a warning on standard error. Output that cannot be written \
            (a full disk) is an error, exit status 1.

            A packet the snapshot length cut short (-s, tcpdump -s) is dissected over the bytes \
            captured: where a field runs past them the frame is marked [|tcp], as tcpdump does, \
            and counted as cut, not as an error.

            Each frame is shown a line at a time by default (-f for another view, -v for the \
            tree, -x for the hex dump). It starts with its number (its place in the file, \
            whatever the filter passes over, as in tshark) and its capture time: local time \
            (TZ; --utc for UTC) to the digits the file records, or as tcpdump's -t flags say.

            Short options may be written as getopt reads them: -c10, -s0, -ilo, -nnr FILE.

            TCP streams whose protocol declares its PDUs' framing (@pdu: TLS, HTTP/1.x, DNS, BGP, \
            MQTT) and IP fragments are reassembled: a PDU or datagram is shown under the frame that \
            completes it, with the frames and offsets its bytes came from; an incomplete one (a \
            segment never captured) is marked so, never filled in. --no-tcp-reassembly and \
            --no-defragment turn them off.

            Examples:
              dissect -r capture.pcapng                      a line per packet, as tcpdump
              dissect -r capture.pcap -X 'tcp port 443'      annotated hex dump of TLS traffic
              tcpdump -U -w - | dissect -r -                 from standard input, as it comes
              dissect -i eth0 -c 10 -v udp                   ten UDP packets, live, as trees
              dissect -r capture.pcap -tttt -e               dates, times and link layers
              dissect -i any --duration 30 -w out.pcap       capture 30 s to a file
              dissect -r big.pcap -q                         dissect all, print only totals
              dissect -D                                     interfaces you can capture on
            """
    )

    @Option(name: .customShort("r"), parsing: .unconditional, help: ArgumentHelp("Read packets from a pcap or pcapng file ('-' for standard input).", valueName: "file"))
    var readFile: String?

    @Option(name: .customShort("i"), parsing: .unconditional, help: ArgumentHelp("Capture live on this interface ('any' for all; see -D).", valueName: "interface"))
    var interface: String?

    @Option(name: .customShort("c"), parsing: .unconditional,
            help: ArgumentHelp("Stop after this many packets (counted after the filter).", valueName: "count"))
    var count: Int?

    @Option(help: ArgumentHelp("Stop after this many seconds.", valueName: "seconds"))
    var duration: Double?

    @Option(name: .customShort("w"), parsing: .unconditional, help: ArgumentHelp("Write the packets (after the filter) to this pcap file ('-' for standard output). Nothing is printed unless --print is given.", valueName: "file"))
    var writeFile: String?

    @Flag(help: "With -w, also print each packet.")
    var print = false

    @Flag(name: [.customShort("q"), .long], help: "Dissect every packet but print only the totals, on standard output: packets, bytes, packets with errors, packets the snapshot length cut short (and with -Y, those the display filter passed).")
    var quiet = false

    @Option(name: .customShort("s"), parsing: .unconditional,
            help: ArgumentHelp("Live: bytes kept of each packet (default and 0: 262144, all of any packet).", valueName: "snaplen"))
    var snapshotLengthOption: Int32 = 262_144

    /// -s 0 means the default, as for tcpdump.
    private var snapshotLength: Int32 { snapshotLengthOption == 0 ? 262_144 : snapshotLengthOption }

    @Flag(name: .customShort("p"), help: "Live: do not put the interface into promiscuous mode.")
    var noPromiscuous = false

    @Option(help: ArgumentHelp("Threads dissecting a file's packets (default: one per core, up to 8; at most 64, and no more than there are shares of 256 packets to dissect). The output is the same, in the same order, whatever the number.", valueName: "n"))
    var threads: Int?

    @Flag(help: "Live: let the kernel batch packets (higher throughput, later output) instead of delivering each at once.")
    var buffered = false

    @Flag(help: "Do not reassemble TCP streams: each segment is dissected alone (tshark: -o tcp.desegment_tcp_streams:FALSE).")
    var noTcpReassembly = false

    @Flag(help: "Do not reassemble IP fragments into datagrams (tshark: -o ip.defragment:FALSE).")
    var noDefragment = false

    @Flag(name: .customShort("n"), help: "Accepted for tcpdump habits: dissect never resolves addresses or ports.")
    var noResolve = false

    @Flag(name: .customShort("t"), help: ArgumentHelp(
        "Times as tcpdump: -t none, -tt seconds since 1970, -ttt since the previous packet, -tttt date and time, -ttttt since the first packet (default: time of day, local time)."))
    var timeFlags: Int

    @Flag(help: "Show capture times in UTC rather than local time (TZ).")
    var utc = false

    @Flag(name: .customShort("v"), help: "More detail, as tcpdump's -v: each packet as a tree (-f tree).")
    var verbose: Int

    @Flag(name: .customShort("V"), help: "Each packet as a tree, as tshark's -V (-f tree).")
    var tsharkVerbose = false

    @Flag(name: .customShort("x"), help: "Hex dumps, as tcpdump's -x/-xx: each packet as an annotated hex dump (-f hex).")
    var hexFlags: Int

    @Flag(name: .customShort("X"), help: "Hex and ASCII, as tcpdump's -X/-XX: the annotated hex dump (-f hex) shows both.")
    var hexASCIIFlags: Int

    @Option(name: .customShort("F"), parsing: .unconditional, help: ArgumentHelp("Read the BPF filter from this file (as tcpdump -F); no filter may follow.", valueName: "file"))
    var filterFile: String?

    @Option(name: [.customShort("Y"), .customLong("display-filter")], parsing: .unconditional, help: ArgumentHelp(
        "Show only the packets (and reassembled units) this display filter passes, in Wireshark's language: "
            + "'tcp.port == 443 and not ip.src == 10.0.0.0/8', 'dns.qry.name contains \"corp\"', 'tcp.flags.syn == 1', "
            + "'udp.dstport in {53 5353}'. Names are the fields' filter names (dissect schema list --fields). "
            + "Frames keep their numbers in the file; -c counts packets read.",
        valueName: "filter"))
    var displayFilterText: String?

    @Option(name: .customShort("T"), parsing: .unconditional, help: ArgumentHelp(
        "tshark's output format: 'fields' prints, one line per packet, the fields named by -e (-T fields -e ip.src -e dns.qry.name), "
            + "as tshark does; with -T, -e names a field (without it, -e is tcpdump's link-layer flag). Other formats are views: -f json, -f tree.",
        valueName: "fields"))
    var outputFormat: String?

    @Option(name: .customLong("field"), parsing: .unconditionalSingleValue, help: ArgumentHelp(
        "With -T fields: a field to print, by its filter name (dissect schema list --fields); repeat for more columns. Written -e after -T.",
        valueName: "name"))
    var fieldNames: [String] = []

    @Option(name: .customShort("E"), parsing: .unconditionalSingleValue, help: ArgumentHelp(
        "With -T fields, tshark's column options: header=y, separator=/t|/s|C, quote=d|s|n, occurrence=f|l|a, aggregator=/t|/s|C.",
        valueName: "key=value"))
    var fieldOptions: [String] = []

    @Flag(name: .customShort("l"), help: "Show each packet as soon as it is read, even from a file (tcpdump: line-buffered output).")
    var lineBuffered = false

    @Flag(name: .customShort("U"), help: "With -w, write each packet to the file as soon as it is read (tcpdump: packet-buffered).")
    var packetBuffered = false

    @Option(name: .customShort("Q"), help: ArgumentHelp("Live: capture only packets received (in), sent (out), or both (inout).", valueName: "in|out|inout"))
    var direction: Capture.LiveOptions.Direction?

    @Option(name: .customShort("B"), help: ArgumentHelp("Live: the kernel's capture buffer, in KiB (tcpdump -B).", valueName: "KiB"))
    var bufferKiB: Int32?

    @Option(name: .customShort("y"), help: ArgumentHelp("Live: capture with this link type (a name from -L such as EN10MB, or a number).", valueName: "type"))
    var linkTypeName: String?

    @Flag(name: .customShort("L"), help: "List the link types the interface (-i) can capture with, then exit.")
    var listLinkTypes = false

    @Flag(name: .customShort("S"), help: "Accepted for tcpdump habits: sequence numbers are always absolute.")
    var absoluteSequence = false

    @Flag(name: [.customShort("D"), .customLong("list-interfaces")], help: "List the interfaces libpcap can capture on, then exit.")
    var listInterfaces = false

    @OptionGroup var schemas: SchemaOptions
    @OptionGroup var view: ViewOptions
    @OptionGroup var checksums: ChecksumOptions

    @Argument(help: ArgumentHelp("A BPF filter, as for tcpdump (e.g. tcp port 80 and host 10.0.0.1).", valueName: "filter"))
    var filter: [String] = []

    func validate() throws {
        if listInterfaces { return }
        if listLinkTypes {
            guard interface != nil else { throw ValidationError("-L lists an interface's link types: give -i INTERFACE") }
            return
        }
        // `dissect` alone: teach rather than complain.
        if CommandLine.arguments.count == 1 { throw CleanExit.helpRequest(Dissect.self) }
        switch (readFile, interface) {
        case (nil, nil): throw ValidationError("give -r FILE to read a capture or -i INTERFACE to capture live (-D lists interfaces)")
        case (.some, .some): throw ValidationError("-r and -i cannot be used together")
        default: break
        }
        if let count, count <= 0 { throw ValidationError("-c needs a positive count (got \(count))") }
        if let duration, !(duration > 0) { throw ValidationError("--duration needs a positive number of seconds") }
        if let threads, threads <= 0 { throw ValidationError("--threads needs a positive number") }
        if snapshotLengthOption < 0 { throw ValidationError("-s needs a snapshot length of 0 (all) or more bytes (got \(snapshotLengthOption))") }
        if timeFlags > 5 { throw ValidationError("-t is given at most five times (-ttttt: time since the first packet)") }
        if filterFile != nil && !filter.isEmpty {
            throw ValidationError("-F reads the filter from a file: give no filter words as well ('\(filter.joined(separator: " "))')")
        }
        if let linkTypeName, Capture.linkType(named: linkTypeName) == nil {
            throw ValidationError("-y '\(linkTypeName)': no such link type (-L lists an interface's)")
        }
        if let bufferKiB, bufferKiB <= 0 || bufferKiB > Int32.max / 1024 {
            throw ValidationError("-B needs a buffer size in KiB between 1 and \(Int32.max / 1024)")
        }
        if readFile != nil {
            for (given, flag) in [(direction != nil, "-Q"), (bufferKiB != nil, "-B"), (linkTypeName != nil, "-y")] where given {
                throw ValidationError("\(flag) applies to a live capture (-i), not to a file")
            }
        }
        let views = [view.formatChoice != nil, verbose > 0 || tsharkVerbose, hexFlags + hexASCIIFlags > 0].filter { $0 }.count
        if views > 1 { throw ValidationError("choose one view: -f VIEW, -v or -V (tree), or -x/-X (hex)") }
        if quiet && print { throw ValidationError("--quiet and --print cannot be used together") }
        if let outputFormat {
            guard outputFormat == "fields" else {
                let pointer = ["json": "-f json", "pdml": "-f json", "ek": "-f json", "text": "-f summary", "tabs": "-f summary", "ps": "-f tree"]
                throw ValidationError("-T '\(outputFormat)': dissect's -T prints fields (-T fields -e NAME ...)"
                    + (pointer[outputFormat].map { "; for this output use \($0)" } ?? "; the views are chosen with -f"))
            }
            guard !fieldNames.isEmpty else { throw ValidationError("-T fields needs at least one -e NAME (dissect schema list --fields lists the names)") }
            if view.formatChoice != nil || verbose > 0 || tsharkVerbose || hexFlags + hexASCIIFlags > 0 {
                throw ValidationError("-T fields prints fields: choose it or a view (-f, -v, -V, -x), not both")
            }
            if quiet { throw ValidationError("-T fields prints fields, and -q prints only totals: choose one") }
        } else if !fieldNames.isEmpty || !fieldOptions.isEmpty {
            throw ValidationError("-E and a field to print (--field) go with -T fields")
        }
        if displayFilterText != nil, writeFile != nil {
            throw ValidationError("-Y with -w is not supported yet: -w writes every packet the capture filter passes; "
                + "filter with a BPF capture filter, or write first and read the file with -Y")
        }
    }

    /// `-T fields`: the fields to print, checked against `schema`.
    private func fieldExtractor(for schema: Schema) throws -> FieldExtractor? {
        guard outputFormat == "fields" else { return nil }
        var format = FieldExtractor.Format()
        do {
            for option in fieldOptions { try format.apply(option) }
            return try FieldExtractor(fields: fieldNames, schema: schema, format: format)
        } catch {
            throw ValidationError("-T fields: \(error.message)")
        }
    }

    /// `-Y`'s filter, compiled against `schema`; a filter that does not compile is a usage error.
    private func displayFilter(for schema: Schema) throws -> DisplayFilter? {
        guard let displayFilterText else { return nil }
        do {
            return try DisplayFilter(displayFilterText, schema: schema)
        } catch {
            let pointer = String(repeating: " ", count: max(0, error.column - 1)) + "^"
            throw ValidationError("-Y: \(error.message)\n  \(displayFilterText)\n  \(pointer)")
        }
    }

    func run() throws {
        if listInterfaces {
            try listTheInterfaces()
            return
        }
        if listLinkTypes, let interface {
            try listTheLinkTypes(of: interface)
            return
        }
        let capture = try openCapture()
        if let expression = try filterExpression() { try capture.setFilter(expression) }
        let writer = try writeFile.map { path throws(PcapError) in try CaptureWriter(path: path, for: capture) }
        let output = try makeOutput(for: capture, writing: writer != nil)
        // The HTML view is one page: its head before the first packet, its tail after the last.
        let page = output != nil && !quiet && shownView == .html && outputFormat == nil
        if page { try StandardStream.output.write(HTMLPage.head(title: readFile ?? interface ?? "capture")) }
        if outputFormat == "fields", output != nil {
            var format = FieldExtractor.Format()
            for option in fieldOptions { try? format.apply(option) }
            if format.header { try StandardStream.output.writeLine(FieldExtractor.headerLine(names: fieldNames, format: format)) }
        }
        stopOnInterrupt(capture.stopper)
        if capture.isLive {
            // As tcpdump, on standard error: what is being captured, before the first packet.
            // Printed once the schemas are loaded and Ctrl-C ends the capture cleanly, so a
            // script that waits for this line knows every packet after it is shown.
            printError("listening on \(capture.source), link-type \(capture.linkTypeName) (\(capture.linkTypeDescription)), "
                + "snapshot length \(capture.snapshotLength) bytes")
        }

        let live = interface != nil
        let deadline = duration.map { Date(timeIntervalSinceNow: $0) }
        // A file's packets are dissected in shares, on several threads; live ones one at a
        // time, as they arrive; a pipe's in shares cut whenever its writer has nothing more yet.
        let shareSize = live || lineBuffered ? 1 : PacketPrinter.packetsPerShare
        let stream = capture.isStream
        var share = PacketShare(packets: shareSize, bytes: 0)
        var seen = 0
        var firstTime: CaptureTime?
        var failure: PcapError?
        var writeFailure: PcapError?
        // Without a printer (-w alone) the reading loop notes invalid lengths itself.
        var lengthNotes = InvalidLengthNotes()
        loop: while count.map({ seen < $0 }) ?? true {
            if let deadline, Date() >= deadline { break }
            if stream, share.count > 0, let output, !capture.inputIsWaiting() {
                output.show(share)
                if output.writeError != nil { break loop }
                share = PacketShare(packets: shareSize, bytes: share.byteCount, after: share)
            }
            let next: Capture.BorrowedNext
            do {
                next = try capture.nextBorrowed()
            } catch {
                failure = error
                break
            }
            switch next {
            case .end: break loop
            case .timeout: continue
            case .packet(let packet):
                seen += 1
                if let writer {
                    writer.write(packet)
                    // A file is flushed once a share, which stops a failing write (a full disk)
                    // early without a system call per packet.
                    if live || stream || packetBuffered || seen % PacketPrinter.packetsPerShare == 0 {
                        do {
                            try writer.flush()
                        } catch {
                            writeFailure = error
                            break loop
                        }
                    }
                }
                guard let output else {
                    if packet.bytes.count > packet.originalLength {
                        lengthNotes.note(packet: packet.position, captured: packet.bytes.count, original: packet.originalLength)
                    }
                    continue
                }
                if firstTime == nil {
                    firstTime = CaptureTime(seconds: packet.seconds, nanoseconds: packet.nanoseconds)
                    share.firstTime = firstTime
                }
                share.append(packet)
                if share.count >= shareSize || share.byteCount >= PacketPrinter.bytesPerShare {
                    output.show(share)
                    if output.writeError != nil { break loop }
                    // The printer keeps that share until it is dissected: the next one is new,
                    // sized like the last.
                    share = PacketShare(packets: shareSize, bytes: share.byteCount, after: share)
                }
            }
        }
        if output?.writeError == nil { output?.show(share) }
        output?.finish()
        if page, output?.writeError == nil { try StandardStream.output.write(HTMLPage.tail) }
        lengthNotes.finish()
        if writeFailure == nil {
            do {
                try writer?.flush()
            } catch {
                writeFailure = error
            }
        }
        if let error = output?.writeError { throw error }
        if let writeFailure { throw writeFailure }
        // The totals are the answer -q asks for: standard output, as tshark prints its statistics
        // (standard error is for errors and warnings).
        if quiet, let output { try StandardStream.output.writeLine(output.totals) }
        if live { reportStatistics(of: capture, seen: seen) }
        if let failure {
            printError("Error: \(failure.description) (after \(seen) packet\(seen == 1 ? "" : "s"))")
            throw ExitCode(1)
        }
    }

    private var reassemblyOptions: CaptureReassembler.Options {
        var options = CaptureReassembler.Options()
        // -T fields reads each frame as it is, as tshark does with reassembly off.
        options.tcp = !noTcpReassembly && outputFormat != "fields"
        options.ip = !noDefragment && outputFormat != "fields"
        return options
    }

    /// The view: -f's, else -v's tree or -x's hex dump, else a line per packet.
    private var shownView: View {
        if let choice = view.formatChoice { return choice }
        if verbose > 0 || tsharkVerbose { return .tree }
        if hexFlags + hexASCIIFlags > 0 { return .hex }
        return .summary
    }

    private var timeStyle: TimeStyle {
        switch timeFlags {
        case 0: return .timeOfDay
        case 1: return .none
        case 2: return .epoch
        case 3: return .sincePrevious
        case 4: return .dateAndTime
        default: return .sinceFirst
        }
    }

    /// The filter: -F's file, or the words after the options.
    private func filterExpression() throws -> String? {
        if let filterFile {
            guard let text = try? String(contentsOfFile: filterFile, encoding: .utf8) else {
                throw ValidationError("-F \(filterFile): cannot read the file")
            }
            // tcpdump's filter files may hold comments after '#'.
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            }
            let expression = lines.joined(separator: " ").trimmingCharacters(in: .whitespacesAndNewlines)
            return expression.isEmpty ? nil : expression
        }
        return filter.isEmpty ? nil : filter.joined(separator: " ")
    }

    private func listTheLinkTypes(of interface: String) throws {
        let types = try Capture.linkTypes(of: interface)
        try StandardStream.output.writeLine("Data link types for \(interface) (use option -y to set):")
        for type in types {
            try StandardStream.output.writeLine("  \(type.name) (\(type.description.isEmpty ? "DLT \(type.type)" : type.description))")
        }
    }

    private func openCapture() throws -> Capture {
        if let readFile { return try Capture.open(file: readFile) }
        var options = Capture.LiveOptions()
        options.snapshotLength = snapshotLength
        options.promiscuous = !noPromiscuous
        options.immediate = !buffered
        options.direction = direction
        options.bufferSize = bufferKiB.map { $0 * 1024 }
        options.linkType = linkTypeName.flatMap(Capture.linkType(named:))
        return try Capture.open(interface: interface ?? "any", options: options)
    }

    /// What shows each packet: nothing with -w (unless --print), the totals with -q, else the view.
    private func makeOutput(for capture: Capture, writing: Bool) throws -> PacketPrinter? {
        if writing && !print { return nil }
        var noted = false
        // Each worker loads its own copy of the schemas, so threads share no reference-counted
        // object: retains of one shared schema from two cores contend for its cache line.
        let symbols = quiet ? .unicode : view.symbols(for: shownView)
        var renderOptions = view.renderOptions
        renderOptions.timeStyle = timeStyle
        renderOptions.timeDigits = capture.timestampDigits
        let localTime = !utc
        var reassembly: ReassemblyOutput?
        // Packets from an interface or a pipe are shown as they come, so one at a time.
        let streaming = capture.isLive || capture.isStream || lineBuffered
        let requestedThreads = streaming ? 1 : threads ?? PacketPrinter.defaultThreads
        // One thread: the stage and the one worker run on it, and share one copy of the schemas.
        // With more, the stage (on the reading thread) has its own: its framers evaluate the
        // schemas' programs, and two cores retaining one object contend for its cache line.
        var sharedSchema: Schema?
        var background: BackgroundReassembly?
        if quiet && (reassemblyOptions.tcp || reassemblyOptions.ip) {
            // Nothing the stage finds is shown before the totals, so it runs behind the frames
            // on a thread of its own, with schemas of its own loaded there.
            let schemas = self.schemas, checksums = self.checksums, options = reassemblyOptions
            background = BackgroundReassembly {
                let schema = try schemas.load()
                return ReassemblyStage(schema: schema, options: options,
                                       walk: schemas.walkOptions(checksums: try checksums.selection(for: schema)),
                                       view: nil, renderOptions: RenderOptions())
            }
        } else if reassemblyOptions.tcp || reassemblyOptions.ip {
            let schema = try schemas.load()
            if PacketPrinter.threadCount(requested: requestedThreads) == 1 { sharedSchema = schema }
            let stage = ReassemblyStage(schema: schema, options: reassemblyOptions,
                                        walk: schemas.walkOptions(checksums: try checksums.selection(for: schema)),
                                        view: shownView, renderOptions: renderOptions)
            stage.displayFilter = try displayFilter(for: schema)
            reassembly = ReassemblyOutput(stage: stage, symbols: symbols)
        }
        let reassembling = reassembly != nil || background != nil
        return try PacketPrinter(threads: requestedThreads, quiet: quiet, reassembly: reassembly, background: background) {
            let schema = try sharedSchema ?? schemas.load()
            sharedSchema = nil
            var root = schema.rootStruct(forLinkType: capture.linkType)
            if root == nil {
                if !noted {
                    printError("note: no schema claims link type \(capture.linkType) (\(capture.linkTypeName)); frames are shown as raw bytes")
                    noted = true
                }
                root = schema.structType(named: "Unrecognized")
            }
            guard let root else {
                throw ValidationError("no schema claims link type \(capture.linkType) (\(capture.linkTypeName)), and the bundled 'Unrecognized' struct is not loaded")
            }
            let fields = try fieldExtractor(for: schema)
            return FrameWorker(schema: schema, root: root, linkType: capture.linkType, view: quiet || fields != nil ? nil : shownView,
                               options: renderOptions, localTime: localTime,
                               symbols: symbols, walk: schemas.walkOptions(checksums: try checksums.selection(for: schema)),
                               tapper: reassembling ? ReassemblyStage.tapper(for: schema, options: reassemblyOptions) : nil,
                               displayFilter: try displayFilter(for: schema), fields: fields)
        }
    }

    private func listTheInterfaces() throws {
        for (position, device) in try Capture.interfaces().enumerated() {
            var line = "\(position + 1). \(device.name)"
            var notes: [String] = []
            if let description = device.description { notes.append(description) }
            if device.isLoopback { notes.append("loopback") }
            notes.append(device.isUp ? "up" : "down")
            line += " (\(notes.joined(separator: ", ")))"
            try StandardStream.output.writeLine(line)
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

/// Dissects packets and streams their view to standard output. Packets come in shares of a few
/// hundred; with several threads each share is dissected in the background into the buffer of
/// one of a ring of workers, and the buffers are written in the order the shares came, so the
/// output is the same whatever the number of threads. A worker's buffer is written when its
/// turn in the ring comes round again (or at ``finish()``).
final class PacketPrinter {
    /// Packets in one share: enough that handing out work costs nothing next to dissecting it,
    /// few enough that the buffers stay small.
    static let packetsPerShare = 256
    /// A share is cut early past this many captured bytes, which bounds memory for large packets.
    static let bytesPerShare = 1 << 18
    /// One thread per core, up to 8.
    static var defaultThreads: Int { max(1, min(8, ProcessInfo.processInfo.activeProcessorCount)) }
    /// A bound on what a large `--threads` costs: each worker loads its own schemas (about
    /// 0.2 MB and some milliseconds), and two cores or sixty-four give the same output.
    static let maximumThreads = 64

    /// The threads used when `requested` are asked for: at least one, at most ``maximumThreads``.
    static func threadCount(requested: Int) -> Int { min(max(1, requested), maximumThreads) }

    /// Made as shares need them, up to `ringSize`: a short file needs one, whatever the threads.
    private var workers: [FrameWorker] = []
    private let makeWorker: () throws -> FrameWorker
    private let ringSize: Int
    /// Per worker: the share it is dissecting, until its output is written.
    private var inFlight: [DispatchGroup?]
    /// Shares dissecting right now, at most `threads` (the ring holds twice as many workers).
    private let running: DispatchSemaphore
    private var nextWorker = 0
    private var lengthNotes = InvalidLengthNotes()
    /// Reassembly, in capture order as shares are written out (nil when off).
    private let reassembly: ReassemblyOutput?
    /// Reassembly behind the frames, for -q (nil when off or inline).
    private let background: BackgroundReassembly?
    let threads: Int
    /// Why standard output could not be written; after it, nothing more is written.
    private(set) var writeError: OutputError?

    /// `makeWorker` makes each worker (a view of nil dissects without printing, for -q); the
    /// first at once, so schemas that fail to load fail before any packet is read.
    /// `quiet`: nothing is written but the totals (-q).
    init(threads: Int, quiet: Bool = false, reassembly: ReassemblyOutput? = nil, background: BackgroundReassembly? = nil,
         makeWorker: @escaping () throws -> FrameWorker) throws {
        self.reassembly = reassembly
        self.background = background
        self.threads = Self.threadCount(requested: threads)
        // Two workers per thread: one share can be written out while the next is dissected. With
        // nothing to write, one spare is enough, and each worker fewer is a load of the schemas
        // fewer (about 15 ms of CPU).
        ringSize = self.threads == 1 ? 1 : quiet ? self.threads + 1 : 2 * self.threads
        self.makeWorker = makeWorker
        inFlight = Array(repeating: nil, count: ringSize)
        running = DispatchSemaphore(value: self.threads)
        workers.append(try makeWorker())
    }

    /// Dissects and prints `packets`. With one thread, before returning; with more, in the
    /// background. A worker that cannot be made (its schemas no longer load) leaves the share
    /// to the workers there are.
    func show(_ packets: PacketShare) {
        guard packets.count > 0 else { return }
        guard threads > 1 else {
            workers[0].show(packets)
            writeOut(0)
            return
        }
        var index = nextWorker
        if index == workers.count {
            let made: FrameWorker?
            if let pending {
                pending.group.wait()
                made = pending.worker
                self.pending = nil
            } else {
                made = try? makeWorker()
            }
            if let made {
                workers.append(made)
            } else {
                index = 0
            }
        }
        nextWorker = (index + 1) % ringSize
        // The worker's previous share is the oldest in flight: its output goes next.
        drain(index)
        let worker = workers[index]
        let group = DispatchGroup()
        let running = self.running
        running.wait()
        DispatchQueue.global().async(group: group) {
            worker.show(packets)
            running.signal()
        }
        inFlight[index] = group
        // The ring's next worker is made while this share is dissected: its schemas take about
        // 15 ms to load, which the reading thread would spend not reading, and a core idle. Only
        // once shares come full: a short file needs no more workers.
        if index == workers.count - 1, workers.count < ringSize, pending == nil, packets.count >= Self.packetsPerShare {
            let next = PendingWorker(make: makeWorker)
            DispatchQueue.global().async(group: next.group) { next.make() }
            pending = next
        }
    }

    /// A worker being made on another thread. One at a time, and only the reading thread asks for
    /// it, after waiting for `group`: the maker's captured state is never touched by two threads.
    private final class PendingWorker: @unchecked Sendable {
        let group = DispatchGroup()
        private let maker: () throws -> FrameWorker
        private(set) var worker: FrameWorker?

        init(make: @escaping () throws -> FrameWorker) {
            maker = make
        }

        func make() {
            worker = try? maker()
        }
    }

    /// The ring's next worker, while it is made (nil: none is).
    private var pending: PendingWorker?

    /// Waits for every share in flight and writes their output, oldest first.
    func finish() {
        pending?.group.wait()
        for step in 0..<ringSize {
            let index = (nextWorker + step) % ringSize
            if index < workers.count { drain(index) }
        }
        if let reassembly, writeError == nil {
            do {
                try reassembly.finish()
            } catch {
                writeError = error
            }
        }
        backgroundTotals = background?.finish()
        lengthNotes.finish()
    }

    /// The background stage's totals, once ``finish()`` waited for it.
    private var backgroundTotals: String?

    private func drain(_ index: Int) {
        guard let group = inFlight[index] else { return }
        group.wait()
        writeOut(index)
        inFlight[index] = nil
    }

    private func writeOut(_ index: Int) {
        guard writeError == nil else {
            workers[index].discardOutput()
            return
        }
        if let background {
            let (taps, share) = workers[index].takeTaps()
            if let share { background.reassemble(taps, in: share) }
        }
        do {
            try workers[index].writeOut(notingLengthsIn: &lengthNotes, stage: reassembly)
        } catch {
            writeError = error
        }
    }

    var totals: String {
        let frames = workers.reduce(0) { $0 + $1.frames }
        let bytes = workers.reduce(0) { $0 + $1.bytes }
        let framesWithErrors = workers.reduce(0) { $0 + $1.framesWithErrors }
        let framesCut = workers.reduce(0) { $0 + $1.framesCut }
        let framesWithBadChecksums = workers.reduce(0) { $0 + $1.framesWithBadChecksums }
        // Said only when there are some: the checksums verified depend on --checksums.
        let checksums = framesWithBadChecksums > 0 ? ", \(framesWithBadChecksums) with bad checksums" : ""
        let passed = workers.first?.filters == true ? ", \(workers.reduce(0) { $0 + $1.framesPassed }) passed the display filter" : ""
        let reassembled = (reassembly?.stage.totals ?? backgroundTotals).map { "; " + $0 } ?? ""
        return "\(frames) packet\(frames == 1 ? "" : "s"), \(bytes) bytes, \(framesWithErrors) with errors, "
            + "\(framesCut) cut by the snapshot length\(checksums)\(passed)\(reassembled)"
    }
}

/// The reassembly stage on a serial queue of its own, for `-q`: it shows nothing but its totals,
/// so it can run behind the frames, on another core. It takes the taps in capture order, as the
/// printer writes shares out; a few shares may wait for it, no more, so memory stays bounded.
final class BackgroundReassembly: @unchecked Sendable {
    private let queue = DispatchQueue(label: "dissect.reassembly")
    private let waiting = DispatchSemaphore(value: 4)
    /// Touched only on `queue`, and by ``finish()`` after the queue is drained.
    private var stage: ReassemblyStage?
    private var failure: String?

    /// `makeStage` runs on the stage's queue, so loading its schemas overlaps the first frames.
    init(makeStage: @escaping @Sendable () throws -> ReassemblyStage) {
        queue.async { [self] in
            do {
                stage = try makeStage()
            } catch {
                failure = "\(error)"
            }
        }
    }

    /// Taps not yet queued, with the shares whose bytes they point into.
    private var batch: [(taps: [FrameWorker.TapMark], share: PacketShare)] = []
    /// Shares batched before the queue is woken: a wake-up per share costs more than its taps.
    private static let sharesPerBatch = 16

    /// Takes one share's taps, in capture order.
    func reassemble(_ taps: [FrameWorker.TapMark], in share: PacketShare) {
        guard !taps.isEmpty else { return }
        batch.append((taps, share))
        if batch.count >= Self.sharesPerBatch { flush() }
    }

    private func flush() {
        guard !batch.isEmpty else { return }
        let work = batch
        batch = []
        waiting.wait()
        queue.async { [self] in
            defer { waiting.signal() }
            guard let stage else { return }
            for (taps, share) in work {
                for mark in taps {
                    stage.process(mark.tap, frame: mark.frame, frameBytes: share.bytes[mark.range])
                    stage.output.removeAll()
                }
            }
        }
    }

    /// Waits for the queued taps, ends the streams, and gives the totals.
    func finish() -> String? {
        flush()
        return queue.sync {
            guard let stage else { return failure.map { "reassembly off: \($0)" } }
            stage.finish()
            return stage.totals
        }
    }
}

/// The reassembly stage of a capture's output: units written to standard output as they complete.
final class ReassemblyOutput {
    let stage: ReassemblyStage
    private let symbols: SymbolSet
    private var asciiOutput: [UInt8] = []

    init(stage: ReassemblyStage, symbols: SymbolSet) {
        self.stage = stage
        self.symbols = symbols
    }

    /// Takes one frame's segment or fragment, and writes the units it completed.
    func reassemble(_ tap: TransportTap, frame: Int, frameBytes: ArraySlice<UInt8>, frameShown: Bool = true) throws(OutputError) {
        stage.process(tap, frame: frame, frameBytes: frameBytes, frameShown: frameShown)
        try writeOut()
    }

    /// The capture ended: writes what the streams still held.
    func finish() throws(OutputError) {
        stage.finish()
        try writeOut()
    }

    private func writeOut() throws(OutputError) {
        guard stage.output.count > 0 else { return }
        defer { stage.output.removeAll() }
        guard symbols == .ascii else {
            try StandardStream.output.write(UnsafeRawBufferPointer(stage.output.bytes))
            return
        }
        asciiOutput.removeAll(keepingCapacity: true)
        SymbolSet.appendASCII(of: stage.output.bytes, to: &asciiOutput)
        var failure: OutputError?
        asciiOutput.withUnsafeBytes { bytes in
            do throws(OutputError) {
                try StandardStream.output.write(bytes)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }
}

/// Warnings for records that captured more bytes than the packet had on the wire: a record header
/// no capturing tool writes (tcpdump prints `[Invalid header: len(64) < caplen(74)]` instead of
/// the packet, tshark marks the frame malformed). The packet is still dissected, with all its
/// captured bytes. The first few are noted one by one on standard error, the rest counted at the end.
struct InvalidLengthNotes {
    static let limit = 10
    private let emit: (String) -> Void
    private(set) var count = 0

    init(emit: @escaping (String) -> Void = printError) {
        self.emit = emit
    }

    mutating func note(packet: Int, captured: Int, original: Int) {
        count += 1
        guard count <= Self.limit else { return }
        emit("warning: packet \(packet): captured length \(captured) is more than the original length \(original) (invalid record header)")
    }

    func finish() {
        let more = count - Self.limit
        guard more > 0 else { return }
        emit("warning: \(more) more packet\(more == 1 ? "" : "s") with a captured length more than the original length")
    }
}

/// An interpreter, a renderer and an output buffer. Used by one thread at a time: the printer
/// hands a worker a share and waits for it before writing its buffer or handing it another.
final class FrameWorker: @unchecked Sendable {
    /// A packet whose record is invalid, and where its output starts in the buffer: its
    /// warning goes to standard error just before it.
    struct LengthNote {
        var outputOffset: Int
        let packet: Int
        let captured: Int
        let original: Int
    }

    /// A frame whose TCP segment or IP fragment goes to reassembly, and where its output ends:
    /// the units it completes are written there.
    struct TapMark {
        var outputOffset: Int
        let frame: Int
        let tap: TransportTap
        /// The frame's bytes in the share.
        let range: Range<Int>
        /// Whether the frame was shown (a display filter may leave it out): its units then follow its line.
        var frameShown = true
    }

    private let leadingPadding = CacheLinePadding()
    // A worker is used by one thread at a time (a share's dissection, then its writing out, in
    // turn), and the frame loop touches these properties for every frame: the run-time
    // exclusivity checks of a class's properties are left out.
    @exclusivity(unchecked) private var interpreter: Interpreter
    private let tapper: TransportTapper?
    /// The local time zone's offsets, for times shown in local time (nil: UTC).
    private let localOffsets: LocalOffsets?
    @exclusivity(unchecked) private var taps: [TapMark] = []
    /// The layers each walk of the share noted, and where each frame's output ends (by its
    /// position in the share), until the share's taps are read.
    @exclusivity(unchecked) private var notedLayers = TransportTapper.NotedLayers()
    @exclusivity(unchecked) private var outputEnds: [Int] = []
    /// The share dissected last, kept while its taps wait to be reassembled.
    private var tappedShare: PacketShare?
    private let root: StructType
    /// The link type `root` is for, and the roots of the other link types of a pcapng file
    /// whose interfaces differ, found as their packets come.
    private let rootLinkType: Int
    private var otherRoots: [Int: StructType] = [:]
    private let schema: Schema
    private let renderer: ViewRenderer?
    /// `-Y`: only the frames it passes are shown.
    @exclusivity(unchecked) private var displayFilter: DisplayFilter?
    /// `-T fields`: each shown frame's line of fields, instead of a view.
    @exclusivity(unchecked) private var fieldExtractor: FieldExtractor?
    /// Per frame of the share, whether it was shown.
    @exclusivity(unchecked) private var shownFrames: [Bool] = []
    private let symbols: SymbolSet
    @exclusivity(unchecked) private var sink = TextSink(capacity: 1 << 17)
    /// The output with ASCII symbols, when the locale wants them.
    @exclusivity(unchecked) private var asciiOutput: [UInt8] = []
    @exclusivity(unchecked) private var lengthNotes: [LengthNote] = []
    @exclusivity(unchecked) private var packetBytes: [UInt8] = []
    @exclusivity(unchecked) private(set) var frames = 0
    @exclusivity(unchecked) private(set) var bytes = 0
    @exclusivity(unchecked) private(set) var framesWithErrors = 0
    /// Frames a field of which ran past the bytes the snapshot length kept (no error otherwise).
    @exclusivity(unchecked) private(set) var framesCut = 0
    @exclusivity(unchecked) private(set) var framesWithBadChecksums = 0
    /// Frames the display filter passed (when there is one).
    @exclusivity(unchecked) private(set) var framesPassed = 0
    /// Whether a display filter is asked of each frame.
    var filters: Bool { displayFilter != nil }
    private let trailingPadding = CacheLinePadding()

    /// `tapper` takes each frame's TCP segment or IP fragment for reassembly (nil: none).
    init(schema: Schema, root: StructType, linkType: Int = -1, view: View?, options: RenderOptions, localTime: Bool = false,
         symbols: SymbolSet = .unicode, walk: Interpreter.Options = Interpreter.Options(), tapper: TransportTapper? = nil,
         displayFilter: DisplayFilter? = nil, fields: FieldExtractor? = nil) {
        self.tapper = tapper
        fieldExtractor = fields
        self.displayFilter = displayFilter
        self.schema = schema
        rootLinkType = linkType
        localOffsets = localTime ? LocalOffsets() : nil
        interpreter = Interpreter(schema: schema, options: walk)
        if let tapper { interpreter.noteStructs(tapper.structIDs) }
        self.root = root
        renderer = view.map { ViewRenderer(view: $0, options: options) }
        self.symbols = symbols
    }

    func show(_ packets: PacketShare) {
        var previousTime = packets.previousTime
        outputEnds.removeAll(keepingCapacity: true)
        shownFrames.removeAll(keepingCapacity: true)
        packets.bytes.withUnsafeBufferPointer { shareBytes in
            for (position, packet) in packets.records.enumerated() {
                let number = packet.number
                frames += 1
                bytes += packet.count
                if packet.count > packet.originalLength {
                    lengthNotes.append(LengthNote(outputOffset: sink.count, packet: number, captured: packet.count,
                                                  original: packet.originalLength))
                }
                // One buffer for every packet this worker dissects: emptied, refilled, never reallocated
                // once large enough.
                packetBytes.removeAll(keepingCapacity: true)
                packetBytes.append(contentsOf: UnsafeBufferPointer(rebasing: shareBytes[packet.range]))
                // The dissection borrows the interpreter's working memory: nothing is copied or kept per packet.
                let root = packet.linkType == rootLinkType ? self.root : root(forLinkType: packet.linkType)
                let outcome = interpreter.withDissection(of: packetBytes, root: root,
                                                         originalLength: packet.originalLength) { dissection in
                    tapper?.note(dissection, tag: position, into: &notedLayers)
                    let shown = displayFilter?.matches(dissection, frameNumber: number, originalLength: packet.originalLength) ?? true
                    if let renderer, shown {
                        var time = CaptureTime(seconds: packet.seconds, nanoseconds: packet.nanoseconds)
                        var frame = FrameInfo(number: number, time: time, originalLength: packet.originalLength)
                        switch renderer.options.timeStyle {
                        case .timeOfDay, .dateAndTime:
                            if let localOffsets { time.utcOffset = localOffsets.offset(at: packet.seconds) }
                            frame.time = time
                        case .sincePrevious: frame.elapsed = time.since(previousTime ?? time)
                        case .sinceFirst: frame.elapsed = time.since(packets.firstTime ?? time)
                        case .none, .epoch: break
                        }
                        previousTime = time
                        renderer.render(dissection, frame: frame, into: &sink)
                    } else if shown, fieldExtractor != nil {
                        fieldExtractor?.append(dissection, frameNumber: number, originalLength: packet.originalLength, to: &sink,
                                               endingLine: true)
                    }
                    return (failed: dissection.error != nil, cut: dissection.cutNode >= 0,
                            badChecksum: dissection.hasBadChecksum, shown: shown)
                }
                shownFrames.append(outcome.shown)
                if outcome.shown { framesPassed += 1 }
                if outcome.failed { framesWithErrors += 1 }
                if outcome.cut { framesCut += 1 }
                if outcome.badChecksum { framesWithBadChecksums += 1 }
                if let view = renderer?.view, outcome.shown {
                    sink.newline()
                    // Frames with several lines each are separated by a blank line, as tshark -V does.
                    if !view.isOneLinePerFrame { sink.newline() }
                }
                if tapper != nil {
                    // A summary's reassembled units go on the lines after the frame's; the other
                    // views' after the blank line that ends it.
                    let offset = renderer?.view.isOneLinePerFrame == true && outcome.shown ? sink.count - 1 : sink.count
                    outputEnds.append(max(0, offset))
                }
            }
            guard let tapper, !notedLayers.isEmpty else { return }
            // The segments' headers are read now, for the whole share: between two walks the
            // interpreter's code keeps the instruction cache. The tapper leaves out bare
            // acknowledgments: a tap is worth the stage's time.
            tapper.taps(of: notedLayers, bytes: { position in
                UnsafeBufferPointer(rebasing: shareBytes[packets.records[position].range])
            }) { position, tap in
                let packet = packets.records[position]
                taps.append(TapMark(outputOffset: outputEnds[position], frame: packet.number, tap: tap, range: packet.range,
                                    frameShown: shownFrames[position]))
            }
            notedLayers.removeAll()
        }
        if !taps.isEmpty { tappedShare = packets }
        if symbols == .ascii, sink.count > 0 { rewriteInASCII() }
    }

    /// The root struct for a packet whose link type is not the capture's (its schema's, else
    /// `Unrecognized`, else the capture's root).
    private func root(forLinkType linkType: Int) -> StructType {
        if let known = otherRoots[linkType] { return known }
        let found = schema.rootStruct(forLinkType: linkType) ?? schema.structType(named: "Unrecognized") ?? root
        otherRoots[linkType] = found
        return found
    }

    /// Copies the buffer into `asciiOutput` with ASCII symbols, moving each note's offset with
    /// its packet (the symbols change length).
    private func rewriteInASCII() {
        let text = sink.bytes
        var start = 0
        var noteIndex = 0
        var tapIndex = 0
        // Both lists are in output order; each offset moves with the text before it.
        while noteIndex < lengthNotes.count || tapIndex < taps.count {
            let takeTap = noteIndex == lengthNotes.count
                || (tapIndex < taps.count && taps[tapIndex].outputOffset <= lengthNotes[noteIndex].outputOffset)
            let end = takeTap ? taps[tapIndex].outputOffset : lengthNotes[noteIndex].outputOffset
            SymbolSet.appendASCII(of: UnsafeBufferPointer(rebasing: text[start..<end]), to: &asciiOutput)
            if takeTap {
                taps[tapIndex].outputOffset = asciiOutput.count
                tapIndex += 1
            } else {
                lengthNotes[noteIndex].outputOffset = asciiOutput.count
                noteIndex += 1
            }
            start = end
        }
        SymbolSet.appendASCII(of: UnsafeBufferPointer(rebasing: text[start..<text.count]), to: &asciiOutput)
        sink.removeAll()
    }

    /// Writes the buffer to standard output, each invalid record's warning to standard error
    /// just before its packet, and empties the buffer.
    /// With `stage`, each tapped frame's segment or fragment is reassembled in order, and the
    /// units it completes are written right after the frame.
    func writeOut(notingLengthsIn notes: inout InvalidLengthNotes, stage: ReassemblyOutput? = nil) throws(OutputError) {
        defer { discardOutput() }
        let share = tappedShare
        func write(_ output: UnsafeBufferPointer<UInt8>) throws(OutputError) {
            var start = 0
            var noteIndex = 0
            var tapIndex = 0
            while noteIndex < lengthNotes.count || tapIndex < taps.count {
                // At one offset a frame's units come before the next frame's note.
                let takeTap = noteIndex == lengthNotes.count
                    || (tapIndex < taps.count && taps[tapIndex].outputOffset <= lengthNotes[noteIndex].outputOffset)
                let end = takeTap ? taps[tapIndex].outputOffset : lengthNotes[noteIndex].outputOffset
                try StandardStream.output.write(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: output[start..<end])))
                start = end
                if takeTap {
                    let mark = taps[tapIndex]
                    tapIndex += 1
                    guard let stage, let share else { continue }
                    try stage.reassemble(mark.tap, frame: mark.frame, frameBytes: share.bytes[mark.range],
                                         frameShown: mark.frameShown)
                } else {
                    let note = lengthNotes[noteIndex]
                    noteIndex += 1
                    notes.note(packet: note.packet, captured: note.captured, original: note.original)
                }
            }
            try StandardStream.output.write(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: output[start..<output.count])))
        }
        if asciiOutput.isEmpty {
            try write(sink.bytes)
        } else {
            var failure: OutputError?
            asciiOutput.withUnsafeBufferPointer { output in
                do throws(OutputError) {
                    try write(output)
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
        }
    }

    /// Hands over the taps of the share dissected last, and that share, for reassembly elsewhere.
    func takeTaps() -> (taps: [TapMark], share: PacketShare?) {
        defer {
            taps.removeAll(keepingCapacity: true)
            tappedShare = nil
        }
        return (taps, tappedShare)
    }

    /// Empties the buffer without writing it.
    func discardOutput() {
        sink.removeAll()
        asciiOutput.removeAll(keepingCapacity: true)
        lengthNotes.removeAll(keepingCapacity: true)
        taps.removeAll(keepingCapacity: true)
        tappedShare = nil
    }
}

/// Packets read from a capture for one worker, their bytes end to end in one buffer: a share
/// costs two allocations, not one per packet, and none of them is freed on another thread per
/// packet.
struct PacketShare: Sendable {
    struct Record: Sendable {
        let range: Range<Int>
        /// The packet's number: its place in the file (or in a live capture).
        let number: Int
        let seconds: Int
        let nanoseconds: Int
        let originalLength: Int
        /// The link type of the packet's interface.
        let linkType: Int

        var count: Int { range.count }
    }

    private(set) var bytes: [UInt8] = []
    private(set) var records: [Record] = []

    /// Room for `packets` packets and `bytes` bytes.
    /// When the capture's first packet was taken (the start of -ttttt's times).
    var firstTime: CaptureTime?
    /// When the packet before this share's first was taken (the start of -ttt's first time).
    private(set) var previousTime: CaptureTime?

    /// The share that follows `previous`, with room for `packets` packets and `bytes` bytes.
    init(packets: Int, bytes: Int, after previous: PacketShare) {
        self.init(packets: packets, bytes: bytes)
        firstTime = previous.firstTime
        previousTime = previous.records.last.map { CaptureTime(seconds: $0.seconds, nanoseconds: $0.nanoseconds) }
            ?? previous.previousTime
    }

    init(packets: Int, bytes: Int) {
        records.reserveCapacity(packets)
        self.bytes.reserveCapacity(bytes)
    }

    var count: Int { records.count }
    var byteCount: Int { bytes.count }

    mutating func append(_ packet: BorrowedPacket) {
        let start = bytes.count
        bytes.append(contentsOf: packet.bytes)
        records.append(Record(range: start..<bytes.count, number: packet.position, seconds: packet.seconds,
                              nanoseconds: packet.nanoseconds, originalLength: packet.originalLength, linkType: packet.linkType))
    }
}

/// The local time zone's offset from UTC (TZ, as tcpdump honours it) at capture times, asked of
/// the C library once per quarter hour of capture time: offsets change (summer time) only on
/// quarter hours, and asking costs a lookup in the zone's rules.
final class LocalOffsets {
    private var quarter = Int.min
    private var offset = 0

    init() {
        tzset()
    }

    /// Seconds east of UTC at `seconds` since 1970.
    func offset(at seconds: Int) -> Int {
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
