import BinaryCoding
import Foundation
import Testing

// MARK: - Types under test

/// A class hierarchy: an `[Animal]` holds dogs and cats.
class Animal: Codable {
    var name: String

    init(name: String) {
        self.name = name
    }
}

final class Dog: Animal {
    var tricks: [String]

    init(name: String, tricks: [String]) {
        self.tricks = tricks
        super.init(name: name)
    }

    private enum CodingKeys: String, CodingKey { case tricks }

    required init(from decoder: any Decoder) throws {
        tricks = try decoder.container(keyedBy: CodingKeys.self).decode([String].self, forKey: .tricks)
        try super.init(from: decoder)
    }

    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(tricks, forKey: .tricks)
        try super.encode(to: encoder)
    }
}

final class Cat: Animal {
    var lives: UInt8

    init(name: String, lives: UInt8) {
        self.lives = lives
        super.init(name: name)
    }

    private enum CodingKeys: String, CodingKey { case lives }

    required init(from decoder: any Decoder) throws {
        lives = try decoder.container(keyedBy: CodingKeys.self).decode(UInt8.self, forKey: .lives)
        try super.init(from: decoder)
    }

    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(lives, forKey: .lives)
        try super.encode(to: encoder)
    }
}

/// A subclass that encodes a key its superclass encodes too: a collision in the shared container.
final class Impostor: Animal {
    private enum CodingKeys: String, CodingKey { case name }

    required init(from decoder: any Decoder) throws {
        try super.init(from: decoder)
    }

    init() {
        super.init(name: "impostor")
    }

    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("shadow", forKey: .name)
        try super.encode(to: encoder)
    }
}

struct Zoo: Codable {
    var animals: [Animal]
    var keeper: String
}

final class Box: Codable {
    var value: Int

    init(value: Int) {
        self.value = value
    }
}

struct SharedBoxes: Codable {
    var first: Box
    var second: Box
    var all: [Box]
}

/// A → B → A: the child's back reference is restored in the second phase.
final class Parent: Codable, ArchiveRestorable {
    var name: String
    var children: [Child]

    init(name: String, children: [Child] = []) {
        self.name = name
        self.children = children
    }

    func restored(from references: KeyedUnarchiver.References) throws {}
}

final class Child: Codable, ArchiveRestorable {
    var name: String
    weak var parent: Parent?

    init(name: String) {
        self.name = name
    }

    private enum CodingKeys: String, CodingKey { case name, parent }

    init(from decoder: any Decoder) throws {
        name = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .name)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encodeIfPresent(parent, forKey: .parent)
    }

    func restored(from references: KeyedUnarchiver.References) throws {
        parent = try references.decodeIfPresent(Parent.self, forKey: CodingKeys.parent)
    }
}

struct Family: Codable {
    var child: Child
    var parent: Parent
}

/// A node that refers to itself, restored in the second phase.
final class Loop: Codable, ArchiveRestorable {
    var label: String
    var next: Loop?

    init(label: String) {
        self.label = label
    }

    private enum CodingKeys: String, CodingKey { case label, next }

    init(from decoder: any Decoder) throws {
        label = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .label)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(label, forKey: .label)
        try container.encodeIfPresent(next, forKey: .next)
    }

    func restored(from references: KeyedUnarchiver.References) throws {
        next = try references.decodeIfPresent(Loop.self, forKey: CodingKeys.next)
    }
}

/// The same shape as ``Loop`` without a second phase: a cycle is an error when decoding.
final class EagerLoop: Codable {
    var label: String
    var next: EagerLoop?

    init(label: String) {
        self.label = label
    }
}

struct Point: Codable, Equatable {
    var x: Int
    var y: Int
}

/// Decodes its keys in the reverse order from the one it encodes them in.
struct Reversed: Codable, Equatable {
    var a: UInt8
    var b: String
    var c: Double

    private enum CodingKeys: String, CodingKey { case a, b, c }

