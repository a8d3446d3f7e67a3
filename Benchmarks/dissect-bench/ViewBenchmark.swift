import BinarySchema
import Dissector
import Foundation

/// Renders every frame of the Ethernet captures in Corpus/captures with each view, timing the
/// rendering alone (the dissections are made once, up front) and reporting frames per second.
func runViewBenchmark(secondsPerView: Double, only: String?) {
    let captures = ["tcp", "dns", "icmp", "vlan", "ipv6-ext"]
    let frames = captures.flatMap { loadFrames("Corpus/captures/\($0).pcap") }
    let schema: Schema
    do {
        schema = try SchemaLoader.loadBundled()
    } catch {
        fatalError("\(error)")
    }
    guard let ethernet = schema.structType(named: "Ethernet") else { fatalError("no Ethernet") }
    var interpreter = Interpreter(schema: schema)
    let dissections = frames.map { interpreter.dissect($0, root: ethernet) }
    let fields = dissections.map(\.nodes.count).reduce(0, +)
    print("dissect-bench views: \(frames.count) Ethernet frames (\(fields) fields) from \(captures.joined(separator: ", ")), \(secondsPerView) s per view")
    let options = RenderOptions(color: false, width: 120)
    for view in View.allCases where only == nil || only == view.rawValue {
        let clock = ContinuousClock()
        var rendered = 0
        var characters = 0
        let start = clock.now
        let deadline = start + .milliseconds(Int(secondsPerView * 1000))
        while clock.now < deadline {
            for (index, dissection) in dissections.enumerated() {
                characters &+= view.render(dissection, frame: FrameInfo(number: index + 1), options: options).utf8.count
            }
            rendered += dissections.count
        }
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print(String(format: "%-8@ %9.1f µs/frame  %9.0f frames/s  %6.0f bytes of text/frame", view.rawValue as NSString,
                     seconds / Double(rendered) * 1e6, Double(rendered) / seconds, Double(characters) / Double(rendered)))
    }
}
