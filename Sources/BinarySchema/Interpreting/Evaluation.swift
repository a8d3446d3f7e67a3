/// Why evaluating an expression failed.
enum EvaluationFailure: Error, Sendable {
    case overflow(String)
    case divisionByZero(String)
    case absentField(String)
    case noEnclosingStruct(String)
    case valueTooLarge(String)
    case notAvailable(String)
    /// `peek(n)` past the end of the scope.
    case beyondData(needed: Int64, available: Int64)

    var kind: DissectionError.Kind {
        switch self {
        case .overflow(let text): return .arithmeticOverflow(expression: text)
        case .divisionByZero(let text): return .divisionByZero(expression: text)
        case .absentField(let text): return .absentField(text)
        case .noEnclosingStruct(let text): return .noEnclosingStruct(text)
        case .valueTooLarge(let text): return .arithmeticOverflow(expression: text)
        case .notAvailable(let text): return .absentField(text)
        case .beyondData(let needed, let available): return .exceedsScope(needed: needed, available: Int(clamping: available))
        }
    }
}

/// What a program needs from its surroundings: field values, lengths and the cursor.
protocol EvaluationContext {
    mutating func loadSlot(_ slot: Int32) throws(EvaluationFailure) -> Int64
    mutating func load(_ reference: FieldReference) throws(EvaluationFailure) -> Int64
    mutating func length(_ reference: FieldReference) throws(EvaluationFailure) -> Int64
    var remainingBytes: Int64 { get }
    func peekByte(_ distance: Int64) throws(EvaluationFailure) -> Int64
    var currentOffset: Int64 { get }
}

/// The context of constant expressions in declarations: nothing to read.
struct ConstantContext: EvaluationContext {
    func loadSlot(_ slot: Int32) throws(EvaluationFailure) -> Int64 { throw .notAvailable("field") }
    func load(_ reference: FieldReference) throws(EvaluationFailure) -> Int64 { throw .notAvailable(reference.text) }
    func length(_ reference: FieldReference) throws(EvaluationFailure) -> Int64 { throw .notAvailable(reference.text) }
    var remainingBytes: Int64 { 0 }
    func peekByte(_ distance: Int64) throws(EvaluationFailure) -> Int64 { throw .notAvailable("peek") }
    var currentOffset: Int64 { 0 }
}

extension Program {
    /// Runs the program in overflow-checked 64-bit arithmetic.
    func evaluate<Context: EvaluationContext>(in context: inout Context) throws(EvaluationFailure) -> Int64 {
        if operations.count == 1 {
            switch operations[0] {
            case .constant(let value): return value
            case .loadSlot(let slot): return try context.loadSlot(slot)
            default: break
            }
        }
        var stack = InlineArray<32, Int64>(repeating: 0)
        var top = 0
        var index = 0
        let count = operations.count
        func push(_ value: Int64) throws(EvaluationFailure) {
            guard top < 32 else { throw .overflow(text) }
            stack[top] = value
            top += 1
        }
        func pop() throws(EvaluationFailure) -> Int64 {
            guard top > 0 else { throw .overflow(text) }
            top -= 1
            return stack[top]
        }
        while index < count {
            let operation = operations[index]
            index += 1
            switch operation {
            case .constant(let value): try push(value)
            case .loadSlot(let slot): try push(try context.loadSlot(slot))
            case .load(let reference):
                guard references.indices.contains(Int(reference)) else { throw .notAvailable(text) }
                try push(try context.load(references[Int(reference)]))
            case .length(let reference):
                guard references.indices.contains(Int(reference)) else { throw .notAvailable(text) }
                try push(try context.length(references[Int(reference)]))
            case .remaining: try push(context.remainingBytes)
            case .offset: try push(context.currentOffset)
            case .peek: try push(try context.peekByte(try pop()))
            case .negate:
                let (value, overflow) = Int64(0).subtractingReportingOverflow(try pop())
                guard !overflow else { throw .overflow(text) }
                try push(value)
            case .logicalNot: try push(try pop() == 0 ? 1 : 0)
            case .bitwiseNot: try push(~(try pop()))
            case .jump(let target): index = Int(target)
            case .jumpIfZero(let target): if try pop() == 0 { index = Int(target) }
            case .jumpIfNonZero(let target): if try pop() != 0 { index = Int(target) }
            default:
                let right = try pop()
                let left = try pop()
                try push(try Self.apply(operation, left, right, text: text))
            }
        }
        return try pop()
    }

    private static func apply(_ operation: Operation, _ left: Int64, _ right: Int64,
                              text: String) throws(EvaluationFailure) -> Int64 {
        func checked(_ result: (partialValue: Int64, overflow: Bool)) throws(EvaluationFailure) -> Int64 {
            guard !result.overflow else { throw .overflow(text) }
            return result.partialValue
        }
        switch operation {
        case .add: return try checked(left.addingReportingOverflow(right))
        case .subtract: return try checked(left.subtractingReportingOverflow(right))
        case .multiply: return try checked(left.multipliedReportingOverflow(by: right))
        case .divide:
            guard right != 0 else { throw .divisionByZero(text) }
            return try checked(left.dividedReportingOverflow(by: right))
        case .remainder:
            guard right != 0 else { throw .divisionByZero(text) }
            return try checked(left.remainderReportingOverflow(dividingBy: right))
        case .bitwiseAnd: return left & right
        case .bitwiseOr: return left | right
        case .bitwiseXor: return left ^ right
        case .shiftLeft:
            guard right >= 0, right < 64 else { throw .overflow(text) }
            let shifted = left << right
            guard shifted >> right == left else { throw .overflow(text) }
            return shifted
        case .shiftRight:
            guard right >= 0 else { throw .overflow(text) }
            return right >= 64 ? (left < 0 ? -1 : 0) : left >> right
        case .equal: return left == right ? 1 : 0
        case .notEqual: return left != right ? 1 : 0
        case .less: return left < right ? 1 : 0
        case .lessOrEqual: return left <= right ? 1 : 0
        case .greater: return left > right ? 1 : 0
        case .greaterOrEqual: return left >= right ? 1 : 0
        default: throw .overflow(text)
        }
    }
}
