import BinarySchema
import Dissector
import Foundation
import Testing

/// The example schemas for file formats, on real files, against the tools that read those
/// formats: readelf (ELF64, both byte orders), Python's zipfile, gzip and zlib (ZIP, gzip, PNG)
/// and openssl asn1parse (BER). The tools' outputs are stored beside the files
/// (Corpus/examples/README.md says how each was made).
@Suite struct ExampleFileTests {
    private static let examples = repositoryRoot.appendingPathComponent("Corpus/examples")

    private func dissectFile(_ file: String, schema name: String, root: String) throws -> Dissection {
        let bundled = repositoryRoot.appendingPathComponent("Schemas").path
        let schema = try SchemaLoader.load(
            paths: [bundled, repositoryRoot.appendingPathComponent("Schemas/examples/\(name).schema").path],
            importDirectories: [bundled])
        let bytes = [UInt8](try Data(contentsOf: Self.examples.appendingPathComponent(file)))
        var interpreter = Interpreter(schema: schema)
        let dissection = interpreter.dissect(bytes, root: try #require(schema.structType(named: root)))
        #expect(dissection.error == nil, "\(file): \(String(describing: dissection.error))")
        return dissection
    }

    /// Rows of a tab-separated oracle after its header, as dictionaries by column name.
    private func table(_ file: String) throws -> [[String: String]] {
        let lines = try String(contentsOf: Self.examples.appendingPathComponent(file), encoding: .utf8)
            .split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        let header = try #require(lines.first)
        return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }

    private func text(_ dissection: Dissection, _ path: String) throws -> String {
        let index = try #require(dissection.node(at: path), "no \(path)")
        return try #require(dissection.text(of: index), "\(path) is not text")
    }

    @Test(arguments: ["le", "be"])
    func elf64MatchesReadelf(order: String) throws {
        let elf = try dissectFile("elf64-\(order).o", schema: "elf64", root: "ELF64")
        let readelf = try String(contentsOf: Self.examples.appendingPathComponent("elf64-\(order).readelf.txt"), encoding: .utf8)
        func header(_ label: String) throws -> Int64 {
            let line = try #require(readelf.split(separator: "\n").first { $0.contains(label) }, "readelf has no \(label)")
            return try #require(Int64(line.split(separator: ":")[1].split(separator: " ")[0]))
        }
        #expect(try elf.display("ELF64.e_ident.data") == (order == "le" ? "lsb (1)" : "msb (2)"))
        #expect(try elf.int("ELF64.header.e_shoff") == header("Start of section headers:"))
        #expect(try elf.int("ELF64.header.e_shnum") == header("Number of section headers:"))
        #expect(try elf.int("ELF64.header.e_shstrndx") == header("Section header string table index:"))
        #expect(try elf.int("ELF64.header.e_machine") == (order == "le" ? 62 : 43))
        // "  [ 2] .text             PROGBITS        0000000000000000 000040 000006 00  AX  0   0 16"
        let rows = readelf.split(separator: "\n").filter { $0.hasPrefix("  [") && !$0.contains("Nr]") }
        #expect(rows.count == 9)
        for row in rows {
            let close = try #require(row.firstIndex(of: "]"))
            let index = try #require(Int(row[row.index(row.startIndex, offsetBy: 3)..<close].trimmingCharacters(in: .whitespaces)))
            let rest = row[row.index(after: close)...].split(separator: " ")
            // A section without a name has one column less.
            let (name, columns) = index == 0 ? ("", Array(rest)) : (String(rest[0]), Array(rest.dropFirst()))
            let base = "ELF64.header.sections[\(index)]"
            #expect(try text(elf, "\(base).name") == name, "section \(index)")
            #expect(try elf.int("\(base).sh_offset") == Int64(columns[2], radix: 16), "section \(index) offset")
            #expect(try elf.int("\(base).sh_size") == Int64(columns[3], radix: 16), "section \(index) size")
        }
    }

    @Test func zipMatchesPythonsZipfileThroughTheCentralDirectory() throws {
        let zip = try dissectFile("sample.zip", schema: "zip", root: "ZIP")
        let members = try table("sample.zip.tsv")
        #expect(try zip.int("zip.end.total_entries") == Int64(members.count))
        for (index, member) in members.enumerated() {
            let entry = "zip.end.entries[\(index)]"
            #expect(try text(zip, "\(entry).name") == member["name"])
            #expect(try zip.int("\(entry).method") == Int64(member["method"] ?? ""))
            #expect(try zip.int("\(entry).crc32") == Int64(member["crc32"] ?? ""))
            #expect(try zip.int("\(entry).compressed_size") == Int64(member["compressed_size"] ?? ""))
            #expect(try zip.int("\(entry).uncompressed_size") == Int64(member["uncompressed_size"] ?? ""))
            #expect(try zip.int("\(entry).local_header_offset") == Int64(member["local_header_offset"] ?? ""))
            // The local header, reached at its offset, repeats the name and holds the data.
            #expect(try text(zip, "\(entry).local.name") == member["name"])
            #expect(try zip.at("\(entry).local").byteOffset == Int(member["local_header_offset"] ?? ""))
            #expect(try zip.at("\(entry).local.data").byteLength == Int(member["compressed_size"] ?? ""))
        }
    }

    @Test func gzipMatchesPythonsGzip() throws {
        let gzip = try dissectFile("sample.txt.gz", schema: "gzip", root: "GZIP")
        let rows = try table("sample.txt.gz.tsv")
        let expected = try #require(rows.first)
        #expect(try gzip.int("gzip.flags.name") == 1 && Int(expected["flags"] ?? "") == 8)
        #expect(try gzip.int("gzip.mtime") == Int64(expected["mtime"] ?? ""))
        #expect(try gzip.int("gzip.os") == Int64(expected["os"] ?? ""))
        #expect(try text(gzip, "gzip.name") == expected["name"])
        #expect(try gzip.int("gzip.crc32") == Int64(expected["crc32"] ?? ""))
        #expect(try gzip.int("gzip.isize") == Int64(expected["isize"] ?? ""))
    }

    @Test func pngMatchesZlibsChunkCRCs() throws {
        let png = try dissectFile("sample.png", schema: "png", root: "PNG")
        let chunks = try table("sample.png.tsv")
        #expect(try png.int("png.chunks") == Int64(chunks.count))
        for (index, chunk) in chunks.enumerated() {
            let type = try #require(chunk["type"])
            let raw = type.utf8.reduce(Int64(0)) { $0 << 8 | Int64($1) }
            #expect(try png.int("png.chunks[\(index)].type") == raw)
            #expect(try png.int("png.chunks[\(index)].length") == Int64(chunk["length"] ?? ""))
            #expect(try png.int("png.chunks[\(index)].crc") == Int64(chunk["crc"] ?? ""))
        }
        #expect(try png.int("png.chunks[0].data.width") == 2)
        // Each chunk's CRC is verified, and the walk says so.
        #expect(png.checksums.count == chunks.count)
        let allCorrect = png.checksums.allSatisfy { $0.isCorrect }
        #expect(allCorrect)
        var broken = [UInt8](try Data(contentsOf: Self.examples.appendingPathComponent("sample.png")))
        broken[0x2A] ^= 0x01  // a byte of the tEXt chunk's data
        let bundled = repositoryRoot.appendingPathComponent("Schemas").path
        let schema = try SchemaLoader.load(paths: [bundled, repositoryRoot.appendingPathComponent("Schemas/examples/png.schema").path],
                                           importDirectories: [bundled])
        var interpreter = Interpreter(schema: schema)
        let damaged = interpreter.dissect(broken, root: try #require(schema.structType(named: "PNG")))
        #expect(damaged.error == nil, "a wrong CRC is a mark, not an error")
        let verdicts = damaged.checksums.map { $0.isCorrect }
        #expect(verdicts == [true, false, true, true])
        #expect(try text(png, "png.chunks[1].data.keyword") == "Software")
    }

    /// Every value openssl lists, at the same offset, depth, header length and length.
    @Test func berMatchesOpensslAsn1parse() throws {
        let ber = try dissectFile("certificate.der", schema: "ber", root: "BER")
        // "   53:d=5  hl=2 l=   3 prim: OBJECT            :commonName"
        let lines = try String(contentsOf: Self.examples.appendingPathComponent("certificate.asn1parse.txt"), encoding: .utf8)
            .split(separator: "\n")
        var ours: [(offset: Int, depth: Int, header: Int, length: Int64, constructed: Bool)] = []
        for index in ber.nodes.indices where ber.structType(of: index)?.name == "BER" {
            let depth = ber.path(of: index).components(separatedBy: ".values").count - 1
            let lengthNode = try #require(ber.node(at: ber.path(of: index) + ".length"))
            let length = try #require(ber.integer(of: lengthNode))
            let constructed = ber.node(at: ber.path(of: index) + ".values") != nil
            let contents = try #require(ber.node(at: ber.path(of: index) + (constructed ? ".values" : ".value")))
            ours.append((ber.nodes[index].byteOffset, depth, ber.nodes[contents].byteOffset - ber.nodes[index].byteOffset, length,
                         constructed))
        }
        #expect(ours.count == lines.count)
        for (line, mine) in zip(lines, ours) {
            let parts = line.split(separator: ":", maxSplits: 1)
            let offset = Int(parts[0].trimmingCharacters(in: .whitespaces))
            let fields = parts[1].split(separator: " ")
            let depth = Int(fields[0].dropFirst(2))
            let header = Int(fields[1].dropFirst(3))
            let length = line.firstMatch(of: #/ l=\s*(\d+)/#).flatMap { Int64($0.1) }
            #expect(offset == mine.offset, "\(line)")
            #expect(depth == mine.depth && header == mine.header && length == mine.length, "\(line)")
            #expect(line.contains("cons:") == mine.constructed, "\(line)")
        }
    }
}
