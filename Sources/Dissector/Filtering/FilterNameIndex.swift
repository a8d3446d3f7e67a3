import BinarySchema

/// Each node's filter name of one frame, as an interned number: built as ``Dissection/filterName(of:)``
/// names nodes, with the names met in earlier frames remembered.
struct FilterNameIndex {
    var intern: [String: Int32] = [:]
    var internedText: [String] = []
    private(set) var ids: [Int32] = []
    private var segmentNames: [SegmentKey: Int32] = [:]
    private var protocolNames: [Int32: Int32] = [:]

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

    mutating func fill(_ dissection: Dissection) {
        let nodes = dissection.nodes
        ids.removeAll(keepingCapacity: true)
        ids.reserveCapacity(nodes.count)
        let schema = dissection.schema
        for index in 0..<nodes.count {
            let node = nodes[index]
            let parent = Int(node.parent)
            var name: Int32 = -1
            if case .structure(let structID) = node.kind, let abbreviation = dissection.structType(of: index)?.protocolAbbreviation {
                if let known = protocolNames[structID] {
                    name = known
                } else {
                    name = id(of: abbreviation)
                    protocolNames[structID] = name
                }
            } else if parent < 0 || parent >= index {
                name = id(of: dissection.name(of: index))
            } else if node.arrayIndex >= 0 {
                name = ids[parent]
            } else if schema.fields.indices.contains(Int(node.fieldID)) {
                let parentName = ids[parent]
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
            } else {
                name = ids[parent]
            }
            ids.append(name)
        }
    }
}
