import BinarySchema

/// Which protocol layers a view details, as tshark's options name them: `-j` (JSON: the named
/// layers' own fields), `-J` (JSON: the named layers and every layer they carry) and `-O` (the
/// tree: the named layers in full, every other layer as its heading line only).
public struct LayerSelection: Sendable, Equatable {
    /// The layers named, by protocol abbreviation (`ip`, `dns`).
    public let protocols: Set<String>
    /// Whether a named layer brings the layers it carries (tshark's `-J`), not only its own fields.
    public let includesCarriedLayers: Bool
    /// The names' bytes, compared with a layer's abbreviation as the schema's name table holds it.
    private let protocolBytes: [[UInt8]]

    /// A selection of `protocols`.
    public init(protocols: some Sequence<String>, includesCarriedLayers: Bool = false) {
        self.protocols = Set(protocols)
        self.includesCarriedLayers = includesCarriedLayers
        protocolBytes = self.protocols.sorted().map { Array($0.utf8) }
    }

    /// Reads a list as tshark takes it, names separated by spaces or commas (`"ip udp"`,
    /// `"ip,dns"`), each the abbreviation of a protocol of `schema`. An unknown name throws, with
    /// the protocols it may have meant. `frame` is accepted and selects nothing: a frame's own
    /// members (number, time, length) are always written.
    public init(parsing list: String, includesCarriedLayers: Bool = false, schema: Schema) throws(DisplayFilterError) {
        let known = schema.structs.compactMap(\.protocolAbbreviation)
        let knownSet = Set(known)
        var protocols: [String] = []
        var column = 1
        for word in list.split(omittingEmptySubsequences: false, whereSeparator: { $0 == " " || $0 == "," }) {
            defer { column += word.count + 1 }
            guard !word.isEmpty else { continue }
            let name = String(word)
            if name == "frame" { continue }
            guard knownSet.contains(name) else {
                let close = NameSuggestions.suggestions(for: name, among: known)
                let hint = close.isEmpty ? " (dissect schema list names the protocols)" : " (did you mean \(close.joined(separator: ", "))?)"
                throw DisplayFilterError(message: "no protocol is named '\(name)'\(hint)", column: column)
            }
            protocols.append(name)
        }
        guard !protocols.isEmpty || list.split(whereSeparator: { $0 == " " || $0 == "," }).contains("frame") else {
            throw DisplayFilterError(message: "name at least one protocol ('ip udp' or 'ip,dns')", column: 1)
        }
        self.init(protocols: protocols, includesCarriedLayers: includesCarriedLayers)
    }

    /// Per node of `dissection`, whether it belongs to a selected layer: a layer node by its own
    /// name (or, with ``includesCarriedLayers``, a selected layer above it), any other node by the
    /// layer it is in. Nodes come in pre-order, so a parent is decided before its children.
    func selectedNodes(of dissection: Dissection) -> [Bool] {
        let names = dissection.schema.names
        let nodes = dissection.nodes.buffer
        var selected = [Bool](repeating: false, count: nodes.count)
        selected.withUnsafeMutableBufferPointer { selected in
            for index in nodes.indices {
                let parent = Int(nodes[index].parent)
                let parentSelected = parent >= 0 && parent < index && selected[parent]
                if case .structure(let structID) = nodes[index].kind,
                   let abbreviation = names.protocolAbbreviation(Int(structID)) {
                    let isNamed = protocolBytes.contains { $0.elementsEqual(abbreviation) }
                    selected[index] = isNamed || (includesCarriedLayers && parentSelected)
                } else {
                    selected[index] = parentSelected
                }
            }
        }
        return selected
    }
}
