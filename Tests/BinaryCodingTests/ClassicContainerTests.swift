import BinaryCoding
import Foundation
import Testing

// The classic format's containers written by hand (BinaryCodingOptions.classic, which turns
// containerFraming off): the bytes the classic reference coder gives, which ignores keys and
// gives every container straight to its encoder, so a container adds no byte of its own.

/// Big-endian bytes of an integer, to spell expected outputs.
private func be<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    (0..<(T.bitWidth / 8)).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
}

/// An enum case's name as the coders write it (a varint length, here one byte, then UTF-8).
private func caseName(_ name: String) -> [UInt8] {
    [UInt8(name.utf8.count)] + Array(name.utf8)
}

/// The classic format's string: an 8-byte count, then UTF-8.
private func classicString(_ string: String) -> [UInt8] {
    be(Int64(string.utf8.count)) + Array(string.utf8)
}

private let classic = BinaryCodingOptions.classic

private func roundTrip<T: Codable & Equatable>(_ value: T, _ options: BinaryCodingOptions = classic) throws -> [UInt8] {
    let bytes = try BinaryEncoder(options: options).encode(value)
    #expect(try BinaryDecoder(options: options).decode(T.self, from: bytes) == value)
    return bytes
}

/// A keyed container nested by key: a position inside a keyed container.
struct Placed: Codable, Equatable {
    var x: UInt16, y: UInt16

    enum Keys: String, CodingKey { case pos }
    enum PositionKeys: String, CodingKey { case x, y }

    init(x: UInt16, y: UInt16) { (self.x, self.y) = (x, y) }

    init(from decoder: any Decoder) throws {
        let position = try decoder.container(keyedBy: Keys.self).nestedContainer(keyedBy: PositionKeys.self, forKey: .pos)
        x = try position.decode(UInt16.self, forKey: .x)
        y = try position.decode(UInt16.self, forKey: .y)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        var position = container.nestedContainer(keyedBy: PositionKeys.self, forKey: .pos)
        try position.encode(x, forKey: .x)
        try position.encode(y, forKey: .y)
    }
}

/// Every other way to nest: an unkeyed container by key, unkeyed and keyed containers inside
/// an unkeyed one, and a superclass's encoder.
struct Nests: Codable, Equatable {
    var tag: UInt8, pair: [UInt8], inner: Int16, keyed: UInt32

    enum Keys: String, CodingKey { case tag, list }
    enum InnerKeys: String, CodingKey { case value }

    init(tag: UInt8, pair: [UInt8], inner: Int16, keyed: UInt32) {
        (self.tag, self.pair, self.inner, self.keyed) = (tag, pair, inner, keyed)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        tag = try container.decode(UInt8.self, forKey: .tag)
        var list = try container.nestedUnkeyedContainer(forKey: .list)
        #expect(list.count == nil && !list.isAtEnd, "no count in the bytes: the reference's answers")
        pair = [try list.decode(UInt8.self), try list.decode(UInt8.self)]
        var deeper = try list.nestedUnkeyedContainer()
        inner = try deeper.decode(Int16.self)
        keyed = try list.nestedContainer(keyedBy: InnerKeys.self).decode(UInt32.self, forKey: .value)
        #expect(list.currentIndex == 4)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(tag, forKey: .tag)
        var list = container.nestedUnkeyedContainer(forKey: .list)
        for byte in pair { try list.encode(byte) }
        var deeper = list.nestedUnkeyedContainer()
        try deeper.encode(inner)
        var keyedContainer = list.nestedContainer(keyedBy: InnerKeys.self)
        try keyedContainer.encode(keyed, forKey: .value)
        #expect(list.count == 4, "the container counts its elements, though it writes no count")
    }
}

class Vehicle: Codable {
    var wheels: UInt8
    init(wheels: UInt8) { self.wheels = wheels }
}

final class Truck: Vehicle, Equatable {
    var load: UInt16

    enum Keys: String, CodingKey { case load }

    init(wheels: UInt8, load: UInt16) {
        self.load = load
        super.init(wheels: wheels)
    }

    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        load = try container.decode(UInt16.self, forKey: .load)
        try super.init(from: container.superDecoder())
    }

    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(load, forKey: .load)
        try super.encode(to: container.superEncoder())
    }

    static func == (left: Truck, right: Truck) -> Bool { left.wheels == right.wheels && left.load == right.load }
}

