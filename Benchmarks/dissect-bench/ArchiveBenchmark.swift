import BinaryCoding
import Foundation

// `dissect-bench archive [seconds-per-round]`: KeyedArchiver/KeyedUnarchiver against
// PropertyListEncoder/Decoder (binary) and JSONEncoder/Decoder on one object graph: 1000 items,
// each referring to one of 20 shared categories and one of 50 shared owners. The archive stores
// each shared instance once and unarchives to shared instances; property lists and JSON copy
// them at each reference and decode as many separate instances.

final class BenchCategory: Codable {
    var name: String
    var code: UInt32

    init(name: String, code: UInt32) {
        self.name = name
        self.code = code
    }
}

final class BenchOwner: Codable {
    var name: String
    var email: String
    var joined: Int64

    init(name: String, email: String, joined: Int64) {
        self.name = name
        self.email = email
        self.joined = joined
    }
}

final class BenchItem: Codable {
    var id: Int
    var title: String
    var price: Double
    var quantity: UInt16
    var tags: [String]
    var category: BenchCategory
    var owner: BenchOwner

    init(id: Int, title: String, price: Double, quantity: UInt16, tags: [String], category: BenchCategory, owner: BenchOwner) {
        (self.id, self.title, self.price, self.quantity, self.tags, self.category, self.owner) =
            (id, title, price, quantity, tags, category, owner)
    }
}

struct BenchCatalog: Codable {
    var items: [BenchItem]
    var categories: [BenchCategory]
    var owners: [BenchOwner]

    static func make(items count: Int = 1000) -> BenchCatalog {
        let categories = (0..<20).map { BenchCategory(name: "category-\($0)", code: UInt32(1000 + $0)) }
        let owners = (0..<50).map { BenchOwner(name: "owner \($0)", email: "owner\($0)@example.com", joined: 1_700_000_000 + Int64($0)) }
        let items = (0..<count).map { index in
            BenchItem(id: index, title: "item number \(index)", price: Double(index) * 1.25, quantity: UInt16(index % 300),
                      tags: ["tag\(index % 7)", "tag\(index % 11)"], category: categories[index % categories.count],
                      owner: owners[index % owners.count])
        }
        return BenchCatalog(items: items, categories: categories, owners: owners)
    }
}

/// Nanoseconds per call of `body`, over about `seconds`.
private func nanosecondsPerCall(seconds: Double, _ body: () -> Int) -> Double {
    let clock = ContinuousClock()
    var calls = 0
    var sink = 0
    let start = clock.now
    let deadline = start + .milliseconds(Int(seconds * 1000))
    repeat {
        sink &+= body()
        calls += 1
    } while clock.now < deadline
    let elapsed = clock.now - start
    if sink == -1 { print("") }
    return (Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9) / Double(calls)
}

func runArchiveBenchmark(secondsPerRound: Double) {
    let catalog = BenchCatalog.make()
    do {
        let archiver = KeyedArchiver()
        let unarchiver = KeyedUnarchiver()
        let plistEncoder = PropertyListEncoder.binary
        let plistDecoder = PropertyListDecoder()
        let jsonEncoder = JSONEncoder()
        let jsonDecoder = JSONDecoder()
        let archive = try archiver.archive(catalog)
        let plist = try plistEncoder.encode(catalog)
        let json = try jsonEncoder.encode(catalog)
        // Each side must read back what it wrote, or the comparison means nothing.
        let decoded = try unarchiver.unarchive(BenchCatalog.self, from: archive)
        precondition(decoded.items.count == 1000 && decoded.items[20].category === decoded.categories[0], "archive lost sharing")
        let plistItems = try plistDecoder.decode(BenchCatalog.self, from: plist).items.count
        let jsonItems = try jsonDecoder.decode(BenchCatalog.self, from: json).items.count
        precondition(plistItems == 1000 && jsonItems == 1000, "a coder lost items")

        let sides: [(name: String, size: Int, encode: () -> Int, decode: () -> Int)] = [
            ("KeyedArchiver", archive.count,
             { (try? archiver.archive(catalog))?.count ?? -1 },
             { (try? unarchiver.unarchive(BenchCatalog.self, from: archive))?.items.count ?? -1 }),
            ("PropertyList (binary)", plist.count,
             { (try? plistEncoder.encode(catalog))?.count ?? -1 },
             { (try? plistDecoder.decode(BenchCatalog.self, from: plist))?.items.count ?? -1 }),
            ("JSON", json.count,
             { (try? jsonEncoder.encode(catalog))?.count ?? -1 },
             { (try? jsonDecoder.decode(BenchCatalog.self, from: json))?.items.count ?? -1 }),
        ]
        print("dissect-bench archive: 1000 items sharing 20 categories and 50 owners, \(secondsPerRound) s per round, median of 5")
        var encodeTimes = Array(repeating: [Double](), count: sides.count)
        var decodeTimes = Array(repeating: [Double](), count: sides.count)
        for _ in 0..<5 {
            for (index, side) in sides.enumerated() {
                encodeTimes[index].append(nanosecondsPerCall(seconds: secondsPerRound, side.encode))
                decodeTimes[index].append(nanosecondsPerCall(seconds: secondsPerRound, side.decode))
            }
        }
        let encodeMedians = encodeTimes.map { $0.sorted()[2] / 1000 }
        let decodeMedians = decodeTimes.map { $0.sorted()[2] / 1000 }
        print("coder                   bytes    encode µs  decode µs   size / archive  encode / archive  decode / archive")
        for (index, side) in sides.enumerated() {
            print(side.name.padding(toLength: 22, withPad: " ", startingAt: 0) + String(format: " %7d %11.0f %10.0f %14.2fx %16.2fx %16.2fx", side.size,
                         encodeMedians[index], decodeMedians[index], Double(side.size) / Double(archive.count),
                         encodeMedians[index] / encodeMedians[0], decodeMedians[index] / decodeMedians[0]))
        }
    } catch {
        fatalError("archive benchmark setup failed: \(error)")
    }
}
