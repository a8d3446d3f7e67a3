import BinarySchema

/// Fields out, as `tshark -T fields -e NAME ...`: one line per frame, each named field's values
/// (every occurrence, or the first or last) in columns, with tshark's `-E` options.
///
/// A value is written as tshark writes it (`ValueWriter.writeFieldValue`); names are
/// the fields' filter names (`dissect schema list --fields`), plus `frame.number`, `frame.len`
/// and `frame.cap_len`. Not thread-safe: each thread takes its own copy.
public struct FieldExtractor {
    /// tshark's `-E` options.
    public struct Format: Sendable, Equatable {
        /// Which occurrences of a repeated field: all (joined by ``aggregator``), the first or the last.
        public enum Occurrence: Sendable, Equatable { case all, first, last }
        /// How values are quoted: not at all, in double or in single quotes (empty values never).
        public enum Quote: Sendable, Equatable { case none, double, single }

        /// A first line with the field names (`header=y`).
        public var header = false
        /// Between columns (`separator=`): a tab by default.
        public var separator = "\t"
        public var quote = Quote.none
        public var occurrence = Occurrence.all
        /// Between the occurrences of one field (`aggregator=`): a comma by default.
        public var aggregator = ","
        /// How each frame's fields are written: tshark's `-T fields`, `-T json` or `-T ek`.
        public var output = Output.fields

        /// tshark's `-T` formats that print the fields named by `-e`.
        public enum Output: String, Sendable, Equatable, CaseIterable {
            /// One line per frame, the values in columns.
            case fields
            /// One JSON array of frames, each `{"_index": …, "_source": {"layers": {"ip.src": ["…"]}}}`.
            case json
            /// Elasticsearch bulk lines: an index line, then `{"timestamp": …, "layers": {"ip_src": ["…"]}}`.
            case ek
        }

        /// tshark's defaults: no header, tabs, no quotes, every occurrence joined by commas.
        public init() {}

        /// Applies one `-E key=value` option (`header=y`, `separator=,`, `separator=/t`, `quote=d`,
        /// `occurrence=f`, `aggregator=/s`); throws a message for anything else.
        public mutating func apply(_ option: String) throws(DisplayFilterError) {
            let parts = option.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2 else {
                throw DisplayFilterError(message: "-E takes key=value (header=y, separator=/t, quote=d, occurrence=f, aggregator=,), not '\(option)'",
                                         column: 1)
            }
            let (key, value) = (parts[0], parts[1])
            func character(_ text: String) -> String? {
                switch text {
                case "/t": return "\t"
                case "/s": return " "
                default: return text.count == 1 ? text : nil
                }
            }
            switch (key, value) {
            case ("header", "y"): header = true
            case ("header", "n"): header = false
            case ("separator", _):
                guard let text = character(value) else {
                    throw DisplayFilterError(message: "separator= takes one character, /t (tab) or /s (space), not '\(value)'", column: 1)
                }
                separator = text
            case ("aggregator", _):
                guard let text = character(value) else {
                    throw DisplayFilterError(message: "aggregator= takes one character, /t (tab) or /s (space), not '\(value)'", column: 1)
                }
                aggregator = text
            case ("quote", "d"): quote = .double
            case ("quote", "s"): quote = .single
            case ("quote", "n"): quote = .none
            case ("occurrence", "a"): occurrence = .all
            case ("occurrence", "f"): occurrence = .first
            case ("occurrence", "l"): occurrence = .last
            default:
                throw DisplayFilterError(message: "unknown -E option '\(option)' (known: header=y|n, separator=/t|/s|C, quote=d|s|n, occurrence=f|l|a, aggregator=/t|/s|C)",
                                         column: 1)
            }
        }
    }

    private enum Column {
        case field(Int32)
        case frameNumber, frameLength, capturedLength
    }

    /// The field names, as given.
    public let names: [String]
    public let format: Format
    private let columns: [Column]
    private var index = FilterNameIndex()
    private var scratch = TextSink(capacity: 256)

