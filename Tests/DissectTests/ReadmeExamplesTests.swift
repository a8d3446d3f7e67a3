import Foundation
import Testing

/// The README's examples, run as written: each `$ dissect …` line in a code block of README.md
/// and docs/*.md is run from the repository root, and its output must match the lines shown
/// after it, where `…` stands for any text (a line of its own: any number of lines). An example
/// that needs what the repository does not hold (a file not in it, a live interface, a pipe from
/// another tool) is skipped; `< file` and a final `| grep word` are understood.
@Suite struct ReadmeExamplesTests {
    struct Example: CustomStringConvertible {
        let document: String
        let line: Int
        let command: String
        let expected: [String]

        var description: String { "\(document):\(line): $ \(command)" }
    }

    static func examples() throws -> [Example] {
        let root = CommandLineTests.repositoryRoot
        let documents = ["README.md"] + ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)) ?? [])
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        var examples: [Example] = []
        for document in documents {
            let text = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
            var inBlock = false
            var current: (line: Int, command: String, expected: [String])?
            func close() {
                if let current { examples.append(Example(document: document, line: current.line, command: current.command, expected: current.expected)) }
                current = nil
            }
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if line.hasPrefix("```") {
                    close()
                    inBlock.toggle()
                    continue
                }
                guard inBlock else { continue }
                if line.hasPrefix("$ ") {
                    close()
                    current = (index + 1, String(line.dropFirst(2)), [])
                } else {
                    current?.expected.append(String(line))
                }
            }
        }
        return examples.filter { $0.command.hasPrefix("dissect ") }
    }

    /// Shell words, with single and double quotes.
    static func words(_ command: String) -> [String] {
        var words: [String] = []
        var word = ""
        var quote: Character?
        var inWord = false
        for character in command {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character == " " {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(character)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        return words
    }

    /// Whether `lines` match `patterns`, `…` standing for any text, and a `…` line for any lines.
    static func matches(_ lines: ArraySlice<String>, _ patterns: ArraySlice<String>) -> Bool {
        guard let pattern = patterns.first else { return lines.isEmpty }
        if pattern.trimmingCharacters(in: .whitespaces) == "…" {
            let rest = patterns.dropFirst()
            for skip in 0...lines.count where matches(lines.dropFirst(skip), rest) { return true }
            return false
        }
        guard let line = lines.first, lineMatches(line, pattern) else { return false }
        return matches(lines.dropFirst(), patterns.dropFirst())
    }

    static func lineMatches(_ line: String, _ pattern: String) -> Bool {
        let parts = pattern.components(separatedBy: "…")
        guard parts.count > 1 else { return line == pattern }
        guard line.hasPrefix(parts[0]) else { return false }
        var rest = line.dropFirst(parts[0].count)
        for (position, part) in parts.enumerated().dropFirst() {
            if position == parts.count - 1 { return rest.hasSuffix(part) && rest.count >= part.count }
            guard let found = rest.range(of: part) else { return false }
            rest = rest[found.upperBound...]
        }
        return true
    }

    @Test func examplesRunAsWritten() throws {
        let examples = try Self.examples()
        #expect(examples.count >= 15, "the README's examples were not found")
        var ran = 0
        for example in examples {
            var arguments = Self.words(example.command)
            arguments.removeFirst()
            var input: Data?
            var grep: String?
            if let pipe = arguments.firstIndex(of: "|") {
                let tail = Array(arguments[(pipe + 1)...])
                guard tail.count == 2, tail[0] == "grep" else { continue }
                grep = tail[1]
                arguments.removeSubrange(pipe...)
            }
            if let redirect = arguments.firstIndex(of: "<"), redirect + 1 < arguments.count {
                input = try Data(contentsOf: CommandLineTests.repositoryRoot.appendingPathComponent(arguments[redirect + 1]))
                arguments.removeSubrange(redirect...(redirect + 1))
            }
            // What the repository cannot give: a live interface, a file it does not hold.
            if arguments.contains("-i") || arguments.contains("-D") { continue }
            let files = arguments.enumerated().filter { index, word in
                index > 0 && ["-r", "--file", "--schema"].contains(arguments[index - 1]) || word.hasSuffix(".schema") && !word.hasPrefix("-")
            }.map(\.element)
            if files.contains(where: { !FileManager.default.fileExists(atPath: CommandLineTests.repositoryRoot.appendingPathComponent($0).path) }) {
                continue
            }
            let result = try CommandLineTests().run(arguments, bytes: input)
            var lines = (result.output + result.error).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
            if let grep { lines = lines.filter { $0.contains(grep) } }
            var expected = example.expected
            while expected.last?.isEmpty == true { expected.removeLast() }
            #expect(Self.matches(lines[...], expected[...]), "\(example)\n--- shown:\n\(expected.joined(separator: "\n"))\n--- got:\n\(lines.joined(separator: "\n"))")
            ran += 1
        }
        #expect(ran >= 15, "only \(ran) examples ran")
    }
}
