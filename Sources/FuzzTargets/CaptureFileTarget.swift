import BinarySchema
import Dissector
import Foundation
import PacketCapture

/// Capture file bytes through libpcap (pcap or pcapng) and every packet through the dissector.
enum CaptureFileTarget {
    static func run(_ bytes: [UInt8]) throws(InvariantViolation) {
        guard let capture = try? Capture.open(bytes: bytes) else { return }
        let schema = BundledSchema.schema
        guard let root = schema.rootStruct(forLinkType: capture.linkType) ?? schema.structType(named: "Unrecognized") else {
            throw InvariantViolation("no root for link type \(capture.linkType) and no Unrecognized struct")
        }
        var interpreter = Interpreter(schema: schema, options: DissectionInvariants.walkOptions)
        var packets = 0
        while packets < 10_000, case .packet(let packet)? = try? capture.next() {
            packets += 1
            try require(packet.bytes.count <= bytes.count, "a packet of \(packet.bytes.count) bytes from a \(bytes.count)-byte file")
            let dissection = interpreter.dissect(packet.bytes, root: root, originalLength: packet.originalLength)
            try DissectionInvariants.check(dissection, root: root.name)
            // The file's timestamps are arbitrary too: the views must format any of them.
            let frame = FrameInfo(number: packets, time: CaptureTime(seconds: packet.seconds, nanoseconds: packet.nanoseconds),
                                  originalLength: packet.originalLength)
            _ = View.summary.render(dissection, frame: frame)
            let json = View.json.render(dissection, frame: frame)
            try require((try? JSONSerialization.jsonObject(with: Data(json.utf8))) is [String: Any],
                        "packet \(packets): the json view does not parse: \(json.prefix(200))")
        }
    }
}
