import BinarySchema

/// What every view needs to know about a dissection beyond its nodes: which nodes are
/// leaves, which byte belongs to which leaf, which bytes no field claims, and the layers.
struct Layout {
    /// A run of bytes no field claims: unclaimed inside the walk (padding, a trailer), or
    /// unparsed after the error (or cut) that stopped it.
    struct Gap {
        let range: Range<Int>
        let unparsed: Bool
    }

    let dissection: Dissection
    /// Nodes that hold a value rather than other nodes (plus the failing node), in order.
    let leaves: [Int]
    /// Per node: whether it is a leaf, and its position among the leaves (-1 otherwise).
    let leafOrdinals: [Int]
    /// Per node: whether it is a protocol layer.
    let isLayer: [Bool]
    /// For each byte, the leaf that owns it, or -1; empty unless asked for (`byteOwners`).
    let owners: [Int]
    let gaps: [Gap]
    /// Protocol struct nodes (`@protocol`), in order.
    let layers: [Int]
    /// Nesting of each node below its protocol struct (0 for the protocol node itself).
    let depths: [Int]
    /// The nodes the view shows (not the schema's `hidden let` values, unless asked).
    let shown: ShownNodes

    /// `layersOnly` finds just the layers (for one-line summaries), leaving the per-node and
    /// per-byte tables empty; `byteOwners` fills ``owners`` (the colored dump), which the other
    /// views do without. With `scratch`, the tables reuse the memory of an earlier frame's
    /// (give them back with ``RenderScratch/keep(_:)-layout``).
    init(_ dissection: Dissection, layersOnly: Bool = false, byteOwners: Bool = false, showsHidden: Bool = false,
         scratch: RenderScratch? = nil) {
        self.dissection = dissection
        let shown = layersOnly ? ShownNodes(dissection, showsHidden: true) : ShownNodes(dissection, showsHidden: showsHidden)
        self.shown = shown
        let nodes = dissection.nodes
        let names = dissection.schema.names
        var (leaves, leafOrdinals, isLayer, owners, gaps, layers, depths) = scratch?.takeLayoutTables()
            ?? ([], [], [], [], [], [], [])
        if layersOnly {
            for index in nodes.indices {
                if case .structure(let structID) = nodes[index].kind, names.protocolAbbreviation(Int(structID)) != nil {
                    layers.append(index)
                }
            }
        } else {
            let stopNode = dissection.stopNode
            let nodeBuffer = nodes.buffer
            let byteCount = dissection.bytes.count
            leafOrdinals.append(contentsOf: repeatElement(-1, count: nodeBuffer.count))
            isLayer.append(contentsOf: repeatElement(false, count: nodeBuffer.count))
            depths.append(contentsOf: repeatElement(0, count: nodeBuffer.count))
            // Whether the leaves' byte ranges start in order: then the bytes no field claims are
            // the holes between them, found without a table of owners.
            var inOrder = true
            var lastStart = 0
            // Every table has a row per node: indices below stay inside them.
            leafOrdinals.withUnsafeMutableBufferPointer { leafOrdinals in
            isLayer.withUnsafeMutableBufferPointer { isLayer in
            depths.withUnsafeMutableBufferPointer { depths in
                for index in nodeBuffer.indices {
                    var isProtocol = false
                    let kind = nodeBuffer[index].kind
                    if case .structure(let structID) = kind, names.protocolAbbreviation(Int(structID)) != nil {
                        isProtocol = true
                        layers.append(index)
                        isLayer[index] = true
                    }
                    let parent = Int(nodeBuffer[index].parent)
                    depths[index] = isProtocol || parent < 0 || parent >= index ? 0 : depths[parent] + 1
                    if !shown.isShown(index) { continue }
                    switch kind {
                    case .structure, .array: if index != stopNode { continue }
                    default: break
                    }
                    leafOrdinals[index] = leaves.count
                    leaves.append(index)
                    let bytes = dissection.rawByteRange(of: nodeBuffer[index])
                    guard !bytes.isEmpty else { continue }
                    if bytes.lowerBound < lastStart { inOrder = false }
                    lastStart = bytes.lowerBound
                }
            }
            }
            }
            var unparsedFrom = Int.max
            if stopNode >= 0, stopNode < nodes.count {
                let node = nodes[stopNode]
                unparsedFrom = node.byteOffset + node.byteLength
            }
            func addGap(_ begin: Int, _ end: Int) {
                // A gap that straddles the end of the failing field splits into unclaimed and unparsed parts.
                if begin < unparsedFrom, end > unparsedFrom {
                    gaps.append(Gap(range: begin..<unparsedFrom, unparsed: false))
                    gaps.append(Gap(range: unparsedFrom..<end, unparsed: true))
                } else {
                    gaps.append(Gap(range: begin..<end, unparsed: begin >= unparsedFrom))
                }
            }
            if byteOwners || !inOrder {
                owners.append(contentsOf: repeatElement(-1, count: byteCount))
                owners.withUnsafeMutableBufferPointer { owners in
                    for leaf in leaves {
                        let node = nodeBuffer[leaf]
                        for byte in dissection.rawByteRange(of: node) where owners[byte] < 0 || !node.isBitField {
                            owners[byte] = leaf
                        }
                    }
                    var start: Int?
                    for byte in 0...owners.count {
                        let owned = byte == owners.count || owners[byte] >= 0
                        if owned, let begin = start {
                            addGap(begin, byte)
                            start = nil
                        } else if !owned, start == nil {
                            start = byte
                        }
                    }
                }
                if !byteOwners { owners.removeAll(keepingCapacity: true) }
            } else {
                var covered = 0
                for leaf in leaves {
                    let bytes = dissection.rawByteRange(of: nodeBuffer[leaf])
                    guard !bytes.isEmpty else { continue }
                    if bytes.lowerBound > covered { addGap(covered, bytes.lowerBound) }
                    covered = max(covered, bytes.upperBound)
                }
                if covered < byteCount { addGap(covered, byteCount) }
            }
        }
        self.leaves = leaves
        self.leafOrdinals = leafOrdinals
        self.isLayer = isLayer
        self.owners = owners
        self.gaps = gaps
        self.layers = layers
        self.depths = depths
    }

