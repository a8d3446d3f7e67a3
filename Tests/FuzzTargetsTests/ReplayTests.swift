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

/// Every seed in `Corpus/fuzz/<target>/` and every input that once broke a target, kept in
/// `Corpus/regressions/<target>/`, replayed through the same code libFuzzer runs.
@Suite struct ReplayTests {
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
