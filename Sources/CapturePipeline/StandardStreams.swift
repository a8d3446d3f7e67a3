import Foundation

/// A write to standard output or standard error that failed (a full disk, a closed pipe), with
/// the system's reason.
package struct OutputError: Error, CustomStringConvertible {
    /// What was being written to: `standard output`, `standard error`.
    package let destination: String
    /// The `errno` of the failed write.
    package let code: Int32

    package init(destination: String, code: Int32) {
        self.destination = destination
        self.code = code
    }

    package var description: String { "writing to \(destination) failed: \(String(cString: strerror(code)))" }
}

/// The standard output and error streams, written with write(2) so that every failure is seen
/// (stdio and FileHandle either buffer errors away or trap on them).
package enum StandardStream: ByteDestination {
    case output, error

    package var descriptor: Int32 { self == .output ? STDOUT_FILENO : STDERR_FILENO }
    package var name: String { self == .output ? "standard output" : "standard error" }

    /// Writes all of `bytes`, retrying when a signal interrupts.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
        guard var next = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let written = Foundation.write(descriptor, next, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                throw OutputError(destination: name, code: errno)
            }
            next += written
            remaining -= written
        }
    }

    package func write(_ text: String) throws {
        try Array(text.utf8).withUnsafeBytes { try write($0) }
    }

    /// Writes `line` and a newline.
    package func writeLine(_ line: String) throws {
        try write(line + "\n")
    }
}

/// Writes a line to standard error, for notes and warnings: if standard error itself cannot be
/// written there is nowhere left to say so, and the command goes on.
package func printError(_ text: String) {
    try? StandardStream.error.writeLine(text)
}

/// Where a pipeline's text goes, in capture order: standard output, or memory in tests.
package protocol ByteDestination {
    /// Writes all of `bytes`, or throws why it could not.
    func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError)
}

/// Text kept in memory: what a test reads back.
package final class MemoryDestination: ByteDestination {
    package private(set) var bytes: [UInt8] = []

    package init() {}

    package func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
        self.bytes.append(contentsOf: bytes)
    }

    package var text: String { String(decoding: bytes, as: UTF8.self) }
}
