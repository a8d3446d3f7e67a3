import Foundation
import FuzzTargets
import Testing

let repositoryRoot: URL = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url
}()

/// The files of a corpus folder, by name (empty when the folder does not exist).
func corpusFiles(_ folder: String) -> [URL] {
    let directory = repositoryRoot.appendingPathComponent(folder)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { !$0.hasPrefix(".") }.sorted().map { directory.appendingPathComponent($0) }
}

/// The regression inputs `Corpus/regressions/README.md` lists: (target, file name) pairs read
/// from its table's rows.
func documentedRegressions() throws -> [(target: String, name: String)] {
    let index = try String(contentsOf: repositoryRoot.appendingPathComponent("Corpus/regressions/README.md"), encoding: .utf8)
    return index.split(separator: "\n").compactMap { line -> (String, String)? in
        let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        guard cells.count >= 3, FuzzTarget(rawValue: cells[0]) != nil else { return nil }
        return (cells[0], cells[1])
    }
}

/// Every seed in `Corpus/fuzz/<target>/` and every input that once broke a target, kept in
/// `Corpus/regressions/<target>/`, replayed through the same code libFuzzer runs.
@Suite struct ReplayTests {
    /// The index and the folders agree: no documented input is missing (an ignore rule once
    /// kept every one of them out of git), and none is undocumented.
    @Test func everyDocumentedRegressionInputIsThereAndEveryInputIsDocumented() throws {
        let documented = try documentedRegressions()
        #expect(documented.count >= 4, "the index lists \(documented.count) inputs")
        for (target, name) in documented {
            let path = repositoryRoot.appendingPathComponent("Corpus/regressions/\(target)/\(name)").path
            #expect(FileManager.default.fileExists(atPath: path), "Corpus/regressions/\(target)/\(name) is documented but missing")
        }
        for target in FuzzTarget.allCases {
            for file in corpusFiles("Corpus/regressions/\(target.rawValue)") {
                #expect(documented.contains { $0.target == target.rawValue && $0.name == file.lastPathComponent },
                        "Corpus/regressions/\(target.rawValue)/\(file.lastPathComponent) is not in Corpus/regressions/README.md")
            }
        }
    }

    @Test(arguments: FuzzTarget.allCases)
    func seedsAndRegressionsKeepTheInvariants(target: FuzzTarget) throws {
        let seeds = corpusFiles("Corpus/fuzz/\(target.rawValue)")
        let regressions = corpusFiles("Corpus/regressions/\(target.rawValue)")
        #expect(!seeds.isEmpty, "no seeds for \(target.rawValue)")
        for file in seeds + regressions {
            let bytes = [UInt8](try Data(contentsOf: file))
            do {
                try target.run(bytes)
            } catch {
                Issue.record("\(file.lastPathComponent): \(error.description)")
            }
        }
    }

    /// Degenerate inputs: empty, one byte, two 0xFF, 300 of the same byte.
    @Test func emptyAndTinyInputsKeepTheInvariants() throws {
        for target in FuzzTarget.allCases {
            for input in [[], [0], [0xFF, 0xFF], Array(repeating: UInt8(0x41), count: 300)] as [[UInt8]] {
                #expect(throws: Never.self) { try target.run(input) }
            }
        }
    }
}
