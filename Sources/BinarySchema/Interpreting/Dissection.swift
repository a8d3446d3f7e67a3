import BinaryIO

/// What kind of value a node holds.
public enum NodeKind: Sendable, Hashable {
    case structure(structID: Int32)
    case array
    case integer
    case enumeration(enumID: Int32)
    case float
    case boolean
    case bytes
    case string
    case dnsName
}

/// The value read for a node. Bytes and strings are not copied: their bytes are the node's span.
public enum FieldValue: Sendable, Hashable {
    /// Structs; arrays hold their element count as `.unsigned`.
    case none
    case unsigned(UInt64)
    case signed(Int64)
    case float(Double)
    case boolean(Bool)
    /// The node's span holds the bytes.
    case bytes
    /// Text in the node's span (in its ``FieldNode/textEncoding``), ending at `contentEnd`: a
    /// terminator (a `cstring`'s NUL) follows it.
    case string(contentEnd: Int)
    /// A decoded DNS name, by index into the dissection's texts.
    case text(Int32)
}

/// One decoded field: where it lies in the buffer and what it holds. Nodes are
/// stored in pre-order; a node's descendants are the nodes after it up to ``subtreeEnd``.
public struct FieldNode: Sendable {
    /// Index into ``Schema/fields``; -1 for the root struct.
    public internal(set) var fieldID: Int32
    /// What the node holds.
    public internal(set) var kind: NodeKind
    /// Index of the parent node; -1 for the root.
    public internal(set) var parent: Int32
    /// Position in the parent array, or -1.
    public internal(set) var arrayIndex: Int32
    /// Absolute start, in bits from the start of the buffer.
    public internal(set) var bitStart: Int
    /// Absolute end (exclusive), in bits.
    public internal(set) var bitEnd: Int
    /// The value read.
    public internal(set) var value: FieldValue
    /// Index after this node's last descendant.
    public internal(set) var subtreeEnd: Int32
    /// Whether the value was read as a bit field rather than as whole bytes.
    public internal(set) var isBitField: Bool
    /// The display its type implies (`mac`, `ipv4`, `ipv6`), which a field's own hint overrides.
    public internal(set) var impliedDisplay: DisplayHint
    /// For strings: the encoding their bytes are read in.
    public internal(set) var textEncoding: TextEncoding = .utf8
    /// For strings: whether some bytes are not text in ``textEncoding``. Such a string is kept,
    /// not an error: views show those bytes escaped and flag the field.
    public internal(set) var isInvalidText = false
    /// For structs: index of the frame holding its fields' node indices.
    var frame: Int32

    /// Byte offset of the first byte the node touches.
    public var byteOffset: Int { bitStart >> 3 }
    /// Bytes the node touches, partial bytes included.
    public var byteLength: Int { ((bitEnd + 7) >> 3) - (bitStart >> 3) }
    /// Width in bits.
    public var bitWidth: Int { bitEnd - bitStart }
}

/// The run-time record of one struct instance: where its fields' nodes are.
struct Frame: Sendable {
    let node: Int32
    let slotBase: Int32
    let parent: Int32
    let structID: Int32
    /// The scope's byte limit when the struct started (the end of a `@offset_base` message).
    let limit: Int
    /// Where its arguments start on the walk's argument stack, or -1 when nothing passed any.
    var arguments: Int32 = -1
}

