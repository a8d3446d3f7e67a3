import BinarySchema
import Reassembly

/// The framers the schemas' `@pdu` declarations describe.
package enum PDUFramings {
    /// The framing `type` declares with `@pdu`, if any: its builtin framer, or its `length:` and
    /// `accept:` expressions evaluated over the stream's bytes.
    package static func framing(of type: StructType, in schema: Schema) -> CaptureReassembler.Framing? {
        guard let declared = type.pduFraming, schema.structs.indices.contains(declared.pduStructID) else { return nil }
        let framer: PDUFramer
        switch declared.builtin {
        case "http"?:
            return CaptureReassembler.Framing(pduStructID: declared.pduStructID) { PDUFramer.http1Conversation() }
        case .some:
            return nil
        case nil:
            framer = PDUFramer(name: type.protocolAbbreviation ?? type.name) { bytes in
                switch bytes.withUnsafeBufferPointer(declared.boundary(of:)) {
                case .needMore(let count): return .needMore(atLeast: count)
                case .complete(let length): return .complete(length: length)
                case .notAPDU: return .notAPDU
                }
            }
        }
        return CaptureReassembler.Framing(framer: framer, pduStructID: declared.pduStructID)
    }
}