    init(a: UInt8, b: String, c: Double) {
        (self.a, self.b, self.c) = (a, b, c)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        c = try container.decode(Double.self, forKey: .c)
        b = try container.decode(String.self, forKey: .b)
        a = try container.decode(UInt8.self, forKey: .a)
    }
}

struct Outer: Codable {
    var inner: Point
}

struct InnerWithZ: Codable {
    var x: Int
    var y: Int
    var z: Int
}

struct OuterWithZ: Codable {
    var inner: InnerWithZ
}

struct ArchiveNesting: Codable {
    var child: [ArchiveNesting]
}

/// What Corpus/examples/keyed-archive.bin holds (Schemas/examples/keyed-archive.schema labels it).
struct ExampleArchive: Codable {
    var title: String
    var animals: [Animal]
    var favourite: Animal
    var origin: Point
    var checksum: UInt32?
    var ratio: Double
    var scale: Float
    var notes: [String?]
    var payload: Data
    var ready: Bool

    static var types: KeyedArchiveTypes {
        var types = KeyedArchiveTypes()
        types.register(Dog.self, as: "Dog")
        types.register(Cat.self, as: "Cat")
        return types
    }

    static func make() -> ExampleArchive {
        let rex = Dog(name: "Rex", tricks: ["sit"])
        return ExampleArchive(title: "zoo", animals: [rex, Cat(name: "Tom", lives: 9)], favourite: rex,
                              origin: Point(x: -1, y: 2), checksum: 0xC0FFEE, ratio: 0.5, scale: 1.5, notes: ["a", nil],
                              payload: Data([0xCA, 0xFE]), ready: true)
    }
}

// MARK: - Tests

@Suite struct KeyedArchiveTests {
    private func archiveError(_ error: any Error) -> KeyedArchiveError? {
        switch error {
        case let error as KeyedArchiveError: return error
        case DecodingError.dataCorrupted(let context): return context.underlyingError as? KeyedArchiveError
        case EncodingError.invalidValue(_, let context): return context.underlyingError as? KeyedArchiveError
        default: return nil
        }
    }

