import BinarySchema
import Dissector
import Foundation
import Testing

/// Open dispatch: tables declared once, registrations from any file, lookup order, heuristics,
/// tunnels back into a lower layer, and the checker's errors for each misuse.
@Suite struct DispatchTests {
    /// The diagnostics of loading `files` with the bundled schemas, which must fail.
    private func errors(_ files: [String: String]) -> [Diagnostic] {
        do {
            _ = try loadWithBundled(files)
            Issue.record("expected the schemas to fail to check")
            return []
        } catch let error as SchemaErrors {
            return error.diagnostics
        } catch {
            Issue.record("unexpected error \(error)")
            return []
        }
    }

    /// Ethernet, IPv4 and UDP headers around `payload`.
    private func udpFrame(from source: UInt16, to destination: UInt16, _ payload: [UInt8]) -> [UInt8] {
        let udpLength = 8 + payload.count
        let ipLength = 20 + udpLength
        var frame: [UInt8] = [0x02, 0, 0, 0, 0, 1, 0x02, 0, 0, 0, 0, 2, 0x08, 0x00]
        frame += [0x45, 0, UInt8(ipLength >> 8), UInt8(ipLength & 0xFF), 0, 1, 0, 0, 64, 17, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2]
        frame += [UInt8(source >> 8), UInt8(source & 0xFF), UInt8(destination >> 8), UInt8(destination & 0xFF),
                  UInt8(udpLength >> 8), UInt8(udpLength & 0xFF), 0, 0]
        return frame + payload
    }

    private static let ntp = """
        endian big
        register udp.port 1123 => MiniNTP
        @protocol("ntp")
        struct MiniNTP {
          leap: u2
          version: u3
          mode: u3
          stratum: u8
        }
        """

    @Test func aFileRegistersOnABundledTableWithoutEditingIt() throws {
        let schema = try loadWithBundled(["mini-ntp.schema": Self.ntp])
        let dissection = try dissectFrame(schema, udpFrame(from: 40000, to: 1123, [0x23, 2]))
        #expect(dissection.error == nil)
        #expect(try dissection.int("ntp.version") == 4)
        #expect(try dissection.int("ntp.mode") == 3)
        #expect(try dissection.int("ntp.stratum") == 2)
        // Without the file the same bytes stay bytes.
        let plain = try dissectFrame(bundledSchema, udpFrame(from: 40000, to: 1123, [0x23, 2]))
        #expect(plain.node(at: "ntp.mode") == nil)
        #expect(try plain.at("udp.payload").byteLength == 2)
    }

    /// Ports match source or destination; with both registered the lower port decides (Wireshark's order).
    @Test func theLowerPortIsLookedUpFirstThenTheHigher() throws {
        let schema = try loadWithBundled(["mini-ntp.schema": Self.ntp])
        let toNTP = try dissectFrame(schema, udpFrame(from: 1123, to: 40000, [0x23, 2]))
        #expect(try toNTP.int("ntp.version") == 4)
        // 53 (DNS) is lower than 1123 (the test's NTP): DNS reads the payload, whichever way the datagram goes.
        let dnsHeader: [UInt8] = [0x12, 0x34, 0x01, 0x00, 0, 0, 0, 0, 0, 0, 0, 0]
        for (source, destination) in [(UInt16(53), UInt16(1123)), (1123, 53)] {
            let dissection = try dissectFrame(schema, udpFrame(from: source, to: destination, dnsHeader))
            #expect(try dissection.int("dns.id") == 0x1234, "\(source) > \(destination)")
            #expect(dissection.node(at: "ntp.mode") == nil)
        }
    }

