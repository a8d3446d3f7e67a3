import BinarySchema

/// One end of a conversation: an IPv4 address (in the low 4 bytes of `low`) or an IPv6 address,
/// and a port. Fixed width, so a flow's key hashes without touching the heap.
package struct Endpoint: Hashable, Sendable, Comparable {
    package var high: UInt64
    package var low: UInt64
    package var port: UInt16

    package init(high: UInt64, low: UInt64, port: UInt16) {
        self.high = high
        self.low = low
        self.port = port
    }

    package static func < (lhs: Endpoint, rhs: Endpoint) -> Bool {
        (lhs.high, lhs.low, lhs.port) < (rhs.high, rhs.low, rhs.port)
    }
}

/// What a frame gives reassembly, located in the frame's bytes: a TCP segment or an IP fragment.
package enum TransportTap: Sendable {
    case tcp(TCPSegmentTap)
    case fragment(IPFragmentTap)
}

/// A TCP segment as its frame's dissection read it.
package struct TCPSegmentTap: Sendable {
    package var isIPv6: Bool
    package var source: Endpoint
    package var destination: Endpoint
    package var sequenceNumber: UInt32
    package var syn: Bool
    package var fin: Bool
    package var rst: Bool
    /// The payload's bytes in the frame.
    package var payload: Range<Int>
    /// The struct the payload was dispatched to, when it declares how its PDUs are framed
    /// (`@pdu`); -1 otherwise.
    package var framedStructID: Int
    /// The payload is framed, or (a SYN, no payload yet) a port table sends a port to a framed struct.
    package var portFramed: Bool

    package init(isIPv6: Bool, source: Endpoint, destination: Endpoint, sequenceNumber: UInt32, syn: Bool, fin: Bool,
                 rst: Bool, payload: Range<Int>, framedStructID: Int, portFramed: Bool) {
        self.isIPv6 = isIPv6
        self.source = source
        self.destination = destination
        self.sequenceNumber = sequenceNumber
        self.syn = syn
        self.fin = fin
        self.rst = rst
        self.payload = payload
        self.framedStructID = framedStructID
        self.portFramed = portFramed
    }
}

/// An IPv4 or IPv6 fragment as its frame's dissection read it.
package struct IPFragmentTap: Sendable {
    package var isIPv6: Bool
    /// The addresses, packed as ``Endpoint`` packs them (no heap storage: a tap is plain data).
    package var source: Endpoint
    package var destination: Endpoint
    package var identification: UInt32
    /// IPv4's protocol, or the fragment header's next header.
    package var protocolNumber: UInt8
    /// Where the fragment's data goes in the datagram, in bytes.
    package var offset: Int
    package var moreFragments: Bool
    /// The fragment's data in the frame.
    package var payload: Range<Int>
}

