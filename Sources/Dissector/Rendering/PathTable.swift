import BinarySchema

/// Every node's path (`ip.flags.df`, `tcp.options[2].kind`) built once per frame: nodes are in
/// pre-order, so each path is its parent's, already built, plus one step.
struct PathTable {
    private var text: TextSink
    private var starts: [Int]
    private var ends: [Int]

    /// With `scratch`, the table reuses the memory of an earlier frame's (give it back with
    /// ``RenderScratch/keep(_:)-paths``).
    init(_ dissection: Dissection, scratch: RenderScratch? = nil) {
        text = scratch?.pathText ?? TextSink(capacity: dissection.nodes.count * 24)
        (starts, ends) = scratch?.takePathTables() ?? ([], [])
        Self.fill(dissection, &text, &starts, &ends) { index, node, names, text, starts, ends in
            Self.appendPath(of: index, node, names, to: &text, starts: starts, ends: ends)
        }
    }

    /// Fills a text per node into `text`, its bounds into `starts` and `ends` (emptied first):
    /// `append` writes node `index`'s, and may copy any earlier node's, as a parent comes before
    /// its children.
    static func fill(_ dissection: Dissection, _ text: inout TextSink, _ starts: inout [Int], _ ends: inout [Int],
                     append: (Int, FieldNode, NameTable, inout TextSink, UnsafeMutableBufferPointer<Int>,
                              UnsafeMutableBufferPointer<Int>) -> Void) {
        let names = dissection.schema.names
        let nodeBuffer = dissection.nodes.buffer
        text.removeAll()
        starts.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        starts.append(contentsOf: repeatElement(0, count: nodeBuffer.count))
        ends.append(contentsOf: repeatElement(0, count: nodeBuffer.count))
        // Both tables have a row per node.
        starts.withUnsafeMutableBufferPointer { starts in
        ends.withUnsafeMutableBufferPointer { ends in
            for index in nodeBuffer.indices {
                append(index, nodeBuffer[index], names, &text, starts, ends)
            }
        }
        }
    }

    /// Appends node `index`'s path to `text`, where the path of every earlier node was appended
    /// (at `starts`/`ends`, which this fills in for `index`), and returns where its own name
    /// starts in `text`, or nil when the path is a protocol's abbreviation instead. Nodes come in
    /// pre-order, so each path is its parent's, already written, plus one step.
    @discardableResult
    static func appendPath(of index: Int, _ node: FieldNode, _ names: NameTable, to text: inout TextSink,
                           starts: UnsafeMutableBufferPointer<Int>, ends: UnsafeMutableBufferPointer<Int>) -> Int? {
        let start = text.count
        let parent = Int(node.parent)
        var nameStart: Int? = start
        if case .structure(let structID) = node.kind, let abbreviation = names.protocolAbbreviation(Int(structID)) {
            // A protocol layer starts a new path.
            text.append(contentsOf: abbreviation)
            nameStart = nil
        } else if parent < 0 || parent >= index {
            appendName(of: node, names, into: &text)
        } else {
            text.appendCopy(starts[parent]..<ends[parent])
            if node.arrayIndex < 0 { text.append(byte: UInt8(ascii: ".")) }
            nameStart = text.count
            appendName(of: node, names, into: &text)
        }
        starts[index] = start
        ends[index] = text.count
        return nameStart
    }

    /// A node's own name: its field's, `[i]` for an array element, its struct's for the root.
    static func appendName(of node: FieldNode, _ names: NameTable, into sink: inout TextSink) {
        if node.arrayIndex >= 0 {
            sink.append(byte: UInt8(ascii: "["))
            sink.appendDecimal(node.arrayIndex)
            sink.append(byte: UInt8(ascii: "]"))
        } else if node.fieldID >= 0 {
            sink.append(contentsOf: names.fieldName(Int(node.fieldID)))
        } else if case .structure(let structID) = node.kind {
            sink.append(contentsOf: names.structName(Int(structID)))
        } else {
            sink.append(byte: UInt8(ascii: "?"))
        }
    }

    /// The start and end tables, for reuse.
    var tables: (starts: [Int], ends: [Int]) { (starts, ends) }

