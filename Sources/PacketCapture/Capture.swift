import CPcap
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// An open `pcap_t`, closed when the last of its capture and its stoppers lets go of it, so a
/// stopper never reaches a closed handle. Owns the in-memory file a handle may be reading.
private final class PcapHandle: Sendable {
    /// libpcap's handle. Only `pcap_breakloop` is called on it from other threads, which
    /// libpcap allows; everything else is the capture's, from one thread.
    nonisolated(unsafe) let pointer: OpaquePointer
    /// Set by ``CaptureStopper/stop()``: pcap_breakloop does not stop pcap_next_ex on a file,
    /// so reads check this too.
    let stopRequested = Atomic<Bool>(false)
    /// The bytes an in-memory capture reads, freed after the handle is closed.
    nonisolated(unsafe) let memory: UnsafeMutableRawPointer?

    init(_ pointer: OpaquePointer, memory: UnsafeMutableRawPointer? = nil) {
        self.pointer = pointer
        self.memory = memory
    }

    deinit {
        pcap_close(pointer)
        memory?.deallocate()
    }
}

/// Stops a ``Capture`` from any thread, or from a signal handler: the pending or next read
/// returns `.end`. It keeps the capture's handle open, so it stays safe to call after the
/// capture itself is released.
public struct CaptureStopper: Sendable {
    private let handle: PcapHandle

    fileprivate init(_ handle: PcapHandle) { self.handle = handle }

    /// Makes a pending or the next read of the capture return `.end`. Only sets an atomic
    /// flag and calls `pcap_breakloop`, so a signal handler may call it.
    public func stop() {
        handle.stopRequested.store(true, ordering: .relaxed)
        pcap_breakloop(handle.pointer)
    }
}

/// One packet as libpcap delivered it.
public struct CapturedPacket: Sendable {
    /// Capture time: seconds since 1970…
    public let seconds: Int
    /// …and the nanoseconds within that second.
    public let nanoseconds: Int
    /// Bytes captured (at most the snapshot length).
    public let bytes: [UInt8]
    /// Length of the packet on the wire.
    public let originalLength: Int
    /// The link type (DLT) of the packet's interface: the capture's ``Capture/linkType``, except in
    /// a pcapng file whose interfaces differ. Nil for a packet made by hand (the capture's).
    public let linkType: Int?

    /// A packet with these contents, for writing with ``CaptureWriter``.
    public init(seconds: Int, nanoseconds: Int, bytes: [UInt8], originalLength: Int, linkType: Int? = nil) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
        self.bytes = bytes
        self.originalLength = originalLength
        self.linkType = linkType
    }
}

/// A packet in libpcap's own buffer, as ``Capture/nextBorrowed()`` delivers it: valid until the
/// next read from the same capture. Copy what must outlive that. Package-only: nothing outside
/// the package can keep one past its read (the public ``Capture/next()`` copies).
package struct BorrowedPacket {
    /// Capture time: seconds since 1970 and the nanoseconds within that second.
    package let seconds: Int
    package let nanoseconds: Int
    /// Bytes captured (at most the snapshot length).
    package let bytes: UnsafeBufferPointer<UInt8>
    /// Length of the packet on the wire.
    package let originalLength: Int
    /// The link type (DLT) of the packet's interface (see ``CapturedPacket/linkType``).
    package let linkType: Int
    /// The packet's place in its file, from 1, counting the packets a filter passed over; for a
    /// live capture, its place among the packets delivered.
    package var position = 0

    /// A copy that outlives the next read.
    package func copy() -> CapturedPacket {
        CapturedPacket(seconds: seconds, nanoseconds: nanoseconds, bytes: Array(bytes), originalLength: originalLength,
                       linkType: linkType)
    }
}

/// A libpcap capture: a file being read or an interface being captured on. It owns its
/// `pcap_t` and closes it when released. Use it from one thread.
public final class Capture {
    /// What `next()` found.
    public enum Next {
        case packet(CapturedPacket)
        /// A live capture's read timeout passed with no packet.
        case timeout
        /// The end of the file, or `stop()` was called.
        case end
    }

    private let owner: PcapHandle
    var handle: OpaquePointer { owner.pointer }
    /// The path or interface, for messages.
    public let source: String
    /// libpcap's link type (DLT number), which says what the first header of each packet is.
    public let linkType: Int
    /// Whether timestamps carry nanoseconds (otherwise microseconds, scaled).
    let nanosecondPrecision: Bool