/// The memory a walk fills: nodes, struct frames and field slots, reused from one buffer to
/// the next. Plain values in ``GrowableBuffer``s, so appending touches no reference counts.
final class NodeStore {
    private let leadingPadding = CacheLinePadding()
    @exclusivity(unchecked) var nodes: GrowableBuffer<FieldNode>
    @exclusivity(unchecked) private(set) var frames: GrowableBuffer<Frame>
    @exclusivity(unchecked) var slots: GrowableBuffer<Int32>
    /// Decoded DNS names, by index.
    @exclusivity(unchecked) var texts: [String] = []
    /// The checksum fields verified after the walk, in node order.
    @exclusivity(unchecked) var checksumMarks = GrowableBuffer<ChecksumMark>(capacity: 4)
    /// Nodes of the structs the interpreter notes (``Interpreter/noteStructs(_:)``), as dispatches chose them.
    @exclusivity(unchecked) var notedNodes = GrowableBuffer<Int32>(capacity: 4)
    /// The element nodes of arrays indexed by a computed index so far, by array node: each list
    /// a prefix of the array's elements. Emptied whenever nodes are removed.
    @exclusivity(unchecked) var elementStarts: [Int32: [Int32]] = [:]
    /// Elements the walk's aggregates (`sum(a, …)`, `any(a, …)`) have visited, against ``aggregateLimit``.
    @exclusivity(unchecked) var aggregateSteps = 0
    private let trailingPadding = CacheLinePadding()

    init(nodeCapacity: Int = 256) {
        nodes = GrowableBuffer(capacity: nodeCapacity)
        frames = GrowableBuffer(capacity: nodeCapacity / 4)
        slots = GrowableBuffer(capacity: nodeCapacity)
    }

    var nodeCount: Int { nodes.count }
    var frameCount: Int { frames.count }
    var slotCount: Int { slots.count }

    func reset() {
        nodes.removeAll()
        frames.removeAll()
        slots.removeAll()
        if !texts.isEmpty { texts.removeAll(keepingCapacity: true) }
        checksumMarks.removeAll()
        notedNodes.removeAll()
        if !elementStarts.isEmpty { elementStarts.removeAll(keepingCapacity: true) }
        aggregateSteps = 0
    }

    /// The most elements the aggregates of one walk visit: an aggregate in every element of a
    /// large array over that same array would otherwise cost the square of its size.
    static let aggregateLimit = 1 << 24

    /// What the store holds, to roll back to with ``rollBack(to:)``.
    struct Mark {
        let nodes: Int
        let frames: Int
        let slots: Int
        let texts: Int
        /// Checksums verified during the walk.
        let checksumMarks: Int
        let notedNodes: Int
    }

    var mark: Mark {
        Mark(nodes: nodeCount, frames: frameCount, slots: slotCount, texts: texts.count, checksumMarks: checksumMarks.count,
             notedNodes: notedNodes.count)
    }

    /// Forgets everything appended since `mark` was taken (a heuristic that did not claim its payload).
    func rollBack(to mark: Mark) {
        nodes.removeLast(keeping: min(mark.nodes, nodeCount))
        frames.removeLast(keeping: min(mark.frames, frameCount))
        slots.removeLast(keeping: min(mark.slots, slotCount))
        if texts.count > mark.texts { texts.removeLast(texts.count - mark.texts) }
        checksumMarks.removeLast(keeping: min(mark.checksumMarks, checksumMarks.count))
        notedNodes.removeLast(keeping: min(mark.notedNodes, notedNodes.count))
        if !elementStarts.isEmpty { elementStarts.removeAll(keepingCapacity: true) }
    }

    /// A copy holding just what was filled, for a dissection that outlives the next walk.
    func copy() -> NodeStore {
        let copy = NodeStore(nodeCapacity: max(4, nodeCount, slotCount, frameCount * 4))
        copy.nodes.append(contentsOf: nodes)
        copy.frames.append(contentsOf: frames)
        copy.slots.append(contentsOf: slots)
        copy.texts = texts
        copy.checksumMarks.append(contentsOf: checksumMarks)
        copy.notedNodes.append(contentsOf: notedNodes)
        return copy
    }

    @inline(__always)
    func appendNode(_ node: FieldNode) -> Int32 {
        Int32(truncatingIfNeeded: nodes.append(node))
    }

    @inline(__always)
    func appendFrame(_ frame: Frame) -> Int32 {
        Int32(truncatingIfNeeded: frames.append(frame))
    }