    private func unarchiveError<T: Decodable>(_ type: T.Type, _ bytes: [UInt8],
                                              _ unarchiver: KeyedUnarchiver = KeyedUnarchiver()) -> (any Error)? {
        do {
            _ = try unarchiver.unarchive(type, from: bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func aStructArchivesToTheDocumentedBytes() throws {
        let bytes = try KeyedArchiver().archive(Point(x: 1, y: -2))
        #expect(bytes == [
            0x4B, 0x41, 0x52, 0x43, 0x01,  // "KARC", version 1
            0x02, 0x01, 0x78, 0x01, 0x79,  // two symbols: "x", "y"
            0x00,  // no objects
            0x09, 0x02,  // root: keyed, two entries
            0x00, 0x03, 0x01, 0, 0, 0, 0, 0, 0, 0,  // symbol 0 ("x"): int 1, 64-bit little-endian
            0x01, 0x03, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,  // symbol 1 ("y"): int -2
        ])
        #expect(try KeyedUnarchiver().unarchive(Point.self, from: bytes) == Point(x: 1, y: -2))
    }

    @Test func everyKeyStringIsStoredOnce() throws {
        struct Wide: Codable { var aVeryLongPropertyName: Int }
        let values = (0..<100).map { Wide(aVeryLongPropertyName: $0) }
        let bytes = try KeyedArchiver().archive(values)
        let needle = Array("aVeryLongPropertyName".utf8)
        let occurrences = (0...(bytes.count - needle.count)).filter { Array(bytes[$0..<($0 + needle.count)]) == needle }
        #expect(occurrences.count == 1)
        let decoded = try KeyedUnarchiver().unarchive([Wide].self, from: bytes)
        #expect(decoded.map(\.aVeryLongPropertyName) == Array(0..<100))
    }

    @Test func sharedInstancesDecodeToOneInstance() throws {
        let shared = Box(value: 7)
        let other = Box(value: 8)
        let value = SharedBoxes(first: shared, second: shared, all: [shared, other, other])
        let bytes = try KeyedArchiver().archive(value)
        let decoded = try KeyedUnarchiver().unarchive(SharedBoxes.self, from: bytes)
        #expect(decoded.first === decoded.second)
        #expect(decoded.all[0] === decoded.first)
        #expect(decoded.all[1] === decoded.all[2])
        #expect(decoded.all[1] !== decoded.first)
        #expect(decoded.first.value == 7 && decoded.all[2].value == 8)
        // Two objects in the table, whatever the number of references.
        #expect(bytes.filter { $0 == 0x0B }.count == 5)
    }

    @Test func aParentChildCycleIsRestored() throws {
        let parent = Parent(name: "p")
        let children = [Child(name: "a"), Child(name: "b")]
        parent.children = children
        for child in children { child.parent = parent }
        let bytes = try KeyedArchiver().archive(parent)
        let decoded = try KeyedUnarchiver().unarchive(Parent.self, from: bytes)
        #expect(decoded.children.map(\.name) == ["a", "b"])
        #expect(decoded.children.allSatisfy { $0.parent === decoded })
        // The child first: its parent is not decoded until the child's second phase asks for it.
        let family = try KeyedUnarchiver().unarchive(Family.self, from: try KeyedArchiver().archive(Family(child: children[1], parent: parent)))
        #expect(family.child.parent === family.parent)
        #expect(family.parent.children[1] === family.child)
        #expect(family.parent.children[0].parent === family.parent)
    }

    @Test func aSelfReferenceIsRestored() throws {
        let loop = Loop(label: "self")
        loop.next = loop
        let decoded = try KeyedUnarchiver().unarchive(Loop.self, from: try KeyedArchiver().archive(loop))
        #expect(decoded.next === decoded)
        decoded.next = nil
        loop.next = nil
        // A ring of three.
        let ring = [Loop(label: "1"), Loop(label: "2"), Loop(label: "3")]
        for index in ring.indices { ring[index].next = ring[(index + 1) % ring.count] }
        let decodedRing = try KeyedUnarchiver().unarchive(Loop.self, from: try KeyedArchiver().archive(ring[0]))
        #expect(decodedRing.next?.next?.next === decodedRing)
        #expect(decodedRing.next?.next?.label == "3")
        decodedRing.next = nil
        ring[2].next = nil
    }

    @Test func aCycleWithoutTheSecondPhaseIsATypedError() throws {
        let loop = EagerLoop(label: "x")
        loop.next = loop
        let bytes = try KeyedArchiver().archive(loop)
        loop.next = nil
        let error = try #require(unarchiveError(EagerLoop.self, bytes))
        #expect(archiveError(error) == .referenceCycle(object: 0, type: "Optional<EagerLoop>")
            || archiveError(error) == .referenceCycle(object: 0, type: "EagerLoop"), "\(error)")
    }

    @Test func registeredSubclassesDecodeAsTheirClass() throws {
        var archiver = KeyedArchiver()
        archiver.register(Dog.self, as: "Dog")
        archiver.register(Cat.self, as: "Cat")
        let zoo = Zoo(animals: [Dog(name: "Rex", tricks: ["sit", "roll"]), Cat(name: "Tom", lives: 9), Animal(name: "generic")],
                      keeper: "Ann")
        let bytes = try archiver.archive(zoo)
        var unarchiver = KeyedUnarchiver()
        unarchiver.register(Dog.self, as: "Dog")
        unarchiver.register(Cat.self, as: "Cat")
        let decoded = try unarchiver.unarchive(Zoo.self, from: bytes)
        let dog = try #require(decoded.animals[0] as? Dog)
        let cat = try #require(decoded.animals[1] as? Cat)
        #expect(dog.name == "Rex" && dog.tricks == ["sit", "roll"])
        #expect(cat.name == "Tom" && cat.lives == 9)
        #expect(type(of: decoded.animals[2]) == Animal.self && decoded.animals[2].name == "generic")
        #expect(decoded.keeper == "Ann")
    }

