/// tcpdump's way of writing short options, which getopt users type without thinking, rewritten
/// into the separate words the argument parser reads: an attached value (`-c10`, `-ilo`,
/// `-r/tmp/x.pcap`, `-s0`) and grouped flags (`-nnvX`, `-nr file`, `-tttt`).
enum ShortOptions {
    /// The capture command's short options that take a value.
    static let withValue: Set<Character> = ["r", "i", "c", "s", "w", "f", "d", "F", "y", "Q", "B", "Y", "T", "E"]
    /// Its short flags.
    static let flags: Set<Character> = ["q", "p", "n", "D", "t", "v", "V", "x", "X", "e", "l", "U", "L", "S", "h"]
    /// tcpdump's and tshark's options that dissect does not take, and what to use instead: said
    /// before parsing, rather than the parser's "unknown option".
    static let pointers: [Character: String] = [
        "A": "-A (tcpdump: packets in ASCII) is not dissect's: -X or -f hex shows each byte in hex and ASCII, labeled",
        "G": "-G (tcpdump: rotate files) is not dissect's: capture with tcpdump -G -w, then read the files with dissect -r",
        "C": "-C (tcpdump: file size) is not dissect's: capture with tcpdump -C -w, then read the files with dissect -r",
        "z": "-z is not dissect's: statistics are tshark's (-q prints dissect's totals)",
    ]

    /// The message for the first option of `arguments` that dissect does not take, if any.
    static func refusal(in arguments: [String]) -> String? {
        guard let first = arguments.first, !otherCommands.contains(first) else { return nil }
        var isValue = false
        for word in arguments {
            // The word after `-r` (or `-nr`) is its value, whatever it looks like: `-r -A.pcap`.
            if isValue {
                isValue = false
                continue
            }
            if word == "--" { return nil }
            guard word.hasPrefix("-"), !word.hasPrefix("--"), word.count >= 2 else { continue }
            // In a group of flags, up to the first option that takes a value (the rest is its value).
            for letter in word.dropFirst() {
                if let pointer = pointers[letter] { return pointer }
                if withValue.contains(letter) { isValue = word.last == letter }
                if withValue.contains(letter) || !flags.contains(letter) { break }
            }
        }
        return nil
    }

    /// The words that select another command: their options are left alone.
    static let otherCommands: Set<String> = ["hex", "schema", "help"]

    /// `arguments` (without the program's name) with each grouped or attached short option split.
    /// A word with a letter the capture command does not know is left whole, for the parser's
    /// own message; so is everything after `--`.
    static func normalized(_ arguments: [String]) -> [String] {
        guard let first = arguments.first, !otherCommands.contains(first) else { return arguments }
        var result: [String] = []
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if word == "--" {
                result.append(contentsOf: arguments[(index - 1)...])
                break
            }
            guard let split = split(word) else {
                result.append(word)
                continue
            }
            result.append(contentsOf: split.words)
            // The option's value is the next word, whatever it starts with (`-c -1` is a count).
            if split.needsValue, index < arguments.count {
                result.append(arguments[index])
                index += 1
            }
        }
        // With tshark's `-T`, `-e` names a field to print, as in tshark; without it, `-e` is
        // tcpdump's flag (show the link layer).
        if result.contains("-T") {
            var index = 0
            while index < result.count {
                if result[index] == "-e", index + 1 < result.count { result[index] = "--field" }
                index += 1
            }
        }
        return result
    }

    /// `-nnr` → (`-n -n -r`, needs the next word); `-c10` → (`-c 10`); nil for a word that is not
    /// a group of known short options (a long option, a value, `-`, a negative number).
    private static func split(_ word: String) -> (words: [String], needsValue: Bool)? {
        guard word.hasPrefix("-"), !word.hasPrefix("--"), word.count >= 2 else { return nil }
        var words: [String] = []
        var letters = word.dropFirst()
        while let letter = letters.first {
            letters = letters.dropFirst()
            if withValue.contains(letter) {
                words.append("-" + String(letter))
                guard letters.isEmpty else {
                    words.append(String(letters))
                    return (words, false)
                }
                return (words, true)
            }
            guard flags.contains(letter) else { return nil }
            words.append("-" + String(letter))
        }
        return (words, false)
    }
}
