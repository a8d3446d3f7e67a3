import BinaryIO

/// Turns parsed schema files into a checked ``Schema``: resolves names, checks
/// types, compiles expressions, and reports every error it finds, not only the first.
///
/// ``check()`` runs its passes in order, each in a file of its own and each adding to
/// ``diagnostics``: declarations and names, enums, tables and registrations
/// (`Checker+Declarations`); the types expressions see (`Checker+ShallowTypes`); then each struct
/// (`Checker+Structs`), field by field (`Checker+Fields`), whose types (`Checker+Types`) and
/// expressions (`Checker+Expressions`, programs and constant folding) and checksums
/// (`Checker+Checksums`) are checked as the field is; last, structs that contain themselves.
/// The passes share this struct's state: the declarations found first, and the field whose type
/// is being resolved.
struct Checker {
    let files: [FileSyntax]
    /// For each file, the files whose declarations it can see: itself and its transitive imports.
    let visibleFiles: [Set<Int>]
    var diagnostics: [Diagnostic] = []

    enum Declaration {
        case structure(Int)
        case enumeration(Int)
        case alias(Int)
    }

    var declarations: [String: (declaration: Declaration, file: Int, location: SchemaLocation)] = [:]
    var structSyntax: [(syntax: StructSyntax, file: Int)] = []
    var enumSyntax: [(syntax: EnumSyntax, file: Int)] = []
    var aliasSyntax: [(syntax: AliasSyntax, file: Int)] = []
    /// Aliases being expanded right now, to catch one that refers to itself.
    var expandingAliases: Set<Int> = []
    /// Deepest chain of aliases expanded one inside another (bounds recursion on hostile schemas).
    static let aliasDepthLimit = 64
    var enums: [EnumType] = []
    /// Phase A: each struct's fields with the types expressions see, before anything is compiled.
    var shallowFields: [[(name: String, type: ValueType)]] = []
    /// Per struct, the slots of its `lazy` fields.
    var lazySlots: [Set<Int>] = []
    /// Structs that contain each struct through some field, for `parent.x`.
    var parentsOf: [Set<Int>] = []
    var fields: [Field] = []
    /// Dispatch tables by name (global: any file registers on any table, as in Wireshark).
    var tableIndex: [String: Int] = [:]
    var tableSyntax: [(syntax: TableSyntax, file: Int)] = []
    /// Each table's key type as expressions see it (`.invalid` when the declaration is wrong).
    var tableKeyTypes: [ValueType] = []
    var tableKeyIntegers: [IntegerType?] = []
    var tableEntries: [[DispatchTable.Entry]] = []
    var tableHeuristics: [[DispatchTable.Entry]] = []
    /// The text settings of the field whose type is being resolved: its `@encoding`, whether
    /// `@text` (or `@encoding`) reads its bytes or u8 array as a string, and whether any string
    /// took them (else the attributes did nothing, which is an error).
    /// The field being checked, for the fields a switch case with attributes makes: its name, slot,
    /// display hint and filter naming.
    var currentField: (name: String, slot: Int, structID: Int, display: DisplayHint, naming: FilterNaming?)?
    var fieldEncoding = TextEncoding.utf8
    /// `@pad(b)` of the field being checked, and whether a string of a length took it.
    var fieldPadding: UInt8?
    var fieldPaddingUsed = false
    var fieldReadsText = false
    var fieldTextUsed = false

    init(files: [FileSyntax], visibleFiles: [Set<Int>]) {
        self.files = files
        self.visibleFiles = visibleFiles
    }

    mutating func check() -> Schema? {
        collectDeclarations()
        resolveEnums()
        resolveTables()
        collectRegistrations()
        computeShallowFields()
        var structs: [StructType] = []
        for (id, entry) in structSyntax.enumerated() {
            structs.append(checkStruct(id: id, syntax: entry.syntax, file: entry.file))
        }
        checkContainmentCycles(structs)
        let tables = tableSyntax.indices.map { index in
            DispatchTable(name: tableSyntax[index].syntax.name, keyTypeName: Self.typeName(tableSyntax[index].syntax.keyType),
                          keyEnumID: { if case .enumeration(let id, _) = tableKeyTypes[index] { return id } else { return nil } }(),
                          location: tableSyntax[index].syntax.location, entries: tableEntries[index],
                          heuristics: tableHeuristics[index])
        }
        return diagnostics.isEmpty ? Schema(structs: structs, enums: enums, fields: fields, dispatchTables: tables) : nil
    }

    // MARK: - Reporting

    mutating func rejectAttributes(_ attributes: [AttributeSyntax], allowed: Set<String>, on what: String) {
        for attribute in attributes where !allowed.contains(attribute.name) {
            report(.invalidValue, "'@\(attribute.name)' does not apply to \(what)", at: attribute.location)
        }
    }

    mutating func report(_ kind: Diagnostic.Kind, _ message: String, at location: SchemaLocation) {
        let sourceLine = files.first { $0.source.path == location.path }?.source.lineText(location.line) ?? ""
        diagnostics.append(Diagnostic(kind: kind, message: message, location: location, sourceLine: sourceLine))
    }
}