    /// Digits of a second the source records: 6 for a microsecond file, 9 for nanoseconds.
    public private(set) var timestampDigits = 9
    /// Whether packets come from an interface.
    public private(set) var isLive = false
    /// Whether packets come from a stream (a pipe, a terminal) rather than a regular file: a
    /// reader shows them as they arrive.
    public var isStream: Bool { !isLive && descriptor >= 0 }
    /// A live capture's descriptor to wait on (the handle does not block), or a stream's (a
    /// pipe, a terminal) to ask whether input is waiting; -1 for a regular file.
    private var descriptor: Int32 = -1
    /// How long a live read waits for a packet before reporting `.timeout`.
    private var timeoutMilliseconds: Int32 = 100
    /// The stream a file is read from, for ``inputIsWaiting()``.
    private var stream: UnsafeMutablePointer<FILE>?

    /// libpcap's name for the link type (`EN10MB`, `LINUX_SLL2`), or its number when it has none.
    public var linkTypeName: String { Self.name(ofLinkType: linkType) }

    /// libpcap's description of the link type (`Ethernet`, `Linux cooked v2`), or its name.
    public var linkTypeDescription: String {
        Int32(exactly: linkType).flatMap(pcap_datalink_val_to_description).map { String(cString: $0) } ?? linkTypeName
    }

    /// The link type libpcap calls `name` (`EN10MB`, case-insensitive, with or without `DLT_`), or a number.
    public static func linkType(named name: String) -> Int32? {
        if let number = Int32(name), number >= 0 { return number }
        let value = pcap_datalink_name_to_val(name)
        return value >= 0 ? value : nil
    }

    /// The snapshot length in force (a live capture's, or the file's).
    public var snapshotLength: Int { Int(pcap_snapshot(handle)) }

    /// The link types `interface` can capture with, as (number, name, description): tcpdump's -L.
    public static func linkTypes(of interface: String) throws(PcapError) -> [(type: Int32, name: String, description: String)] {
        var errorBuffer = [CChar](repeating: 0, count: Int(PCAP_ERRBUF_SIZE))
        guard let handle = pcap_create(interface, &errorBuffer) else {
            throw PcapError(kind: .openInterface, message: text(errorBuffer), subject: interface)
        }
        defer { pcap_close(handle) }
        let status = pcap_activate(handle)
        if status < 0 {
            let kind: PcapError.Kind = status == PCAP_ERROR_NO_SUCH_DEVICE ? .noSuchDevice
                : status == PCAP_ERROR_PERM_DENIED ? .permissionDenied : .openInterface
            throw PcapError(kind: kind, message: String(cString: pcap_geterr(handle)), subject: interface)
        }
        var list: UnsafeMutablePointer<Int32>?
        let count = pcap_list_datalinks(handle, &list)
        guard count >= 0, let list else {
            throw PcapError(kind: .openInterface, message: String(cString: pcap_geterr(handle)), subject: interface)
        }
        defer { pcap_free_datalinks(list) }
        return (0..<Int(count)).map { index in
            let type = list[index]
            let description = pcap_datalink_val_to_description(type).map { String(cString: $0) } ?? ""
            return (type, name(ofLinkType: Int(type)), description)
        }
    }

    /// libpcap's name for a link type (DLT number), or its number when it has none.
    public static func name(ofLinkType linkType: Int) -> String {
        guard let value = Int32(exactly: linkType) else { return "DLT \(linkType)" }
        return pcap_datalink_val_to_name(value).map { String(cString: $0) } ?? "DLT \(linkType)"
    }

    /// How a file libpcap refuses part way is opened again for ``PcapngReader`` (nil: live, or
    /// standard input, which cannot be read twice).
    private let reopen: (() -> UnsafeMutablePointer<FILE>?)?
    // The reading thread alone touches these, once a packet each: the run-time exclusivity
    // checks of a class's properties cost about a tenth of taking a packet from libpcap.
    /// Reads the file instead of libpcap once libpcap refused it.
    @exclusivity(unchecked) private var pcapng: PcapngReader?
    /// Packets read from the file so far, matching the filter or not.
    @exclusivity(unchecked) private var position = 0
    /// Packets the pcapng reader still skips: the ones libpcap delivered before it refused.
    private var skipping = 0
    /// A file's filter, applied here to each packet (a live capture's is libpcap's, in the kernel).
    private var filterExpression: String?
    /// The filter compiled for ``linkType``…
    @exclusivity(unchecked) private var filter: FilterProgram?
    /// …and for the other link types of a pcapng file, as their packets come.
    private var otherFilters: [Int: FilterProgram] = [:]

