import BinarySchema

/// Which nodes a view shows: every node but the values a schema keeps for its own working
/// (`hidden let`), unless the options ask for them; and each shown node's position among the
/// shown, for the views that refer to fields by number (JSON, HTML).
///
/// A hidden value is a leaf (a computed value has no children), so hiding it never orphans a
/// node. The failing or cut node is always shown, whatever its field.
struct ShownNodes {
    /// Per node, its position among the shown nodes (-1 when hidden); empty when all are shown,
    /// as in most frames, which then cost one look per node and no table.
    private let positions: [Int32]

    init(_ dissection: Dissection, showsHidden: Bool) {
        let names = dissection.schema.names
        let nodes = dissection.nodes.buffer
        guard !showsHidden, let first = nodes.indices.first(where: { names.isHidden(field: Int(nodes[$0].fieldID)) }) else {
            positions = []
            return
        }
        let kept = [dissection.errorNode, dissection.cutNode]
        var positions: [Int32] = []
        positions.reserveCapacity(nodes.count)
        var next: Int32 = 0
        for index in nodes.indices {
            if index >= first, names.isHidden(field: Int(nodes[index].fieldID)), !kept.contains(index) {
                positions.append(-1)
            } else {
                positions.append(next)
                next += 1
            }
        }
        self.positions = positions
    }

    /// The nodes of the layers `selection` names (`-j`, `-J`), less the hidden values unless
    /// `showsHidden`. A shown node that is not a layer is in the same layers as its parent, so its
    /// parent is shown too; the failing or cut node is shown only where its layer is.
    init(_ dissection: Dissection, showsHidden: Bool, selection: LayerSelection) {
        let names = dissection.schema.names
        let nodes = dissection.nodes.buffer
        let selected = selection.selectedNodes(of: dissection)
        let kept = [dissection.errorNode, dissection.cutNode]
        var positions: [Int32] = []
        positions.reserveCapacity(nodes.count)
        var next: Int32 = 0
        for index in nodes.indices {
            let hidden = !showsHidden && names.isHidden(field: Int(nodes[index].fieldID)) && !kept.contains(index)
            if selected[index], !hidden {
                positions.append(next)
                next += 1
            } else {
                positions.append(-1)
            }
        }
        self.positions = positions
    }

    /// Whether the view shows node `index`.
    @inline(__always)
    func isShown(_ index: Int) -> Bool { positions.isEmpty || positions[index] >= 0 }

    /// Node `index`'s number among the shown nodes (itself when all are shown); a hidden node's
    /// is -1. Indices below 0 (a root's parent) stay as they are.
    @inline(__always)
    func position(of index: Int) -> Int {
        guard !positions.isEmpty, index >= 0, index < positions.count else { return index }
        return Int(positions[index])
    }
}
