import BinarySchema
import Dissector
import Foundation

/// A frame dissected from the link-layer root its first byte picks, whole or as a capture cut
/// short; spans, errors and cuts checked. One root and no rendering per input keeps the target
/// fast enough for libFuzzer to explore (views are the `views` target's job).
enum DissectorTarget {
    /// Every link-type root of the bundled schemas: first the eight of the first seeds, in their
    /// order, so a seed's first byte keeps its meaning as roots are added; then the others by
    /// name (scripts/make-fuzz-seeds.sh numbers them the same way).
    static let roots: [String] = {
        let first = ["Ethernet", "SLL", "SLL2", "RawIP", "Null", "Loop", "IPv4", "IPv6"]
        let others = BundledSchema.schema.structs.filter { !$0.linkTypes.isEmpty && !first.contains($0.name) }.map(\.name)
        return first + others.sorted()
    }()

    /// From the first byte: the root, and whether the capture cut the frame short. Bit 3 set: cut,
    /// the frame being 2^(the high four bits) bytes (1 to 32768) longer on the wire, at root
    /// `low three bits`. Bit 3 clear: whole, at root `low three bits + 8 × high four bits` (modulo
    /// the roots there are). The frame is the bytes after it.
    static func split(_ bytes: [UInt8]) throws(InvariantViolation)
        -> (root: StructType, frame: [UInt8], originalLength: Int?)? {
        guard let first = bytes.first else { return nil }
        let isCut = first & 0x08 != 0
        let index = isCut ? Int(first & 0x07) : (Int(first & 0x07) + 8 * Int(first >> 4)) % roots.count
        let name = roots[index]
        guard let root = BundledSchema.schema.structType(named: name) else { throw InvariantViolation("no bundled struct \(name)") }
        let frame = Array(bytes.dropFirst())
        return (root, frame, isCut ? frame.count + 1 << Int(first >> 4) : nil)
    }

    static func run(_ bytes: [UInt8]) throws(InvariantViolation) {
        guard let (root, frame, originalLength) = try split(bytes) else { return }
        var walker = Interpreter(schema: BundledSchema.schema, options: DissectionInvariants.walkOptions)
        try DissectionInvariants.check(walker.dissect(frame, root: root, originalLength: originalLength), root: root.name)
    }
}

/// Bytes dissected from one of the example schemas' structs, picked by the first byte: the
/// constructs the bundled protocols do not use (`@at`, parameters, computed values,
/// `@little_endian`, heuristics through the example registrations) at the dissector's speed.
enum FormatsTarget {
    /// Every struct of the example files that can be a root (those without parameters), by name.
    static let roots: [StructType] = {
        let examples = URL(fileURLWithPath: SchemaLoader.bundledDirectory).appendingPathComponent("examples").path
        return ExampleSchemas.schema.structs
            .filter { $0.location.path.hasPrefix(examples) && !$0.fields.contains { $0.isParameter } }
            .sorted { $0.name < $1.name }
    }()

    /// The example files of `Corpus/examples` and the struct each starts at.
    static let files = [
        "elf64-le.o": "ELF64", "elf64-be.o": "ELF64", "sample.zip": "ZIP", "sample.txt.gz": "GZIP",
        "sample.png": "PNG", "certificate.der": "BER",
        "formats/sample.wav": "WAV", "formats/sample.gif": "GIF", "formats/sample.mid": "MIDI",
        "formats/sample.sqlite3": "SQLite3", "formats/sample.ext2": "Ext2", "formats/sample.mo": "MO",
        "formats/Sample.class": "ClassFile", "formats/hello.exe": "PE", "formats/sample.pcap": "PcapFile",
        "formats/dejavu-hi.ttf": "TTF", "formats/person.pb": "Person", "formats/sample.msgpack": "MsgPack",
    ]

    /// Each example file behind the byte that picks its root: written by `dissect-fuzz seeds`,
    /// so the seeds follow when examples add structs and the roots' positions move.
    static var seeds: [String: [UInt8]] {
        let corpus = URL(fileURLWithPath: SchemaLoader.bundledDirectory).deletingLastPathComponent()
            .appendingPathComponent("Corpus/examples")
        var seeds: [String: [UInt8]] = [:]
        for (file, root) in files {
            guard let index = roots.firstIndex(where: { $0.name == root }),
                  let data = FileManager.default.contents(atPath: corpus.appendingPathComponent(file).path) else { continue }
            seeds["example-" + (file as NSString).lastPathComponent] = [UInt8(truncatingIfNeeded: index)] + [UInt8](data)
        }
        return seeds
    }

