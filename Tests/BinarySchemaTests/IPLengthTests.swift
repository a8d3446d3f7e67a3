import BinarySchema
import Foundation
import Testing

/// IPv4 total length 0, as a capture on the sending host shows a segment before TCP segmentation
/// offload (or BIG TCP) splits it: the datagram runs to the frame's end.
@Suite struct IPLengthTests {
    @Test func anIPv4TotalLengthOfZeroRunsToTheEndOfTheFrame() throws {
        var (frame, root) = try CutCaptureTests.tcpAck()
        frame += Array(repeating: 0x73, count: 1600)
        frame[16] = 0
        frame[17] = 0
        // The header checksum made right again for the zero length (RFC 1071).
        frame[24] = 0
        frame[25] = 0
        var sum = 0
        for index in stride(from: 14, to: 34, by: 2) { sum += Int(frame[index]) << 8 | Int(frame[index + 1]) }
        while sum > 0xFFFF { sum = (sum & 0xFFFF) + (sum >> 16) }
        frame[24] = UInt8(~sum >> 8 & 0xFF)
        frame[25] = UInt8(~sum & 0xFF)

        var interpreter = Interpreter(schema: bundledSchema)
        let result = interpreter.dissect(frame, root: root)
        #expect(result.error == nil)
        #expect(try result.int("ip.total_length") == 0)
        #expect(try result.int("tcp.src_port") == 48684)
        #expect(try result.at("tcp.payload").byteLength == 1600)
        let checksumNode = try #require(result.node(at: "ip.checksum"))
        let checksum = try #require(result.checksum(of: checksumNode))
        #expect(checksum.isCorrect)
        #expect(try result.at("ip").byteLength == frame.count - 14)
    }
}
