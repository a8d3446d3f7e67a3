import Dissector
import Testing

/// `HexInput.frames`: dumps pasted one after the other stay apart.
@Suite struct HexFramesTests {
    @Test func tcpdumpPacketLinesSplitFramesAndHeadThem() throws {
        let text = """
            06:01:45.551769 IP (tos 0x0, ttl 64, id 40250, offset 0, flags [none], proto UDP (17), length 85)
                localhost.53104 > localhost.domain: 21956+ A? www.example.test. (57)
            \t0x0000:  0102 0304  ....
            \t0x0010:  05                                       .
            06:01:45.551840 IP localhost.domain > localhost.53104: 21956* 1/0/1 A 192.0.2.10 (61)
            \t0x0000:  aabb
            """
        let frames = try HexInput.frames(text)
        #expect(frames.map(\.bytes) == [[1, 2, 3, 4, 5], [0xaa, 0xbb]])
        #expect(frames.first?.header?.hasPrefix("06:01:45.551769 IP (tos 0x0") == true)
        #expect(frames.last?.header?.hasPrefix("06:01:45.551840 IP localhost.domain") == true)
        // parse() still gives every byte, one frame after the other.
        #expect(try HexInput.parse(text) == [1, 2, 3, 4, 5, 0xaa, 0xbb])
    }

    @Test func offsetZeroStartsAnotherFrameWithoutAPacketLine() throws {
        let xxd = "00000000: 0102  ..\n00000002: 03  .\n00000000: 0405  ..\n"
        #expect(try HexInput.frames(xxd).map(\.bytes) == [[1, 2, 3], [4, 5]])
        let hexdump = """
            00000000  01 02 03                                          |...|
            00000003
            00000000  04                                                |.|
            00000001
            """
        #expect(try HexInput.frames(hexdump).map(\.bytes) == [[1, 2, 3], [4]])
        // One dump stays one frame.
        #expect(try HexInput.frames("00000000: 0102\n00000002: 0304\n").map(\.bytes) == [[1, 2, 3, 4]])
    }

    @Test func plainHexAndEmptyTextAreOneFrame() throws {
        #expect(try HexInput.frames("0102 0304\n0506").map(\.bytes) == [[1, 2, 3, 4, 5, 6]])
        #expect(try HexInput.frames("").map(\.bytes) == [[]])
        // Packet lines without any dump give no frames of their own.
        #expect(try HexInput.frames("06:01:45 IP a > b\n\t0x0000:  01\ntrailing words\n").map(\.bytes) == [[1]])
    }
}