    /// Appends `count` empty slots (-1: field absent); returns the first one's index.
    @inline(__always)
    func appendSlots(_ count: Int) -> Int {
        slots.append(repeating: -1, count: count)
    }

    // MARK: Reading, bounds-checked against what was filled

    /// The node a slot holds, or nil when the slot is outside the filled region or empty.
    @inline(__always)
    func slotNode(_ frame: Frame, _ slot: Int32) -> Int32? {
        slotNode(at: Int(frame.slotBase) + Int(slot))
    }

    /// The node in slot `index` of the walk's slots, if that field was read.
    @inline(__always)
    func slotNode(at index: Int) -> Int32? {
        guard index >= 0, index < slotCount else { return nil }
        let node = slots[index]
        return node >= 0 && Int(node) < nodeCount ? node : nil
    }

    @inline(__always)
    func frame(_ index: Int32) -> Frame? {
        index >= 0 && Int(index) < frameCount ? frames[Int(index)] : nil
    }

    /// Whether the node reference `index` names was read: `resolve` without the absent-field (or
    /// index-out-of-range) error.
    func isPresent(_ index: Int32, plan: ExecutionPlan, frame: Int32, element: Int32,
                   computedIndex: Int64 = -1) throws(EvaluationFailure) -> Bool {
        do {
            _ = try resolve(index, plan: plan, frame: frame, element: element, computedIndex: computedIndex)
            return true
        } catch {
            switch error {
            case .absentField, .indexOutOfRange: return false
            default: throw error
            }
        }
    }

    /// The node reference `index` of `plan` names, seen from `frame` (the current struct) and
    /// `element` (for `it`); a step with a computed index takes `computedIndex`.
    func resolve(_ index: Int32, plan: ExecutionPlan, frame: Int32, element: Int32,
                 computedIndex: Int64 = -1) throws(EvaluationFailure) -> Int32 {
        let reference = plan.references[index]
        var node: Int32
        var slotIndex = reference.slotStart
        let slotEnd = reference.slotStart + reference.slotCount
        if reference.isElement {
            guard element >= 0, Int(element) < nodeCount else { throw .absentField(plan.referenceTexts[Int(index)]) }
            node = element
        } else {
            var frameIndex = frame
            for _ in 0..<reference.levelsUp {
                guard let current = self.frame(frameIndex) else { throw .noEnclosingStruct(plan.referenceTexts[Int(index)]) }
                frameIndex = current.parent
            }
            guard let target = self.frame(frameIndex), slotIndex < slotEnd else {
                throw .noEnclosingStruct(plan.referenceTexts[Int(index)])
            }
            var slot = plan.referenceSlots[slotIndex].value
            if reference.levelsUp > 0 {
                // `parent.x`: x's slot depends on which struct encloses this one.
                slot = -1
                for candidate in reference.parentSlotStart..<(reference.parentSlotStart + reference.parentSlotCount) {
                    let entry = plan.parentSlots[candidate]
                    if entry.structID == target.structID { slot = entry.slot }
                }
                guard slot >= 0 else { throw .noEnclosingStruct(plan.referenceTexts[Int(index)]) }
            }
            guard let found = slotNode(target, slot) else { throw .absentField(plan.referenceTexts[Int(index)]) }
            node = found
            slotIndex += 1
        }
        while slotIndex < slotEnd {
            let step = plan.referenceSlots[slotIndex]
            var found: Int32?
            switch step.kind {
            case 0:
                if let nested = self.frame(nodes[Int(node)].frame) { found = slotNode(nested, step.value) }
            case 1:
                // Through a switch or dispatch: the slot in whichever struct was read.
                if case .structure = nodes[Int(node)].kind, let nested = self.frame(nodes[Int(node)].frame) {
                    for candidate in step.value..<(step.value + step.count) where plan.parentSlots[candidate].structID == nested.structID {
                        found = slotNode(nested, plan.parentSlots[candidate].slot)
                    }
                }
            case 2, 4:
                let position = step.kind == 2 ? Int64(step.value) : computedIndex
                found = self.element(position, of: node)
                if found == nil, let count = elementsRead(of: node) {
                    throw .indexOutOfRange(plan.referenceTexts[Int(index)], index: position, count: count,
                                           isBeingRead: isBeingRead(array: node))
                }
            default:
                found = lastElement(of: node)
            }
            guard let found else { throw .absentField(plan.referenceTexts[Int(index)]) }
            node = found
            slotIndex += 1
        }
        return node
    }