    static func run(_ bytes: [UInt8]) throws(InvariantViolation) {
        guard let first = bytes.first else { return }
        try require(!roots.isEmpty, "no example structs")
        let root = roots[Int(first) % roots.count]
        var walker = Interpreter(schema: ExampleSchemas.schema, options: DissectionInvariants.walkOptions)
        try DissectionInvariants.check(walker.dissect(Array(bytes.dropFirst()), root: root), root: root.name)
    }
}

/// The same input as ``DissectorTarget``, dissected and then rendered in every view.
enum ViewsTarget {
    static func run(_ bytes: [UInt8]) throws(InvariantViolation) {
        guard let (root, frame, originalLength) = try DissectorTarget.split(bytes) else { return }
        var walker = Interpreter(schema: BundledSchema.schema, options: DissectionInvariants.walkOptions)
        let dissection = walker.dissect(frame, root: root, originalLength: originalLength)
        try DissectionInvariants.check(dissection, root: root.name)
        try renderEveryView(dissection, root: root.name)
    }

    static func renderEveryView(_ dissection: Dissection, root: String) throws(InvariantViolation) {
        let options = RenderOptions(color: false, width: 80)
        for view in View.allCases {
            let text = view.render(dissection, frame: FrameInfo(number: 1, time: CaptureTime(seconds: 0, nanoseconds: 0)),
                                   options: options)
            try require(!text.isEmpty, "\(root): the \(view.rawValue) view is empty")
            if view == .json {
                let parsed = try? JSONSerialization.jsonObject(with: Data(text.utf8))
                try require(parsed is [String: Any], "\(root): the json view does not parse: \(text.prefix(200))")
            }
        }
    }
}

/// What every dissection must satisfy, whatever the bytes.
enum DissectionInvariants {
    /// The default limits, with every checksum verified (the verification pass meets hostile bytes
    /// too), and at most 256K fields a walk: a counted array of structs that read nothing is bounded
    /// by the field limit, not by the input's size, and at the default 4M one input would take
    /// seconds, which libFuzzer would call a timeout. No input of the targets' sizes needs more.
    static let walkOptions: Interpreter.Options = {
        var options = Interpreter.Options()
        options.checksums = .all
        options.fieldLimit = 1 << 18
        return options
    }()

    /// Verified checksums are integer fields the walk read (not the failing one), listed once each
    /// in node order, and their expected values fit the field.
    static func checkChecksums(_ dissection: Dissection, root: String) throws(InvariantViolation) {
        var previous = -1
        for result in dissection.checksums {
            try require(result.node > previous && result.node < dissection.nodes.count && result.node != dissection.errorNode,
                        "\(root): checksum node \(result.node) after \(previous) of \(dissection.nodes.count)")
            previous = result.node
            let node = dissection.nodes[result.node]
            try require(node.kind == .integer && (node.bitWidth == 16 || node.bitWidth == 32),
                        "\(root): checksum at \(dissection.path(of: result.node)) is not a u16 or u32")
            try require(result.expected >> UInt64(node.bitWidth) == 0,
                        "\(root): expected checksum \(result.expected) wider than \(node.bitWidth) bits")
            try require(dissection.checksum(of: result.node) == result,
                        "\(root): checksum(of:) disagrees with checksums at \(result.node)")
        }
        try require(dissection.hasBadChecksum == dissection.checksums.contains { !$0.isCorrect },
                    "\(root): hasBadChecksum disagrees with checksums")
    }