    private init(handle: OpaquePointer, source: String, nanosecondPrecision: Bool, memory: UnsafeMutableRawPointer? = nil,
                 reopen: (() -> UnsafeMutablePointer<FILE>?)? = nil) {
        self.owner = PcapHandle(handle, memory: memory)
        self.source = source
        self.linkType = Int(pcap_datalink(handle))
        self.nanosecondPrecision = nanosecondPrecision
        self.reopen = reopen
    }

    /// Opens a pcap or pcapng file; `-` reads standard input. Timestamps keep nanoseconds.
    /// An empty file or input is refused as such (libpcap would say it is a truncated header).
    public static func open(file path: String) throws(PcapError) -> Capture {
        var errorBuffer = [CChar](repeating: 0, count: Int(PCAP_ERRBUF_SIZE))
        // A file that will not open is left to libpcap, for its own message.
        guard let file = path == "-" ? fdopen(STDIN_FILENO, "rb") : fopen(path, "rb") else {
            guard let handle = pcap_open_offline_with_tstamp_precision(path, UInt32(PCAP_TSTAMP_PRECISION_NANO), &errorBuffer) else {
                throw PcapError(kind: .openFile, message: Self.text(errorBuffer), subject: path)
            }
            return Capture(handle: handle, source: path, nanosecondPrecision: true, reopen: { fopen(path, "rb") })
        }
        // One byte is read to tell an empty input from a short one, and put back: a pipe cannot
        // be asked its size.
        let first = getc(file)
        if first == EOF, ferror(file) == 0 {
            fclose(file)
            throw PcapError(kind: .emptyFile, message: "not a pcap or pcapng file", subject: path)
        }
        if first != EOF { ungetc(first, file) }
        let digits = FileHeader.timestampDigits(of: file)
        // On success the handle owns the FILE and closes it; on failure libpcap leaves it open.
        guard let handle = pcap_fopen_offline_with_tstamp_precision(file, UInt32(PCAP_TSTAMP_PRECISION_NANO), &errorBuffer) else {
            fclose(file)
            throw PcapError(kind: .openFile, message: Self.text(errorBuffer), subject: path)
        }
        let capture = Capture(handle: handle, source: path, nanosecondPrecision: true,
                              reopen: path == "-" ? nil : { fopen(path, "rb") })
        capture.timestampDigits = digits
        var status = stat()
        if fstat(fileno(file), &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            capture.descriptor = fileno(file)
            capture.stream = file
        }
        return capture
    }

