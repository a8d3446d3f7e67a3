import BinaryCoding
import Foundation

/// A graph node for the keyed archive's fuzzing: shared children, a registered subclass, and
/// a weak link restored in the second phase (so cycles decode, and leak nothing).
class ArchiveFuzzNode: Codable, ArchiveRestorable {
    var label: String
    var weight: Int32
    var scores: [Double]
    var children: [ArchiveFuzzNode]
    weak var link: ArchiveFuzzNode?

    init(label: String, weight: Int32, scores: [Double] = [], children: [ArchiveFuzzNode] = []) {
        (self.label, self.weight, self.scores, self.children) = (label, weight, scores, children)
    }

    private enum CodingKeys: String, CodingKey { case label, weight, scores, children, link }

    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        label = try container.decode(String.self, forKey: .label)
        weight = try container.decode(Int32.self, forKey: .weight)
        scores = try container.decode([Double].self, forKey: .scores)
        children = try container.decode([ArchiveFuzzNode].self, forKey: .children)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(label, forKey: .label)
        try container.encode(weight, forKey: .weight)
        try container.encode(scores, forKey: .scores)
        try container.encode(children, forKey: .children)
        try container.encodeIfPresent(link, forKey: .link)
    }

    func restored(from references: KeyedUnarchiver.References) throws {
        link = try references.decodeIfPresent(ArchiveFuzzNode.self, forKey: CodingKeys.link)
    }
}

final class ArchiveFuzzLeaf: ArchiveFuzzNode {
    var payload: Data
    var flag: Bool?

    init(label: String, payload: Data, flag: Bool?) {
        self.payload = payload
        self.flag = flag
        super.init(label: label, weight: -1)
    }

    private enum CodingKeys: String, CodingKey { case payload, flag }

    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        payload = try container.decode(Data.self, forKey: .payload)
        flag = try container.decodeIfPresent(Bool.self, forKey: .flag)
        try super.init(from: decoder)
    }

    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(payload, forKey: .payload)
        try container.encodeIfPresent(flag, forKey: .flag)
        try super.encode(to: encoder)
    }
}

struct ArchiveFuzzGraph: Codable {
    var name: String
    var count: UInt64
    var ratio: Float
    var roots: [ArchiveFuzzNode]
    var tags: [UInt8]

    static var types: KeyedArchiveTypes {
        var types = KeyedArchiveTypes()
        types.register(ArchiveFuzzNode.self, as: "Node")
        types.register(ArchiveFuzzLeaf.self, as: "Leaf")
        return types
    }

    static var example: ArchiveFuzzGraph {
        let leaf = ArchiveFuzzLeaf(label: "leaf", payload: Data([1, 2, 3]), flag: true)
        let shared = ArchiveFuzzNode(label: "shared", weight: 7, scores: [0.5, -1], children: [leaf])
        let root = ArchiveFuzzNode(label: "root", weight: 1, children: [shared, leaf, shared])
        shared.link = root
        leaf.link = leaf
        return ArchiveFuzzGraph(name: "graph", count: 3, ratio: 0.25, roots: [root, shared], tags: [9, 8])
    }
}

/// The keyed archive in the `codable` and `roundtrip` targets.
enum KeyedArchiveFuzz {
    static var unarchiver: KeyedUnarchiver { KeyedUnarchiver(types: ArchiveFuzzGraph.types) }
    static var archiver: KeyedArchiver { KeyedArchiver(types: ArchiveFuzzGraph.types) }

    /// Arbitrary bytes unarchive to a graph or give a typed error.
    static func decode(_ bytes: [UInt8]) throws(InvariantViolation) {
        do {
            _ = try unarchiver.unarchive(ArchiveFuzzGraph.self, from: bytes)
        } catch {
            try CodableTarget.requireDecodingError(error, "the keyed unarchiver")
        }
    }

    /// What unarchives re-archives; archiving what that unarchives to gives the same bytes
    /// again (the canonical form: docs/KeyedArchive.md).
    static func roundTrip(_ bytes: [UInt8]) throws(InvariantViolation) {
        guard let value = try? unarchiver.unarchive(ArchiveFuzzGraph.self, from: bytes) else { return }
        do {
            let first = try archiver.archive(value)
            let again = try unarchiver.unarchive(ArchiveFuzzGraph.self, from: first)
            let second = try archiver.archive(again)
            try require(second == first, "keyed archive: re-archiving is not stable: \(RoundTripTarget.hex(first)) → \(RoundTripTarget.hex(second))")
        } catch let violation as InvariantViolation {
            throw violation
        } catch {
            throw InvariantViolation("keyed archive: an unarchived value does not re-archive and unarchive: \(error)")
        }
    }

    static var seed: [UInt8]? {
        try? archiver.archive(ArchiveFuzzGraph.example)
    }
}