    /// The elements of an array node read so far (all of them once it is finished); nil for another node.
    func elementsRead(of array: Int32) -> Int64? {
        guard array >= 0, Int(array) < nodeCount, case .array = nodes[Int(array)].kind else { return nil }
        if case .unsigned(let count) = nodes[Int(array)].value { return Int64(clamping: count) }
        return 0
    }

    /// Whether an array node is still being read: it has elements but no end yet (an element
    /// reading the array it belongs to).
    func isBeingRead(array: Int32) -> Bool {
        // A finished array's subtree ends past its elements; one being read has no end yet, and
        // the node after it is its first element, not a sibling.
        guard array >= 0, Int(array) + 1 < nodeCount, case .array = nodes[Int(array)].kind else { return false }
        return nodes[Int(array)].subtreeEnd == array + 1 && nodes[Int(array) + 1].parent == array
    }

    /// Element `position` of an array node, finished or still being read (then only among the
    /// elements read so far). An array of leaves finds it at once; otherwise the elements are
    /// found subtree by subtree, and remembered (``elementStarts``) so that indexing the same
    /// array again costs no more than the elements not yet found.
    func element(_ position: Int64, of array: Int32) -> Int32? {
        guard let count = elementsRead(of: array), position >= 0, position < count else { return nil }
        let direct = Int64(array) + 1 + position
        if direct < Int64(nodeCount), nodes[Int(direct)].parent == array, Int64(nodes[Int(direct)].arrayIndex) == position {
            return Int32(direct)
        }
        let end = isBeingRead(array: array) ? Int32(truncatingIfNeeded: nodeCount)
            : min(nodes[Int(array)].subtreeEnd, Int32(truncatingIfNeeded: nodeCount))
        var starts = elementStarts.removeValue(forKey: array) ?? []
        defer { elementStarts[array] = starts }
        var child = starts.last.map { max($0 + 1, nodes[Int($0)].subtreeEnd) } ?? array + 1
        while Int64(starts.count) <= position, child < end {
            starts.append(child)
            child = max(child + 1, nodes[Int(child)].subtreeEnd)
        }
        return Int64(starts.count) > position ? starts[Int(position)] : nil
    }

    /// The last element of an array node: up the parent links from its last node, so the
    /// cost is the nesting depth, not the array's size.
    func lastElement(of array: Int32) -> Int32? {
        guard array >= 0, Int(array) < nodeCount, case .array = nodes[Int(array)].kind else { return nil }
        if isBeingRead(array: array), let count = elementsRead(of: array) { return element(count - 1, of: array) }
        var node = min(nodes[Int(array)].subtreeEnd, Int32(truncatingIfNeeded: nodeCount)) - 1
        while node > array {
            let parent = nodes[Int(node)].parent
            if parent == array { return node }
            // Parents come before their children; a link that does not is not followed.
            guard parent < node else { return nil }
            node = parent
        }
        return nil
    }

    /// The node's value as an expression sees it.
    @inline(__always)
    func integerValue(of node: Int32, _ text: @autoclosure () -> String) throws(EvaluationFailure) -> Int64 {
        switch nodes[Int(node)].value {
        case .unsigned(let value):
            guard value <= UInt64(Int64.max) else { throw .overflow }
            return Int64(value)
        case .signed(let value): return value
        case .boolean(let value): return value ? 1 : 0
        default: throw .absentField(text())
        }
    }