    /// The first direct child of `parent` satisfying `test(child, position)`, without building the list of children.
    private func child(of parent: Int, where test: (Int, Int) -> Bool) -> Int? {
        let nodes = dissection.nodes
        let end = min(Int(nodes[parent].subtreeEnd), nodes.count)
        var index = parent + 1
        var position = 0
        while index < end {
            if test(index, position) { return index }
            index = max(index + 1, Int(nodes[index].subtreeEnd))
            position += 1
        }
        return nil
    }

    /// Bytes of a protocol layer's own header: up to the next layer inside it, or all of it.
    func headerLength(of layer: Int) -> Int {
        let node = dissection.nodes[layer]
        let inner = layers.first { $0 > layer && $0 < Int(node.subtreeEnd) }
        return inner.map { dissection.nodes[$0].byteOffset - node.byteOffset } ?? node.byteLength
    }

    func isLeaf(_ index: Int) -> Bool { leafOrdinals[index] >= 0 }

    /// Whether a node is shown in bits rather than bytes.
    func isBitLevel(_ index: Int) -> Bool { dissection.nodes[index].isBitLevel }

    /// `ihl` inside IPv4: the field's own name, or `[2]` for an array element.
    func label(_ index: Int) -> String { dissection.name(of: index) }

    /// The one-line summary of a protocol layer: its `@summary` with placeholders filled (`?` for
    /// a field not read; an optional group `{?…}` left out unless all its fields were read), or
    /// its label; with `style`, the layer's label is in the heading style.
    func writeSummary(of layer: Int, into sink: inout TextSink, style: Style? = nil) {
        guard case .structure(let structID) = dissection.nodes[layer].kind else { return }
        let names = dissection.schema.names
        if let style, style.enabled { style.beginHeading(into: &sink) }
        sink.append(contentsOf: names.layerLabel(Int(structID)))
        if let style, style.enabled { style.end(into: &sink) }
        let segments = names.summary(ofStruct: Int(structID))
        guard !segments.isEmpty else { return }
        sink.append(byte: UInt8(ascii: " "))
        // Where the summary starts: a literal written there drops its leading spaces, so an
        // absent first group leaves no second space after the label.
        let summaryStart = sink.count
        var position = 0
        // The node a group's test found for a segment, so it is not looked for twice.
        var known: (position: Int, node: Int) = (-1, -1)
        while position < segments.count {
            let segment = segments[position]
            if segment.groupLength > 0 {
                let end = min(segments.count, position + Int(segment.groupLength))
                var present = true
                for member in position..<end {
                    let entry = segments[member]
                    let steps = names.steps(of: entry)
                    guard !steps.isEmpty else { continue }
                    guard let node = find(firstSlot: entry.firstSlot, steps, below: layer), node != dissection.stopNode else {
                        // An absent field is no field named, and counts as 0 for a test of 0.
                        if entry.form == .zero || entry.form == .lengthZero { continue }
                        present = false
                        break
                    }
                    if entry.form.isTest {
                        let holds: Bool
                        switch entry.form {
                        case .nonzero: holds = dissection.integer(of: node) != 0
                        case .zero: holds = dissection.integer(of: node) == 0
                        case .lengthNonzero: holds = dissection.nodes[node].byteLength > 0
                        default: holds = dissection.nodes[node].byteLength == 0
                        }
                        if !holds {
                            present = false
                            break
                        }
                    }
                    if known.position < position { known = (member, node) }
                }
                if !present {
                    position = end
                    continue
                }
            }
            var literal = names.literal(of: segment)
            if sink.count == summaryStart {
                let spaces = literal.prefix { $0 == UInt8(ascii: " ") }.count
                literal = UnsafeBufferPointer(rebasing: literal[spaces...])
            }
            sink.append(contentsOf: literal)
            let steps = names.steps(of: segment)
            defer { position += 1 }
            guard !steps.isEmpty else { continue }
            let found = known.position == position ? known.node : find(firstSlot: segment.firstSlot, steps, below: layer)
            guard let node = found, node != dissection.stopNode else {
                if !segment.form.isTest { sink.append(byte: UInt8(ascii: "?")) }
                continue
            }
            switch segment.form {
            case .value:
                ValueWriter.writeSummaryValue(dissection, node, into: &sink)
            case .length:
                sink.appendDecimal(dissection.nodes[node].byteLength)
            case .count:
                if case .array = dissection.nodes[node].kind, let count = ValueWriter.elementCount(dissection, node) {
                    sink.appendDecimal(count)
                } else {
                    sink.appendDecimal(dissection.nodes[node].byteLength)
                }
            case .nonzero, .zero, .lengthNonzero, .lengthZero:
                break
            case .letters:
                writeLetters(of: node, names.extraSteps(of: segment), into: &sink)
            case .range:
                writeRange(from: node, segment, below: layer, into: &sink)
            }
        }
        // Every group absent: the label alone, without the space that would have led the summary.
        if sink.count == summaryStart { sink.trimTrailingSpaces() }
    }

