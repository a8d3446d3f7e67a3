import BinarySchema
import CapturePipeline
import Dissector
import Foundation
import PacketCapture
import Testing

private let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

private func capture(_ name: String) -> String {
    repositoryRoot.appendingPathComponent("Corpus/captures/\(name)").path
}

private func reassemblyCapture(_ name: String) -> String {
    repositoryRoot.appendingPathComponent("Corpus/reassembly/\(name)").path
}

/// Every event of a run, written out so that two runs compare as text.
private func transcript(of file: String, _ options: PacketPipeline.Options) throws -> (lines: [String], totals: CaptureTotals) {
    var lines: [String] = []
    let totals = try PacketPipeline(options: options).run(file: file) { event in
        switch event {
        case .frame(let frame):
            lines.append("frame \(frame.number) \(frame.capturedLength)/\(frame.originalLength) "
                + "\(frame.isMalformed) \(frame.isCut) \(options.fields.map { frame[$0] }) \(frame.text ?? "")")
        case .unit(let unit):
            lines.append("unit \(unit.origin.frames) \(unit.origin.length) \(unit.isMalformed) "
                + "\(options.fields.map { unit[$0] }) \(unit.text ?? "")")
        case .warning(let text):
            lines.append("warning \(text)")
        }
    }
    return (lines, totals)
}

@Suite struct PacketPipelineTests {
    /// The README's example, run as written (the test fails if the two differ): DNS responses
    /// and their answers, as tshark extracts them.
    @Test func theReadmeExampleRuns() throws {
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }
        // `swift test` runs in the package's root, where the example's relative path is.
        try #require(FileManager.default.fileExists(atPath: "Corpus/captures/dns.pcap"), "run from the repository's root")
        // README example begins
        var options = PacketPipeline.Options()
        options.displayFilter = "dns.flags.response == 1"
        options.fields = ["ip.src", "dns.qry.name", "dns.a"]
        let pipeline = try PacketPipeline(options: options)
        let totals = try pipeline.run(file: "Corpus/captures/dns.pcap") { event in
            if case .frame(let frame) = event {
                print(frame.number, frame["ip.src"], frame["dns.qry.name"], frame["dns.a"])
            }
        }
        print(totals.framesPassed, "of", totals.frames, "frames are responses")
        // README example ends
        // tshark -r dns.pcap -Y 'dns.flags.response == 1' -T fields -e frame.number -e ip.src -e dns.qry.name -e dns.a
        #expect(printed.first == #"2 ["127.0.0.1"] ["www.example.test"] ["192.0.2.10"]"#, "\(printed)")
        #expect(printed.count == 9)
        #expect(printed.last == "8 of 16 frames are responses")

        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let example = source.components(separatedBy: "// README example begins\n")[1].components(separatedBy: "        // README example ends")[0]
            .split(separator: "\n", omittingEmptySubsequences: false).map { $0.dropFirst(8) }.joined(separator: "\n")
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("```swift\nimport CapturePipeline\n\n" + example + "```\n"), "README.md's example differs:\n\(example)")
    }

    /// Each frame's values are tshark's (the `-T fields` oracle of the command line).
    @Test func fieldValuesAreTsharks() throws {
        let oracle = try String(contentsOf: repositoryRoot.appendingPathComponent("Corpus/oracle/field-output/04.txt"), encoding: .utf8)
        let lines = oracle.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var options = PacketPipeline.Options()
        options.fields = lines[1].split(separator: " ").map(String.init)
        options.reassembles = false
        var rows: [String] = []
        try PacketPipeline(options: options).run(file: capture(lines[0])) { event in
            if case .frame(let frame) = event {
                rows.append(options.fields.map { frame[$0].joined(separator: ",") }.joined(separator: "\t"))
            }
        }
        #expect(rows == Array(lines[3...].filter { !$0.isEmpty }))
    }

    /// The same events in the same order whatever the thread count, units right after the frame
    /// that completed them.
    @Test(arguments: ["http-large.pcap", "tls-multisegment.pcap", "ip-fragments.pcap"])
    func eventsDoNotDependOnTheThreadCount(file: String) throws {
        var options = PacketPipeline.Options()
        options.fields = ["frame.number", "ip.src", "tcp.srcport", "http.response.code"]
        options.view = .summary
        options.threads = 1
        let one = try transcript(of: reassemblyCapture(file), options)
        options.threads = 4
        let four = try transcript(of: reassemblyCapture(file), options)
        #expect(one.lines == four.lines)
        #expect(one.totals == four.totals)
        let units = one.lines.enumerated().filter { $0.element.hasPrefix("unit ") }
        #expect(!units.isEmpty, "\(file) has reassembled units")
        for (position, line) in units {
            // `unit [6, 8, 9] …`: the line before is the completing frame's (or another unit of it).
            let completing = line.dropFirst(6).prefix { $0 != "]" }.split(separator: ",").last
                .map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            let before = one.lines[..<position].last { $0.hasPrefix("frame ") } ?? ""
            #expect(before.hasPrefix("frame \(completing) "), "\(line) after \(before)")
        }
    }

    @Test func aFilterThatDoesNotCompileIsLocatedBeforeAnyCaptureOpens() {
        var options = PacketPipeline.Options()
        options.displayFilter = "tcp.srcprot == 80"
        #expect {
            try PacketPipeline(options: options)
        } throws: { error in
            let error = error as? PipelineError
            return error?.column == 1 && error?.message.contains("tcp.srcport") == true
        }
        options.displayFilter = nil
        options.fields = ["dns.qry.nam"]
        #expect(throws: PipelineError.self) { try PacketPipeline(options: options) }
    }

    @Test func anErrorTheHandlerThrowsEndsTheRun() throws {
        struct Enough: Error {}
        var seen = 0
        #expect(throws: Enough.self) {
            try PacketPipeline().run(file: capture("dns.pcap")) { _ in
                seen += 1
                if seen == 3 { throw Enough() }
            }
        }
        #expect(seen == 3)
    }

    @Test func bytesInMemoryAreACapture() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: capture("dns.pcap"))))
        var numbers: [Int] = []
        let totals = try PacketPipeline().run(try Capture.open(bytes: bytes)) { event in
            if case .frame(let frame) = event { numbers.append(frame.number) }
        }
        #expect(numbers == Array(1...16))
        #expect(totals.description.hasPrefix("16 packets, 1822 bytes, 0 with errors"))
    }
}