/// Decodes elements until `isAtEnd`, as `Array.init(from:)` does.
struct UntilEnd<Element: Codable & Equatable>: Codable, Equatable {
    var elements: [Element]

    init(_ elements: [Element]) { self.elements = elements }

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        elements = []
        while !container.isAtEnd { elements.append(try container.decode(Element.self)) }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for element in elements { try container.encode(element) }
    }
}

struct Empty: Codable, Equatable {}

@Suite struct ClassicContainerTests {
    @Test func anUnkeyedContainerWritesNoCount() throws {
        let point = Point3(x: 1, y: -2, z: 3)
        #expect(try roundTrip(point) == be(Int32(1)) + be(Int32(-2)) + be(Int32(3)), "12 bytes, as the reference writes them")
        #expect(try BinaryEncoder().encode(point).count == 13, "the default preset keeps its count")
    }

    @Test func aNestedKeyedContainerWritesNoKey() throws {
        #expect(try roundTrip(Placed(x: 1, y: 2)) == [0x00, 0x01, 0x00, 0x02])
        #expect(try roundTrip(Placed(x: 1, y: 2), BinaryCodingOptions()) == [0x03, 0x70, 0x6F, 0x73, 0x00, 0x01, 0x00, 0x02],
                "the default preset keeps the key")
    }

    @Test func everyOtherNestingWritesOnlyItsValues() throws {
        let value = Nests(tag: 9, pair: [1, 2], inner: -3, keyed: 0xA0B0C0D0)
        #expect(try roundTrip(value) == [9, 1, 2, 0xFF, 0xFD, 0xA0, 0xB0, 0xC0, 0xD0])
        let truck = Truck(wheels: 6, load: 0x1234)
        #expect(try roundTrip(truck) == [0x12, 0x34, 6], "the superclass's fields follow in the order they are encoded")
    }

    @Test func theReferencesExamples() throws {
        // Fourteen bytes for an Int16, an Int32 and an Int64: no padding, big-endian.
        struct S: Codable, Equatable { var a: Int16, b: Int32, c: Int64 }
        #expect(try roundTrip(S(a: 1, b: 2, c: 3)) == be(Int16(1)) + be(Int32(2)) + be(Int64(3)))

        // The company: strings and arrays as an 8-byte count then their contents, Int as 8 bytes.
        struct Employee: Codable, Equatable { var name: String, jobTitle: String, age: Int }
        struct Company: Codable, Equatable { var name: String, employees: [Employee] }
        let employees = [Employee(name: "Joe Johnson", jobTitle: "CEO", age: 27), Employee(name: "Stan Lee", jobTitle: "Janitor", age: 87),
                         Employee(name: "Dracula", jobTitle: "Dracula", age: 41), Employee(name: "Steve Jobs", jobTitle: "Visionary", age: 56)]
        let company = Company(name: "Joe's Discount Airbags", employees: employees)
        var expected = classicString(company.name) + be(Int64(4))
        for employee in employees { expected += classicString(employee.name) + classicString(employee.jobTitle) + be(Int64(employee.age)) }
        #expect(try roundTrip(company) == expected)
        #expect(expected.count == 196, "30 for the name, 8 for the count, 24 + text per employee")
    }

    @Test func arraysKeepTheirCount() throws {
        let points = [Point3(x: 1, y: 2, z: 3), Point3(x: -1, y: 0, z: .max)]
        let bytes = try roundTrip(points)
        #expect(bytes.count == 8 + 2 * 12)
        #expect(Array(bytes.prefix(8)) == be(Int64(2)))
        #expect(try roundTrip(ContiguousArray<Int16>([5, -5])) == be(Int64(2)) + be(Int16(5)) + be(Int16(-5)))
        #expect(try roundTrip([[UInt16(1)], []]) == be(Int64(2)) + be(Int64(1)) + be(UInt16(1)) + be(Int64(0)))
    }

    @Test func enumsWithAssociatedValuesKeepTheirCaseName() throws {
        // A deliberate difference: the reference writes only the associated values, which its
        // decoder cannot read back (it has no case to pick).
        #expect(try roundTrip(Shape.rectangle(width: 2, height: 3)) == caseName("rectangle") + be(Int64(2)) + be(Int64(3)))
        #expect(try roundTrip(Shape.point) == caseName("point"))
        // Inside a struct, beside a hand-written nested container that writes no key.
        struct Both: Codable, Equatable { var shape: Shape, placed: Placed }
        let both = Both(shape: .circle(radius: 1), placed: Placed(x: 3, y: 4))
        let placed: [UInt8] = [0, 3, 0, 4]
        #expect(try roundTrip(both) == caseName("circle") + be(Double(1).bitPattern) + placed)
    }

    @Test func optionalsKeepTheirPresenceFlag() throws {
        // A deliberate difference: the reference writes a present value bare and an absent one
        // as nothing, and decodes every optional as nil.
        struct Maybe: Codable, Equatable { var some: UInt8?, none: UInt8? }
        #expect(try roundTrip(Maybe(some: 7, none: nil)) == [1, 7, 0])
    }

    @Test func aTypeDecodingUntilTheEndFailsAtTheEndOfTheInput() throws {
        // As the reference's decoder, isAtEnd is never true: the loop reads until the bytes run out.
        let bytes = try BinaryEncoder(options: classic).encode(UntilEnd<UInt16>([1, 2]))
        #expect(bytes == [0, 1, 0, 2])
        do {
            let decoded = try BinaryDecoder(options: classic).decode(UntilEnd<UInt16>.self, from: bytes)
            Issue.record("an uncounted container must not end by itself, got \(decoded)")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.underlyingError as? BinaryCodingError == .prematureEnd(offset: 4, needed: 2, available: 0))
            #expect(context.codingPath.map(\.stringValue) == ["Index 2"])
        }
        // The default preset counts the elements, so the same type reads back.
        #expect(try roundTrip(UntilEnd<UInt16>([1, 2]), BinaryCodingOptions()) == [2, 0, 1, 0, 2])
    }

    @Test func elementsTakingNoBytesCannotLoopForever() throws {
        // Each element is taken to need a byte, as a count is checked: an uncounted container
        // opened with 3 bytes left holds at most 3 elements, even of a type that reads nothing.
        do {
            _ = try BinaryDecoder(options: classic).decode(UntilEnd<Empty>.self, from: [1, 2, 3])
            Issue.record("a loop over elements of no bytes must end with an error")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.underlyingError as? BinaryCodingError == .prematureEnd(offset: 0, needed: 4, available: 3))
        }
        #expect(throws: DecodingError.self) { try BinaryDecoder(options: classic).decode(UntilEnd<Empty>.self, from: []) }
        // A fixed number of elements decodes as asked.
        #expect(try BinaryDecoder(options: classic).decode(Point3.self, from: Array(repeating: 0, count: 12)) == Point3(x: 0, y: 0, z: 0))
    }

    @Test func hostileCountsStillFailAtOnce() throws {
        // A count of 2^60 for an array, then two bytes: rejected before any element is read.
        let bytes: [UInt8] = [0x10, 0, 0, 0, 0, 0, 0, 0, 1, 2]
        do {
            _ = try BinaryDecoder(options: classic).decode([Point3].self, from: bytes)
            Issue.record("a count of 2^60 in ten bytes must fail")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.underlyingError as? BinaryCodingError == .prematureEnd(offset: 0, needed: 1 << 60, available: 2))
        }
        #expect(throws: DecodingError.self) { try BinaryDecoder(options: classic).decode(ContiguousArray<UInt64>.self, from: bytes) }
    }

    @Test func framingIsTheOptionTheClassicPresetTurnsOff() throws {
        #expect(BinaryCodingOptions().containerFraming)
        #expect(!BinaryCodingOptions.classic.containerFraming)
        // Off with other settings too: varint counts and little-endian values.
        var options = BinaryCodingOptions()
        options.containerFraming = false
        options.byteOrder = .little
        #expect(try roundTrip(Point3(x: 1, y: 2, z: 3), options) == [1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0])
        #expect(try roundTrip([Placed(x: 1, y: 2)], options) == [1, 1, 0, 2, 0])
    }
}