    /// `{flags|fin:F syn:S ack:.}`: the letter of each set 1-bit field, in order, or `none`.
    private func writeLetters(of node: Int, _ pairs: UnsafeBufferPointer<NameTable.SummaryStepEntry>, into sink: inout TextSink) {
        let names = dissection.schema.names
        let nodes = dissection.nodes
        var wrote = false
        var pair = 0
        while pair + 1 < pairs.count {
            defer { pair += 2 }
            let name = pairs[pair]
            guard let bit = child(of: node, where: { child, _ in names.field(Int(nodes[child].fieldID), isNamedAs: name) }),
                  let value = dissection.integer(of: bit), value != 0 else { continue }
            sink.append(contentsOf: names.text(of: pairs[pair + 1]))
            wrote = true
        }
        if !wrote { sink.append("none" as StaticString) }
    }

    /// `{seq:#payload}`: the number, then `:` and the number plus the length when that is not 0,
    /// modulo the number's width (tcpdump's `seq 1000:1088`).
    private func writeRange(from node: Int, _ segment: NameTable.SummaryEntry, below layer: Int, into sink: inout TextSink) {
        guard let start = dissection.integer(of: node) else {
            ValueWriter.writeSummaryValue(dissection, node, into: &sink)
            return
        }
        sink.appendDecimal(start)
        let lengthSteps = dissection.schema.names.extraSteps(of: segment)
        guard !lengthSteps.isEmpty, let lengthNode = find(firstSlot: segment.extraFirstSlot, lengthSteps, below: layer) else { return }
        let lengthBytes = dissection.nodes[lengthNode]
        let length = Int64(lengthBytes.byteLength)
        // A field that runs to where the capture cut the frame: its whole length is not known.
        guard length > 0, !(dissection.isTruncated && lengthBytes.byteOffset + lengthBytes.byteLength >= dissection.bytes.count)
        else { return }
        var end = start &+ length
        let width = dissection.nodes[node].byteLength
        if width > 0, width < 8 { end &= (Int64(1) << (8 * width)) - 1 }
        sink.append(byte: UInt8(ascii: ":"))
        sink.appendDecimal(end)
    }

