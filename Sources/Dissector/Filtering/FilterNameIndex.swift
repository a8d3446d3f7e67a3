import BinarySchema

/// Each node's filter name of one frame, as an interned number: built as ``Dissection/filterName(of:)``
/// names nodes, with the names met in earlier frames remembered.
struct FilterNameIndex {
    var intern: [String: Int32] = [:]
    var internedText: [String] = []
    private(set) var ids: [Int32] = []
    private var segmentNames: [SegmentKey: Int32] = [:]
    private var protocolNames: [Int32: Int32] = [:]
    /// Per field ID, the parent name and name it had last (a field nearly always sits under the
    /// same name): the common case without hashing. -2 when none yet.
    private var lastParentName: [Int32] = []
    private var lastName: [Int32] = []

    private struct SegmentKey: Hashable {
        let parentName: Int32
        let fieldID: Int32
    }

    /// Names met past this many are not remembered (a frame of hostile names cannot grow the table
    /// without bound); a filter only looks for names it was compiled with, which were interned first.
    private static let internLimit = 1 << 16

    var count: Int { ids.count }

    mutating func id(of name: String) -> Int32 {
        if let id = intern[name] { return id }
        guard intern.count < Self.internLimit else { return -1 }
        let id = Int32(internedText.count)
        intern[name] = id
        internedText.append(name)
        return id
    }

    /// The interned name of struct `structID` when it is a protocol layer (its abbreviation), else nil; remembered.
    private mutating func protocolName(of structID: Int32, _ index: Int, _ dissection: Dissection) -> Int32? {
        if let known = protocolNames[structID] { return known >= 0 ? known : nil }
        let name = dissection.structType(of: index)?.protocolAbbreviation.map { id(of: $0) } ?? -1
        protocolNames[structID] = name
        return name >= 0 ? name : nil
    }

    mutating func fill(_ dissection: Dissection) {
        let nodes = dissection.nodes
        ids.removeAll(keepingCapacity: true)
        ids.reserveCapacity(nodes.count)
        let schema = dissection.schema
        for index in 0..<nodes.count {
            let node = nodes[index]
            let parent = Int(node.parent)
            var name: Int32 = -1
            if case .structure(let structID) = node.kind, let known = protocolName(of: structID, index, dissection) {
                name = known
            } else if parent < 0 || parent >= index {
                name = id(of: dissection.name(of: index))
            } else if node.arrayIndex >= 0 {
                name = ids[parent]
            } else if schema.fields.indices.contains(Int(node.fieldID)) {
                let parentName = ids[parent]
                let field = Int(node.fieldID)
                if lastName.count != schema.fields.count {
                    lastParentName = Array(repeating: -2, count: schema.fields.count)
                    lastName = Array(repeating: -1, count: schema.fields.count)
                }
                if lastParentName[field] == parentName {
                    ids.append(lastName[field])
                    continue
                }
                let key = SegmentKey(parentName: parentName, fieldID: node.fieldID)
                if let known = segmentNames[key] {
                    name = known
                } else {
                    switch schema.fields[Int(node.fieldID)].filterNaming {
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
            } else {
                name = ids[parent]
            }
            ids.append(name)
        }
    }
}
