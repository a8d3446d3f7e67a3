import ArgumentParser
import BinarySchema

/// Finds the name a user meant among known names (struct names, protocol names): the exact
/// name, else the one name equal to it ignoring case; and for a name that matches none, the
/// closest names to suggest.
enum NameSuggestions {
    /// `name` if it is known, else the only known name equal to it ignoring case, else nil.
    static func resolve(_ name: String, among names: [String]) -> String? {
        if names.contains(name) { return name }
        let lowered = name.lowercased()
        let matches = names.filter { $0.lowercased() == lowered }
        return matches.count == 1 ? matches[0] : nil
    }

    /// Up to `limit` known names close to `name`, closest first: the names equal to it ignoring
    /// case, then those a few edits away (typos: `Ethernt`, `IPV4`), then those that start with
    /// it (`DHCPv6` for `dhcpv`). Empty when nothing is close.
    static func suggestions(for name: String, among names: [String], limit: Int = 4) -> [String] {
        let lowered = Array(name.lowercased().unicodeScalars)
        guard !lowered.isEmpty else { return [] }
        // One edit for short names, more for longer ones, never most of the name.
        let allowed = max(1, min(3, lowered.count / 3))
        var ranked: [(rank: Int, name: String)] = []
        for candidate in Set(names) {
            let other = Array(candidate.lowercased().unicodeScalars)
            let distance = editDistance(lowered, other, atMost: allowed)
            if distance <= allowed {
                ranked.append((distance, candidate))
            } else if lowered.count >= 3, other.starts(with: lowered) {
                ranked.append((allowed + 1 + other.count - lowered.count, candidate))
            }
        }
        ranked.sort { $0.rank != $1.rank ? $0.rank < $1.rank : $0.name < $1.name }
        return ranked.prefix(limit).map(\.name)
    }

    /// `; did you mean Ethernet?` (or `A, B or C?`), or an empty string when nothing is close.
    static func didYouMean(_ name: String, among names: [String]) -> String {
        let close = suggestions(for: name, among: names)
        guard let last = close.last else { return "" }
        let list = close.count == 1 ? last : close.dropLast().joined(separator: ", ") + " or " + last
        return "; did you mean \(list)?"
    }

    /// The struct `name` names (exactly, or ignoring case when only one struct matches so), or
    /// an error that suggests the closest names and the link-layer roots.
    static func structType(named name: String, in schema: Schema, option: String) throws -> StructType {
        let names = schema.structNames
        if let resolved = resolve(name, among: names), let found = schema.structType(named: resolved) { return found }
        var message = "\(option): no struct named '\(name)'" + didYouMean(name, among: names)
        let linkRoots = schema.structs.filter { !$0.linkTypes.isEmpty }.map(\.name).sorted()
        if !linkRoots.isEmpty { message += " (roots for link types: \(linkRoots.joined(separator: ", ")))" }
        message += "; `dissect schema list` lists every struct"
        throw ValidationError(message)
    }

    /// The Levenshtein distance between `a` and `b`, or `limit + 1` once it is sure to pass `limit`.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], atMost limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for (i, x) in a.enumerated() {
            current[0] = i + 1
            var rowBest = current[0]
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
                rowBest = min(rowBest, current[j + 1])
            }
            if rowBest > limit { return limit + 1 }
            swap(&previous, &current)
        }
        return min(previous[b.count], limit + 1)
    }
}
