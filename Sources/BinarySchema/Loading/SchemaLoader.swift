import Foundation

/// Loads schema files (and the files they import) into one checked ``Schema``.
public enum SchemaLoader {
    /// Loads the given files and directories (every `*.schema` directly inside a directory).
    /// An import not found next to the importing file is looked up in `importDirectories`
    /// in turn. Throws ``SchemaErrors`` listing every error of every file.
    public static func load(paths: [String], importDirectories: [String] = []) throws(SchemaErrors) -> Schema {
        var files: [String] = []
        var diagnostics: [Diagnostic] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                diagnostics.append(Diagnostic(kind: .importNotFound, message: "no such file or directory",
                                              location: SchemaLocation(path: path, line: 1, column: 1), sourceLine: ""))
                continue
            }
            if isDirectory.boolValue {
                let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                files += entries.filter { $0.hasSuffix(".schema") }.sorted().map { (path as NSString).appendingPathComponent($0) }
            } else {
                files.append(path)
            }
        }
        var session = LoadSession(read: { path in try? String(contentsOfFile: path, encoding: .utf8) })
        session.importDirectories = importDirectories
        return try session.load(files, earlierDiagnostics: diagnostics)
    }

    /// Checks schema text that is not on disk (imports are not allowed). Used by tests and fuzzing.
    public static func load(text: String, path: String = "<input>") throws(SchemaErrors) -> Schema {
        var session = LoadSession(read: { requested in requested == path ? text : nil })
        return try session.load([path], earlierDiagnostics: [])
    }

    /// The schemas bundled with dissect, from the `Schemas/` folder of the source tree
    /// (or `$DISSECT_SCHEMAS` when set).
    public static func loadBundled() throws(SchemaErrors) -> Schema {
        try load(paths: [bundledDirectory])
    }

    /// Where the bundled schemas are read from.
    public static var bundledDirectory: String {
        if let override = ProcessInfo.processInfo.environment["DISSECT_SCHEMAS"], !override.isEmpty { return override }
        // A binary shipped without its source tree (a fuzzing cluster, an install) finds them beside itself.
        let beside = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
            .appendingPathComponent("schemas").path
        // Sources/BinarySchema/Loading/SchemaLoader.swift → repository root.
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        let source = url.appendingPathComponent("Schemas").path
        if !FileManager.default.fileExists(atPath: source), FileManager.default.fileExists(atPath: beside) { return beside }
        return source
    }
}

/// One load: reads files, follows imports, finds import cycles, then checks everything together.
private struct LoadSession {
    let read: (String) -> String?
    var importDirectories: [String] = []
    var parsed: [FileSyntax] = []
    var indexByPath: [String: Int] = [:]
    var imports: [[(target: Int, syntax: ImportSyntax)]] = []
    var diagnostics: [Diagnostic] = []

    init(read: @escaping (String) -> String?) {
        self.read = read
    }

    mutating func load(_ paths: [String], earlierDiagnostics: [Diagnostic]) throws(SchemaErrors) -> Schema {
        diagnostics = earlierDiagnostics
        for path in paths { _ = loadFile(path, from: nil) }
        detectImportCycles()
        var visible: [Set<Int>] = []
        for index in parsed.indices { visible.append(reachable(from: index)) }
        var checker = Checker(files: parsed, visibleFiles: visible)
        let schema = checker.check()
        diagnostics += checker.diagnostics
        if let schema, diagnostics.isEmpty { return schema }
        throw SchemaErrors(sorted(diagnostics))
    }

    private mutating func loadFile(_ path: String, from importer: (SchemaLocation, SourceFile)?) -> Int? {
        let key = Self.normalize(path)
        if let index = indexByPath[key] { return index }
        guard let text = read(path) else {
            if let (location, source) = importer {
                diagnostics.append(Diagnostic(kind: .importNotFound, message: "cannot read imported file '\(path)'",
                                              location: location, sourceLine: source.lineText(location.line)))
            } else {
                diagnostics.append(Diagnostic(kind: .importNotFound, message: "cannot read file",
                                              location: SchemaLocation(path: path, line: 1, column: 1), sourceLine: ""))
            }
            return nil
        }
        let source = SourceFile(path: path, text: text)
        var parser = Parser(source: source)
        let syntax = parser.parseFile()
        diagnostics += parser.diagnostics
        let index = parsed.count
        parsed.append(syntax)
        imports.append([])
        indexByPath[key] = index
        let directory = (path as NSString).deletingLastPathComponent
        for entry in syntax.imports {
            var target = entry.path.hasPrefix("/") ? entry.path : (directory as NSString).appendingPathComponent(entry.path)
            if !entry.path.hasPrefix("/"), read(target) == nil,
               let found = importDirectories.map({ ($0 as NSString).appendingPathComponent(entry.path) })
                .first(where: { read($0) != nil }) {
                target = found
            }
            if let imported = loadFile(target, from: (entry.location, source)) { imports[index].append((imported, entry)) }
        }
        return index
    }

    private static func normalize(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    private func reachable(from start: Int) -> Set<Int> {
        var seen: Set<Int> = [start]
        var stack = [start]
        while let next = stack.popLast() {
            for (imported, _) in imports[next] where seen.insert(imported).inserted { stack.append(imported) }
        }
        return seen
    }

    private mutating func detectImportCycles() {
        var state = Array(repeating: 0, count: parsed.count)
        var stack: [Int] = []
        func visit(_ file: Int, _ session: inout LoadSession) {
            state[file] = 1
            stack.append(file)
            for (imported, syntax) in session.imports[file] {
                if state[imported] == 1, let start = stack.firstIndex(of: imported) {
                    let cycle = (stack[start...] + [imported]).map { (session.parsed[$0].source.path as NSString).lastPathComponent }
                    session.diagnostics.append(Diagnostic(
                        kind: .importCycle, message: "import cycle: \(cycle.joined(separator: " → "))",
                        location: syntax.location, sourceLine: session.parsed[file].source.lineText(syntax.location.line)))
                } else if state[imported] == 0 {
                    visit(imported, &session)
                }
            }
            stack.removeLast()
            state[file] = 2
        }
        for file in parsed.indices where state[file] == 0 { visit(file, &self) }
    }

    private func sorted(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        var seen: Set<Diagnostic> = []
        return diagnostics.filter { seen.insert($0).inserted }.sorted {
            ($0.location.path, $0.location.line, $0.location.column) < ($1.location.path, $1.location.line, $1.location.column)
        }
    }
}
