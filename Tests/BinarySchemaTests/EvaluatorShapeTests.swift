@testable import BinarySchema
import Testing

/// The evaluator runs the common program shapes without its stack: each shape must give what the
/// stack gives, value or error, including the short circuits that skip the right side.
@Suite struct EvaluatorShapeTests {
    /// Slots 0...2 hold the values; slot 3 is an absent field.
    struct SlotContext: EvaluationContext {
        var values: [Int64]
        var remaining: Int64 = 5

        func slotValue(_ slot: Int32) -> Int64? { Int(slot) < values.count ? values[Int(slot)] : nil }
        func slotFailure(_ slot: Int32) -> EvaluationFailure { .absentField("s\(slot)") }
        func constant(_ index: Int32) -> Int64 { [0, 1, 4, -7, Int64.max][Int(index)] }
        func load(_ reference: Int32) throws(EvaluationFailure) -> Int64 { throw .notAvailable }
        func length(_ reference: Int32) throws(EvaluationFailure) -> Int64 { throw .notAvailable }
        func isPresent(_ reference: Int32) throws(EvaluationFailure) -> Bool { throw .notAvailable }
        func slotPresence(_ slot: Int32) -> Bool? { Int(slot) < values.count }
        var presenceFailure: EvaluationFailure { .notAvailable }
        var remainingBytes: Int64 { remaining }
        var currentOffset: Int64 { 0 }
        func peekByte(_ distance: Int64) throws(EvaluationFailure) -> Int64 { throw .beyondData(needed: distance + 1, available: 0) }
    }

    typealias Op = Program.Operation

    static let binaries: [Op] = [.add, .subtract, .multiply, .divide, .remainder, .shiftLeft, .shiftRight, .less, .equal,
                                 .minimum, .maximum]
    static let operands: [Op] = [.loadSlot(0), .loadSlot(1), .loadSlot(3), .constant(0), .constant(4), .constant(Int64.max),
                                 .remaining]

    /// Every `a OP b`, `(a OP b) OP c` and `a OP (b OP c)` of the operands above, and the
    /// conditionals `c && x`, `c || x`, `c ? x : y` the checker lowers with jumps.
    static var programs: [[Op]] {
        var result: [[Op]] = []
        for a in operands { for b in operands { for op in binaries { result.append([a, b, op]) } } }
        for a in operands.prefix(4) {
            for b in operands.suffix(4) {
                for c in [Op.loadSlot(2), .constant(-7), .loadSlot(3)] {
                    for (first, second) in [(Op.multiply, Op.subtract), (.add, .divide), (.shiftLeft, .less)] {
                        result.append([a, b, first, c, second])
                        result.append([a, b, c, first, second])
                    }
                }
            }
        }
        for slot in [Int32(0), 1, 3] {
            for comparison in [Program.Comparison.equal, .less, .greater] {
                let test = Op.compareSlot(comparison, slot: slot, constant: 1)
                // c && (remaining > 0); c && s1 == 4
                result.append([test, .jumpIfZero(6), .remaining, .constant(0), .greater, .jump(7), .constant(0)])
                result.append([test, .jumpIfZero(4), .compareSlot(.equal, slot: 1, constant: 2), .jump(5), .constant(0)])
                // c || s1 < 4
                result.append([test, .jumpIfNonZero(4), .compareSlot(.less, slot: 1, constant: 2), .jump(5), .constant(1)])
                // c ? remaining : s0 - s1 * 4
                result.append([test, .jumpIfZero(4), .remaining, .jump(9), .loadSlot(0), .loadSlot(1), .constant(4),
                               .multiply, .subtract])
            }
        }
        return result
    }

    @Test func everyShapeAgreesWithTheStack() throws {
        let slotValues: [[Int64]] = [[0, 0, 0], [1, 4, -7], [2, 0, 3], [Int64.max, 2, 1], [-1, 63, 64], [Int64.min, -1, 1]]
        var compared = 0
        for values in slotValues {
            for operations in Self.programs {
                var shaped = SlotContext(values: values)
                var stacked = SlotContext(values: values)
                let viaShapes = operations.withUnsafeBufferPointer { buffer in
                    Result { () throws(EvaluationFailure) -> Int64 in try Evaluator.run(buffer, in: &shaped) }
                }
                let viaStack = operations.withUnsafeBufferPointer { buffer in
                    Result { () throws(EvaluationFailure) -> Int64 in
                        try withUnsafeTemporaryAllocation(of: Int64.self, capacity: Evaluator.stackSize) { stack throws(EvaluationFailure) in
                            try Evaluator.runStack(buffer, stack: stack, in: &stacked)
                        }
                    }
                }
                #expect("\(viaShapes)" == "\(viaStack)", "\(operations) with slots \(values)")
                compared += 1
            }
        }
        #expect(compared > 3000)
    }

    /// A field whose condition is false without bytes is skipped at the end of its scope without
    /// running the condition; any other condition must still run.
    @Test func onlyConditionsFalseWithoutBytesAreSkippedAtTheEnd() {
        func program(_ operations: [Op]) -> Program {
            Program(operations: operations, references: [], text: "", stackDepth: 4)
        }
        let skipped: [[Op]] = [
            [.remaining, .constant(0), .greater],
            [.remaining, .constant(4), .equal],
            [.remaining, .constant(2), .greaterOrEqual],
            // remaining() > 0 && s0 == 1
            [.remaining, .constant(0), .greater, .jumpIfZero(8), .loadSlot(0), .constant(1), .equal, .jump(8), .constant(0)],
        ]
        let kept: [[Op]] = [
            [.remaining, .constant(0), .greaterOrEqual],
            [.remaining, .constant(0), .equal],
            [.remaining, .constant(4), .less],
            [.loadSlot(0), .constant(0), .greater],
            // remaining() > 0 || s0 == 1
            [.remaining, .constant(0), .greater, .jumpIfNonZero(8), .loadSlot(0), .constant(1), .equal, .jump(8), .constant(1)],
        ]
        for operations in skipped { #expect(ExecutionPlan.isFalseWithoutBytes(program(operations)), "\(operations)") }
        for operations in kept { #expect(!ExecutionPlan.isFalseWithoutBytes(program(operations)), "\(operations)") }
    }
}