@Suite struct WorkerRingTests {
    @Test func invalidLengthNotesStopAfterALimitAndCountTheRest() throws {
        var errors: [String] = []
        var notes = InvalidLengthNotes { errors.append($0) }
        for number in 1...(InvalidLengthNotes.limit + 5) { notes.note(packet: number, captured: 100, original: 60) }
        notes.finish()
        #expect(errors.count == InvalidLengthNotes.limit + 1)
        #expect(errors.last == "warning: 5 more packets with a captured length more than the original length")
    }

    @Test func threadsAreCappedAndWorkersMadeOnlyWhenShareNeedsThem() throws {
        #expect(WorkerRing.threadCount(requested: 1000) == WorkerRing.maximumThreads)
        #expect(WorkerRing.threadCount(requested: 3) == 3)
        let schema = try SchemaLoader.loadBundled()
        let root = try #require(schema.structType(named: "Ethernet"))
        var made = 0
        let ring = try WorkerRing(threads: 1000) {
            made += 1
            return FrameWorker(schema: schema, root: root, consumer: nil)
        }
        // dns.pcap: 16 packets, one share.
        let capture = try Capture.open(file: capture("dns.pcap"))
        var share = PacketShare(packets: 16, bytes: 0)
        while case .packet(let packet) = try capture.nextBorrowed() { share.append(packet) }
        ring.dissect(share)
        ring.finish()
        #expect(made == 1)
        #expect(ring.totals.description.hasPrefix("16 packets, 1822 bytes"))
    }

    /// Text goes to any destination, in capture order, the same for one thread or several.
    @Test func textConsumersWriteInCaptureOrder() throws {
        func summaries(threads: Int) throws -> String {
            let destination = MemoryDestination()
            var setup = PipelineSetup { try SchemaLoader.loadBundled() }
            setup.threads = threads
            setup.reassembly.tcp = true
            setup.unitView = .summary
            setup.makeConsumer = { _ in
                TextFrameConsumer(view: .summary, options: RenderOptions(), symbols: .ascii, destination: destination)
            }
            let capture = try Capture.open(file: reassemblyCapture("http-large.pcap"))
            let ring = try setup.makeRing(for: capture)
            _ = readCapture(capture, into: ring, limits: ReadLimits())
            return destination.text
        }
        let one = try summaries(threads: 1)
        #expect(one == (try summaries(threads: 3)))
        #expect(one.contains("  -> reassembled TCP PDU from frames"), "\(one.prefix(2000))")
        #expect(one.utf8.allSatisfy { $0 < 0x80 }, "ASCII symbols: \(one.prefix(500))")
    }
}
