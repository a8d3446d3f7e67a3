import ArgumentParser
import BinaryIO
import BinarySchema
import CapturePipeline
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
            + "Frames keep their numbers in the file; -c counts packets read. With -w, only the packets it passes are written.",
        valueName: "filter"))
    var displayFilterText: String?

    @Option(name: .customShort("T"), parsing: .unconditional, help: ArgumentHelp(
        "tshark's output format for the fields named by -e, as tshark writes them: 'fields' one line per packet "
            + "(-T fields -e ip.src -e dns.qry.name), 'json' one JSON array of packets, 'ek' Elasticsearch bulk lines. "
            + "With -T, -e names a field (without it, -e is tcpdump's link-layer flag). Every field of each packet: the views, -f json, -f tree.",
        valueName: "fields|json|ek"))
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
        if outputFormat == nil { try view.checkLayerOptions(view: shownView) }
        if quiet && print { throw ValidationError("--quiet and --print cannot be used together") }
        if let outputFormat {
            guard let output = FieldExtractor.Format.Output(rawValue: outputFormat) else {
                let pointer = ["pdml": "-f json", "text": "-f summary", "tabs": "-f summary", "ps": "-f tree"]
                throw ValidationError("-T '\(outputFormat)': dissect's -T prints the fields named by -e, as fields, json or ek "
                    + "(-T fields -e NAME ...)" + (pointer[outputFormat].map { "; for this output use \($0)" } ?? "; the views are chosen with -f"))
            }
            if view.impliedView != nil {
                throw ValidationError("-T \(output.rawValue) prints the fields named by -e; for whole layers use dissect's JSON view: -f json -j 'ip udp' (or -J, -O for the tree)")
            }
            guard !fieldNames.isEmpty else {
                throw ValidationError("-T \(output.rawValue) needs at least one -e NAME (dissect schema list --fields lists the names); "
                    + (output == .fields ? "" : "for every field of each packet use -f json"))
            }
            if view.formatChoice != nil || verbose > 0 || tsharkVerbose || hexFlags + hexASCIIFlags > 0 {
                throw ValidationError("-T \(output.rawValue) prints fields: choose it or a view (-f, -v, -V, -x), not both")
            }
            if quiet { throw ValidationError("-T \(output.rawValue) prints fields, and -q prints only totals: choose one") }
        } else if !fieldNames.isEmpty || !fieldOptions.isEmpty {
            throw ValidationError("-E and a field to print (--field) go with -T fields, json or ek")
        }
    }

    /// `-T`'s record format, when it is given.
    private var fieldOutput: FieldExtractor.Format.Output? { outputFormat.flatMap(FieldExtractor.Format.Output.init(rawValue:)) }

    /// `-T fields|json|ek`: the fields to print, checked against `schema`.
    private func fieldExtractor(for schema: Schema) throws -> FieldExtractor? {
        guard let fieldOutput else { return nil }
        var format = FieldExtractor.Format()
        format.output = fieldOutput
        do {
            for option in fieldOptions { try format.apply(option) }
            return try FieldExtractor(fields: fieldNames, schema: schema, format: format)
        } catch {
            throw ValidationError("-T \(fieldOutput.rawValue): \(error.message)")
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
        // -w with -Y writes what the filter passes, once each packet is dissected; -w alone
        // every packet, as it is read.
        let filteredWriting = writer != nil && displayFilterText != nil
        let jsonArray = fieldOutput == .json ? JSONArrayState() : nil
        let ring = try makeRing(for: capture, writing: writer != nil, shownPacketWriter: filteredWriting ? writer : nil,
                                jsonArray: jsonArray)
        // The HTML view is one page: its head before the first packet, its tail after the last.
        let page = ring != nil && !quiet && shownView == .html && outputFormat == nil
        if page { try StandardStream.output.write(HTMLPage.head(title: readFile ?? interface ?? "capture")) }
        if fieldOutput == .fields, ring != nil {
            var format = FieldExtractor.Format()
            for option in fieldOptions { try? format.apply(option) }
            if format.header { try StandardStream.output.writeLine(FieldExtractor.headerLine(names: fieldNames, format: format)) }
        }
        // -T json: one array, its records written as they come.
        if fieldOutput == .json, ring != nil { try StandardStream.output.write("[") }
        stopOnInterrupt(capture.stopper)
        if capture.isLive {
            // As tcpdump, on standard error: what is being captured, before the first packet.
            // Printed once the schemas are loaded and Ctrl-C ends the capture cleanly, so a
            // script that waits for this line knows every packet after it is shown.
            printError("listening on \(capture.source), link-type \(capture.linkTypeName) (\(capture.linkTypeDescription)), "
                + "snapshot length \(capture.snapshotLength) bytes")
        }

        let live = interface != nil
        var limits = ReadLimits()
        limits.count = count
        limits.deadline = duration.map { Date(timeIntervalSinceNow: $0) }
        // A file's packets are dissected in shares, on several threads; live ones one at a
        // time, as they arrive; a pipe's in shares cut whenever its writer has nothing more yet.
        limits.oneAtATime = live || lineBuffered
        limits.writer = filteredWriting ? nil : writer
        limits.flushEachPacket = live || capture.isStream || packetBuffered
        let outcome = readCapture(capture, into: ring, limits: limits)
        let seen = outcome.seen
        let output = ring
        if page, outcome.outputFailure == nil { try StandardStream.output.write(HTMLPage.tail) }
        if let jsonArray, outcome.outputFailure == nil { try StandardStream.output.write(jsonArray.hasRecords ? "\n]\n" : "]\n") }
        if let error = outcome.outputFailure { throw error }
        if let writeFailure = outcome.writeFailure { throw writeFailure }
        // The totals are the answer -q asks for: standard output, as tshark prints its statistics
        // (standard error is for errors and warnings).
        if quiet, let output { try StandardStream.output.writeLine(output.totals.description) }
        if live { reportStatistics(of: capture, seen: seen) }
        if let failure = outcome.failure {
            printError("Error: \(failure.description) (after \(seen) packet\(seen == 1 ? "" : "s"))")
            throw ExitCode(1)
        }
    }

    private var reassemblyOptions: CaptureReassembler.Options {
        var options = CaptureReassembler.Options()
        // -T reads each frame as it is, as tshark does with reassembly off.
        options.tcp = !noTcpReassembly && fieldOutput == nil
        options.ip = !noDefragment && fieldOutput == nil
        return options
    }

    /// The view: -f's, else -v's tree or -x's hex dump, else a line per packet.
    private var shownView: View {
        if let choice = view.formatChoice { return choice }
        if verbose > 0 || tsharkVerbose { return .tree }
        if let implied = view.impliedView { return implied }
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

    /// What shows each packet: nothing with -w (unless --print), the totals with -q, else the
    /// view. With `shownPacketWriter` (-w with -Y) the packets the filter passes are written there.
    private func makeRing(for capture: Capture, writing: Bool, shownPacketWriter: CaptureWriter? = nil,
                          jsonArray: JSONArrayState? = nil) throws -> WorkerRing? {
        let shows = !writing || print
        if !shows && shownPacketWriter == nil { return nil }
        let symbols = quiet ? .unicode : view.symbols(for: shownView)
        var renderOptions = view.renderOptions
        renderOptions.timeStyle = timeStyle
        renderOptions.timeDigits = capture.timestampDigits
        let schemas = self.schemas, checksums = self.checksums, view = self.view
        var setup = PipelineSetup { try schemas.load() }
        setup.walkOptions = { schema in schemas.walkOptions(checksums: try checksums.selection(for: schema)) }
        setup.displayFilter = { schema in try displayFilter(for: schema) }
        let shownView = quiet || !shows ? nil : self.shownView
        setup.shownPacketWriter = shownPacketWriter
        setup.makeConsumer = { schema in
            // Checked here, against the schemas loaded; the views match layers by name alone.
            _ = try view.layerSelection(for: schema)
            let fields = try fieldExtractor(for: schema)
            guard shownView != nil || fields != nil else { return nil }
            return TextFrameConsumer(view: fields == nil ? shownView : nil, options: renderOptions, fields: fields,
                                     symbols: symbols, destination: StandardStream.output, jsonArray: jsonArray)
        }
        // Nothing reassembled is written to a capture file.
        setup.reassembly = reassemblyOptions
        if !shows { (setup.reassembly.tcp, setup.reassembly.ip) = (false, false) }
        setup.unitView = shownView
        setup.renderOptions = renderOptions
        setup.quiet = quiet
        setup.timeStyle = timeStyle
        setup.localTime = !utc
        // Packets from an interface or a pipe are shown as they come, so one at a time.
        let streaming = capture.isLive || capture.isStream || lineBuffered
        setup.threads = streaming ? 1 : threads ?? WorkerRing.defaultThreads
        do {
            return try setup.makeRing(for: capture)
        } catch let error as PipelineError {
            throw ValidationError(error.message)
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