    /// Whether the bytes of a bytes or string node (a string's text, without its terminator)
    /// are `literal`; false for other nodes.
    func bytes(of node: Int32, in buffer: [UInt8], equal literal: UnsafeBufferPointer<UInt8>) -> Bool {
        let entry = nodes[Int(node)]
        let start = entry.byteOffset
        var end: Int
        switch entry.value {
        case .string(let contentEnd): end = contentEnd
        case .bytes: end = start + entry.byteLength
        default: return false
        }
        end = min(end, buffer.count)
        guard start <= end, end - start == literal.count else { return false }
        var index = 0
        while index < literal.count {
            if buffer[start + index] != literal[index] { return false }
            index += 1
        }
        return true
    }

    /// `len(x)`: bytes of bytes and strings, elements of arrays.
    func length(of node: Int32) -> Int64 {
        let entry = nodes[Int(node)]
        switch (entry.kind, entry.value) {
        case (.array, .unsigned(let count)): return Int64(clamping: count)
        case (_, .string(let contentEnd)): return Int64(contentEnd - entry.byteOffset)
        default: return Int64(entry.byteLength)
        }
    }
}

/// The nodes of a dissection, in pre-order.
public struct FieldNodes: RandomAccessCollection {
    let store: NodeStore
    /// How many nodes.
    public let count: Int

    /// 0.
    public var startIndex: Int { 0 }
    /// ``count``.
    public var endIndex: Int { count }

    /// Node `index`, which must be below ``count``.
    public subscript(index: Int) -> FieldNode {
        precondition(index >= 0 && index < count, "node index \(index) out of range 0..<\(count)")
        return store.nodes[index]
    }

    /// The nodes in place, for loops over every node that read a field or two of each: valid
    /// while the dissection is (the walk that filled them was its last).
    package var buffer: UnsafeBufferPointer<FieldNode> { store.nodes.elements }
}

/// A struct node the interpreter noted (``Dissection/notedStruct(at:)``): where it is
/// in the tree and in the buffer, as plain numbers that outlive the dissection.
package struct NotedStruct: Sendable, Hashable {
    package var node: Int32
    package var structID: Int32
    /// The node's parent, or -1 for the root.
    package var parent: Int32
    /// Its span, in bits from the start of the buffer.
    package var bitStart: Int
    package var bitEnd: Int

    package init(node: Int32, structID: Int32, parent: Int32, bitStart: Int, bitEnd: Int) {
        self.node = node
        self.structID = structID
        self.parent = parent
        self.bitStart = bitStart
        self.bitEnd = bitEnd
    }

    package var byteOffset: Int { bitStart >> 3 }
    package var byteEnd: Int { (bitEnd + 7) >> 3 }
}

/// The result of walking a schema over a buffer: every field read, in pre-order,
/// and the error that stopped the walk if there was one. Fields read before an
/// error are all kept; the failing field is the node ``DissectionError/node``.
/// In a frame the capture cut short, the walk may stop at the end of the captured bytes
/// instead: that is ``cut``, not an error.
public struct Dissection {
    /// The schema walked.
    public let schema: Schema
    /// The buffer dissected.
    public let bytes: [UInt8]
    /// The frame's length on the wire: more than `bytes.count` when the capture cut it short,
    /// else `bytes.count`.
    public let originalLength: Int
    /// Every node, in pre-order; node 0 is the root struct.
    public let nodes: FieldNodes
    /// The error that stopped the walk, or nil if it reached the end of the root struct (or a cut).
    public let error: DissectionError?
    /// The failing node (``DissectionError/node``), or -1: a plain integer for per-node checks.
    public let errorNode: Int
    /// The node the end of the captured bytes stopped the walk at (``DissectionCut/node``), or -1.
    public let cutNode: Int
    /// What that field needs (``DissectionCut/needed``). The cut is kept as plain integers, so
    /// handing a dissection on costs whole frames nothing; ``cut`` describes it.
    private let cutNeeded: Int?
    /// How many checksum fields the walk verified: views look for marks only when there are some.
    package let checksumCount: Int
    var state: NodeStore { nodes.store }