    /// Checks each of `names` against `schema`'s filter names: an unknown one throws, with a suggestion.
    public init(fields names: [String], schema: Schema, format: Format = Format()) throws(DisplayFilterError) {
        guard !names.isEmpty else {
            throw DisplayFilterError(message: "name at least one field to print (-e ip.src -e tcp.srcport)", column: 1)
        }
        self.names = names
        self.format = format
        let known = Set(schema.filterFields.map(\.name)).union(schema.structs.compactMap(\.protocolAbbreviation))
        var columns: [Column] = []
        for name in names {
            switch name {
            case "frame.number": columns.append(.frameNumber)
            case "frame.len": columns.append(.frameLength)
            case "frame.cap_len": columns.append(.capturedLength)
            default:
                guard known.contains(name) else {
                    // The display filter's compiler says it the same way, with its suggestion.
                    do {
                        _ = try DisplayFilter(name, schema: schema)
                    } catch {
                        throw DisplayFilterError(message: error.message, column: 1)
                    }
                    throw DisplayFilterError(message: "no field is named '\(name)'", column: 1)
                }
                columns.append(.field(index.id(of: name)))
            }
        }
        self.columns = columns
        index.restrictToInternedNames()
    }

    /// The header line (the names joined by the separator, quoted as values are), without a newline.
    public var headerLine: String { Self.headerLine(names: names, format: format) }

    /// The header line for `names` in `format`.
    public static func headerLine(names: [String], format: Format) -> String {
        // tshark quotes the values, not the names.
        names.joined(separator: format.separator)
    }

    private func quoted(_ text: String) -> String { Self.quoted(text, format) }

    private static func quoted(_ text: String, _ format: Format) -> String {
        guard !text.isEmpty else { return text }
        switch format.quote {
        case .none: return text
        case .double: return "\"" + text + "\""
        case .single: return "'" + text + "'"
        }
    }

    /// Frame `frameNumber`'s line (`originalLength` bytes on the wire), without a newline.
    public mutating func line(for dissection: Dissection, frameNumber: Int, originalLength: Int? = nil) -> String {
        var sink = TextSink(capacity: 128)
        append(dissection, frameNumber: frameNumber, originalLength: originalLength, to: &sink)
        return sink.text
    }

    /// Appends frame `frameNumber`'s line to `sink`, and a newline when `endingLine` (kept apart from
    /// ``TextSink/newline()``, which drops trailing spaces: an empty last column after a space
    /// separator is tshark's too).
    public mutating func append(_ dissection: Dissection, frameNumber: Int, originalLength: Int? = nil, to sink: inout TextSink,
                                endingLine: Bool = false) {
        defer { if endingLine { sink.append(byte: UInt8(ascii: "\n")) } }
        index.fill(dissection)
        for position in columns.indices {
            if position > 0 { sink.append(format.separator) }
            let joined = values(ofColumn: position, in: dissection, frameNumber: frameNumber, originalLength: originalLength)
                .joined(separator: format.aggregator)
            sink.append(quoted(joined))
        }
    }