/// Finds the TCP segment or IP fragment in a dissection, by the bundled schemas' protocol names
/// (`ip`, `ipv6`, `ipv6.fragment`, `tcp`) and Wireshark's field names: a schema set that names its
/// IP and TCP layers so is reassembled, whatever else it describes. Cheap on frames with neither:
/// the walk notes the nodes of those layers as dispatch tables choose them, so no node is searched.
package final class TransportTapper: Sendable {
    /// A struct's number and the slots of the fields named, in order (-1: no such field).
    private struct Slots: Sendable {
        var structID = -1
        var slots: [Int]

        init(_ type: StructType?, _ names: [String]) {
            structID = type?.id ?? -1
            slots = names.map { name in type?.fields.first { $0.name == name }?.slot ?? -1 }
        }

        subscript(_ position: Int) -> Int { slots[position] }
    }

    // Positions in each `Slots`.
    private enum IPv4Field {
        static let fragmentOffset = 0, flags = 1, identification = 2, protocolNumber = 3, source = 4, destination = 5,
                   payload = 6
    }
    private enum IPv6Field { static let source = 0, destination = 1 }
    private enum FragmentField { static let offset = 0, more = 1, identification = 2, next = 3 }

    private let tcp: Slots
    private let ipv4: Slots
    private let ipv4MoreFragments: Slots
    private let ipv6: Slots
    private let ipv6Fragment: Slots
    /// Per struct: whether it declares `@pdu`.
    private let framed: [Bool]
    /// Per TCP port, a bit: whether `tcp.port` sends it to a framed struct (8 kB rather than 64 kB
    /// of Bools, which missed the cache at every look).
    private let framedPorts: [UInt64]
    /// Whether TCP segments are tapped (off: fragments only).
    private let segments: Bool

    /// A tapper for `schema`; `isFramed` says which structs declare their PDUs' framing.
    package init(schema: Schema, segments: Bool = true, isFramed: (StructType) -> Bool) {
        self.segments = segments
        // The layer itself, not a quoted copy of its header (an ICMP error's `tcp`): the struct
        // a dispatch table or a link type leads to.
        var registered = Set<Int>()
        for table in schema.dispatchTables {
            for entry in table.entries + table.heuristics { registered.insert(entry.structID) }
        }
        func named(_ abbreviation: String) -> StructType? {
            let candidates = schema.structs.filter { $0.protocolAbbreviation == abbreviation }
            return candidates.first { registered.contains($0.id) || !$0.linkTypes.isEmpty } ?? candidates.first
        }
        func fieldStruct(_ type: StructType?, _ name: String) -> StructType? {
            guard let field = type?.fields.first(where: { $0.name == name }),
                  case .structure(let id) = field.type, schema.structs.indices.contains(id)
            else { return nil }
            return schema.structs[id]
        }
        let tcpType = named("tcp")
        let ipv4Type = named("ip")
        tcp = Slots(tcpType, [])
        ipv4 = Slots(ipv4Type, ["fragment_offset", "flags", "identification", "protocol", "src", "dst", "payload"])
        ipv4MoreFragments = Slots(fieldStruct(ipv4Type, "flags"), ["mf"])
        ipv6 = Slots(named("ipv6"), ["src", "dst"])
        ipv6Fragment = Slots(named("ipv6.fragment"), ["offset", "more_fragments", "identification", "next_header"])
        framed = schema.structs.map(isFramed)
        var framedPorts = [UInt64](repeating: 0, count: 65536 / 64)
        for table in schema.dispatchTables where table.name == "tcp.port" {
            for entry in table.entries where schema.structs.indices.contains(entry.structID)
                && isFramed(schema.structs[entry.structID]) && entry.low <= 65535 && entry.high >= 0 {
                for port in max(0, entry.low)...min(65535, entry.high) { framedPorts[Int(port) >> 6] |= 1 << (port & 63) }
            }
        }
        self.framedPorts = framedPorts
    }

    /// The structs whose nodes the tapper reads: the interpreter must note them
    /// (`Interpreter.noteStructs`), or nothing is found. The framed structs are among them: the
    /// one a TCP payload was dispatched to says whether its flow is reassembled.
    package var structIDs: Set<Int> {
        var ids = Set([tcp.structID, ipv4.structID, ipv6.structID, ipv6Fragment.structID].filter { $0 >= 0 })
        for (id, isFramed) in framed.enumerated() where isFramed { ids.insert(id) }
        return ids
    }

    /// The TCP segment or IP fragment `dissection` holds, if any: the first fragment, else the
    /// first TCP header, among the IP and TCP layers the walk noted as dispatch tables chose
    /// them (tunnels included).
    package func tap(_ dissection: Dissection) -> TransportTap? {
        var layers = NotedLayers()
        guard note(dissection, tag: 0, into: &layers) else { return nil }
        return dissection.bytes.withUnsafeBufferPointer { bytes in
            var found: TransportTap?
            taps(of: layers, bytes: { _ in bytes }) { _, tap in found = tap }
            return found
        }
    }

    /// What frames' walks noted, kept after the walks until their taps are read
    /// (``taps(of:bytes:_:)``). Filled a frame at a time by ``note(_:tag:into:)``.
    package struct NotedLayers {
        fileprivate enum Layers {
            /// A fragment, read at once: it takes the walk's fields.
            case fragment(IPFragmentTap)
            /// A segment's TCP header, the IP header above it, and the framed struct its payload
            /// was dispatched to (-1: none), read later from the frame's bytes.
            case segment(tcp: NotedStruct, ip: NotedStruct, framedStructID: Int)
        }

        fileprivate var frames: [(tag: Int, layers: Layers)] = []

        package init() {}

        package var isEmpty: Bool { frames.isEmpty }

        package mutating func removeAll() {
            frames.removeAll(keepingCapacity: true)
        }
    }

    /// The first half of tapping, while `dissection` is valid: finds, among the layers its walk
    /// noted, the first fragment, else the first TCP header below an IP header, and keeps it under
    /// `tag`. A fragment is read now, from the walk's fields; a segment's header waits for
    /// ``taps(of:bytes:_:)``, done for a whole share of frames at once, out of the way of the
    /// interpreter's code between two walks. Returns whether the frame was kept: a bare
    /// acknowledgment (no payload, no SYN, FIN or RST; most segments) is told now from two bytes of
    /// its header, while they are in cache, and is not.
    @discardableResult
    package func note(_ dissection: Dissection, tag: Int, into layers: inout NotedLayers) -> Bool {
        let count = dissection.notedStructCount
        guard count > 0 else { return false }
        let ipv4ID = Int32(truncatingIfNeeded: ipv4.structID)
        let ipv6ID = Int32(truncatingIfNeeded: ipv6.structID)
        let tcpID = Int32(truncatingIfNeeded: tcp.structID)
        let fragmentID = Int32(truncatingIfNeeded: ipv6Fragment.structID)
        var ip: NotedStruct?
        var segment: (tcp: NotedStruct, ip: NotedStruct)?
        var sawTCP = false
        var framedStructID = -1
        for position in 0..<count {
            guard let noted = dissection.notedStruct(at: position) else { continue }
            if noted.structID == tcpID, !sawTCP {
                sawTCP = true
                let header = noted.byteOffset
                guard segments, let above = ip, noted.bitStart & 7 == 0, header >= 0, header + 14 <= dissection.bytes.count
                else { continue }
                let payloadStart = header + Int(dissection.bytes[header + 12] >> 4) * 4
                let flags = dissection.bytes[header + 13]
                if payloadStart < min(noted.byteEnd, dissection.bytes.count) || flags & 0x07 != 0 { segment = (noted, above) }
                continue
            }
            // The struct the segment's payload was dispatched to: a framed one, the TCP header's child.
            if let tcp = segment?.tcp, framedStructID < 0, noted.parent == tcp.node,
               framed.indices.contains(Int(noted.structID)), framed[Int(noted.structID)] {
                framedStructID = Int(noted.structID)
            }
            if noted.structID == ipv6ID { ip = noted }
            if noted.structID == ipv4ID {
                ip = noted
                // The flags and fragment offset share bytes 6-7 of the header: a whole datagram
                // (MF clear, offset 0) is told at once, without looking its fields up.
                let header = noted.byteOffset
                if header >= 0, header + 8 <= dissection.bytes.count, dissection.bytes[header + 6] & 0x3F == 0,
                   dissection.bytes[header + 7] == 0 { continue }
            } else if noted.structID != fragmentID {
                continue
            }
            // A fragment's TCP header (the first fragment's) is the datagram's, not a segment.
            if let fragment = fragmentTap(dissection, Int(noted.node)) {
                layers.frames.append((tag, .fragment(fragment)))
                return true
            }
        }
        guard let segment else { return false }
        layers.frames.append((tag, .segment(tcp: segment.tcp, ip: segment.ip, framedStructID: framedStructID)))
        return true
    }

    /// The second half of tapping: calls `body` with the tag and tap of each frame in `layers`,
    /// in order. `bytes` gives the bytes a frame's walk read (nil: none, no tap).
    package func taps(of layers: NotedLayers, bytes: (_ tag: Int) -> UnsafeBufferPointer<UInt8>?,
                      _ body: (_ tag: Int, _ tap: TransportTap) -> Void) {
        for (tag, frameLayers) in layers.frames {
            switch frameLayers {
            case .fragment(let fragment):
                body(tag, .fragment(fragment))
            case .segment(let tcp, let ip, let framedStructID):
                guard let frameBytes = bytes(tag),
                      let tap = segmentTap(tcp, ip: ip, framedStructID: framedStructID, bytes: frameBytes) else { continue }
                body(tag, .tcp(tap))
            }
        }
    }

    private func value(_ dissection: Dissection, _ structNode: Int, _ slot: Int) -> Int64? {
        guard slot >= 0, let node = dissection.fieldNode(ofStruct: structNode, slot: slot) else { return nil }
        return dissection.integer(of: node)
    }

    /// The big-endian integer in `bytes[offset..<offset + count]`, which the caller bounds-checked.
    private func bigEndian(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int, _ count: Int) -> UInt64 {
        var value: UInt64 = 0
        for position in offset..<(offset + count) { value = value << 8 | UInt64(bytes[position]) }
        return value
    }

    private func segmentTap(_ tcpNode: NotedStruct, ip ipNode: NotedStruct, framedStructID: Int,
                            bytes: UnsafeBufferPointer<UInt8>) -> TCPSegmentTap? {
        // The fixed header is read from its bytes (ports, sequence number, data offset, flags at
        // their RFC 9293 places), so a bare acknowledgment (most segments) costs a few loads.
        let header = tcpNode.byteOffset
        guard tcpNode.bitStart & 7 == 0, header >= 0, header + 14 <= bytes.count else { return nil }
        let flags = bytes[header + 13]
        let (fin, syn, rst) = (flags & 0x01 != 0, flags & 0x02 != 0, flags & 0x04 != 0)
        let start = header + Int(bytes[header + 12] >> 4) * 4
        let end = min(tcpNode.byteEnd, bytes.count)
        guard start <= end, start < end || syn || fin || rst else { return nil }
        let sourcePort = Int(bigEndian(bytes, header, 2))
        let destinationPort = Int(bigEndian(bytes, header + 2, 2))
        let sequence = UInt32(truncatingIfNeeded: bigEndian(bytes, header + 4, 4))
        // The addresses, from their RFC 791 / RFC 8200 places in the IP header's bytes.
        let ipHeader = ipNode.byteOffset
        let isIPv6 = Int(ipNode.structID) == ipv6.structID
        let (sourceAt, size) = isIPv6 ? (8, 16) : (12, 4)
        guard ipNode.bitStart & 7 == 0, ipHeader >= 0, ipHeader + sourceAt + 2 * size <= bytes.count else { return nil }
        let source = packed(bytes, from: ipHeader + sourceAt, count: size)
        let destination = packed(bytes, from: ipHeader + sourceAt + size, count: size)
        // A SYN carries no payload to dispatch: whether a port table sends either port to a
        // framed protocol says whether its flow may be reassembled. Other segments need not ask.
        let portFramed = framedStructID >= 0 || (syn && (isFramedPort(sourcePort) || isFramedPort(destinationPort)))
        return TCPSegmentTap(
            isIPv6: isIPv6,
            source: Endpoint(high: source.high, low: source.low, port: UInt16(truncatingIfNeeded: sourcePort)),
            destination: Endpoint(high: destination.high, low: destination.low,
                                  port: UInt16(truncatingIfNeeded: destinationPort)),
            sequenceNumber: sequence,
            syn: syn, fin: fin, rst: rst, payload: start..<end, framedStructID: framedStructID, portFramed: portFramed)
    }

    /// Whether `tcp.port` sends `port` (0...65535) to a framed struct.
    private func isFramedPort(_ port: Int) -> Bool {
        framedPorts[port >> 6] & (1 << UInt64(port & 63)) != 0
    }

    /// An address of `count` bytes (4 or 16) at `offset`, packed as ``Endpoint`` packs it.
    private func packed(_ bytes: UnsafeBufferPointer<UInt8>, from offset: Int, count: Int) -> (high: UInt64, low: UInt64) {
        count > 8
            ? (bigEndian(bytes, offset, count - 8), bigEndian(bytes, offset + count - 8, 8))
            : (0, bigEndian(bytes, offset, count))
    }

    private func addressBytes(_ dissection: Dissection, _ structNode: Int, _ slot: Int) -> ArraySlice<UInt8>? {
        guard slot >= 0, let node = dissection.fieldNode(ofStruct: structNode, slot: slot) else { return nil }
        let bytes = dissection.rawBytes(of: node)
        return bytes.count == 4 || bytes.count == 16 ? bytes : nil
    }

    /// An address's 4 or 16 bytes (``addressBytes(_:_:_:)``) as an ``Endpoint`` with port 0.
    private func endpoint(_ bytes: ArraySlice<UInt8>) -> Endpoint {
        let (high, low) = bytes.withUnsafeBufferPointer { packed($0, from: 0, count: $0.count) }
        return Endpoint(high: high, low: low, port: 0)
    }

    private func fragmentTap(_ dissection: Dissection, _ node: Int) -> IPFragmentTap? {
        guard case .structure(let id) = dissection.nodes[node].kind else { return nil }
        if Int(id) == ipv4.structID {
            guard let offset = value(dissection, node, ipv4[IPv4Field.fragmentOffset]),
                  ipv4[IPv4Field.flags] >= 0, let flags = dissection.fieldNode(ofStruct: node, slot: ipv4[IPv4Field.flags]),
                  let more = value(dissection, flags, ipv4MoreFragments[0]),
                  offset != 0 || more != 0,
                  let identification = value(dissection, node, ipv4[IPv4Field.identification]),
                  let protocolNumber = value(dissection, node, ipv4[IPv4Field.protocolNumber]),
                  let source = addressBytes(dissection, node, ipv4[IPv4Field.source]),
                  let destination = addressBytes(dissection, node, ipv4[IPv4Field.destination]),
                  let payload = payloadRange(dissection, node, ipv4[IPv4Field.payload])
            else { return nil }
            return IPFragmentTap(isIPv6: false, source: endpoint(source), destination: endpoint(destination),
                                 identification: UInt32(truncatingIfNeeded: identification),
                                 protocolNumber: UInt8(truncatingIfNeeded: protocolNumber), offset: Int(offset) * 8,
                                 moreFragments: more != 0, payload: payload)
        }
        let header = dissection.nodes[node]
        guard let offset = value(dissection, node, ipv6Fragment[FragmentField.offset]),
              let more = value(dissection, node, ipv6Fragment[FragmentField.more]),
              offset != 0 || more != 0,
              let identification = value(dissection, node, ipv6Fragment[FragmentField.identification]),
              let next = value(dissection, node, ipv6Fragment[FragmentField.next]),
              let ip = enclosingIPv6(dissection, node),
              let source = addressBytes(dissection, ip, ipv6[IPv6Field.source]),
              let destination = addressBytes(dissection, ip, ipv6[IPv6Field.destination])
        else { return nil }
        // The fragment's data: after the 8-byte fragment header, to the end of the IPv6 payload.
        let start = header.byteOffset + 8
        let end = min(header.byteOffset + header.byteLength, dissection.bytes.count)
        guard start <= end else { return nil }
        return IPFragmentTap(isIPv6: true, source: endpoint(source), destination: endpoint(destination),
                             identification: UInt32(truncatingIfNeeded: identification),
                             protocolNumber: UInt8(truncatingIfNeeded: next), offset: Int(offset) * 8,
                             moreFragments: more != 0, payload: start..<end)
    }

    private func enclosingIPv6(_ dissection: Dissection, _ node: Int) -> Int? {
        var current = Int(dissection.nodes[node].parent)
        while current >= 0 {
            if case .structure(let id) = dissection.nodes[current].kind, Int(id) == ipv6.structID { return current }
            current = Int(dissection.nodes[current].parent)
        }
        return nil
    }

    private func payloadRange(_ dissection: Dissection, _ structNode: Int, _ slot: Int) -> Range<Int>? {
        guard slot >= 0, let node = dissection.fieldNode(ofStruct: structNode, slot: slot) else { return nil }
        let range = dissection.rawByteRange(of: dissection.nodes[node])
        return range
    }
}