    static func check(_ dissection: Dissection, root: String) throws(InvariantViolation) {
        let nodes = dissection.nodes
        let bits = dissection.bytes.count * 8
        try require(!nodes.isEmpty, "\(root): no root node")
        for index in nodes.indices {
            let node = nodes[index]
            try require(node.bitStart >= 0 && node.bitStart <= node.bitEnd && node.bitEnd <= bits,
                        "\(root): node \(index) spans bits \(node.bitStart)..<\(node.bitEnd) of \(bits)")
            let parent = Int(node.parent)
            if index == 0 {
                try require(parent < 0, "\(root): the root has a parent")
                continue
            }
            try require(parent >= 0 && parent < index, "\(root): node \(index) has parent \(parent)")
            let outer = nodes[parent]
            // A field read at an offset (@at) lies wherever the offset points, not inside its struct;
            // so does a switch case's value read as a field of its own (`@at` is on the switch's field).
            let isPositioned = dissection.field(of: index).map { dissection.schema.declaredField($0).isPositioned } == true
            try require(isPositioned || (outer.bitStart <= node.bitStart && node.bitEnd <= outer.bitEnd),
                        "\(root): node \(index) (\(dissection.path(of: index))) bits \(node.bitStart)..<\(node.bitEnd) outside its parent's \(outer.bitStart)..<\(outer.bitEnd)")
            try require(Int(node.subtreeEnd) > index && Int(node.subtreeEnd) <= Int(outer.subtreeEnd),
                        "\(root): node \(index) subtree ends at \(node.subtreeEnd), its parent's at \(outer.subtreeEnd)")
        }
        if let error = dissection.error {
            try require(error.offset >= 0 && error.offset <= dissection.bytes.count,
                        "\(root): error offset \(error.offset) outside \(dissection.bytes.count) bytes: \(error)")
            try require(error.node >= 0 && error.node < nodes.count, "\(root): error node \(error.node) of \(nodes.count)")
            try require(!error.description.isEmpty && !error.path.isEmpty, "\(root): an error without a message or path")
        }
        try require(dissection.originalLength >= dissection.bytes.count,
                    "\(root): original length \(dissection.originalLength) below the \(dissection.bytes.count) captured")
        guard let cut = dissection.cut else {
            try require(dissection.cutNode == -1, "\(root): a cut node \(dissection.cutNode) without a cut")
            return
        }
        // A cut is where a read met the end of the captured bytes of a frame that went on.
        try require(dissection.error == nil && dissection.errorNode == -1, "\(root): both an error and a cut: \(cut)")
        try require(dissection.isTruncated, "\(root): a cut in a whole frame: \(cut)")
        try require(cut.capturedLength == dissection.bytes.count && cut.originalLength == dissection.originalLength,
                    "\(root): the cut says \(cut.capturedLength) of \(cut.originalLength) bytes: \(cut)")
        try require(cut.node >= 0 && cut.node < nodes.count && cut.node == dissection.cutNode,
                    "\(root): cut node \(cut.node) of \(nodes.count)")
        let node = nodes[cut.node]
        // It spans the rest of the captured bytes, unless its end is unknown (a DNS name that
        // follows a compression pointer ends where the pointer does).
        try require(node.byteOffset == cut.offset && node.bitStart & 7 == cut.bitOffset && (node.bitEnd == bits || cut.needed == nil),
                    "\(root): the cut field spans bits \(node.bitStart)..<\(node.bitEnd), not to the captured end: \(cut)")
        if let needed = cut.needed {
            try require(needed > cut.capturedLength - cut.offset && needed <= cut.originalLength - cut.offset,
                        "\(root): the cut field needs \(needed) bytes, not past the captured ones or past the wire: \(cut)")
        }
        try require(!cut.description.isEmpty && !cut.path.isEmpty && !cut.layer.isEmpty, "\(root): a cut without a path")
        try checkChecksums(dissection, root: root)
    }
}

/// The bundled schemas with every example schema, loaded once per process.
enum ExampleSchemas {
    static let schema: Schema = {
        let bundled = SchemaLoader.bundledDirectory
        do {
            return try SchemaLoader.load(paths: [bundled, URL(fileURLWithPath: bundled).appendingPathComponent("examples").path],
                                         importDirectories: [bundled])
        } catch {
            fatalError("the example schemas do not load: \(error)")
        }
    }()
}

/// The bundled schemas, loaded once per process.
enum BundledSchema {
    static let schema: Schema = {
        do {
            return try SchemaLoader.loadBundled()
        } catch {
            fatalError("the bundled schemas do not load: \(error)")
        }
    }()
}