    init(schema: Schema, bytes: [UInt8], originalLength: Int? = nil, store: NodeStore, error: DissectionError?,
         cutNode: Int = -1, cutNeeded: Int? = nil) {
        self.schema = schema
        self.bytes = bytes
        self.originalLength = max(bytes.count, originalLength ?? 0)
        self.nodes = FieldNodes(store: store, count: store.nodeCount)
        self.error = error
        errorNode = error?.node ?? -1
        self.cutNode = errorNode < 0 && cutNode >= 0 && cutNode < store.nodeCount ? cutNode : -1
        self.cutNeeded = cutNeeded
        checksumCount = store.checksumMarks.count
    }

    /// Where the end of the captured bytes stopped the walk of a cut frame, or nil; never set
    /// together with ``error``.
    public var cut: DissectionCut? {
        guard cutNode >= 0 else { return nil }
        let node = nodes[cutNode]
        return DissectionCut(capturedLength: bytes.count, originalLength: originalLength, path: path(of: cutNode),
                             offset: node.byteOffset, bitOffset: node.bitStart & 7, needed: cutNeeded, node: cutNode)
    }

    /// Whether the capture kept fewer bytes than the frame had on the wire.
    public var isTruncated: Bool { originalLength > bytes.count }

    /// The node where the walk stopped, at an error or a cut, or -1: it holds no value, only
    /// the bytes its field could see.
    package var stopNode: Int { errorNode >= 0 ? errorNode : cutNode }

    /// How many structs the interpreter noted (``Interpreter/noteStructs(_:)``), in the order
    /// dispatches and heuristics chose them; ``notedStruct(at:)`` reads each.
    package var notedStructCount: Int { nodes.store.notedNodes.count }

    /// The `position`th struct the interpreter noted, or nil for a node a failed read left behind.
    /// The store is read through the dissection's own reference, not a copy of it: a copy costs a
    /// retain and a release on every frame.
    package func notedStruct(at position: Int) -> NotedStruct? {
        guard position >= 0, position < nodes.store.notedNodes.count else { return nil }
        let node = Int(nodes.store.notedNodes[position])
        guard node >= 0, node < nodes.count else { return nil }
        let noted = nodes.store.nodes[node]
        guard case .structure(let id) = noted.kind else { return nil }
        return NotedStruct(node: Int32(truncatingIfNeeded: node), structID: id, parent: noted.parent,
                           bitStart: noted.bitStart, bitEnd: noted.bitEnd)
    }

    /// Indices of the direct children of node `index`.
    public func children(of index: Int) -> [Int] {
        var result: [Int] = []
        var child = index + 1
        let end = min(Int(nodes[index].subtreeEnd), nodes.count)
        while child < end {
            result.append(child)
            child = max(child + 1, Int(nodes[child].subtreeEnd))
        }
        return result
    }

    /// The node of the field in `slot` (``Field/slot``) of the struct at node `index`, or nil
    /// when that field was not read (absent, or after an error).
    public func fieldNode(ofStruct index: Int, slot: Int) -> Int? {
        guard index >= 0, index < nodes.count, case .structure = nodes[index].kind,
              let frame = state.frame(nodes[index].frame), let node = state.slotNode(frame, Int32(truncatingIfNeeded: slot))
        else { return nil }
        return Int(node)
    }

    /// The schema field a node was read for, or nil for the root.
    public func field(of index: Int) -> Field? {
        let id = Int(nodes[index].fieldID)
        return id >= 0 ? schema.fields[id] : nil
    }

    /// The struct type of a struct node.
    public func structType(of index: Int) -> StructType? {
        if case .structure(let id) = nodes[index].kind { return schema.structs[Int(id)] }
        return nil
    }