    /// Appends frame `frameNumber`'s record in the format's ``Format/output``: for `fields` its line,
    /// for `json` and `ek` as tshark writes them (a field without values is left out). `time`
    /// (with its UTC offset for the local date of the index name) is when the frame was captured.
    /// A JSON record starts with `,\n` (the array's separator): the caller drops it before the first.
    public mutating func appendRecord(_ dissection: Dissection, frameNumber: Int, originalLength: Int?, time: CaptureTime?,
                                      to sink: inout TextSink) {
        guard format.output != .fields else {
            append(dissection, frameNumber: frameNumber, originalLength: originalLength, to: &sink, endingLine: true)
            return
        }
        let time = time ?? CaptureTime(seconds: 0, nanoseconds: 0)
        let date = time.localCivil
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let index = "packets-\(date.year)-\(twoDigits(date.month))-\(twoDigits(date.day))"
        let columns = values(of: dissection, frameNumber: frameNumber, originalLength: originalLength)
        let present = zip(names, columns).filter { !$0.1.isEmpty }
        if format.output == .ek {
            sink.append("{\"index\":{\"_index\":\"" + index + "\",\"_type\":\"doc\"}}\n")
            let milliseconds = time.seconds.multipliedReportingOverflow(by: 1000)
            let stamp = milliseconds.overflow ? time.seconds : milliseconds.partialValue &+ time.nanoseconds / 1_000_000
            sink.append("{\"timestamp\":\"\(stamp)\",\"layers\":{")
            for (position, (name, values)) in present.enumerated() {
                if position > 0 { sink.append(",") }
                sink.appendJSONString(name.replacingOccurrences(of: ".", with: "_"))
                sink.append(":[")
                for (number, value) in values.enumerated() {
                    if number > 0 { sink.append(",") }
                    sink.appendJSONString(value)
                }
                sink.append("]")
            }
            sink.append("}}\n")
            return
        }
        sink.append(",\n  {\n    \"_index\": \"" + index + "\",\n    \"_type\": \"doc\",\n    \"_score\": null,\n"
            + "    \"_source\": {\n      \"layers\": {")
        for (position, (name, values)) in present.enumerated() {
            sink.append(position > 0 ? ",\n        " : "\n        ")
            sink.appendJSONString(name)
            sink.append(": [")
            for (number, value) in values.enumerated() {
                sink.append(number > 0 ? ",\n          " : "\n          ")
                sink.appendJSONString(value)
            }
            sink.append("\n        ]")
        }
        sink.append(present.isEmpty ? "}\n    }\n  }" : "\n      }\n    }\n  }")
    }

    /// Each field's values in `dissection` (frame `frameNumber`, `originalLength` bytes on the
    /// wire), in the order of ``names``: every occurrence, or the first or last as the format's
    /// occurrence says.
    public mutating func values(of dissection: Dissection, frameNumber: Int, originalLength: Int? = nil) -> [[String]] {
        index.fill(dissection)
        return columns.indices.map { values(ofColumn: $0, in: dissection, frameNumber: frameNumber, originalLength: originalLength) }
    }

    /// Column `position`'s values, once ``index`` holds `dissection`'s names.
    private mutating func values(ofColumn position: Int, in dissection: Dissection, frameNumber: Int, originalLength: Int?) -> [String] {
        var values: [String] = []
        switch columns[position] {
        case .frameNumber: values = [String(frameNumber)]
        case .frameLength: values = [String(originalLength ?? dissection.bytes.count)]
        case .capturedLength: values = [String(dissection.bytes.count)]
        case .field(let name):
            // An array of values is named as its elements (`tls.handshake.ciphersuite`): its
            // elements are the occurrences. An array of records named as one (`tcp.options`) is
            // its bytes, as tshark's FT_BYTES field over them. What a printed node holds under
            // the same name (a payload's records, named as the payload) is inside that one.
            var printedUntil = -1
            for named in index.namedNodes {
                let node = Int(named)
                guard node >= printedUntil, index.ids[node] == name else { continue }
                scratch.removeAll()
                if dissection.nodes[node].kind == .array {
                    // Pre-order: an array's first element, if it has one, is the node after it.
                    let first = node + 1
                    guard first < Int(dissection.nodes[node].subtreeEnd), dissection.structType(of: first) != nil else { continue }
                    scratch.appendHex(dissection.rawBytes(of: node))
                } else {
                    ValueWriter.writeFieldValue(dissection, node, into: &scratch)
                }
                printedUntil = Int(dissection.nodes[node].subtreeEnd)
                values.append(scratch.text)
                if format.occurrence == .first { break }
            }
        }
        if format.occurrence == .last, let last = values.last { values = [last] }
        return values
    }
}
