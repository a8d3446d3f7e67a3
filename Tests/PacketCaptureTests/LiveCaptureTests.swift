import Foundation
import PacketCapture
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Whether this process may capture on the loopback interface (root or CAP_NET_RAW).
let canCaptureOnLoopback: Bool = (try? Capture.open(interface: "lo")) != nil

@Suite struct LiveCaptureTests {
    /// Sends `count` UDP datagrams to 127.0.0.1:`port`, each payload "dissect-N".
    static func sendDatagrams(count: Int, port: UInt16) {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard socketDescriptor >= 0 else { return }
        defer { close(socketDescriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        for index in 0..<count {
            let payload = Array("dissect-\(index)".utf8)
            _ = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                    sendto(socketDescriptor, payload, payload.count, 0, socketAddress, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
    }

    @Test(.enabled(if: canCaptureOnLoopback, "capturing on lo needs root or CAP_NET_RAW; skipped"))
    func seesDatagramsSentToLoopback() throws {
        let port = UInt16(40_000 + getpid() % 20_000)
        let capture = try Capture.open(interface: "lo")
        try capture.setFilter("udp and dst port \(port)")
        Self.sendDatagrams(count: 5, port: port)

        var payloads: Set<String> = []
        let deadline = Date(timeIntervalSinceNow: 5)
        while payloads.count < 5, Date() < deadline {
            guard case .packet(let packet) = try capture.next() else { continue }
            // lo has Ethernet framing: 14 + 20 (IPv4) + 8 (UDP) bytes of headers.
            payloads.insert(String(decoding: packet.bytes.dropFirst(42), as: UTF8.self))
            #expect(packet.bytes.count == packet.originalLength)
        }
        #expect(payloads == Set((0..<5).map { "dissect-\($0)" }))
        let statistics = try #require(capture.statistics())
        #expect(statistics.received >= 5)
    }

    @Test(.enabled(if: canCaptureOnLoopback, "capturing needs root or CAP_NET_RAW; skipped"))
    func stopEndsABlockedCapture() throws {
        let capture = try Capture.open(interface: "lo")
        try capture.setFilter("udp and dst port 9")
        capture.stop()
        var ended = false
        for _ in 0..<50 {
            if case .end = try capture.next() { ended = true; break }
        }
        #expect(ended)
    }

    /// A read waiting on a quiet interface with no timeout returns `.end` when another thread
    /// stops the capture: `pcap_breakloop` must wake the read, not only set a flag for the next.
    @Test(.enabled(if: canCaptureOnLoopback, "capturing on lo needs root or CAP_NET_RAW; skipped"))
    func stopFromAnotherThreadEndsAReadBlockedOnAQuietInterface() throws {
        var options = Capture.LiveOptions()
        // No read timeout: only a packet or the stop can end the read.
        options.timeoutMilliseconds = 0
        let capture = try Capture.open(interface: "lo", options: options)
        let port: UInt16 = 9
        try capture.setFilter("udp and dst port \(port)")
        let stopper = capture.stopper
        let readReturned = DispatchSemaphore(value: 0)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { stopper.stop() }
        // If the stop does not wake the read, a datagram the filter matches does after 10 s, so
        // the failure shows as a packet instead of a hung suite.
        DispatchQueue.global().async {
            if readReturned.wait(timeout: .now() + 10) == .timedOut { Self.sendDatagrams(count: 1, port: port) }
        }
        let start = Date()
        let next = try capture.next()
        readReturned.signal()
        let waited = Date().timeIntervalSince(start)
        guard case .end = next else {
            Issue.record("the blocked read must end with .end when stopped, got \(next) after \(waited) s")
            return
        }
        #expect(waited >= 0.15, "the read returned after \(waited) s, before the stop: it was not blocked")
        #expect(waited < 5, "the stop took \(waited) s to end the read")
    }

    @Test func unknownInterfaceIsAClearError() throws {
        // Without privileges libpcap refuses before it looks the interface up; with them it can
        // tell that the interface does not exist. Either way the answer is exactly one of them.
        let expected: PcapError.Kind = canCaptureOnLoopback ? .noSuchDevice : .permissionDenied
        do {
            _ = try Capture.open(interface: "nosuchif0")
            Issue.record("opening a missing interface must fail")
        } catch {
            #expect(error.kind == expected, "\(error)")
            #expect(error.subject == "nosuchif0")
            #expect(error.description.hasPrefix(expected == .noSuchDevice
                ? "no interface named 'nosuchif0' (dissect --list-interfaces shows them): "
                : "no permission to capture on 'nosuchif0' (run as root or grant CAP_NET_RAW): "), "\(error)")
        }
    }

    @Test func interfacesIncludeLoopback() throws {
        let interfaces = try Capture.interfaces()
        #expect(interfaces.contains { $0.name == "lo" && $0.isLoopback })
    }
}