    /// The node a summary placeholder names below `layer`: its first step by slot, the rest by name.
    private func find(firstSlot: Int32, _ steps: UnsafeBufferPointer<NameTable.SummaryStepEntry>,
                      below layer: Int) -> Int? {
        var current = layer
        var remaining = steps[...]
        if firstSlot >= 0 {
            // A field whose walk failed inside it (an array whose later element failed) was read
            // in part but never filled its slot: look for its node among the children, when the
            // walk stopped in this layer (else an empty slot is an absent field, as most are).
            let stop = dissection.stopNode
            let stoppedInside = stop >= layer && stop < dissection.nodes[layer].subtreeEnd
            guard let first = dissection.fieldNode(ofStruct: layer, slot: Int(firstSlot))
                    ?? (stoppedInside ? child(of: layer, where: { node, _ in dissection.field(of: node)?.slot == Int(firstSlot) })
                        : nil)
            else { return nil }
            current = first
            remaining = remaining.dropFirst()
        }
        return find(remaining, from: current)
    }

    /// The node `steps` lead to from node `start`; a `[*]` step tries each element in turn.
    private func find(_ steps: UnsafeBufferPointer<NameTable.SummaryStepEntry>.SubSequence, from start: Int) -> Int? {
        let names = dissection.schema.names
        let nodes = dissection.nodes
        var current = start
        var remaining = steps
        while let step = remaining.first {
            remaining = remaining.dropFirst()
            let found: Int?
            if step.position == NameTable.SummaryStepEntry.anyElement {
                guard case .array = nodes[current].kind else { return nil }
                var result: Int?
                _ = child(of: current) { element, _ in
                    result = find(remaining, from: element)
                    return result != nil
                }
                return result
            } else if step.position >= 0 {
                found = child(of: current) { $1 == Int(step.position) }
            } else {
                found = child(of: current) { node, _ in names.field(Int(nodes[node].fieldID), isNamedAs: step) }
            }
            guard let found else { return nil }
            current = found
        }
        return current
    }
}

/// How views are drawn.
public struct RenderOptions: Sendable {
    /// ANSI colors (for a terminal).
    public var color: Bool
    /// Columns to wrap long values and rows at.
    public var width: Int
    /// Whether the summary view shows the link-layer headers (structs marked `@link`: Ethernet,
    /// VLAN tags, SLL, ...), as tcpdump does with `-e`. Without it they are left out, unless
    /// nothing else follows them.
    public var showsLinkLayer: Bool

