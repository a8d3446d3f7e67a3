/// Finds the names a user may have meant among known names (struct, protocol and filter names):
/// the command line's suggestions and the display filter's.
package enum NameSuggestions {
    /// Up to `limit` known names close to `name`, closest first: the names equal to it ignoring
    /// case, then those a few edits away (typos: `Ethernt`, `IPV4`), then those that start with
    /// it (`DHCPv6` for `dhcpv`); among equally close names, the `preferred` ones first. Empty
    /// when nothing is close. Of names that differ only in case, the first in `names` stands for all.
    package static func suggestions(for name: String, among names: [String], preferring preferred: Set<String> = [],
                            limit: Int = 4) -> [String] {
        let lowered = Array(name.lowercased().unicodeScalars)
        guard !lowered.isEmpty else { return [] }
        // One edit for short names, more for longer ones, never most of the name.
        let allowed = max(1, min(3, lowered.count / 3))
        var ranked: [(rank: Double, name: String)] = []
        // Names equal but for case count once, as the first of them.
        var seen: Set<String> = []
        for candidate in names where seen.insert(candidate.lowercased()).inserted {
            let other = Array(candidate.lowercased().unicodeScalars)
            let distance = editDistance(lowered, other, atMost: allowed)
            if distance <= allowed {
                ranked.append((Double(distance), candidate))
            } else if lowered.count >= 2, other.starts(with: lowered) {
                // A preferred name the text starts (`ip` → IPv4) ranks with one edit away (`ip` → CIP),
                // ahead of it (shorter ones first): a user typing the start of a root means the root.
                let extra = Double(other.count - lowered.count)
                ranked.append((preferred.contains(candidate) ? 0.5 + extra / 1000 : Double(allowed + 1) + extra, candidate))
            }
        }
        ranked.sort {
            if $0.rank != $1.rank { return $0.rank < $1.rank }
            let (first, second) = (preferred.contains($0.name), preferred.contains($1.name))
            return first != second ? first : $0.name < $1.name
        }
        return ranked.prefix(limit).map(\.name)
    }

    /// The edit distance between `a` and `b` (insertions, deletions, substitutions and swaps of
    /// two neighbours: `dsn` is one edit from `dns`), or `limit + 1` once it is sure to pass `limit`.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], atMost limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for (i, x) in a.enumerated() {
            current[0] = i + 1
            var rowBest = current[0]
            for (j, y) in b.enumerated() {
                var cost = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
                if i > 0, j > 0, x == b[j - 1], a[i - 1] == y { cost = min(cost, beforePrevious[j - 1] + 1) }
                current[j + 1] = cost
                rowBest = min(rowBest, cost)
            }
            if rowBest > limit { return limit + 1 }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return min(previous[b.count], limit + 1)
    }
}
