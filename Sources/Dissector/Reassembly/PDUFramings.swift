import BinarySchema
import Reassembly

/// The framing each struct declares for the PDUs of a byte stream.
enum PDUFramings {
    /// The framing `type` declares, if any.
    static func framing(of type: StructType, in schema: Schema) -> CaptureReassembler.Framing? {
        let framer: PDUFramer
        switch type.name {
        case "TLS", "TLSHelloSegment": framer = .tlsRecords
        case "BGPSegment": framer = .bgp
        case "DNSOverTCP": framer = .dnsOverTCP
        case "MQTTSegment": framer = .mqtt
        case "HTTPSegment", "HTTPByHeuristic": framer = .http1
        default: return nil
        }
        return CaptureReassembler.Framing(framer: framer, pduStructID: type.id)
    }
}
