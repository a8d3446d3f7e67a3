import BinarySchema
import Foundation
import Testing

/// Where the bundled schemas are looked for, in which order, and what is said when none is found.
@Suite struct BundledSchemasTests {
    /// A prefix with bin/, share/dissect/schemas and bin/schemas, and a source tree with Schemas/.
    struct Layout {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("dissect-bundled-\(UUID())")
        var prefix: URL { root.appendingPathComponent("prefix") }
        var binary: String { prefix.appendingPathComponent("bin/dissect").path }
        var installed: String { prefix.appendingPathComponent("share/dissect/schemas").path }
        var beside: String { prefix.appendingPathComponent("bin/schemas").path }
        var source: String { root.appendingPathComponent("checkout/Schemas").path }

        func make(_ paths: [String]) throws {
            for path in paths { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        }
    }

    @Test func orderOfThePlaces() throws {
        let layout = Layout()
        defer { try? FileManager.default.removeItem(at: layout.root) }
        try layout.make([layout.installed, layout.beside, layout.source])
        func locate(_ environment: [String: String] = [:], binary: String? = layout.binary) -> BundledSchemas {
            BundledSchemas.locate(environment: environment, executablePath: binary, sourceTree: layout.source)
        }
        // Installed first; the source tree is not looked at for a binary outside it.
        #expect(locate().directory == layout.installed)
        #expect(locate().searched == [layout.installed, layout.beside])
        // The variable wins over every default; empty is unset.
        #expect(locate(["DISSECT_SCHEMAS": layout.source]).directory == layout.source)
        #expect(locate(["DISSECT_SCHEMAS": ""]).directory == layout.installed)
        // A variable naming no directory is an error, not a fall-back.
        let wrong = locate(["DISSECT_SCHEMAS": layout.root.appendingPathComponent("none").path])
        #expect(wrong.directory == nil)
        #expect(wrong.notFoundMessage?.contains("DISSECT_SCHEMAS=\(layout.root.path)/none is not a directory") == true)
        try FileManager.default.removeItem(atPath: layout.installed)
        #expect(locate().directory == layout.beside)
        // A development build inside the source tree falls back to its Schemas/.
        let developer = layout.root.appendingPathComponent("checkout/.build/debug/dissect").path
        #expect(locate(binary: developer).directory == layout.source)
        try FileManager.default.removeItem(atPath: layout.beside)
        let none = locate(["DISSECT_SCHEMAS": ""])
        #expect(none.directory == nil)
        #expect(none.notFoundMessage == "no bundled schemas found; looked in $DISSECT_SCHEMAS (set but empty, so not used), "
            + "\(layout.installed) and \(layout.beside); set DISSECT_SCHEMAS to a directory of .schema files, "
            + "or use --no-bundled --schema FILE")
    }

    /// A file that cannot be read has no position: one line, no caret.
    @Test func missingFileHasNoCaret() throws {
        do {
            _ = try SchemaLoader.load(paths: ["/nonexistent/a.schema"])
            Issue.record("a missing file must fail")
        } catch {
            #expect(error.description == "/nonexistent/a.schema: error: no such file or directory\n1 error")
        }
    }
}
