import ArgumentParser
import BinarySchema
import CapturePipeline
import Dissector
import Foundation

/// Options shared by every command that needs schemas.
struct SchemaOptions: ParsableArguments {
    @Option(name: .customLong("schema"),
            help: ArgumentHelp("A schema file or directory of *.schema files to load besides the bundled ones (repeatable).",
                               valueName: "file|dir"))
    var schemaPaths: [String] = []

    @Flag(help: "Do not load the bundled schemas ($DISSECT_SCHEMAS, else <prefix>/share/dissect/schemas or schemas/ beside the binary, else Schemas/ of the source tree).")
    var noBundled = false

    @Option(name: [.customShort("d"), .customLong("decode-as")], help: ArgumentHelp(
        "Read a dispatch table's keys as a protocol for this run, before anything registered on them, as tshark's -d: table==key,protocol (udp.port==8443,quic; tcp.port==8000-8100,http; ethertype==0x88b5,MyProto). The protocol is a @protocol name or a struct name; `dissect schema list` shows the tables (repeatable).",
        valueName: "table==key,protocol"))
    var decodeAs: [String] = []

    @Option(name: .customLong("max-nesting"), help: ArgumentHelp(
        "How deep structs may nest in one walk (IP in IP in ..., a file's records within records) before it stops with depth_limit: default \(Interpreter.Options.defaultNestingLimit), at most \(Interpreter.Options.maximumNestingLimit).",
        valueName: "n"))
    var maxNesting: Int?

    func validate() throws {
        for rule in decodeAs { _ = try DecodeAsRule.split(rule) }
        if let maxNesting, !(0...Interpreter.Options.maximumNestingLimit).contains(maxNesting) {
            throw ValidationError("--max-nesting takes 0 to \(Interpreter.Options.maximumNestingLimit), not \(maxNesting)")
        }
    }

    /// The interpreter's options for these schemas: the nesting budget, and the checksums to verify.
    func walkOptions(checksums: ChecksumSelection) -> Interpreter.Options {
        var options = Interpreter.Options()
        options.checksums = checksums
        if let maxNesting { options.nestingLimit = maxNesting }
        return options
    }

    /// Loads the schemas and applies the decode-as rules, printing every error and exiting 1 if there are any.
    /// `pathOptionName` names the files of `schemaPaths` in errors (nil for `schema check`'s arguments).
    func load(pathOptionName: String? = "--schema") throws -> Schema {
        guard !noBundled || !schemaPaths.isEmpty else { throw ValidationError("--no-bundled needs at least one --schema") }
        // Errors with no place in a schema file: one line each, no caret.
        var errors: [String] = []
        for path in schemaPaths where !FileManager.default.fileExists(atPath: path) {
            errors.append("error: \(pathOptionName.map { "\($0) " } ?? "")\(path): no such file or directory")
        }
        let bundled = BundledSchemas.locate()
        if !noBundled, let message = bundled.notFoundMessage { errors.append("error: \(message)") }
        guard errors.isEmpty else {
            for error in errors { printError(error) }
            throw ExitCode(1)
        }
        let bundledDirectory = noBundled ? nil : bundled.directory
        let paths = (bundledDirectory.map { [$0] } ?? []) + schemaPaths
        var schema: Schema
        do {
            schema = try SchemaLoader.load(paths: paths, importDirectories: bundled.directory.map { [$0] } ?? [])
        } catch {
            printError(error.description)
            throw ExitCode(1)
        }
        // Warnings do not stop a load: each is printed, as a compiler's, before the command goes on.
        for warning in schema.warnings { printError(warning.description) }
        for rule in decodeAs {
            // Checked against the schemas, so past ArgumentParser's validation: reported the same way.
            do {
                let parsed = try DecodeAsRule(rule, schema: schema)
                guard let overridden = schema.overriding(table: parsed.table, keys: parsed.keys, with: parsed.structID) else {
                    throw ValidationError("--decode-as '\(rule)': cannot apply")
                }
                schema = overridden
            } catch let error as ValidationError {
                printError("Error: \(error.message)")
                throw ExitCode.validationFailure
            }
        }
        return schema
    }
}