    @Test func rangesMatchAfterExactValuesAndAnOverrideReplacesARegistration() throws {
        let schema = try loadWithBundled([
            "a.schema": """
                register udp.port { 9000...9100 => Ranged  9050 => Exact }
                @protocol("ranged") struct Ranged { a: u8 }
                @protocol("exact") struct Exact { b: u8 }
                """,
            "b.schema": """
                register udp.port { override 53 => NotDNS }
                @protocol("notdns") struct NotDNS { c: u8 }
                """,
        ])
        #expect(try dissectFrame(schema, udpFrame(from: 40000, to: 9001, [7])).int("ranged.a") == 7)
        #expect(try dissectFrame(schema, udpFrame(from: 40000, to: 9050, [7])).int("exact.b") == 7)
        #expect(try dissectFrame(schema, udpFrame(from: 40000, to: 9101, [7])).at("udp.payload").byteLength == 1)
        let overridden = try dissectFrame(schema, udpFrame(from: 53, to: 40000, [7, 0, 0]))
        #expect(try overridden.int("notdns.c") == 7)
        #expect(overridden.node(at: "dns.id") == nil)
    }

    /// A port is a guess: SNMP is registered on 161, the lower port, but a DHCPv6 message from
    /// 161 to 546 fails SNMP's constraints, so the higher port's protocol reads it.
    @Test func aKeyWhoseStructDoesNotFitGivesWayToTheNextKey() throws {
        let solicit: [UInt8] = [1, 0x12, 0x34, 0x56, 0, 8, 0, 2, 0, 0]
        let dissection = try dissectFrame(bundledSchema, udpFrame(from: 161, to: 546, solicit))
        #expect(dissection.error == nil)
        #expect(try dissection.int("dhcpv6.xid") == 0x123456)
        #expect(dissection.node(at: "snmp") == nil, "nothing of the failed guess is left")
    }

    /// When no key's struct and no heuristic fits, the first guess is read again, error and all:
    /// the frame is malformed as that protocol, as before.
    @Test func whenNothingFitsTheFirstGuessKeepsItsError() throws {
        let dissection = try dissectFrame(bundledSchema, udpFrame(from: 161, to: 40000, [0x30, 0x50, 2, 1]))
        let error = try #require(dissection.error)
        #expect(error.path.hasPrefix("snmp"), "\(error)")
    }

    @Test func anEmptyPayloadIsNotDispatched() throws {
        let dissection = try dissectFrame(bundledSchema, udpFrame(from: 53, to: 40000, []))
        #expect(dissection.error == nil)
        #expect(try dissection.at("udp.payload").byteLength == 0)
        #expect(dissection.node(at: "dns.id") == nil)
    }

    private static let tls = """
        endian big
        register tcp.port { heuristic MiniTLSRecord }
        @protocol("tls")
        struct MiniTLSRecord {
          content_type: u8 @assert(content_type >= 20 && content_type <= 23)
          version: u16 @hex @assert(version >> 8 == 3)
          length: u16
          fragment: bytes[length]
        }
        """

    @Test func aHeuristicClaimsAPayloadWhoseConstraintsHoldOnAnyPort() throws {
        let schema = try loadWithBundled(["mini-tls.schema": Self.tls])
        // Application data: the bundled tls.schema's heuristic claims only hellos.
        let record: [UInt8] = [23, 3, 3, 0, 2, 1, 0]
        let dissection = try dissectFrame(schema, tcpFrame(from: 50000, to: 4433, record))
        #expect(dissection.error == nil)
        #expect(try dissection.int("tls.content_type") == 23)
        #expect(try dissection.int("tls.length") == 2)
    }

    /// A heuristic whose constraints fail leaves the payload as bytes, with nothing of the attempt left.
    @Test func aFailedHeuristicLeavesBytesAndNoTrace() throws {
        let schema = try loadWithBundled(["mini-tls.schema": Self.tls])
        let http = Array("EHLO example.test\r\n".utf8)
        let dissection = try dissectFrame(schema, tcpFrame(from: 50000, to: 8081, http))
        #expect(dissection.error == nil)
        let payload = try #require(dissection.node(at: "tcp.payload"))
        #expect(dissection.nodes[payload].byteLength == http.count)
        #expect(dissection.nodes[payload].kind == .bytes)
        #expect(dissection.nodes.count == payload + 1, "the attempt's nodes are gone")
        // Too short to hold the constraints' fields: not claimed either.
        let short = try dissectFrame(schema, tcpFrame(from: 50000, to: 8081, [22, 3]))
        #expect(short.error == nil)
        #expect(try short.at("tcp.payload").byteLength == 2)
    }

