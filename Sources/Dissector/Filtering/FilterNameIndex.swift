import BinarySchema

/// Each node's filter name of one frame, as an interned number, for the names a filter or a
/// field list asks about (``restrictToInternedNames()``): a node of another name gets -1. Names
/// are built as ``Dissection/filterName(of:)`` builds them, remembered from frame to frame.
///
/// Only the nodes that could bear a wanted name are named in full: a field whose own segment
/// no wanted name ends with, or a protocol whose abbreviation is not wanted, costs a table look-up.
/// Naming every node of every frame cost a display filter a third of `-q`'s time.
struct FilterNameIndex {
    var intern: [String: Int32] = [:]
    var internedText: [String] = []
    private(set) var ids: [Int32] = []
    /// Names with an ID below this are the ones asked about (Int32.max: every name is).
    private var wantedCount = Int32.max
    /// Per node: its full name, when worked out in the frame numbered `fullNameFrame` (frames are
    /// numbered here as they are filled).
    private var fullNames: [Int32] = []
    private var fullNameFrame: [UInt32] = []
    private var frameNumber: UInt32 = 0
    private var segmentNames: [SegmentKey: Int32] = [:]
    /// Per struct ID: the interned abbreviation of a protocol layer, -1 for another struct, -2 not yet known.
    private var protocolNames: [Int32] = []
    /// Per field ID: whether the field's own naming could give a wanted name, or it is named as
    /// what holds it (made at the first frame, for the frame's schema).
    private var fieldTests: [FieldTest] = []
    /// Per field ID, the parent name and name it had last (a field nearly always sits under the
    /// same name): the common case without hashing. -2 when none yet.
    private var lastParentName: [Int32] = []
    private var lastName: [Int32] = []

    private enum FieldTest: UInt8 {
        case never, maybe, asItsHolder
    }

    private struct SegmentKey: Hashable {
        let parentName: Int32
        let fieldID: Int32
    }

    /// Names met past this many are not remembered (a frame of hostile names cannot grow the table
    /// without bound); a filter only looks for names it was compiled with, which were interned first.
    private static let internLimit = 1 << 16

    /// The nodes of the frame filled last that bear a wanted name, in order: what a filter or a
    /// field list looks through, rather than every node.
    private(set) var namedNodes: [Int32] = []
    /// The nodes of the frame filled last (``ids`` may hold more entries, unused).
    private(set) var nodeCount = 0
    var count: Int { nodeCount }

    mutating func id(of name: String) -> Int32 {
        if let id = intern[name] { return id }
        guard intern.count < Self.internLimit else { return -1 }
        let id = Int32(internedText.count)
        intern[name] = id
        internedText.append(name)
        return id
    }

    /// From now on only the names interned so far are asked about: other nodes get -1.
    mutating func restrictToInternedNames() {
        wantedCount = Int32(internedText.count)
    }

    /// The interned name of struct `structID` when it is a protocol layer (its abbreviation), else -1; remembered.
    private mutating func protocolName(of structID: Int32, _ index: Int, _ dissection: Dissection) -> Int32 {
        let slot = Int(structID)
        guard protocolNames.indices.contains(slot) else { return -1 }
        if protocolNames[slot] != -2 { return protocolNames[slot] }
        let name = dissection.structType(of: index)?.protocolAbbreviation.map { id(of: $0) } ?? -1
        protocolNames[slot] = name
        return name
    }

    /// Sizes the per-schema tables for `schema` (once: a worker's frames share their schema).
    private mutating func prepare(for schema: Schema) {
        guard fieldTests.count != schema.fields.count || protocolNames.count != schema.structs.count else { return }
        protocolNames = Array(repeating: -2, count: schema.structs.count)
        lastParentName = Array(repeating: -2, count: schema.fields.count)
        lastName = Array(repeating: -1, count: schema.fields.count)
        let wanted = wantedCount == Int32.max ? nil : internedText.prefix(Int(wantedCount))
        fieldTests = schema.fields.map { field in
            // A struct's parameter or hidden working value is no protocol's field: never named.
            guard !field.isHidden && !field.isParameter else { return .never }
            switch field.filterNaming {
            case .transparent: return .asItsHolder
            case .absolute(let whole): return wanted.map { $0.contains(whole) } ?? true ? .maybe : .never
            case .segment(let segment):
                guard let wanted else { return .maybe }
                let suffix = "." + segment
                return wanted.contains { $0 == segment || $0.hasSuffix(suffix) } ? .maybe : .never
            }
        }
    }