/// One `-d table==key,protocol` rule, checked against the loaded schema.
struct DecodeAsRule {
    let table: String
    let keys: ClosedRange<Int64>
    let structID: Int

    private static let usage = "expected table==key,protocol as in udp.port==8443,quic"

    /// The three parts of `table==selector,protocol`, none empty.
    static func split(_ text: String) throws -> (table: String, selector: String, protocolName: String) {
        guard let equals = text.range(of: "=="), let comma = text.range(of: ",", range: equals.upperBound..<text.endIndex) else {
            throw ValidationError("--decode-as '\(text)': \(usage)")
        }
        let parts = (String(text[..<equals.lowerBound]), String(text[equals.upperBound..<comma.lowerBound]),
                     String(text[comma.upperBound...]))
        let trimmed = (parts.0.trimmingCharacters(in: .whitespaces), parts.1.trimmingCharacters(in: .whitespaces),
                       parts.2.trimmingCharacters(in: .whitespaces))
        guard !trimmed.0.isEmpty, !trimmed.1.isEmpty, !trimmed.2.isEmpty else {
            throw ValidationError("--decode-as '\(text)': \(usage)")
        }
        return trimmed
    }

    init(_ text: String, schema: Schema) throws {
        let usage = Self.usage
        let (table, selector, protocolName) = try Self.split(text)
        guard let dispatchTable = schema.dispatchTables.first(where: { $0.name == table }) else {
            let names = schema.dispatchTables.map(\.name).sorted().joined(separator: ", ")
            throw ValidationError("--decode-as '\(text)': no dispatch table '\(table)' (tables: \(names.isEmpty ? "none" : names))")
        }
        func key(_ word: Substring) throws -> Int64 {
            let trimmed = word.trimmingCharacters(in: .whitespaces)
            let value = trimmed.lowercased().hasPrefix("0x") ? Int64(trimmed.dropFirst(2), radix: 16) : Int64(trimmed)
            if let value { return value }
            if let enumID = dispatchTable.keyEnumID, schema.enums.indices.contains(enumID),
               let found = schema.enums[enumID].cases.first(where: { $0.name == trimmed }) {
                return found.value
            }
            throw ValidationError("--decode-as '\(text)': '\(trimmed)' is not a key of \(table) (\(dispatchTable.keyTypeName)): \(usage)")
        }
        // tshark's forms: one key, `low-high`, or `first:count`.
        let keys: ClosedRange<Int64>
        if let dash = selector.dropFirst().firstIndex(of: "-") {
            let low = try key(selector[..<dash])
            let high = try key(selector[selector.index(after: dash)...])
            guard low <= high else { throw ValidationError("--decode-as '\(text)': the range \(low)-\(high) is empty") }
            keys = low...high
        } else if let colon = selector.firstIndex(of: ":") {
            let first = try key(selector[..<colon])
            let count = try key(selector[selector.index(after: colon)...])
            guard count >= 1, first <= Int64.max - (count - 1) else {
                throw ValidationError("--decode-as '\(text)': a key count must be at least 1")
            }
            keys = first...(first + count - 1)
        } else {
            let single = try key(Substring(selector))
            keys = single...single
        }
        let lowered = protocolName.lowercased()
        guard let target = schema.structs.first(where: { $0.protocolAbbreviation?.lowercased() == lowered })
                ?? schema.structs.first(where: { $0.name == protocolName }) else {
            let known = Set(schema.structs.compactMap(\.protocolAbbreviation)).sorted().joined(separator: ", ")
            let close = NameSuggestions.didYouMean(protocolName, among: schema.structs.compactMap(\.protocolAbbreviation) + schema.structNames)
            throw ValidationError("--decode-as '\(text)': no protocol or struct '\(protocolName)'\(close) (protocols: \(known))")
        }
        self.table = table
        self.keys = keys
        // A table passes no arguments, so neither can a decode-as (as `register` refuses them too).
        guard !target.fields.contains(where: \.isParameter) else {
            let abbreviation = target.protocolAbbreviation.map { " (\($0))" } ?? ""
            throw ValidationError("--decode-as '\(text)': struct '\(target.name)'\(abbreviation) takes parameters, which decode-as cannot pass; name a struct without parameters that reads it")
        }
        structID = target.id
    }
}