    /// How frames' capture times are shown (JSON always gives the UTC time, to the nanosecond).
    public var timeStyle: TimeStyle = .timeOfDay
    /// Digits of a second shown: 6 for a capture recorded in microseconds, 9 in nanoseconds.
    public var timeDigits = 9

    /// Whether the views show the values a schema keeps for its own working (`hidden let`:
    /// a heuristic's tests, a summary's labels), which no protocol defines. Off by default.
    public var showsHidden = false

    /// The layers the JSON view writes (`-j`, `-J`) and the tree details (`-O`); nil for all.
    public var layers: LayerSelection?

    /// Options with these settings.
    public init(color: Bool = false, width: Int = 120, showsLinkLayer: Bool = false, showsHidden: Bool = false) {
        self.color = color
        self.width = max(60, width)
        self.showsLinkLayer = showsLinkLayer
        self.showsHidden = showsHidden
    }
}

/// How a frame's capture time is shown: tcpdump's `-t` flags.
public enum TimeStyle: Sendable, Hashable {
    /// `06:01:48.740443` (tcpdump's default).
    case timeOfDay
    /// No time (`-t`).
    case none
    /// `1795240908.740443`: seconds since 1970 (`-tt`).
    case epoch
    /// `00:00:00.000019`: since the previous frame (`-ttt`).
    case sincePrevious
    /// `2026-11-21 06:01:48.740443` (`-tttt`).
    case dateAndTime
    /// `00:00:01.250000`: since the first frame (`-ttttt`).
    case sinceFirst
}

/// What a view says about the frame besides its bytes: its number and, from a capture, its time.
public struct FrameInfo: Sendable {
    /// What the heading calls the input: `frame` by default, a file's name for a file.
    public var label: String
    /// The frame's number in its capture, if it has one.
    public var number: Int?
    /// When the frame was captured, for frames read from a capture.
    public var time: CaptureTime?
    /// For the relative time styles: the time since the previous or the first frame.
    public var elapsed: CaptureTime?
    /// The frame's original length on the wire, when more than was captured (without it, the
    /// views take the dissection's `Dissection.originalLength`).
    public var originalLength: Int?
    /// For a reassembled unit (a TCP PDU, an IP datagram): where its bytes came from. Views head
    /// it with the frames and offsets of its bytes instead of a frame number and time.
    public var reassembly: ReassemblyOrigin?

    /// A frame described by what is known of it.
    public init(label: String = "frame", number: Int? = nil, time: CaptureTime? = nil, originalLength: Int? = nil) {
        self.label = label
        self.number = number
        self.time = time
        self.originalLength = originalLength
    }

    /// `frame 3 · 2026-11-21 06:01:48.740443 UTC · 74 bytes · Ethernet › IPv4 › TCP`, bold when styled.
    func writeHeading(_ layout: Layout, style: Style, into sink: inout TextSink) {
        if style.enabled { sink.append("\u{1B}[1m" as StaticString) }
        if let reassembly {
            writeReassemblyHeading(reassembly, layout, style: style, into: &sink)
            return
        }
        sink.append(label)
        if let number {
            sink.append(byte: UInt8(ascii: " "))
            sink.appendDecimal(number)
        }
        if time != nil, style.timeStyle != .none {
            sink.append(" · " as StaticString)
            sink.appendTime(of: self, style: style.timeStyle == .timeOfDay ? .dateAndTime : style.timeStyle,
                            digits: style.timeDigits, zone: true)
        }
        sink.append(" · " as StaticString)
        writeLengths(of: layout.dissection, into: &sink)
        let names = layout.dissection.schema.names
        for (position, layer) in layout.layers.enumerated() {
            guard case .structure(let structID) = layout.dissection.nodes[layer].kind else { continue }
            sink.append(position == 0 ? " · " as StaticString : " › ")
            sink.append(contentsOf: names.layerLabel(Int(structID)))
        }
        if style.enabled { sink.append("\u{1B}[0m" as StaticString) }
    }
}