    /// Whether a packet from a stream (a pipe, standard input) can be read without waiting for
    /// its writer: the reader shows what it holds before it waits. Always true for a regular
    /// file; meaningless for a live capture.
    package func inputIsWaiting() -> Bool {
        guard !isLive, descriptor >= 0, let stream else { return true }
        // Bytes already in the stream's buffer are read without a system call.
        if stream.pointee._IO_read_ptr != stream.pointee._IO_read_end { return true }
        var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&waiting, 1, 0) > 0
    }

    /// Reads a pcap or pcapng file held in memory (for tests and fuzzing); the bytes are copied.
    public static func open(bytes: [UInt8]) throws(PcapError) -> Capture {
        guard !bytes.isEmpty else { throw PcapError(kind: .emptyFile, message: "not a pcap or pcapng file", subject: "<memory>") }
        let memory = UnsafeMutableRawPointer.allocate(byteCount: max(1, bytes.count), alignment: 8)
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { memory.copyMemory(from: base, byteCount: source.count) }
        }
        guard let file = fmemopen(memory, bytes.count, "rb") else {
            memory.deallocate()
            throw PcapError(kind: .openFile, message: "cannot read \(bytes.count) bytes from memory", subject: "<memory>")
        }
        var errorBuffer = [CChar](repeating: 0, count: Int(PCAP_ERRBUF_SIZE))
        // On success the handle owns the FILE and closes it; on failure libpcap leaves it open.
        guard let handle = pcap_fopen_offline_with_tstamp_precision(file, UInt32(PCAP_TSTAMP_PRECISION_NANO), &errorBuffer) else {
            fclose(file)
            memory.deallocate()
            throw PcapError(kind: .openFile, message: text(errorBuffer), subject: "<memory>")
        }
        let count = bytes.count
        return Capture(handle: handle, source: "<memory>", nanosecondPrecision: true, memory: memory,
                       reopen: { fmemopen(memory, count, "rb") })
    }

    /// Settings of a live capture.
    public struct LiveOptions: Sendable {
        /// Bytes kept of each packet. Default 262144, all of any packet.
        public var snapshotLength: Int32 = 262_144
        /// Whether to see traffic not addressed to this host. Default true.
        public var promiscuous = true
        /// Deliver packets as they arrive rather than in batches. Default true.
        public var immediate = true
        /// How long a read waits before reporting a timeout, in milliseconds. Default 100.
        public var timeoutMilliseconds: Int32 = 100
        /// The kernel's buffer for packets not yet read, in bytes (nil: libpcap's default, 2 MiB).
        public var bufferSize: Int32?
        /// The link type to capture with, when the interface offers several (tcpdump's -y).
        public var linkType: Int32?
        /// Which packets: sent, received or both (nil: both, without asking the kernel).
        public var direction: Direction?

        /// Packets received by the interface, sent by it, or both (tcpdump's -Q).
        public enum Direction: String, Sendable, CaseIterable {
            case `in`, out, `inout`
        }

        /// The defaults.
        public init() {}
    }

    /// Opens and activates a live capture on `interface`.
    public static func open(interface: String, options: LiveOptions = LiveOptions()) throws(PcapError) -> Capture {
        var errorBuffer = [CChar](repeating: 0, count: Int(PCAP_ERRBUF_SIZE))
        guard let handle = pcap_create(interface, &errorBuffer) else {
            throw PcapError(kind: .openInterface, message: text(errorBuffer), subject: interface)
        }
        pcap_set_snaplen(handle, options.snapshotLength)
        pcap_set_promisc(handle, options.promiscuous ? 1 : 0)
        pcap_set_immediate_mode(handle, options.immediate ? 1 : 0)
        pcap_set_timeout(handle, options.timeoutMilliseconds)
        if let bufferSize = options.bufferSize { pcap_set_buffer_size(handle, bufferSize) }
        let nanoseconds = pcap_set_tstamp_precision(handle, Int32(PCAP_TSTAMP_PRECISION_NANO)) == 0
        let status = pcap_activate(handle)
        if status < 0 {
            let message = String(cString: pcap_geterr(handle))
            pcap_close(handle)
            let kind: PcapError.Kind
            switch status {
            case PCAP_ERROR_NO_SUCH_DEVICE: kind = .noSuchDevice
            case PCAP_ERROR_PERM_DENIED, PCAP_ERROR_PROMISC_PERM_DENIED: kind = .permissionDenied
            default: kind = .openInterface
            }
            throw PcapError(kind: kind, message: message, subject: interface)
        }
        func fail(_ kind: PcapError.Kind) -> PcapError {
            let error = PcapError(kind: kind, message: String(cString: pcap_geterr(handle)), subject: interface)
            pcap_close(handle)
            return error
        }
        if let linkType = options.linkType, pcap_set_datalink(handle, linkType) != 0 { throw fail(.openInterface) }
        if let direction = options.direction {
            let value: pcap_direction_t
            switch direction {
            case .in: value = PCAP_D_IN
            case .out: value = PCAP_D_OUT
            case .`inout`: value = PCAP_D_INOUT
            }
            if pcap_setdirection(handle, value) != 0 { throw fail(.openInterface) }
        }
        // The handle does not block: a read with no packet waits in poll(2) for at most the
        // timeout, so a deadline or Ctrl-C is seen on a quiet interface. (In immediate mode
        // libpcap's own read on Linux waits for a packet however long it takes.)
        let descriptor = pcap_get_selectable_fd(handle)
        if descriptor >= 0 { pcap_setnonblock(handle, 1, &errorBuffer) }
        let capture = Capture(handle: handle, source: interface, nanosecondPrecision: nanoseconds)
        capture.isLive = true
        capture.descriptor = descriptor
        capture.timeoutMilliseconds = max(0, options.timeoutMilliseconds)
        capture.timestampDigits = nanoseconds ? 9 : 6
        return capture
    }

    /// Compiles a BPF filter expression and applies it; only matching packets are delivered.
    /// A file's packets are filtered here, each with the filter compiled for its link type.
    public func setFilter(_ expression: String) throws(PcapError) {
        if !isLive {
            filter = try FilterProgram(expression, handle: handle)
            filterExpression = expression
            otherFilters = [:]
            return
        }
        var program = bpf_program()
        guard pcap_compile(handle, &program, expression, 1, PCAP_NETMASK_UNKNOWN) == 0 else {
            throw PcapError(kind: .filter, message: String(cString: pcap_geterr(handle)), subject: expression)
        }
        defer { pcap_freecode(&program) }
        guard pcap_setfilter(handle, &program) == 0 else {
            throw PcapError(kind: .filter, message: String(cString: pcap_geterr(handle)), subject: expression)
        }
    }

    /// What `nextBorrowed()` found.
    package enum BorrowedNext {
        case packet(BorrowedPacket)
        /// A live capture's read timeout passed with no packet.
        case timeout
        /// The end of the file, or `stop()` was called.
        case end
    }

    /// The next packet, a live timeout, or the end.
    public func next() throws(PcapError) -> Next {
        switch try nextBorrowed() {
        case .packet(let packet): return .packet(packet.copy())
        case .timeout: return .timeout
        case .end: return .end
        }
    }

    /// Like ``next()``, without copying the packet out of libpcap's buffer: for readers that
    /// copy many packets into one buffer of their own.
    package func nextBorrowed() throws(PcapError) -> BorrowedNext {
        if owner.stopRequested.load(ordering: .relaxed) { return .end }
        if let pcapng { return try next(from: pcapng) }
        while true {
            var header: UnsafeMutablePointer<pcap_pkthdr>?
            var data: UnsafePointer<UInt8>?
            switch pcap_next_ex(handle, &header, &data) {
            case 1:
                guard let header, let data else { return .timeout }
                position += 1
                if let filter, !filter.matches(header, data) { continue }
                let captured = Int(header.pointee.caplen)
                let fraction = Int(header.pointee.ts.tv_usec)
                var packet = BorrowedPacket(
                    seconds: Int(header.pointee.ts.tv_sec), nanoseconds: nanosecondPrecision ? fraction : fraction * 1000,
                    bytes: UnsafeBufferPointer(start: data, count: captured), originalLength: Int(header.pointee.len),
                    linkType: linkType)
                packet.position = position
                return .packet(packet)
            case 0:
                guard isLive, descriptor >= 0 else { return .timeout }
                var readable = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard timeoutMilliseconds == 0 else {
                    _ = poll(&readable, 1, timeoutMilliseconds)
                    return .timeout
                }
                // No timeout: wait for a packet, looking for a stop every 100 ms.
                while poll(&readable, 1, 100) <= 0 {
                    if owner.stopRequested.load(ordering: .relaxed) { return .end }
                }
                if owner.stopRequested.load(ordering: .relaxed) { return .end }
            case PCAP_ERROR_BREAK:
                return .end
            default:
                // A read that Ctrl-C interrupted (EINTR) is the end asked for, not a failure.
                if owner.stopRequested.load(ordering: .relaxed) { return .end }
                let error = PcapError(kind: .read, message: String(cString: pcap_geterr(handle)), subject: source)
                // libpcap reads only pcapng files whose interfaces share one link type: ours
                // reads the file again, past the packets libpcap delivered.
                guard let file = reopen?() else { throw error }
                guard PcapngReader.isPcapng(file) else {
                    fclose(file)
                    throw error
                }
                let reader = PcapngReader(file: file, source: source, keeping: owner)
                pcapng = reader
                skipping = position
                return try next(from: reader)
            }
        }
    }

    /// The next packet of a file libpcap refused, from our own reader.
    private func next(from reader: PcapngReader) throws(PcapError) -> BorrowedNext {
        while let packet = try reader.next() {
            if skipping > 0 {
                skipping -= 1
                continue
            }
            position += 1
            if filterExpression != nil, try !matches(packet) { continue }
            var borrowed = BorrowedPacket(seconds: packet.seconds, nanoseconds: packet.nanoseconds, bytes: packet.bytes,
                                          originalLength: packet.originalLength, linkType: packet.linkType)
            borrowed.position = position
            return .packet(borrowed)
        }
        return .end
    }

    /// Whether a packet of the pcapng reader matches the filter compiled for its link type.
    private func matches(_ packet: PcapngReader.Packet) throws(PcapError) -> Bool {
        guard let filterExpression else { return true }
        let program: FilterProgram?
        if packet.linkType == linkType {
            program = filter
        } else if let known = otherFilters[packet.linkType] {
            program = known
        } else {
            let made = try FilterProgram(filterExpression, linkType: packet.linkType)
            otherFilters[packet.linkType] = made
            program = made
        }
        guard let program else { return true }
        var header = pcap_pkthdr()
        header.caplen = bpf_u_int32(clamping: packet.bytes.count)
        header.len = bpf_u_int32(clamping: packet.originalLength)
        var empty: UInt8 = 0
        guard let base = packet.bytes.baseAddress else {
            return withUnsafePointer(to: &empty) { program.matches(&header, $0) }
        }
        return program.matches(&header, base)
    }

    /// Makes a pending or the next `next()` return `.end`.
    public func stop() {
        stopper.stop()
    }

    /// What stops this capture from another thread or a signal handler (a library installs
    /// no signal handler of its own: a program that wants Ctrl-C to end a capture calls
    /// ``CaptureStopper/stop()`` from its handler).
    public var stopper: CaptureStopper { CaptureStopper(owner) }

    /// A live capture's counts, as libpcap keeps them.
    public struct Statistics: Sendable, Hashable {
        /// Packets received (after filtering).
        public let received: Int
        /// Packets the kernel dropped for want of buffer space.
        public let dropped: Int
        /// Packets the interface or its driver dropped, where it says.
        public let droppedByInterface: Int
    }

    /// A live capture's counts so far, or nil when libpcap has none (a file).
    public func statistics() -> Statistics? {
        var stats = pcap_stat()
        guard pcap_stats(handle, &stats) == 0 else { return nil }
        return Statistics(received: Int(stats.ps_recv), dropped: Int(stats.ps_drop), droppedByInterface: Int(stats.ps_ifdrop))
    }

    /// A network interface libpcap can capture on.
    public struct Interface: Sendable {
        /// The name to open it by (`eth0`, `lo`, `any`).
        public let name: String
        /// libpcap's description of it, when it has one.
        public let description: String?
        /// Whether it is up.
        public let isUp: Bool
        /// Whether it is a loopback interface.
        public let isLoopback: Bool
    }

    /// The interfaces libpcap can capture on.
    public static func interfaces() throws(PcapError) -> [Interface] {
        var errorBuffer = [CChar](repeating: 0, count: Int(PCAP_ERRBUF_SIZE))
        var list: UnsafeMutablePointer<pcap_if_t>?
        guard pcap_findalldevs(&list, &errorBuffer) == 0 else {
            throw PcapError(kind: .listInterfaces, message: text(errorBuffer), subject: "")
        }
        defer { pcap_freealldevs(list) }
        var result: [Interface] = []
        var current = list
        while let device = current {
            let flags = device.pointee.flags
            result.append(Interface(name: String(cString: device.pointee.name),
                                    description: device.pointee.description.map { String(cString: $0) },
                                    isUp: flags & UInt32(PCAP_IF_UP) != 0, isLoopback: flags & UInt32(PCAP_IF_LOOPBACK) != 0))
            current = device.pointee.next
        }
        return result
    }

    static func text(_ buffer: [CChar]) -> String {
        buffer.withUnsafeBufferPointer { pointer in
            pointer.baseAddress.map { String(cString: $0) } ?? ""
        }
    }
}

