@testable import BinarySchema
import Testing

/// The storage under the walk's node, frame and slot tables.
@Suite struct GrowableBufferTests {
    @Test func appendsAndReadsBackInOrder() {
        var buffer = GrowableBuffer<Int32>(capacity: 4)
        #expect(buffer.count == 0)
        #expect(buffer.append(10) == 0)
        #expect(buffer.append(11) == 1)
        #expect(buffer.count == 2)
        #expect(buffer[0] == 10 && buffer[1] == 11)
        buffer[1] = 21
        #expect(buffer[1] == 21)
        #expect(Array(buffer.elements) == [10, 21])
    }

    /// A heuristic that does not claim its payload rolls the tables back this way.
    @Test func removeLastKeepsThePrefixAndItsMemory() {
        var buffer = GrowableBuffer<Int32>(capacity: 4)
        for value in 0..<10 { buffer.append(Int32(value)) }
        let capacity = buffer.capacity
        buffer.removeLast(keeping: 3)
        #expect(buffer.count == 3)
        #expect(Array(buffer.elements) == [0, 1, 2])
        #expect(buffer.capacity == capacity)
        buffer.removeLast(keeping: 3)
        #expect(buffer.count == 3, "keeping all is a no-op")
        #expect(buffer.append(42) == 3)
        #expect(Array(buffer.elements) == [0, 1, 2, 42])
        buffer.removeLast(keeping: 0)
        #expect(buffer.count == 0)
    }

    @Test func growsPastItsInitialCapacityKeepingEveryElement() {
        var buffer = GrowableBuffer<Int>(capacity: 1)
        #expect(buffer.capacity == 1)
        for value in 0..<1000 { buffer.append(value * 3) }
        #expect(buffer.count == 1000)
        #expect(buffer.capacity >= 1000)
        #expect(buffer.capacity == 1024, "capacity doubles from 16")
        #expect((0..<1000).allSatisfy { buffer[$0] == $0 * 3 })
    }

    @Test func appendsRunsOfOneValueAcrossAGrowth() {
        var buffer = GrowableBuffer<Int32>(capacity: 8)
        buffer.append(7)
        #expect(buffer.append(repeating: -1, count: 0) == 1)
        #expect(buffer.count == 1)
        #expect(buffer.append(repeating: -1, count: 40) == 1)
        #expect(buffer.count == 41)
        #expect(buffer.capacity >= 41)
        #expect(buffer[0] == 7)
        #expect((1..<41).allSatisfy { buffer[$0] == -1 })
        #expect(buffer.append(repeating: 5, count: -3) == 41, "a negative count appends nothing")
        #expect(buffer.count == 41)
    }

    @Test func removeAllKeepsTheMemoryAndStartsOver() {
        var buffer = GrowableBuffer<UInt8>(capacity: 2)
        for byte in 0..<100 { buffer.append(UInt8(byte)) }
        let grown = buffer.capacity
        buffer.removeAll()
        #expect(buffer.count == 0)
        #expect(buffer.capacity == grown)
        #expect(buffer.elements.isEmpty)
        buffer.append(42)
        #expect(buffer[0] == 42 && buffer.count == 1)
    }

    @Test func appendsAnotherBuffer() {
        var first = GrowableBuffer<Int>(capacity: 2)
        first.append(1)
        var second = GrowableBuffer<Int>(capacity: 2)
        for value in 2...20 { second.append(value) }
        first.append(contentsOf: second)
        #expect(Array(first.elements) == Array(1...20))
        #expect(second.count == 19, "the source is left as it was")
    }

    @Test func holdsReferenceCountedValuesAndReleasesThem() {
        final class Token {}
        weak var watched: Token?
        do {
            var buffer = GrowableBuffer<Token>(capacity: 1)
            let token = Token()
            watched = token
            for _ in 0..<20 { buffer.append(token) }
            buffer.removeAll()
            buffer.append(token)
        }
        #expect(watched == nil, "every element was deinitialized")
    }

    @Test func anInterpreterWalkGrowsItsTablesPastTheirFirstCapacity() throws {
        // 300 fields: more nodes and slots than a fresh store holds (256).
        let fields = (0..<300).map { "f\($0): u8" }.joined(separator: "  ")
        let schema = try SchemaLoader.load(text: "struct Main { \(fields) }")
        let root = try #require(schema.structType(named: "Main"))
        var interpreter = Interpreter(schema: schema)
        let bytes = (0..<300).map { UInt8(truncatingIfNeeded: $0) }
        let kept = interpreter.dissect(bytes, root: root)
        #expect(kept.nodes.count == 301)
        #expect(kept.integer(of: 300) == Int64(299 & 0xFF))
        #expect(kept.fieldNode(ofStruct: 0, slot: 299) == 300)
        let counted = interpreter.withDissection(of: Array(bytes.prefix(10)), root: root) { $0.nodes.count }
        #expect(counted == 12, "the root, ten fields and the failing eleventh, on reset tables")
    }
}