    /// Characters (UTF-8 bytes; names are ASCII identifiers) in the node's path.
    func length(of index: Int) -> Int { ends[index] - starts[index] }

    func write(_ index: Int, into sink: inout TextSink) {
        sink.append(contentsOf: UnsafeBufferPointer(rebasing: text.bytes[starts[index]..<ends[index]]))
    }

    /// Calls `body` with node `index`'s path.
    func withPath<Result>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        body(UnsafeBufferPointer(rebasing: text.bytes[starts[index]..<ends[index]]))
    }
}

/// Every node's filter name, the name a Wireshark user types (`tcp.srcport`,
/// `tls.handshake.extensions_server_name`), built once per frame as paths are: a protocol layer
/// starts at its abbreviation; an array element is named as its array; a field adds its segment
/// to its parent's name (`@name("srcport")` or its own), or has a whole name of its own, or none
/// (`@name("")`: its parent's).
struct FilterNameTable {
    private var text: TextSink
    private var starts: [Int]
    private var ends: [Int]

    /// With `scratch`, the table reuses the memory of an earlier frame's (give it back with
    /// ``RenderScratch/keep(_:)-filters``).
    init(_ dissection: Dissection, scratch: RenderScratch? = nil) {
        text = scratch?.filterText ?? TextSink(capacity: dissection.nodes.count * 24)
        (starts, ends) = scratch?.takeFilterTables() ?? ([], [])
        PathTable.fill(dissection, &text, &starts, &ends) { index, node, names, text, starts, ends in
            Self.appendFilterName(of: index, node, names, to: &text, starts: starts, ends: ends)
        }
    }

    /// Appends node `index`'s filter name to `text`, where every earlier node's was appended (at
    /// `starts`/`ends`, which this fills in for `index`).
    static func appendFilterName(of index: Int, _ node: FieldNode, _ names: NameTable, to text: inout TextSink,
                                 starts: UnsafeMutableBufferPointer<Int>, ends: UnsafeMutableBufferPointer<Int>) {
        let start = text.count
        let parent = Int(node.parent)
        if case .structure(let structID) = node.kind, let abbreviation = names.protocolAbbreviation(Int(structID)) {
            text.append(contentsOf: abbreviation)
        } else if parent < 0 || parent >= index {
            PathTable.appendName(of: node, names, into: &text)
        } else if node.arrayIndex >= 0 {
            text.appendCopy(starts[parent]..<ends[parent])
        } else if let naming = names.filterNaming(field: Int(node.fieldID)) {
            switch naming.kind {
            case .transparent:
                text.appendCopy(starts[parent]..<ends[parent])
            case .absolute:
                text.append(contentsOf: naming.text)
            case .segment:
                text.appendCopy(starts[parent]..<ends[parent])
                if ends[parent] > starts[parent] { text.append(byte: UInt8(ascii: ".")) }
                text.append(contentsOf: naming.text)
            }
        } else {
            text.appendCopy(starts[parent]..<ends[parent])
        }
        starts[index] = start
        ends[index] = text.count
    }

    /// The start and end tables, for reuse.
    var tables: (starts: [Int], ends: [Int]) { (starts, ends) }

    /// Whether node `index`'s filter name is its path without the array indices (`tcp.options.kind`
    /// for `tcp.options[2].kind`), as it is unless a schema names the field otherwise.
    func isPath(_ paths: PathTable, at index: Int) -> Bool {
        let name = UnsafeBufferPointer(rebasing: text.bytes[starts[index]..<ends[index]])
        return paths.withPath(index) { path in
            var position = 0
            var inIndex = false
            for byte in path {
                if byte == UInt8(ascii: "[") { inIndex = true; continue }
                if inIndex {
                    if byte == UInt8(ascii: "]") { inIndex = false }
                    continue
                }
                guard position < name.count, name[position] == byte else { return false }
                position += 1
            }
            return position == name.count
        }
    }

    /// Characters (UTF-8 bytes) in the node's filter name.
    func length(of index: Int) -> Int { ends[index] - starts[index] }

    func write(_ index: Int, into sink: inout TextSink) {
        sink.append(contentsOf: UnsafeBufferPointer(rebasing: text.bytes[starts[index]..<ends[index]]))
    }
}