/// A compiled BPF filter, freed when released.
private final class FilterProgram {
    private var program = bpf_program()

    /// Compiled for an open capture's link type; libpcap's message when it does not compile.
    init(_ expression: String, handle: OpaquePointer) throws(PcapError) {
        guard pcap_compile(handle, &program, expression, 1, PCAP_NETMASK_UNKNOWN) == 0 else {
            throw PcapError(kind: .filter, message: String(cString: pcap_geterr(handle)), subject: expression)
        }
    }

    /// Compiled for a link type (DLT) no open capture has: a pcapng interface's.
    convenience init(_ expression: String, linkType: Int) throws(PcapError) {
        guard let value = Int32(exactly: linkType), let dead = pcap_open_dead(value, 262_144) else {
            throw PcapError(kind: .filter, message: "cannot compile for link type \(linkType)", subject: expression)
        }
        defer { pcap_close(dead) }
        do {
            try self.init(expression, handle: dead)
        } catch {
            throw PcapError(kind: .filter, message: "\(error.message) (link type \(Capture.name(ofLinkType: linkType)))",
                            subject: expression)
        }
    }

    deinit { pcap_freecode(&program) }

    func matches(_ header: UnsafePointer<pcap_pkthdr>, _ data: UnsafePointer<UInt8>) -> Bool {
        pcap_offline_filter(&program, header, data) != 0
    }
}

