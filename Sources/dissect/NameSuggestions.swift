import ArgumentParser
import BinarySchema
import Dissector

/// The command line's use of the suggestions: the exact name, else the one name equal to it
/// ignoring case; and for a name that matches none, the closest names to suggest.
extension NameSuggestions {
    /// `name` if it is known, else the only known name equal to it ignoring case, else nil.
    static func resolve(_ name: String, among names: [String]) -> String? {
        if names.contains(name) { return name }
        let lowered = name.lowercased()
        let matches = names.filter { $0.lowercased() == lowered }
        return matches.count == 1 ? matches[0] : nil
    }

    /// `; did you mean Ethernet?` (or `A, B or C?`), or an empty string when nothing is close.
    static func didYouMean(_ name: String, among names: [String], preferring preferred: Set<String> = []) -> String {
        let close = suggestions(for: name, among: names, preferring: preferred)
        guard let last = close.last else { return "" }
        let list = close.count == 1 ? last : close.dropLast().joined(separator: ", ") + " or " + last
        return "; did you mean \(list)?"
    }

    /// The struct `name` names (exactly, or ignoring case when only one struct matches so), or
    /// an error that suggests the closest names and the link-layer roots.
    static func structType(named name: String, in schema: Schema, option: String) throws -> StructType {
        let names = schema.structNames
        if let resolved = resolve(name, among: names), let found = schema.structType(named: resolved) { return found }
        let linkRoots = schema.structs.filter { !$0.linkTypes.isEmpty }.map(\.name).sorted()
        var message = "\(option): no struct named '\(name)'" + didYouMean(name, among: names, preferring: Set(linkRoots))
        if !linkRoots.isEmpty { message += " (roots for link types: \(linkRoots.joined(separator: ", ")))" }
        message += "; `dissect schema list` lists every struct"
        throw ValidationError(message)
    }
}
