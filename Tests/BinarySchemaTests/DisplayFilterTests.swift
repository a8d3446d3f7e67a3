import BinarySchema
import Dissector
import Foundation
import Testing

/// Display filters (`-Y`) against tshark's answers on the repository's captures
/// (`Corpus/oracle/display-filters.tsv`, from `scripts/display-filter-oracle`): the same frames pass.
@Suite struct DisplayFilterTests {
    struct Row: CustomTestStringConvertible, Sendable {
        let capture: String
        let filter: String
        let frames: [Int]
        var testDescription: String { "\(capture): \(filter)" }
    }

    static let rows: [Row] = {
        let url = repositoryRoot.appendingPathComponent("Corpus/oracle/display-filters.tsv")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").dropFirst().map { line in
            let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            let frames = cells.count > 2 ? cells[2].split(separator: ",").compactMap { Int($0) } : []
            return Row(capture: cells[0], filter: cells.count > 1 ? cells[1] : "", frames: frames)
        }
    }()

    @Test func theOracleCoversEveryConstruct() {
        #expect(Self.rows.count >= 35)
        let text = Self.rows.map(\.filter).joined(separator: " ")
        for construct in [" in {", "contains", "matches", " not ", "!(", "||", "&&", " and ", " or ", "[0:3]", "/8", "::1",
                          "frame.number", "!=", "<=", ">", "ip.addr", "tcp.port", "eth.addr", "\"", " eq ", "> tcp.dstport"] {
            #expect(text.contains(construct), "no filter uses \(construct)")
        }
        #expect(Self.rows.allSatisfy { !$0.frames.isEmpty }, "a filter no frame passes proves little")
    }

    @Test(arguments: rows)
    func theSameFramesPassAsInTshark(row: Row) throws {
        let capture = try PcapFile(contentsOf: repositoryRoot.appendingPathComponent("Corpus/captures/\(row.capture)"))
        let root = try #require(bundledSchema.rootStruct(forLinkType: capture.linkType))
        var filter = try DisplayFilter(row.filter, schema: bundledSchema)
        var interpreter = Interpreter(schema: bundledSchema)
        var passed: [Int] = []
        for (index, frame) in capture.frames.enumerated() {
            let matches = interpreter.withDissection(of: frame, root: root, originalLength: capture.originalLengths[index]) {
                filter.matches($0, frameNumber: index + 1, originalLength: capture.originalLengths[index])
            }
            if matches { passed.append(index + 1) }
        }
        #expect(passed == row.frames)
    }

    /// An array of values is one name for its elements, compared as values of their type (each
    /// element an occurrence, as tshark's repeated field): `mount.flavor == 1`, not bytes.
    @Test func anArrayOfValuesIsFilteredByItsElements() throws {
        let schema = try SchemaLoader.load(text: """
            @protocol("demo") struct Demo { count: u8  flavors: u16[count] @name("demo.flavor")  items: Item[1] }
            struct Item { a: u8 }
            """)
        let types = Dictionary(schema.filterFields.map { ($0.name, $0.type) }, uniquingKeysWith: { first, _ in first })
        #expect(types["demo.flavor"] == "u16")
        #expect(types["demo.items"] == "array")
        let root = try #require(schema.structType(named: "Demo"))
        var interpreter = Interpreter(schema: schema)
        func passes(_ text: String, _ bytes: [UInt8]) throws -> Bool {
            var filter = try DisplayFilter(text, schema: schema)
            return interpreter.withDissection(of: bytes, root: root, originalLength: bytes.count) {
                filter.matches($0, frameNumber: 1, originalLength: bytes.count)
            }
        }
        let frame: [UInt8] = [2, 0, 1, 0, 6, 9]
        #expect(try passes("demo.flavor == 6", frame))
        #expect(try passes("demo.flavor == 1", frame))
        #expect(try !passes("demo.flavor == 2", frame))
        #expect(try passes("demo.flavor > 5", frame))
    }

    static func refusal(_ text: String) -> DisplayFilterError? {
        do {
            _ = try DisplayFilter(text, schema: bundledSchema)
            return nil
        } catch {
            return error
        }
    }

    @Test func aBadFilterIsALocatedErrorWithASuggestion() throws {
        let misspelled = try #require(Self.refusal("ip.src == 10.0.0.1 and tcp.srcprt == 80"))
        #expect(misspelled.message == "no field or protocol is named 'tcp.srcprt': did you mean tcp.srcport?")
        #expect(misspelled.column == 24)
        let unknown = try #require(Self.refusal("zzzz.qqqq"))
        #expect(unknown.message.contains("dissect schema list --fields"))
        let guid = try #require(Self.refusal("dcerpc.cn_bind_to_uuid == 4b..4fc8-1670-01d3-1278-5a47bf6ee188"))
        #expect(guid.message.contains("is not a GUID"), "\(guid.message)")
        let address = try #require(Self.refusal("ip.src == 10.0.0.300"))
        #expect(address.message.contains("is not an IPv4 address"), "\(address.message)")
        #expect(address.column == 11)
        let quoted = try #require(Self.refusal("tcp.srcport == \"80\""))
        #expect(quoted.message.contains("this field is u16"), "\(quoted.message)")
        let number = try #require(Self.refusal("tcp.srcport == eighty"))
        #expect(number.message.contains("'eighty' is not a number"), "\(number.message)")
        let open = try #require(Self.refusal("(tcp or udp"))
        #expect(open.message.contains("'(' at column 1 has no ')'"), "\(open.message)")
        let trailing = try #require(Self.refusal("tcp udp"))
        #expect(trailing.message.contains("unexpected 'udp'"), "\(trailing.message)")
        let unclosed = try #require(Self.refusal("dns.qry.name contains \"corp"))
        #expect(unclosed.message.contains("no closing quote"))
        let regex = try #require(Self.refusal("dns.qry.name matches \"(\""))
        #expect(regex.message.contains("is not a regular expression"))
        let slice = try #require(Self.refusal("eth.src[3:x] == 00"))
        #expect(slice.message.contains("is not a byte range"))
        // A range past any field's length is refused, not added up until it overflows.
        let huge = try #require(Self.refusal("eth.src[9223372036854775807:2] == 00"))
        #expect(huge.message.contains("is not a byte range"))
        let set = try #require(Self.refusal("tcp.port in {}"))
        #expect(set.message.contains("the set is empty"))
        // Two fields are compared when they hold the same kind of value.
        let kinds = try #require(Self.refusal("ip.src == tcp.srcport"))
        #expect(kinds.message == "'ip.src' (ipv4) cannot be compared with 'tcp.srcport' (u16)", "\(kinds.message)")
        #expect(kinds.column == 11)
        let enumName = try #require(Self.refusal("ip.proto == UPD"))
        #expect(enumName.message == "'UPD' is not a number or a name of IPProtocol: did you mean udp?", "\(enumName.message)")
        let misspelledField = try #require(Self.refusal("tcp.srcport == tcp.dstprt"))
        #expect(misspelledField.message == "'tcp.dstprt' is not a number (u16), nor a field: did you mean tcp.dstport?",
                "\(misspelledField.message)")
    }
}
