import CPcap

/// The floor of the capture benchmark: libpcap's `pcap_next_ex` over a file, touching one
/// byte of each packet so the loop cannot be optimized away, and nothing else.
func runPcapFloor(path: String) -> Int32 {
    var errorBuffer = [CChar](repeating: 0, count: Int(PCAP_ERRBUF_SIZE))
    guard let handle = pcap_open_offline_with_tstamp_precision(path, UInt32(PCAP_TSTAMP_PRECISION_NANO), &errorBuffer) else {
        print("cannot open \(path)")
        return 1
    }
    defer { pcap_close(handle) }
    var header: UnsafeMutablePointer<pcap_pkthdr>?
    var data: UnsafePointer<UInt8>?
    var packets = 0
    var checksum: UInt8 = 0
    while pcap_next_ex(handle, &header, &data) == 1 {
        packets += 1
        if let data, let header, header.pointee.caplen > 0 { checksum ^= data[Int(header.pointee.caplen) - 1] }
    }
    print("\(packets) packets (checksum \(checksum))")
    return 0
}
