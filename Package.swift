// swift-tools-version:6.2
import PackageDescription

/// Release builds inline across module boundaries: views call the interpreter's node accessors
/// and name table for every field, and without this each is an opaque call (measured: about
/// 10% of a tree rendering).
/// One libFuzzer executable each (Fuzz/<name>/main.swift); see FuzzTarget in Sources/FuzzTargets.
enum FuzzTargetName: String, CaseIterable {
    case dissector, views, schema, codable, roundtrip, pcap, formats, reassembly
}

let crossModule: [SwiftSetting] = [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]

let package = Package(
    name: "dissect",
    products: [
        .executable(name: "dissect", targets: ["dissect"]),
        // ByteReader/ByteWriter and the byte-order types the other libraries' APIs name
        // (BinarySchema no longer re-exports them).
        .library(name: "BinaryIO", targets: ["BinaryIO"]),
        .library(name: "BinarySchema", targets: ["BinarySchema"]),
        .library(name: "Dissector", targets: ["Dissector"]),
        .library(name: "BinaryCoding", targets: ["BinaryCoding"]),
        .library(name: "PacketCapture", targets: ["PacketCapture"]),
        // A capture in, frames and reassembled units out, in order: what the command line runs on.
        .library(name: "CapturePipeline", targets: ["CapturePipeline"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // The byte cursor: bounds-checked integer, bit, varint and UTF-8 reads. Every use of
        // an unsafe construct is marked `unsafe` (BinarySchema is not yet: about 160 places).
        .target(name: "BinaryIO", swiftSettings: crossModule + [.strictMemorySafety()]),
        // The schema language: lexer, parser, checker, IR, expressions, interpreter.
        .target(name: "BinarySchema", dependencies: ["BinaryIO"], swiftSettings: crossModule),
        // Codable: sequential BinaryEncoder/BinaryDecoder and the schema-driven coders.
        .target(name: "BinaryCoding", dependencies: ["BinaryIO", "BinarySchema"]),
        // libpcap, through pkg-config (Debian: libpcap-dev).
        .systemLibrary(name: "CPcap", pkgConfig: "libpcap", providers: [.apt(["libpcap-dev"])]),
        // Capture files and live interfaces: a safe Swift face on libpcap.
        .target(name: "PacketCapture", dependencies: ["CPcap"]),
        // The dissection views built on the interpreter's field tree.
        .target(name: "Dissector", dependencies: ["BinarySchema", "BinaryIO", "Reassembly"], swiftSettings: crossModule),
        // State across packets: IP defragmentation and TCP stream reassembly, byte by byte with
        // provenance. No dependency: it works on byte arrays and numbers the caller takes from
        // its dissections.
        .target(name: "Reassembly", swiftSettings: crossModule),
        // The capture pipeline: the reading loop, the ring of workers that dissect in parallel,
        // reassembly in capture order, and what each frame is made into (text, or events for a
        // library user), delivered in the same order whatever the thread count.
        .target(name: "CapturePipeline", dependencies: ["BinaryIO", "BinarySchema", "Dissector", "PacketCapture", "Reassembly"],
                swiftSettings: crossModule),
        .executableTarget(
            name: "dissect",
            dependencies: [
                "BinaryIO", "BinarySchema", "CapturePipeline", "Dissector", "PacketCapture",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Side-by-side benchmark: the interpreter against a hand-written parser.
        .executableTarget(
            name: "dissect-bench",
            dependencies: ["BinarySchema", "BinaryIO", "BinaryCoding", "Dissector", "CPcap"],
            path: "Benchmarks/dissect-bench"
        ),
        // Fuzz targets: the logic (invariants included) in a library that tests replay; one
        // libFuzzer executable per target, built with `swift build --sanitize=fuzzer`.
        .target(name: "FuzzTargets", dependencies: ["BinarySchema", "Dissector", "BinaryCoding", "PacketCapture", "Reassembly"]),
    ] + FuzzTargetName.allCases.map { name in
        .executableTarget(name: "fuzz-\(name)", dependencies: ["FuzzTargets"], path: "Fuzz/\(name)")
    } + [
        // Replays inputs without libFuzzer, writes dictionaries and seeds (scripts/fuzz.sh uses it).
        .executableTarget(
            name: "dissect-fuzz",
            dependencies: ["FuzzTargets", "BinarySchema", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Fuzz/dissect-fuzz"
        ),
        .testTarget(name: "BinaryIOTests", dependencies: ["BinaryIO"]),
        .testTarget(name: "ReassemblyTests", dependencies: ["Reassembly"]),
        .testTarget(name: "BinarySchemaTests", dependencies: ["BinarySchema", "Dissector", "PacketCapture"]),
        .testTarget(name: "BinaryCodingTests", dependencies: ["BinaryCoding"]),
        .testTarget(name: "DissectorTests", dependencies: ["Dissector", "BinarySchema", "Reassembly"], exclude: ["Golden"]),
        .testTarget(name: "PacketCaptureTests", dependencies: ["PacketCapture"]),
        .testTarget(name: "CapturePipelineTests", dependencies: ["CapturePipeline", "Dissector", "PacketCapture", "BinarySchema"]),
        .testTarget(name: "DissectTests", dependencies: ["dissect", "CapturePipeline"]),
        .testTarget(name: "FuzzTargetsTests", dependencies: ["FuzzTargets"]),
    ],
    swiftLanguageModes: [.v6]
)