    /// Once the last constraint held the struct owns the payload: a later error is the frame's error.
    @Test func aClaimedHeuristicKeepsItsErrors() throws {
        let schema = try loadWithBundled(["mini-tls.schema": Self.tls])
        let dissection = try dissectFrame(schema, tcpFrame(from: 50000, to: 8081, [23, 3, 3, 0, 40, 1, 2]))
        let error = try #require(dissection.error)
        #expect(error.path == "tls.fragment")
        #expect(error.code == "premature_end")
    }

    /// Exact keys are hashed: in a table of many keys that share their low bits (so their rows
    /// collide and probes wrap around), every key finds its own struct, a key between them finds
    /// none, and a range still answers for the keys it covers that no exact value holds.
    @Test func everyExactKeyOfACrowdedTableFindsItsStruct() throws {
        let evens = Array(stride(from: 0, through: 0xFE00, by: 0x200))
        let odds = [1, 3, 0x7FFF, 0x8001, 0xFFFF]
        let schema = """
            table t: u16
            register t {
              \(evens.map(String.init).joined(separator: ", ")) => A
              \(odds.map(String.init).joined(separator: ", ")) => B
              0x100...0x1FF => R
            }
            struct A { a: u8 }
            struct B { b: u8 }
            struct R { r: u8 }
            struct Main { k: u16  p: dispatch t(k) }
            """
        var expected: [Int: String?] = [:]
        for key in evens + odds {
            for neighbour in [key - 1, key + 1, key + 0x100] where (0...0xFFFF).contains(neighbour) {
                expected[neighbour] = neighbour >= 0x100 && neighbour <= 0x1FF ? "r" : nil
            }
        }
        for key in evens { expected[key] = "a" }
        for key in odds { expected[key] = "b" }
        for (key, field) in expected.sorted(by: { $0.key < $1.key }) {
            let result = try dissect(schema, [UInt8(key >> 8), UInt8(key & 0xFF), 0x55])
            #expect(result.error == nil)
            for name in ["a", "b", "r"] {
                #expect((result.node(at: "Main.p.\(name)") != nil) == (name == field),
                        "key \(key): Main.p.\(name) expected \(name == field ? "present" : "absent")")
            }
        }
    }

    /// A heuristic the capture's end stops before it claims anything leaves no trace: neither its
    /// nodes nor the cut it met, which later fields would otherwise be taken for.
    @Test func aHeuristicCutShortByTheCaptureIsForgottenWithItsCut() throws {
        let schema = """
            table t: u8
            register t { heuristic H }
            struct H { a: u8  b: u8 @assert(b == 7)  c: u8 }
            struct Main { p: dispatch t(0) @size(2)  let x = 1  let y = 2 }
            """
        // `p` holds 2 bytes on the wire but the capture keeps 1: H meets the cut before its constraint,
        // and the payload stays bytes, which (as any byte payload) is not marked cut.
        let result = try dissect(schema, [0x01], originalLength: 8)
        #expect(result.error == nil)
        #expect(result.node(at: "Main.p.a") == nil)
        #expect(try result.at("Main.p").byteLength == 1)
        #expect(result.cut == nil, "the cut belonged to the forgotten attempt, not to \(String(describing: result.cut?.path))")
    }

    /// VXLAN's layout on another port, under another name: Schemas/vxlan.schema registers 4789.
    private static let tunnel = """
        endian big
        import "ethernet.schema"
        register udp.port 48879 => Tunnel
        @protocol("tunnel")
        struct Tunnel {
          flags: u8 @hex
          reserved: u24
          vni: u24
          reserved_8: u8
          payload: Ethernet
        }
        """

    /// A tunnel back into Ethernet is a cycle of layers, not of imports; the depth budget bounds it.
    @Test func aTunnelLeadsBackIntoALowerLayerUntilTheDepthBudget() throws {
        let schema = try loadWithBundled(["tunnel.schema": Self.tunnel])
        let dnsHeader: [UInt8] = [0xAB, 0xCD, 0x81, 0x80, 0, 0, 0, 0, 0, 0, 0, 0]
        let inner = udpFrame(from: 53, to: 40000, dnsHeader)
        let outer = udpFrame(from: 40001, to: 48879, [0x08, 0, 0, 0, 0, 0, 42, 0] + inner)
        let dissection = try dissectFrame(schema, outer)
        #expect(dissection.error == nil)
        #expect(try dissection.int("tunnel.vni") == 42)
        #expect(try dissection.int("dns.id") == 0xABCD)
        var nested = inner
        for _ in 0..<80 { nested = udpFrame(from: 40001, to: 48879, [0x08, 0, 0, 0, 0, 0, 1, 0] + nested) }
        let deep = try dissectFrame(schema, nested)
        #expect(deep.error?.code == "depth_limit")
    }

    @Test func decodeAsReadsKeysAsAnotherStructForOneSchema() throws {
        let schema = try loadWithBundled(["mini-ntp.schema": Self.ntp])
        let ntpStruct = try #require(schema.structType(named: "MiniNTP"))
        let overridden = try #require(schema.overriding(table: "udp.port", keys: 5000...5001, with: ntpStruct.id))
        #expect(try dissectFrame(overridden, udpFrame(from: 40000, to: 5001, [0x23, 2])).int("ntp.mode") == 3)
        #expect(try dissectFrame(schema, udpFrame(from: 40000, to: 5001, [0x23, 2])).node(at: "ntp.mode") == nil)
        // It comes before what the schemas registered: port 53 read as NTP.
        let dnsAsNTP = try #require(schema.overriding(table: "udp.port", keys: 53...53, with: ntpStruct.id))
        #expect(try dissectFrame(dnsAsNTP, udpFrame(from: 53, to: 40000, [0x23, 2])).int("ntp.mode") == 3)
        #expect(schema.overriding(table: "udp.prt", keys: 1...1, with: ntpStruct.id) == nil)
    }

    @Test func tablesListEveryRegistrationWithItsFile() throws {
        let schema = try loadWithBundled(["mini-ntp.schema": Self.ntp, "mini-tls.schema": Self.tls])
        let udp = try #require(schema.dispatchTables.first { $0.name == "udp.port" })
        let all = udp.entries.map { ($0.low, schema.structs[$0.structID].name, ($0.location.path as NSString).lastPathComponent) }
        // The bundled files register first (other bundled protocols on UDP among them), then --schema files.
        #expect(all.last?.2 == "mini-ntp.schema")
        let registered = all.filter { ["dns.schema", "mini-ntp.schema"].contains($0.2) }
        #expect(registered.map(\.0) == [53, 1123])
        #expect(registered.map(\.1) == ["DNS", "MiniNTP"])
        #expect(registered.map(\.2) == ["dns.schema", "mini-ntp.schema"])
        // Multicast DNS is a layer of its own (Wireshark's `mdns`), registered by its file.
        #expect(all.filter { $0.0 == 5353 }.map { "\($0.1) \($0.2)" } == ["MDNS mdns.schema"])
        let tcp = try #require(schema.dispatchTables.first { $0.name == "tcp.port" })
        // The bundled files' in the order they load (by file name), then --schema's.
        #expect(tcp.heuristics.map { schema.structs[$0.structID].name }
                == ["DCERPCByHeuristic", "HTTPByHeuristic", "TLSHelloSegment", "RPCOverTCPByHeuristic", "MiniTLSRecord"])
        let ethertype = try #require(schema.dispatchTables.first { $0.name == "ethertype" })
        #expect(ethertype.keyTypeName == "EtherType")
        #expect(ethertype.entries.first { $0.low == 0x0800 }.map { schema.structs[$0.structID].name } == "IPv4")
    }

    // MARK: - Checker errors

    @Test func aSecondRegistrationOfAKeyIsAnErrorAtItUnlessItOverrides() throws {
        let found = errors(["mine.schema": """
            register udp.port {
              53 => Mine
              9000...9100 => Mine
              9100...9200 => Mine
              9150 => Mine
            }
            struct Mine { a: u8 }
            """])
        #expect(found.count == 2)
        #expect(found.map(\.kind) == [.duplicateName, .duplicateName])
        #expect(found.map { "\($0.location.line):\($0.location.column)" } == ["2:3", "4:3"])
        #expect(found.first?.message.hasPrefix("udp.port 53 is already registered to DNS at ") == true)
        #expect(found.first?.message.hasSuffix("; write 'override' before the key to replace it") == true)
        // An exact value inside a range is more specific, not a clash; two ranges that overlap are.
        #expect(found.last?.message.hasPrefix("udp.port 9000...9100 is already registered to Mine at ") == true)
    }

    @Test func twoOverridesOfOneKeyAreAnError() throws {
        let found = errors(["mine.schema": """
            register udp.port { override 53 => Mine }
            register udp.port { override 53 => Mine }
            struct Mine { a: u8 }
            """])
        #expect(found.map(\.kind) == [.duplicateName])
        #expect(found.first?.location.line == 2)
        #expect(found.first?.message.hasSuffix("only one override per key") == true)
    }

    @Test func misusesOfTablesAndRegistrationsAreLocated() {
        let found = diagnostics("""
            enum Kind: u8 { a = 1 }
            table small: u8
            table small: u16
            table bad: Kind[2]
            register nosuch { 1 => Main }
            register small { 300 => Main }
            register small { 5...2 => Main }
            register small { 7 => Kind }
            register small { 8 => Nowhere }
            register small { heuristic Main }
            struct Main {
              k: u8
              p: dispatch missing(k)
              q: dispatch small()
              r: dispatch small(k == 1)
            }
            """)
        let summary = found.map { "\($0.location.line):\($0.location.column) \($0.kind)" }
        #expect(summary == [
            "3:1 duplicateName", "4:16 typeMismatch", "5:10 unknownType", "6:18 invalidValue", "7:22 invalidValue",
            "8:23 typeMismatch", "9:23 unknownType", "10:28 invalidValue", "13:6 unknownType", "14:6 invalidValue",
            "15:23 typeMismatch",
        ])
        #expect(found.map(\.message) == [
            "table 'small' is already declared at test.schema:2:1",
            "the key type of table 'bad' must be an integer type or an enum",
            "no dispatch table 'nosuch' (tables: bad, small)",
            "key 300 does not fit the key type u8 of table 'small'",
            "the range 5...2 is empty: write the lower key first",
            "a registration selects a struct; 'Kind' is not one",
            "unknown struct 'Nowhere'",
            "heuristic 'Main' has no constraint to claim a payload with: give it a @requires, or a field of it an '== value' or an @assert",
            "no dispatch table 'missing' (tables: bad, small)",
            "'dispatch small' needs at least one key, as in dispatch small(type)",
            "a key of table 'small' is integer, not bool",
        ])
    }

    @Test func enumKeysAreTheTableEnumsCases() throws {
        let found = diagnostics("""
            enum Proto: u8 { tcp = 6 }
            table proto: Proto
            register proto { .tcp => Main  .udp => Main }
            struct Main { a: u8 }
            """)
        #expect(found.map(\.message) == ["enum 'Proto' has no case 'udp'"])
        #expect(found.map { "\($0.location.line):\($0.location.column)" } == ["3:32"])
    }
}