    /// The node's own name: its field name, `[i]` for array elements.
    public func name(of index: Int) -> String {
        let node = nodes[index]
        if node.arrayIndex >= 0 { return "[\(node.arrayIndex)]" }
        return field(of: index)?.name ?? structType(of: index)?.name ?? "?"
    }

    /// The dotted path of a node: `ip.flags.df`, `tcp.options[2].kind`. A struct with
    /// `@protocol("x")` starts a new path at `x`.
    public func path(of index: Int) -> String {
        var components: [String] = []
        var current = index
        while current >= 0 {
            if let abbreviation = structType(of: current)?.protocolAbbreviation {
                components.append(abbreviation)
                break
            }
            let node = nodes[current]
            components.append(node.arrayIndex >= 0 ? "[\(node.arrayIndex)]" : name(of: current))
            current = Int(node.parent)
        }
        var path = ""
        for component in components.reversed() {
            if !path.isEmpty, !component.hasPrefix("[") { path += "." }
            path += component
        }
        return path
    }

    /// The node's filter name, the name a Wireshark user types in a filter (`tcp.srcport`,
    /// `tls.handshake.extensions_server_name`): no array indices, and the names the schema gives
    /// with `@name` (see ``FilterNaming``). Every element of an array has its array's name.
    public func filterName(of index: Int) -> String {
        var segments: [String] = []
        var current = index
        var previous = Int.max
        // Parents come before their children: a link that does not is not followed.
        while current >= 0, current < previous, current < nodes.count {
            let node = nodes[current]
            if let abbreviation = structType(of: current)?.protocolAbbreviation {
                segments.append(abbreviation)
                break
            }
            if node.parent < 0 {
                segments.append(name(of: current))
                break
            }
            if node.arrayIndex < 0, schema.fields.indices.contains(Int(node.fieldID)) {
                switch schema.fields[Int(node.fieldID)].filterNaming {
                case .segment(let segment): segments.append(segment)
                case .absolute(let whole): return ([whole] + segments.reversed()).joined(separator: ".")
                case .transparent: break
                }
            }
            previous = current
            current = Int(node.parent)
        }
        return segments.reversed().joined(separator: ".")
    }

    /// The index of the first node whose path is `path`, if any.
    public func node(at path: String) -> Int? {
        nodes.indices.first { self.path(of: $0) == path }
    }

    /// The bytes a node touches.
    public func rawBytes(of index: Int) -> ArraySlice<UInt8> { bytes[rawByteRange(of: nodes[index])] }

    /// Where in ``bytes`` the node's bytes are, clamped to the buffer (a failing field may
    /// claim bytes past its end).
    package func rawByteRange(of node: FieldNode) -> Range<Int> {
        let start = min(node.byteOffset, bytes.count)
        return start..<min(max(start, node.byteOffset + node.byteLength), bytes.count)
    }

    /// The text of a string or DNS-name node. In a string flagged ``FieldNode/isInvalidText``,
    /// each byte that is not text is written `\xHH`.
    public func text(of index: Int) -> String? {
        let node = nodes[index]
        switch node.value {
        case .string:
            let range = textByteRange(of: node)
            return bytes.withUnsafeBufferPointer { node.textEncoding.text(UnsafeBufferPointer(rebasing: $0[range])) }
        case .text(let textIndex):
            return state.texts.indices.contains(Int(textIndex)) ? state.texts[Int(textIndex)] : nil
        default:
            return nil
        }
    }

    /// Where a string node's text is in ``bytes`` (its terminator excluded); empty for other nodes.
    package func textByteRange(of node: FieldNode) -> Range<Int> {
        guard case .string(let contentEnd) = node.value else { return 0..<0 }
        let start = min(node.byteOffset, bytes.count)
        return start..<min(max(start, contentEnd), bytes.count)
    }

    /// The integer value of a node, if it holds one that fits (bools as 0/1, enums as raw value).
    public func integer(of index: Int) -> Int64? {
        guard nodes.indices.contains(index) else { return nil }
        return try? state.integerValue(of: Int32(index), "")
    }
}