extension FrameInfo {
    /// `reassembled TCP PDU in frame 5 · 2345 bytes from frames 3, 4, 5 · TLSRecord`, then a line per
    /// run of bytes (`  bytes 0-1447 from frame 3, offset 66-1513`) and per missing range.
    private func writeReassemblyHeading(_ reassembly: ReassemblyOrigin, _ layout: Layout, style: Style,
                                        into sink: inout TextSink) {
        sink.append("reassembled " as StaticString)
        sink.append(reassembly.unit)
        sink.append(" in frame " as StaticString)
        sink.appendDecimal(reassembly.completingFrame)
        sink.append(" · " as StaticString)
        sink.appendDecimal(reassembly.length)
        sink.append(" bytes from " as StaticString)
        reassembly.writeFrames(separator: ", ", into: &sink)
        let names = layout.dissection.schema.names
        for (position, layer) in layout.layers.enumerated() {
            guard case .structure(let structID) = layout.dissection.nodes[layer].kind else { continue }
            sink.append(position == 0 ? " · " as StaticString : " › ")
            sink.append(contentsOf: names.layerLabel(Int(structID)))
        }
        if style.enabled { sink.append("\u{1B}[0m" as StaticString) }
        var pieces: [(range: Range<Int>, run: ReassemblyOrigin.Run?)] = reassembly.runs.map {
            ($0.offset..<($0.offset + $0.length), $0)
        }
        pieces += reassembly.missing.map { ($0, nil) }
        for piece in pieces.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            sink.append("\n  bytes " as StaticString)
            sink.appendDecimal(piece.range.lowerBound)
            sink.append(byte: UInt8(ascii: "-"))
            sink.appendDecimal(piece.range.upperBound - 1)
            guard let run = piece.run else {
                sink.append(style.error(" missing (not in the capture, or not read): the unit is dissected up to here"))
                continue
            }
            sink.append(" from frame " as StaticString)
            sink.appendDecimal(run.frame)
            sink.append(", offset " as StaticString)
            sink.appendDecimal(run.frameOffset)
            sink.append(byte: UInt8(ascii: "-"))
            sink.appendDecimal(run.frameOffset + run.length - 1)
        }
        if reassembly.overlapConflict {
            sink.append("\n  " as StaticString)
            sink.append(style.error("overlapping bytes differed between copies; the first received are shown"))
        }
        if let declared = reassembly.declaredLength {
            sink.append("\n  " as StaticString)
            sink.append(style.error("cut at the PDU length limit: its header declares \(declared) bytes"))
        }
    }

    /// The frame's length on the wire, as given or as the dissection knows it.
    func originalLength(of dissection: Dissection) -> Int { originalLength ?? dissection.originalLength }

    /// `74 bytes`, or `64 of 74 bytes` for a frame the capture cut short.
    func writeLengths(of dissection: Dissection, into sink: inout TextSink) {
        let captured = dissection.bytes.count
        sink.appendDecimal(captured)
        let original = originalLength(of: dissection)
        if original != captured {
            sink.append(" of " as StaticString)
            sink.appendDecimal(original)
        }
        sink.append(" bytes" as StaticString)
    }
}

extension DissectionCut {
    /// `[|tcp]`, tcpdump's mark of where the capture ended a frame.
    var mark: String { "[|\(layer)]" }
}

/// ANSI styling, or none.
struct Style {
    let enabled: Bool
    var timeStyle: TimeStyle = .timeOfDay
    var timeDigits = 9

    init(enabled: Bool) {
        self.enabled = enabled
    }

    init(_ options: RenderOptions) {
        enabled = options.color
        timeStyle = options.timeStyle
        timeDigits = options.timeDigits
    }

    private static let palette = ["36", "33", "32", "35", "34", "96", "93", "92", "95", "94"]

