import ArgumentParser
import BinarySchema
import Foundation
import FuzzTargets

@main
struct DissectFuzz: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dissect-fuzz",
        abstract: "Tools for the libFuzzer targets: replay inputs, write dictionaries and seeds.",
        discussion: """
            The targets (\(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))) are built as \
            fuzz-<target> with `swift build --sanitize=fuzzer`; scripts/fuzz.sh runs campaigns.
            """,
        subcommands: [Replay.self, Dictionary.self, Seeds.self]
    )

    struct Replay: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run inputs through a target without libFuzzer and say which break an invariant, and how.")

        @Argument(help: "The target.") var target: FuzzTarget
        @Argument(help: "Input files (crash artifacts, corpus files).") var files: [String]

        func run() throws {
            var failed = 0
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else { throw ValidationError("cannot read \(file)") }
                do {
                    try target.run([UInt8](data))
                    print("ok: \(file)")
                } catch {
                    failed += 1
                    print("FAIL: \(file): \(error.description)")
                }
            }
            if failed > 0 { throw ExitCode(1) }
        }
    }

    struct Dictionary: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a libFuzzer dictionary for a target, drawn from the bundled schemas.",
            discussion: """
                dissector, views and pcap: every enum value at its width and byte order, constants of \
                constraints, conditions and lengths, link types (plus pcap/pcapng magic numbers for \
                pcap). schema: the language's keywords, types, attributes and operators. codable, \
                roundtrip and reassembly: none (libFuzzer finds their small integers itself). formats: \
                as dissector, from the bundled and example schemas.
                """)

        @Argument(help: "The target.") var target: FuzzTarget

        func run() throws {
            switch target {
            case .formats:
                let bundled = SchemaLoader.bundledDirectory
                let schema = try SchemaLoader.load(paths: [bundled, bundled + "/examples"], importDirectories: [bundled])
                print(FuzzDictionary.text(FuzzDictionary.entries(for: schema)), terminator: "")
            case .dissector, .views, .pcap:
                var entries = FuzzDictionary.entries(for: try SchemaLoader.loadBundled())
                if target == .pcap {
                    // pcap magics (µs and ns, both byte orders) and the pcapng section, interface and packet block types.
                    entries += [[0xD4, 0xC3, 0xB2, 0xA1], [0xA1, 0xB2, 0xC3, 0xD4], [0x4D, 0x3C, 0xB2, 0xA1],
                                [0xA1, 0xB2, 0x3C, 0x4D], [0x0A, 0x0D, 0x0D, 0x0A], [0x1A, 0x2B, 0x3C, 0x4D],
                                [0x01, 0x00, 0x00, 0x00], [0x06, 0x00, 0x00, 0x00], [0x03, 0x00, 0x00, 0x00]]
                }
                print(FuzzDictionary.text(entries), terminator: "")
            case .schema:
                print(FuzzDictionary.text(FuzzDictionary.languageEntries.map { Array($0.utf8) }), terminator: "")
            case .codable, .roundtrip, .reassembly:
                break
            }
        }
    }

    struct Seeds: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the encoder-made seeds of the codable and roundtrip targets into DIR/<target>/.")

        @Argument(help: "The corpus folder (Corpus/fuzz).") var directory: String

        func run() throws {
            for target in FuzzTarget.allCases {
                let folder = directory + "/" + target.rawValue
                for (name, bytes) in target.encodedSeeds {
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                    try Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + name))
                }
            }
        }
    }
}

extension FuzzTarget: ExpressibleByArgument {}