    @Test func anUnregisteredSubclassIsATypedErrorBothWays() throws {
        let zoo = Zoo(animals: [Dog(name: "Rex", tricks: [])], keeper: "Ann")
        #expect {
            try KeyedArchiver().archive(zoo)
        } throws: { error in
            guard case .unregisteredType(let name) = archiveError(error) else { return false }
            return name.hasSuffix("Dog")
        }
        var archiver = KeyedArchiver()
        archiver.register(Dog.self, as: "Dog")
        let bytes = try archiver.archive(zoo)
        let error = try #require(unarchiveError(Zoo.self, bytes))
        #expect(archiveError(error) == .unregisteredType("Dog"), "\(error)")
        // A registered class that is not an Animal.
        var wrong = KeyedUnarchiver()
        wrong.register(Box.self, as: "Dog")
        let mismatch = try #require(unarchiveError(Zoo.self, bytes, wrong))
        #expect(archiveError(mismatch) == .classMismatch(name: "Dog", expected: "Animal"), "\(mismatch)")
    }

    @Test func aSubclassReusingItsSuperclassKeyIsATypedError() throws {
        var archiver = KeyedArchiver()
        archiver.register(Impostor.self, as: "Impostor")
        #expect {
            try archiver.archive(Zoo(animals: [Impostor()], keeper: "Ann"))
        } throws: { error in
            guard case .keyCollision(let key, _) = archiveError(error) else { return false }
            return key == "name"
        }
        // In the bytes, a key twice in one container.
        var bytes = Array("KARC".utf8) + [1, 1, 1, 0x78, 0]
        bytes += [0x09, 0x02, 0x00, 0x03] + [UInt8](repeating: 0, count: 8) + [0x00, 0x03] + [UInt8](repeating: 0, count: 8)
        let error = try #require(unarchiveError(Point.self, bytes))
        #expect(archiveError(error) == .duplicateKey(offset: 21, key: "x"), "\(error)")
    }

    @Test func keysAreReadInAnyOrder() throws {
        let value = Reversed(a: 200, b: "bee", c: 2.5)
        #expect(try KeyedUnarchiver().unarchive(Reversed.self, from: try KeyedArchiver().archive(value)) == value)
        // Bytes with y before x decode to the same Point.
        var bytes = Array("KARC".utf8) + [1, 2, 1, 0x78, 1, 0x79, 0, 0x09, 0x02]
        bytes += [0x01, 0x03, 5, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x03, 4, 0, 0, 0, 0, 0, 0, 0]
        #expect(try KeyedUnarchiver().unarchive(Point.self, from: bytes) == Point(x: 4, y: 5))
    }

    @Test func aMissingKeyIsKeyNotFoundWithItsPath() throws {
        let bytes = try KeyedArchiver().archive(Outer(inner: Point(x: 1, y: 2)))
        let error = try #require(unarchiveError(OuterWithZ.self, bytes))
        guard case DecodingError.keyNotFound(let key, let context) = error else {
            Issue.record("expected keyNotFound, got \(error)")
            return
        }
        #expect(key.stringValue == "z")
        #expect(context.codingPath.map(\.stringValue) == ["inner"])
    }

    @Test func aValueOfTheWrongKindIsATypeMismatch() throws {
        let bytes = try KeyedArchiver().archive(Point(x: 300, y: 0))
        struct Narrow: Codable { var x: UInt8; var y: Int8 }
        // A signed value is not an unsigned property.
        #expect(throws: DecodingError.self) { try KeyedUnarchiver().unarchive(Narrow.self, from: bytes) }
        struct Small: Codable { var x: Int8; var y: Int8 }
        let error = try #require(unarchiveError(Small.self, bytes))
        #expect(archiveError(error) == .valueOutOfRange(value: "300", type: "Int8"), "\(error)")
    }

    @Test func makeCloneCopiesDeeply() throws {
        let shared = Box(value: 1)
        let original = SharedBoxes(first: shared, second: shared, all: [shared])
        let clone = try original.makeClone()
        #expect(clone.first !== original.first)
        #expect(clone.first === clone.second && clone.all[0] === clone.first)
        clone.first.value = 99
        #expect(original.first.value == 1)
        #expect(clone.second.value == 99)
        // Subclasses and cycles survive the clone.
        let parent = Parent(name: "p", children: [Child(name: "c")])
        parent.children[0].parent = parent
        let parentClone = try parent.makeClone()
        #expect(parentClone !== parent && parentClone.children[0].parent === parentClone)
        parentClone.children.append(Child(name: "new"))
        #expect(parent.children.count == 1)
        let zoo = try Zoo(animals: [Dog(name: "Rex", tricks: ["sit"])], keeper: "Ann").makeClone(types: ExampleArchive.types)
        #expect((zoo.animals[0] as? Dog)?.tricks == ["sit"])
    }

    @Test func truncatedArchivesAreTypedErrors() throws {
        let bytes = try KeyedArchiver(types: ExampleArchive.types).archive(ExampleArchive.make())
        let unarchiver = KeyedUnarchiver(types: ExampleArchive.types)
        _ = try unarchiver.unarchive(ExampleArchive.self, from: bytes)
        for length in 0..<bytes.count {
            let error = try #require(unarchiveError(ExampleArchive.self, Array(bytes.prefix(length)), unarchiver))
            #expect(archiveError(error) != nil, "prefix \(length): \(error)")
        }
        let trailing = try #require(unarchiveError(ExampleArchive.self, bytes + [0], unarchiver))
        #expect(archiveError(trailing) == .trailingBytes(offset: bytes.count, count: 1))
    }

    @Test func hostileCountsAreTypedErrors() throws {
        // 2^60 symbols, as a varint.
        let huge: [UInt8] = [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x10]
        let symbols = try #require(unarchiveError(Point.self, Array("KARC".utf8) + [1] + huge))
        #expect(archiveError(symbols) == .countTooLarge(offset: 5, count: 1 << 60, available: 0))
        // 2^60 entries in an unkeyed container.
        let entries = try #require(unarchiveError([Int].self, Array("KARC".utf8) + [1, 0, 0, 0x0A] + huge + [0x00]))
        #expect(archiveError(entries) == .countTooLarge(offset: 8, count: 1 << 60, available: 1))
        // A string of 2^60 bytes.
        let string = try #require(unarchiveError(String.self, Array("KARC".utf8) + [1, 0, 0, 0x07] + huge))
        #expect(archiveError(string) == .countTooLarge(offset: 8, count: 1 << 60, available: 0))
        // A varint longer than needed, and one past 64 bits.
        let long = try #require(unarchiveError(Point.self, Array("KARC".utf8) + [1, 0x80, 0x00]))
        #expect(archiveError(long) == .badVarint(offset: 5))
        let past = try #require(unarchiveError(Point.self, Array("KARC".utf8) + [1] + [UInt8](repeating: 0xFF, count: 10) + [1]))
        #expect(archiveError(past) == .badVarint(offset: 5))
        #expect(archiveError(try #require(unarchiveError(Point.self, Array("KARB".utf8) + [1]))) == .badMagic)
        #expect(archiveError(try #require(unarchiveError(Point.self, Array("KARC".utf8) + [2]))) == .unsupportedVersion(2))
    }

    @Test func referencesToUndefinedObjectsAreTypedErrors() throws {
        // One object; the root refers to object 1.
        let bytes = Array("KARC".utf8) + [1, 0, 1, 0, 0x09, 0x00, 0x0B, 0x01]
        let error = try #require(unarchiveError(Box.self, bytes))
        #expect(archiveError(error) == .undefinedObject(offset: 10, index: 1, count: 1))
        // An undefined symbol as a key, and as a class name.
        let key = Array("KARC".utf8) + [1, 0, 0, 0x09, 0x01, 0x00, 0x00]
        #expect(archiveError(try #require(unarchiveError(Point.self, key))) == .undefinedSymbol(offset: 9, index: 0, count: 0))
        let className = Array("KARC".utf8) + [1, 0, 1, 1, 0x09, 0x00, 0x0B, 0x00]
        #expect(archiveError(try #require(unarchiveError(Box.self, className))) == .undefinedSymbol(offset: 7, index: 0, count: 0))
    }

    @Test func referenceLoopsInTheDataAreTypedErrors() throws {
        // Object 0 is a keyed container whose "next" is object 0; EagerLoop decodes it eagerly.
        let bytes = Array("KARC".utf8) + [1, 2, 5] + Array("label".utf8) + [4] + Array("next".utf8)
            + [1, 0, 0x09, 0x02, 0x00, 0x07, 0x01, 0x61, 0x01, 0x0B, 0x00, 0x0B, 0x00]
        let clock = ContinuousClock()
        let start = clock.now
        let error = try #require(unarchiveError(EagerLoop.self, bytes))
        #expect(clock.now - start < .seconds(1))
        guard case .referenceCycle(let object, _) = archiveError(error) else {
            Issue.record("expected a reference cycle, got \(error)")
            return
        }
        #expect(object == 0)
        // An object whose body is a reference to itself, for a struct type: a type mismatch, not a loop.
        let selfBody = Array("KARC".utf8) + [1, 0, 1, 0, 0x0B, 0x00, 0x0B, 0x00]
        #expect(throws: DecodingError.self) { try KeyedUnarchiver().unarchive(Point.self, from: selfBody) }
        #expect(throws: DecodingError.self) { try KeyedUnarchiver().unarchive(Box.self, from: selfBody) }
    }

    @Test func deepNestingIsATypedError() throws {
        // 100 000 unkeyed containers, each holding the next.
        let deep = Array("KARC".utf8) + [1, 0, 0] + Array(repeating: [0x0A, 0x01], count: 100_000).flatMap { $0 } + [0x00]
        let error = try #require(unarchiveError([Int].self, deep))
        #expect(archiveError(error) == .nestingTooDeep(offset: 7 + 96 * 2, limit: 96), "\(error)")
        // A value nested deeper than the limit does not archive either.
        var nested = ArchiveNesting(child: [])
        for _ in 0..<200 { nested = ArchiveNesting(child: [nested]) }
        #expect {
            try KeyedArchiver().archive(nested)
        } throws: { error in
            archiveError(error) == .nestingTooDeep(offset: nil, limit: 96)
        }
        // A long chain of objects archives (objects are written from a queue) and, restored
        // in the second phase, unarchives without deep recursion.
        let chain = (0..<5000).map { Loop(label: String($0)) }
        for index in chain.indices.dropLast() { chain[index].next = chain[index + 1] }
        let decoded = try KeyedUnarchiver().unarchive(Loop.self, from: try KeyedArchiver().archive(chain[0]))
        var count = 1
        var node = decoded
        while let next = node.next { node = next; count += 1 }
        #expect(count == 5000)
    }

    @Test func theExampleBlobIsWhatTheArchiverWrites() throws {
        let bytes = try KeyedArchiver(types: ExampleArchive.types).archive(ExampleArchive.make())
        let file = repositoryRoot.appendingPathComponent("Corpus/examples/keyed-archive.bin")
        if ProcessInfo.processInfo.environment["WRITE_KEYED_ARCHIVE_EXAMPLE"] != nil {
            try Data(bytes).write(to: file)
        }
        #expect([UInt8](try Data(contentsOf: file)) == bytes,
                "Corpus/examples/keyed-archive.bin is stale: rerun with WRITE_KEYED_ARCHIVE_EXAMPLE=1")
        let decoded = try KeyedUnarchiver(types: ExampleArchive.types).unarchive(ExampleArchive.self, from: bytes)
        #expect(decoded.favourite === decoded.animals[0])
        #expect(decoded.animals[1] is Cat && decoded.checksum == 0xC0FFEE && decoded.notes == ["a", nil] && decoded.payload == Data([0xCA, 0xFE]))
    }
}