    func field(_ text: String, _ ordinal: Int) -> String {
        wrap(text, Self.palette[abs(ordinal) % Self.palette.count])
    }

    func beginField(_ ordinal: Int, into sink: inout TextSink) {
        sink.append("\u{1B}[" as StaticString)
        sink.append(Self.palette[abs(ordinal) % Self.palette.count])
        sink.append(byte: UInt8(ascii: "m"))
    }

    func beginError(into sink: inout TextSink) { sink.append("\u{1B}[1;31m" as StaticString) }
    func beginCut(into sink: inout TextSink) { sink.append("\u{1B}[1;33m" as StaticString) }
    func beginDim(into sink: inout TextSink) { sink.append("\u{1B}[2m" as StaticString) }
    func beginHeading(into sink: inout TextSink) { sink.append("\u{1B}[1m" as StaticString) }
    func end(into sink: inout TextSink) { sink.append("\u{1B}[0m" as StaticString) }

    func error(_ text: String) -> String { wrap(text, "1;31") }
    func cut(_ text: String) -> String { wrap(text, "1;33") }
    func dim(_ text: String) -> String { wrap(text, "2") }
    func heading(_ text: String) -> String { wrap(text, "1") }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}

/// Text helpers shared by the views.
enum Text {
    /// `text` (UTF-8) cut into lines of at most `width` characters, as byte ranges: at the last
    /// space of a line when that is past its first third, else at the width; the spaces at a
    /// cut are dropped, and a backslash escape is never cut in two. Characters are counted as
    /// code points, which is what the columns use. Lines after the first get
    /// `continuationWidth` (default `width`), for a view that indents them further.
    static func wrap(_ text: UnsafeBufferPointer<UInt8>, width firstWidth: Int, continuationWidth: Int? = nil) -> [Range<Int>] {
        @inline(__always) func startsCharacter(_ byte: UInt8) -> Bool { byte & 0xC0 != 0x80 }
        var remaining = 0
        for byte in text where startsCharacter(byte) { remaining += 1 }
        guard remaining > firstWidth, firstWidth > 8 else { return [0..<text.count] }
        var lines: [Range<Int>] = []
        var start = 0
        var width = firstWidth
        while remaining > width {
            // Walk `width` characters, remembering the last space and the escape (`\0`, `\x1b`)
            // the walk is in, if any.
            var position = start
            var characters = 0
            var lastSpace: (byte: Int, characters: Int)?
            var escape = (start: 0, end: 0, characters: 0)
            while position < text.count {
                if startsCharacter(text[position]) {
                    if characters == width { break }
                    if position >= escape.end {
                        if text[position] == UInt8(ascii: " ") { lastSpace = (position, characters) }
                        if text[position] == UInt8(ascii: "\\") {
                            let isHex = position + 1 < text.count && text[position + 1] == UInt8(ascii: "x")
                            escape = (position, position + (isHex ? 4 : 2), characters)
                        }
                    }
                    characters += 1
                }
                position += 1
            }
            var cut = (byte: position, characters: width)
            // Escapes are ASCII, so their bytes are characters: never cut one in two.
            if position < escape.end, escape.start > start { cut = (escape.start, escape.characters) }
            if let lastSpace, lastSpace.characters > width / 3 { cut = lastSpace }
            lines.append(start..<cut.byte)
            remaining -= cut.characters
            start = cut.byte
            while start < text.count, text[start] == UInt8(ascii: " ") {
                start += 1
                remaining -= 1
            }
            // At least one character a line, so the walk always moves on.
            width = max(1, continuationWidth ?? firstWidth)
        }
        if start < text.count { lines.append(start..<text.count) }
        return lines
    }
}

extension FieldNode {
    /// Whether the node is shown in bits rather than bytes: a bit field, or a value that does not
    /// start and end on byte boundaries.
    var isBitLevel: Bool { isBitField || bitStart & 7 != 0 || bitEnd & 7 != 0 }
}