/// Writes packets to a pcap file with the link type and snapshot length of a capture; closed
/// (and flushed) when released. A pcap file holds one link type: a packet of another (from a
/// pcapng file whose interfaces differ) is refused, and ``flush()`` reports it.
public final class CaptureWriter {
    private let dumper: OpaquePointer
    /// The link type of the file written.
    private let linkType: Int
    /// The first packet refused for its link type; nothing is written after it.
    private var refused: PcapError?
    /// The file written (`-`: standard output).
    public let path: String
    /// The file has its capture's timestamp precision.
    private let nanosecondPrecision: Bool

    /// Creates (or replaces) `path`; `-` writes to standard output.
    public init(path: String, for capture: Capture) throws(PcapError) {
        guard let dumper = pcap_dump_open(capture.handle, path) else {
            throw PcapError(kind: .write, message: String(cString: pcap_geterr(capture.handle)), subject: path)
        }
        self.dumper = dumper
        self.path = path
        self.nanosecondPrecision = capture.nanosecondPrecision
        self.linkType = capture.linkType
    }

    deinit {
        pcap_dump_close(dumper)
    }

    /// Appends a packet.
    public func write(_ packet: CapturedPacket) {
        packet.bytes.withUnsafeBufferPointer { bytes in
            write(BorrowedPacket(seconds: packet.seconds, nanoseconds: packet.nanoseconds, bytes: bytes,
                                 originalLength: packet.originalLength, linkType: packet.linkType ?? linkType))
        }
    }

