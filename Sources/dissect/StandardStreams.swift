import Foundation

/// A write to standard output or standard error that failed (a full disk, a closed pipe), with
/// the system's reason.
struct OutputError: Error, CustomStringConvertible {
    /// What was being written to: `standard output`, `standard error`.
    let destination: String
    /// The `errno` of the failed write.
    let code: Int32

    var description: String { "writing to \(destination) failed: \(String(cString: strerror(code)))" }
}

/// The standard output and error streams, written with write(2) so that every failure is seen
/// (stdio and FileHandle either buffer errors away or trap on them).
enum StandardStream {
    case output, error

    var descriptor: Int32 { self == .output ? STDOUT_FILENO : STDERR_FILENO }
    var name: String { self == .output ? "standard output" : "standard error" }

    /// Writes all of `bytes`, retrying when a signal interrupts.
    func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
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

    func write(_ text: String) throws {
        try Array(text.utf8).withUnsafeBytes { try write($0) }
    }

    /// Writes `line` and a newline.
    func writeLine(_ line: String) throws {
        try write(line + "\n")
    }
}

/// Writes a line to standard error, for notes and warnings: if standard error itself cannot be
/// written there is nowhere left to say so, and the command goes on.
func printError(_ text: String) {
    try? StandardStream.error.writeLine(text)
}
