/// The characters the views' symbols are shown in: `·`, `›`, `✗`, `…` and `↳` where the terminal's
/// character set is UTF-8, ASCII stand-ins where it is not (`-`, `>`, `!`, `...`, `->`), so a C or
/// POSIX locale never shows stray bytes.
package enum SymbolSet: Equatable, Sendable {
    case unicode, ascii

    /// Decided from the locale as the C library decides it: the first of `LC_ALL`, `LC_CTYPE`
    /// and `LANG` that is set and not empty names the locale, whose codeset must be UTF-8
    /// (`en_US.UTF-8`, `C.utf8`). No locale at all is the C locale, which is ASCII.
    package init(environment: [String: String]) {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? "C"
        let name = locale.lowercased()
        self = name.contains("utf-8") || name.contains("utf8") ? .unicode : .ascii
    }

    /// The symbols the views write, in UTF-8, and what stands for each in ASCII.
    private static let replacements: [(utf8: [UInt8], ascii: [UInt8])] = [
        (Array("·".utf8), Array("-".utf8)),
        (Array("›".utf8), Array(">".utf8)),
        (Array("✗".utf8), Array("!".utf8)),
        (Array("…".utf8), Array("...".utf8)),
        (Array("↳".utf8), Array("->".utf8)),
    ]

    /// Appends `text` to `output` with the views' symbols in ASCII. The views always write UTF-8;
    /// rewriting their output here keeps the character set a matter of the terminal the command
    /// writes to. Every other byte is copied as it is. A packet's own text holding one of these
    /// five characters is rewritten too: such a locale could not show it anyway.
    package static func appendASCII(of text: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        var copiedUpTo = 0
        var index = 0
        while index < text.count {
            // Each symbol starts with a byte above 0x7F: ASCII runs are copied whole.
            guard text[index] >= 0x80,
                  let replacement = replacements.first(where: { text.hasPrefix($0.utf8, at: index) }) else {
                index += 1
                continue
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: text[copiedUpTo..<index]))
            output.append(contentsOf: replacement.ascii)
            index += replacement.utf8.count
            copiedUpTo = index
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: text[copiedUpTo..<text.count]))
    }
}

extension UnsafeBufferPointer<UInt8> {
    fileprivate func hasPrefix(_ prefix: [UInt8], at start: Int) -> Bool {
        guard prefix.count <= count - start else { return false }
        for (offset, byte) in prefix.enumerated() where self[start + offset] != byte { return false }
        return true
    }
}
