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
                                              location: SchemaLocation(wholeFile: path), sourceLine: ""))
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

    /// The schemas bundled with dissect, from the first place ``BundledSchemas/locate(environment:executablePath:sourceTree:)``
    /// finds them (the source tree's `Schemas/` when none has them).
    public static func loadBundled() throws(SchemaErrors) -> Schema {
        try load(paths: [bundledDirectory])
    }

    /// Where the bundled schemas are read from: the first place that has them (see ``BundledSchemas``),
    /// or the source tree's `Schemas/` when none does (so a missing directory is reported by the load).
    public static var bundledDirectory: String {
        BundledSchemas.locate().directory ?? BundledSchemas.sourceTreeDirectory
    }
}

/// Where the bundled schemas are looked for, in this order, and which place has them:
///
/// 1. `$DISSECT_SCHEMAS`, when set and not empty (empty counts as unset). When set it is the only
///    place: a variable that names no directory is an error, not a silent fall-back to other schemas.
/// 2. `<prefix>/share/dissect/schemas`, for the binary at `<prefix>/bin/dissect` (`make install`).
/// 3. `schemas/` beside the binary (a binary shipped on its own, as the fuzzing build does).
/// 4. `Schemas/` of the source tree the binary was built from, for a binary inside that tree (a
///    development build in `.build/`): an installed or copied binary does not read a checkout.
///
/// The binary's place is its real path (`/proc/self/exe`, else `argv[0]` through `$PATH`, symlinks resolved),
/// so a symlink to an installed binary finds the install's schemas.
public struct BundledSchemas: Sendable, Equatable {
    /// The environment variable that names the schema directory.
    public static let variable = "DISSECT_SCHEMAS"

    /// The directory that has the schemas, if any place does.
    public let directory: String?
    /// Every place looked at, in order (not the variable, which ``environmentValue`` tells).
    public let searched: [String]
    /// `$DISSECT_SCHEMAS` when set and not empty.
    public let environmentValue: String?
    /// Whether `$DISSECT_SCHEMAS` is set but empty (and so not used).
    public let environmentIsEmpty: Bool

    /// `Schemas/` of the source tree this file was compiled in.
    public static var sourceTreeDirectory: String {
        // Sources/BinarySchema/Loading/SchemaLoader.swift → repository root.
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Schemas").path
    }

    /// Looks in the places in order; `environment`, `executablePath` and `sourceTree` default to this
    /// process's (tests pass their own).
    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment,
                              executablePath: String? = currentExecutablePath(),
                              sourceTree: String = sourceTreeDirectory) -> BundledSchemas {
        let value = environment[variable]
        if let value, !value.isEmpty {
            return BundledSchemas(directory: isDirectory(value) ? value : nil, searched: [],
                                  environmentValue: value, environmentIsEmpty: false)
        }
        var places: [String] = []
        if let executablePath {
            let binDirectory = URL(fileURLWithPath: executablePath).deletingLastPathComponent()
            places.append(binDirectory.deletingLastPathComponent()
                .appendingPathComponent("share/dissect/schemas").standardizedFileURL.path)
            places.append(binDirectory.appendingPathComponent("schemas").standardizedFileURL.path)
        }
        // The source tree only for a binary built inside it: an installed or copied binary stands on
        // its own, and never reads schemas from a checkout that has moved on since it was built.
        let root = URL(fileURLWithPath: sourceTree).deletingLastPathComponent().resolvingSymlinksInPath().path + "/"
        if executablePath.map({ URL(fileURLWithPath: $0).resolvingSymlinksInPath().path.hasPrefix(root) }) ?? true {
            places.append(sourceTree)
        }
        var unique: [String] = []
        for place in places where !unique.contains(place) { unique.append(place) }
        return BundledSchemas(directory: unique.first(where: isDirectory), searched: unique,
                              environmentValue: nil, environmentIsEmpty: value != nil)
    }

    /// Why no schemas were found, naming every place looked at and the variable, or nil when found.
    public var notFoundMessage: String? {
        guard directory == nil else { return nil }
        let remedy = "or use --no-bundled --schema FILE"
        if let environmentValue {
            return "no bundled schemas found: \(Self.variable)=\(environmentValue) is not a directory; "
                + "set \(Self.variable) to a directory of .schema files, unset it to use the installed ones, \(remedy)"
        }
        let state = environmentIsEmpty ? "set but empty, so not used" : "not set"
        return "no bundled schemas found; looked in $\(Self.variable) (\(state)), \(Self.list(searched)); "
            + "set \(Self.variable) to a directory of .schema files, \(remedy)"
    }

    private static func list(_ items: [String]) -> String {
        guard let last = items.last else { return "no place" }
        return items.count == 1 ? last : items.dropLast().joined(separator: ", ") + " and " + last
    }

    private static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// This process's executable, symlinks resolved: `/proc/self/exe` where there is one, else
    /// `argv[0]` (relative to the working directory when it has a slash, else found through `$PATH`).
    public static func currentExecutablePath() -> String? {
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
           target.hasPrefix("/"), FileManager.default.fileExists(atPath: target) {
            return target
        }
        guard let first = CommandLine.arguments.first, !first.isEmpty else { return nil }
        if first.contains("/") { return URL(fileURLWithPath: first).resolvingSymlinksInPath().path }
        let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for directory in searchPath.split(separator: ":") where !directory.isEmpty {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(first).path
            if FileManager.default.isExecutableFile(atPath: candidate) {
                return URL(fileURLWithPath: candidate).resolvingSymlinksInPath().path
            }
        }
        return nil
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
    var warnings: [Diagnostic] = []

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
        if let schema, diagnostics.isEmpty { return schema.with(warnings: sorted(warnings)) }
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
                                              location: SchemaLocation(wholeFile: path), sourceLine: ""))
            }
            return nil
        }
        let source = SourceFile(path: path, text: text)
        var parser = Parser(source: source)
        let syntax = parser.parseFile()
        diagnostics += parser.diagnostics
        warnings += parser.warnings
        let index = parsed.count
        parsed.append(syntax)
        imports.append([])
        indexByPath[key] = index
        let directory = (path as NSString).deletingLastPathComponent
        for entry in syntax.imports {
            // `import "ethernet"`: a schema by its name, the bundled one unless one sits beside the file.
            let file = entry.path.contains("/") || entry.path.hasSuffix(".schema") ? entry.path : entry.path + ".schema"
            var target = file.hasPrefix("/") ? file : (directory as NSString).appendingPathComponent(file)
            if !file.hasPrefix("/"), read(target) == nil,
               let found = importDirectories.map({ ($0 as NSString).appendingPathComponent(file) })
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
