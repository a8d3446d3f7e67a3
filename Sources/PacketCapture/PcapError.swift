/// Why libpcap refused: what was being done, and libpcap's own message.
public struct PcapError: Error, Sendable, CustomStringConvertible {
    /// What was being done when libpcap refused.
    public enum Kind: Sendable, Hashable {
        /// A capture file could not be opened (missing, unreadable, not a capture).
        case openFile
        /// A capture file, or standard input, holds no bytes at all.
        case emptyFile
        /// An interface could not be opened or activated.
        case openInterface
        /// The interface does not exist.
        case noSuchDevice
        /// Capturing needs privileges this process lacks.
        case permissionDenied
        /// The BPF filter expression did not compile.
        case filter
        /// Reading a packet failed (a truncated or corrupt file, a vanished interface).
        case read
        /// Writing a capture file failed.
        case write
        /// Listing interfaces failed.
        case listInterfaces
    }

    /// What was being done.
    public let kind: Kind
    /// libpcap's message, as it gave it.
    public let message: String
    /// What was being opened or compiled: a path, an interface, a filter expression.
    public let subject: String

    /// The failure in words, with libpcap's message.
    public var description: String {
        switch kind {
        case .openFile: return "cannot read capture file '\(subject)': \(message)"
        case .emptyFile: return "\(subject == "-" ? "standard input" : "'\(subject)'") is empty: \(message)"
        case .openInterface: return "cannot capture on '\(subject)': \(message)"
        case .noSuchDevice: return "no interface named '\(subject)' (dissect --list-interfaces shows them): \(message)"
        case .permissionDenied: return "no permission to capture on '\(subject)' (run as root or grant CAP_NET_RAW): \(message)"
        case .filter: return "invalid filter '\(subject)': \(message)"
        case .read: return "reading '\(subject)' failed: \(message)"
        case .write: return "cannot write capture file '\(subject)': \(message)"
        case .listInterfaces: return "cannot list interfaces: \(message)"
        }
    }
}
