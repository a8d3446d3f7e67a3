import ArgumentParser
import BinarySchema
import CapturePipeline
import Dissector
import Foundation
import PacketCapture

extension View: ExpressibleByArgument {}
extension Capture.LiveOptions.Direction: ExpressibleByArgument {}

/// When to color output.
enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never
}

/// Options shared by every command that shows dissections.
struct ViewOptions: ParsableArguments {
    @Option(name: [.customShort("f"), .customLong("format")], help: ArgumentHelp(
        "How to show each frame: summary (one line, like tcpdump; a capture's default), fields (a row per field; dissect hex's default), hex (annotated 16-byte dump), tree (like tshark -V), json (one object per line), html (one self-contained interactive page: hex dump and tree side by side, packet list, search).",
        valueName: "view"), transform: ViewOptions.view(named:))
    var formatChoice: View?

    /// The view `name` names; a word that is none says what -f means here (tshark's -f is a
    /// capture filter, tcpdump's a way of printing addresses).
    static func view(named name: String) throws -> View {
        if let view = View(rawValue: name.lowercased()) { return view }
        let names = View.allCases.map(\.rawValue).joined(separator: ", ")
        throw ValidationError("'\(name)' is not a view (\(names)). -f chooses the view here; a capture filter goes "
            + "after the options, as tcpdump's: dissect -r x.pcap 'udp port 53'")
    }

    /// The view chosen, else the one -j, -J or -O implies, else the fields view (a capture's
    /// default is its own: a line per packet).
    var format: View { formatChoice ?? impliedView ?? .fields }

    @Option(name: .customShort("j"), help: ArgumentHelp(
        "JSON of these protocol layers only, each with its own fields (tshark's -j): 'ip udp' or 'ip,dns'. The layers they carry are left out unless named too; implies -f json.",
        valueName: "protocols"))
    var jsonLayers: String?

    @Option(name: .customShort("J"), help: ArgumentHelp(
        "JSON of these protocol layers and every layer they carry (tshark's -J): -J ip writes IP and what is above it, not Ethernet; implies -f json.",
        valueName: "protocols"))
    var jsonLayerTrees: String?

    @Option(name: .customShort("O"), help: ArgumentHelp(
        "The tree with only these protocol layers in full (tshark's -O): 'dns' or 'ip,tcp'; every other layer shows its heading line. Implies -f tree.",
        valueName: "protocols"))
    var treeLayers: String?

    /// The view -j or -J (JSON) or -O (the tree) imply.
    var impliedView: View? {
        if jsonLayers != nil || jsonLayerTrees != nil { return .json }
        return treeLayers != nil ? .tree : nil
    }

    /// Throws when two of -j, -J and -O are given, or one of them with a view it does not apply to.
    func checkLayerOptions(view: View) throws {
        let given = [("-j", jsonLayers), ("-J", jsonLayerTrees), ("-O", treeLayers)].filter { $0.1 != nil }.map(\.0)
        if given.count > 1 { throw ValidationError("\(given.joined(separator: " and ")) cannot be used together: choose one") }
        if let flag = given.first, let implied = impliedView, view != implied {
            throw ValidationError("\(flag) chooses the layers of the \(implied.rawValue) view (-f \(implied.rawValue)), not of -f \(view.rawValue)")
        }
    }

    /// The layer option given (at most one, ``checkLayerOptions(view:)`` says): its flag, its list,
    /// and whether named layers bring the layers they carry (-J).
    private var layerOption: (flag: String, list: String, carried: Bool)? {
        jsonLayers.map { ("-j", $0, false) } ?? jsonLayerTrees.map { ("-J", $0, true) } ?? treeLayers.map { ("-O", $0, false) }
    }

    /// The layers -j, -J or -O name, checked against `schema`'s protocols.
    func layerSelection(for schema: Schema) throws -> LayerSelection? {
        guard let (flag, list, carried) = layerOption else { return nil }
        do {
            return try LayerSelection(parsing: list, includesCarriedLayers: carried, schema: schema)
        } catch {
            throw ValidationError("\(flag) '\(list)': \(error.message)")
        }
    }

    @Option(help: ArgumentHelp("Color: auto (on for a terminal, off when piped or under NO_COLOR), always or never.",
                               valueName: "when"))
    var color: ColorChoice = .auto

    @Option(help: ArgumentHelp("Columns to wrap long values at (default: the terminal's width, else 120).", valueName: "n"))
    var width: Int?

    @Flag(name: [.customShort("e"), .customLong("link-layer")],
          help: "Show the link layer (Ethernet addresses, VLAN tags) and the frame's length in one-line summaries, as tcpdump's -e.")
    var linkLayer = false

    @Flag(help: "Show the values a schema computes for its own working (`hidden let`: a heuristic's tests, a summary's labels) beside the protocol's fields, in every view. Off by default: the views show only what the protocol defines.")
    var showHidden = false

    var renderOptions: RenderOptions {
        var options = RenderOptions(color: useColor, width: width ?? terminalWidth ?? 120, showsLinkLayer: linkLayer,
                                    showsHidden: showHidden)
        if let (_, list, carried) = layerOption {
            // Matched by name alone: ``layerSelection(for:)`` checks the names once the schemas are loaded.
            let words = list.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
            options.layers = LayerSelection(protocols: words, includesCarriedLayers: carried)
        }
        return options
    }

    /// The views' symbols in the locale's character set; JSON is UTF-8 whatever the locale.
    var symbols: SymbolSet { symbols(for: format) }

    /// The symbols for `view`: JSON and HTML are UTF-8 whatever the locale.
    func symbols(for view: View) -> SymbolSet {
        view == .json || view == .html ? .unicode : SymbolSet(environment: ProcessInfo.processInfo.environment)
    }

    private var useColor: Bool {
        switch color {
        case .always: return true
        case .never: return false
        case .auto:
            let environment = ProcessInfo.processInfo.environment
            if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
            if environment["TERM"] == "dumb" { return false }
            return isatty(STDOUT_FILENO) == 1
        }
    }

    private var terminalWidth: Int? {
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        var size = winsize()
        guard isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