    mutating func fill(_ dissection: Dissection) {
        let count = dissection.nodes.count
        prepare(for: dissection.schema)
        // The tables only grow: a frame uses the first `count` entries.
        if ids.count < count {
            let more = count - ids.count
            ids.append(contentsOf: repeatElement(-1, count: more))
            fullNames.append(contentsOf: repeatElement(-2, count: more))
            fullNameFrame.append(contentsOf: repeatElement(0, count: more))
        }
        nodeCount = count
        // A new frame number makes every remembered full name stale without touching them.
        frameNumber &+= 1
        if frameNumber == 0 {
            frameNumber = 1
            for index in fullNameFrame.indices { fullNameFrame[index] = 0 }
        }
        // Read in place: a node copied whole costs more than the few fields looked at here. The
        // names are written through a buffer of their own: an array element written in the loop
        // paid a uniqueness check each time.
        let nodes = dissection.nodes.buffer
        var names = ids
        ids = []
        namedNodes.removeAll(keepingCapacity: true)
        names.withUnsafeMutableBufferPointer { names in
            for index in 0..<count {
                let parent = Int(nodes[index].parent)
                var name: Int32 = -1
                if case .structure(let structID) = nodes[index].kind,
                   case let known = protocolName(of: structID, index, dissection), known >= 0 {
                    name = known
                } else if parent < 0 || parent >= index {
                    name = fullName(of: index, dissection)
                } else if nodes[index].arrayIndex >= 0 {
                    name = names[parent]
                } else {
                    let field = Int(nodes[index].fieldID)
                    if field >= 0 && field < fieldTests.count {
                        switch fieldTests[field] {
                        case .never: name = -1
                        case .asItsHolder:
                            name = names[parent]
                            // A value that carries its holder's name takes it from the holder, as
                            // `snmp.version` is the integer, not the struct around it. A struct
                            // (a chosen case, a body) leaves it to both: it is no value.
                            if name >= 0, !nodes[index].isStructOrArray { names[parent] = -1 }
                        case .maybe: name = fullName(of: index, dissection)
                        }
                    } else {
                        name = names[parent]
                    }
                }
                if name >= 0 && name < wantedCount {
                    names[index] = name
                    namedNodes.append(Int32(truncatingIfNeeded: index))
                } else {
                    names[index] = -1
                }
            }
        }
        ids = names
    }

    /// Node `index`'s whole filter name, working out its holders' as needed (each once a frame).
    private mutating func fullName(of index: Int, _ dissection: Dissection) -> Int32 {
        guard fullNames.indices.contains(index) else { return -1 }
        if fullNameFrame[index] == frameNumber { return fullNames[index] }
        let node = dissection.nodes[index]
        let parent = Int(node.parent)
        var name: Int32 = -1
        if case .structure(let structID) = node.kind, case let known = protocolName(of: structID, index, dissection), known >= 0 {
            name = known
        } else if parent < 0 || parent >= index {
            name = id(of: dissection.name(of: index))
        } else if node.arrayIndex >= 0 {
            name = fullName(of: parent, dissection)
        } else if lastName.indices.contains(Int(node.fieldID)) {
            let parentName = fullName(of: parent, dissection)
            let field = Int(node.fieldID)
            if lastParentName[field] == parentName {
                name = lastName[field]
            } else {
                let key = SegmentKey(parentName: parentName, fieldID: node.fieldID)
                if let known = segmentNames[key] {
                    name = known
                } else {
                    switch schema(dissection).fields[field].filterNaming {
                    case .transparent: name = parentName
                    case .absolute(let whole): name = id(of: whole)
                    case .segment(let segment):
                        let prefix = parentName >= 0 ? internedText[Int(parentName)] : ""
                        name = id(of: prefix.isEmpty ? segment : prefix + "." + segment)
                    }
                    if segmentNames.count < Self.internLimit { segmentNames[key] = name }
                }
                lastParentName[field] = parentName
                lastName[field] = name
            }
        } else {
            name = fullName(of: parent, dissection)
        }
        fullNames[index] = name
        fullNameFrame[index] = frameNumber
        return name
    }

    private func schema(_ dissection: Dissection) -> Schema { dissection.schema }
}

private extension FieldNode {
    var isStructOrArray: Bool {
        switch kind {
        case .structure, .array: return true
        default: return false
        }
    }
}