    /// Appends a packet still in a capture's buffer.
    package func write(_ packet: BorrowedPacket) {
        guard refused == nil else { return }
        guard packet.linkType == linkType else {
            refused = PcapError(kind: .write, message: "a pcap file holds packets of one link type, \(Capture.name(ofLinkType: linkType)), "
                                    + "and this capture has \(Capture.name(ofLinkType: packet.linkType)) packets too", subject: path)
            return
        }
        var header = pcap_pkthdr()
        // Clamped: a packet built by hand may hold values a pcap record cannot.
        header.ts.tv_sec = time_t(clamping: packet.seconds)
        header.ts.tv_usec = suseconds_t(clamping: nanosecondPrecision ? packet.nanoseconds : packet.nanoseconds / 1000)
        header.caplen = bpf_u_int32(clamping: packet.bytes.count)
        header.len = bpf_u_int32(clamping: max(packet.originalLength, packet.bytes.count))
        pcap_dump(UnsafeMutableRawPointer(dumper).assumingMemoryBound(to: UInt8.self), &header, packet.bytes.baseAddress)
    }

    /// Writes out what is buffered, and reports the first write that failed since the file was
    /// opened (a full disk, a closed pipe) with the system's reason: `write(_:)` buffers, so a
    /// failure shows only here.
    public func flush() throws(PcapError) {
        errno = 0
        let flushFailed = pcap_dump_flush(dumper) != 0
        let reason = errno
        if flushFailed || pcap_dump_file(dumper).map({ ferror($0) != 0 }) == true {
            throw PcapError(kind: .write, message: reason == 0 ? "write error" : String(cString: strerror(reason)), subject: path)
        }
        if let refused { throw refused }
    }
}
