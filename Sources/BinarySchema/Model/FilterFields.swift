/// A filter name the schemas' fields can carry, with what it holds: one row of
/// `dissect schema list --fields`, as `tshark -G fields` lists Wireshark's.
public struct FilterField: Sendable, Hashable {
    /// The name a filter or field output takes (`tcp.srcport`).
    public let name: String
    /// What it holds: an integer type (`u16`), an enum's name, `bytes`, `string`, `ipv4`, `struct`, `array`, ….
    public let type: String
    /// The protocol layer it belongs to: the `@protocol` abbreviation its walk starts at.
    public let layer: String
    /// The fields that carry the name: several where structs, switch cases or uses share it.
    public let fieldIDs: [Int]
    /// Where the first of them is declared.
    public let location: SchemaLocation
}

extension Schema {
    /// Every filter name a dissection with these schemas can show, sorted by name: each protocol
    /// struct's fields, the structs they hold (arrays, switch cases, dispatched structs that are
    /// no protocol of their own) with their names continued, as ``Dissection/filterName(of:)``
    /// names their nodes. The schema's own working values (`hidden let`, parameters) have none.
    public var filterFields: [FilterField] {
        var rows: [String: (type: String, layer: String, fieldIDs: [Int])] = [:]
        var visited: Set<String> = []
        func record(_ name: String, _ type: String, _ layer: String, _ fieldID: Int) {
            if var row = rows[name] {
                if !row.fieldIDs.contains(fieldID) { row.fieldIDs.append(fieldID) }
                if row.type != type, !row.type.contains(type) { row.type += "|" + type }
                rows[name] = row
            } else {
                rows[name] = (type, layer, [fieldID])
            }
        }
        func visit(_ structID: Int, prefix: String, layer: String, depth: Int) {
            // A struct reached again under the same name adds nothing; the depth bound ends a
            // chain of structs that contain each other through arrays or switches under new names.
            guard depth < 32, visited.insert("\(structID) \(prefix)").inserted else { return }
            // A parameter is a value its user passed, not one the protocol carries: no filter name.
            for field in structs[structID].fields where !field.isHidden && !field.isParameter {
                // A switch whose cases have attributes: each case is read as a field of its own.
                var readings = [(field, field.type)]
                if case .switchOn(let choice) = field.type, !choice.caseFieldIDs.isEmpty {
                    let types = choice.cases.map(\.type) + (choice.defaultType.map { [$0] } ?? [])
                    readings = types.enumerated().map { index, type in
                        (choice.caseFieldID(index).map { fields[$0] } ?? field, type)
                    }
                }
                for (reading, type) in readings {
                    let name: String
                    switch reading.filterNaming {
                    case .segment(let segment): name = prefix.isEmpty ? segment : prefix + "." + segment
                    case .absolute(let whole): name = whole
                    case .transparent: name = prefix
                    }
                    // A protocol layer read in place is named by its protocol, not by the field.
                    var isLayer = false
                    if case .structure(let id) = type, structs[id].protocolAbbreviation != nil { isLayer = true }
                    if case .transparent = reading.filterNaming {
                        // A value with no segment of its own (a BER integer's `value` in its
                        // struct) carries its holder's name: the name holds the value, not the struct.
                        if heldStructs(type).isEmpty, !name.isEmpty, rows[name]?.type == "struct" {
                            rows[name]?.type = describe(type)
                            rows[name]?.fieldIDs.append(reading.id)
                        }
                    } else if !isLayer {
                        record(name, describe(type), layer, reading.id)
                    }
                    for inner in heldStructs(type) where structs[inner].protocolAbbreviation == nil {
                        visit(inner, prefix: name, layer: layer, depth: depth + 1)
                    }
                }
            }
        }
        for structure in structs {
            if let abbreviation = structure.protocolAbbreviation {
                visit(structure.id, prefix: abbreviation, layer: abbreviation, depth: 0)
            }
        }
        return rows.map { name, row in
            FilterField(name: name, type: row.type, layer: row.layer, fieldIDs: row.fieldIDs,
                        location: fields[row.fieldIDs[0]].location)
        }.sorted { $0.name < $1.name }
    }

    /// The structs a field of `type` reads in place: its struct, its array's elements, its switch's
    /// cases, the structs its dispatch table can choose.
    private func heldStructs(_ type: FieldType) -> [Int] {
        switch type {
        case .structure(let id), .instance(let id, _): return [id]
        case .array(let element, _): return heldStructs(element)
        case .switchOn(let choice):
            return choice.cases.flatMap { heldStructs($0.type) } + (choice.defaultType.map(heldStructs) ?? [])
        case .dispatch(let table, _):
            guard dispatchTables.indices.contains(table) else { return [] }
            return (dispatchTables[table].entries + dispatchTables[table].heuristics).map(\.structID)
        default: return []
        }
    }

    /// What a field of `type` holds, as ``FilterField/type`` says it.
    private func describe(_ type: FieldType) -> String {
        switch type {
        case .integer(let integer): return (integer.isSigned ? "i" : "u") + String(integer.bits)
        case .float(let bits, _, _): return "f\(bits)"
        case .boolean: return "bool"
        case .varint(let zigzag): return zigzag ? "zigzag" : "varint"
        case .bytes: return "bytes"
        case .address(_, let display): return display.rawValue
        case .string: return "string"
        case .enumeration(let id, _): return enums.indices.contains(id) ? enums[id].name : "enum"
        case .structure, .instance: return "struct"
        case .array(let element, _):
            // Each element of an array of values bears the name, as each occurrence of a repeated
            // field in tshark: a filter compares them as values of the element's type.
            switch element {
            case .integer, .float, .boolean, .varint, .bytes, .address, .string, .enumeration, .dnsName: return describe(element)
            default: return "array"
            }
        case .switchOn(let choice):
            // What its cases hold (`i8|i16|bytes`), as a field of either may be compared.
            var kinds: [String] = []
            for type in choice.cases.map(\.type) + (choice.defaultType.map { [$0] } ?? []) where !kinds.contains(describe(type)) {
                kinds.append(describe(type))
            }
            return kinds.isEmpty ? "switch" : kinds.joined(separator: "|")
        case .parameter: return "parameter"
        case .computed(_, let isBoolean, let enumID?): return isBoolean ? "bool" : enums.indices.contains(enumID) ? enums[enumID].name : "enum"
        case .computed(_, let isBoolean, nil): return isBoolean ? "bool" : "integer"
        case .dispatch: return "dispatch"
        case .dnsName: return "dns_name"
        }
    }
}