extension Dissection {
    /// The values of a field's `@display` arguments, evaluated where the field was read;
    /// nil when the field has no `@display` or an argument cannot be evaluated.
    public func displayArguments(of index: Int) -> [Int64]? {
        let count = displayArgumentCount(of: index)
        guard count > 0 else { return schema.names.displayPieceCount(field: Int(nodes[index].fieldID)) > 0 ? [] : nil }
        var values = [Int64](repeating: 0, count: count)
        let evaluated = values.withUnsafeMutableBufferPointer { displayArguments(of: index, into: $0) }
        return evaluated ? values : nil
    }

    /// How many `@display` arguments the node's field has.
    package func displayArgumentCount(of index: Int) -> Int {
        let fieldID = nodes[index].fieldID
        let plan = schema.plan
        guard fieldID >= 0, Int(fieldID) + 1 < plan.displayArgumentStarts.count else { return 0 }
        return Int(plan.displayArgumentStarts[fieldID + 1] - plan.displayArgumentStarts[fieldID])
    }

    /// Evaluates the node's `@display` arguments into `values` (which holds at least
    /// ``displayArgumentCount(of:)``); false when one cannot be evaluated. Allocates nothing.
    package func displayArguments(of index: Int, into values: UnsafeMutableBufferPointer<Int64>) -> Bool {
        let count = displayArgumentCount(of: index)
        guard count > 0, values.count >= count else { return false }
        let plan = schema.plan
        let first = plan.displayArgumentStarts[nodes[index].fieldID]
        var context = RecordedFrameContext(state: state, plan: plan, frame: enclosingFrame(of: index), bytes: bytes)
        for position in 0..<count {
            let program = plan.displayArguments[first + Int32(position)]
            guard let value = try? Evaluator.run(plan.operations(of: program), in: &context) else { return false }
            values[position] = value
        }
        return true
    }

    /// The frame of the struct a node's field belongs to.
    private func enclosingFrame(of index: Int) -> Int32 {
        var current = Int(nodes[index].parent)
        while current >= 0 {
            let frame = nodes[current].frame
            if frame >= 0 { return frame }
            current = Int(nodes[current].parent)
        }
        return -1
    }
}

/// Evaluates expressions after the walk (`@display` arguments, checksum `when` conditions)
/// against the fields recorded for one struct.
struct RecordedFrameContext: NodeEvaluationContext {
    let state: NodeStore
    let plan: ExecutionPlan
    let frame: Int32
    let bytes: [UInt8]
    var elementNode: Int32 = -1

    var nodeStore: NodeStore { state }
    var nodePlan: ExecutionPlan { plan }
    var referenceFrame: Int32 { frame }
    var nodeBytes: [UInt8] { bytes }
    var argumentsElementIndex: Int32 { -1 }

    func slotValue(_ slot: Int32) -> Int64? {
        guard let current = state.frame(frame), let node = state.slotNode(current, slot) else { return nil }
        return try? state.integerValue(of: node, "field")
    }

    func slotFailure(_ slot: Int32) -> EvaluationFailure {
        guard let current = state.frame(frame) else { return .noEnclosingStruct("field") }
        guard let node = state.slotNode(current, slot) else { return .absentField("field") }
        do { _ = try state.integerValue(of: node, "field") } catch { return error }
        return .absentField("field")
    }

    func constant(_ index: Int32) -> Int64 { plan.constants[index] }

    func slotPresence(_ slot: Int32) -> Bool? {
        guard let current = state.frame(frame) else { return nil }
        return state.slotNode(current, slot) != nil
    }

    var presenceFailure: EvaluationFailure { .noEnclosingStruct("field") }

    var remainingBytes: Int64 { 0 }
    var currentOffset: Int64 { 0 }
    func peekByte(_ distance: Int64) throws(EvaluationFailure) -> Int64 { throw .notAvailable }
}
