import BinarySchema
import Dissector
import Foundation

/// A frame dissected from the link-layer root its first byte picks; spans and errors checked.
/// One root and no rendering per input keeps the target fast enough for libFuzzer to explore
/// (views are the `views` target's job).
enum DissectorTarget {
    static let roots = ["Ethernet", "SLL", "SLL2", "RawIP", "Null", "Loop", "IPv4", "IPv6"]

    /// The root the first byte picks (its value modulo the number of roots), and the frame after it.
    static func split(_ bytes: [UInt8]) throws(InvariantViolation) -> (root: StructType, frame: [UInt8])? {
        guard let first = bytes.first else { return nil }
        let name = roots[Int(first) % roots.count]
        guard let root = BundledSchema.schema.structType(named: name) else { throw InvariantViolation("no bundled struct \(name)") }
        return (root, Array(bytes.dropFirst()))
    }

    static func run(_ bytes: [UInt8]) throws(InvariantViolation) {
        guard let (root, frame) = try split(bytes) else { return }
        var walker = Interpreter(schema: BundledSchema.schema, options: DissectionInvariants.walkOptions)
        try DissectionInvariants.check(walker.dissect(frame, root: root), root: root.name)
    }
}

/// The same input as ``DissectorTarget``, dissected and then rendered in every view.
enum ViewsTarget {
    static func run(_ bytes: [UInt8]) throws(InvariantViolation) {
        guard let (root, frame) = try DissectorTarget.split(bytes) else { return }
        var walker = Interpreter(schema: BundledSchema.schema, options: DissectionInvariants.walkOptions)
        let dissection = walker.dissect(frame, root: root)
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
    /// The default limits, with every checksum verified: the verification pass meets hostile bytes too.
    static let walkOptions: Interpreter.Options = {
        var options = Interpreter.Options()
        options.checksums = .all
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
            try require(outer.bitStart <= node.bitStart && node.bitEnd <= outer.bitEnd,
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
        try checkChecksums(dissection, root: root)
    }
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
