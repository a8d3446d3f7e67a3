/// Why evaluating an expression failed; the caller adds which expression and field.
enum EvaluationFailure: Error, Sendable {
    case overflow
    case divisionByZero
    case absentField(String)
    case noEnclosingStruct(String)
    /// `peek(n)` past the end of the scope.
    case beyondData(needed: Int64, available: Int64)
    /// The context has no fields to read (constant expressions).
    case notAvailable
    /// An index outside an array's elements or a field's bytes (`count` of them; read so far when
    /// the array is still being read).
    case indexOutOfRange(String, index: Int64, count: Int64, isBeingRead: Bool)
    /// The walk's aggregates visited more elements than the budget.
    case aggregateLimit(Int)
    /// `index()` outside an element, `first` with no match, `min`/`max` of nothing.
    case noValue(String, reason: String)
    /// The walk stopped while the expression read a `lazy` field; its error is already recorded.
    case stopped

    func kind(expression: String) -> DissectionError.Kind {
        switch self {
        case .overflow: return .arithmeticOverflow(expression: expression)
        case .divisionByZero: return .divisionByZero(expression: expression)
        case .absentField(let name): return .absentField(name)
        case .noEnclosingStruct(let name): return .noEnclosingStruct(name)
        case .beyondData(let needed, let available): return .exceedsScope(needed: needed, available: Int(clamping: available))
        case .notAvailable: return .absentField(expression)
        case .indexOutOfRange(let reference, let index, let count, let isBeingRead):
            return .indexOutOfRange(reference: reference, index: index, count: count, isBeingRead: isBeingRead)
        case .aggregateLimit(let limit): return .aggregateLimit(limit)
        case .noValue(let text, let reason): return .noValue(expression: text, reason: reason)
        case .stopped: return .absentField(expression)
        }
    }
}

/// What a program needs from its surroundings: field values, lengths and the cursor.
protocol EvaluationContext {
    /// The integer value of the field in `slot` of the current struct; nil when there is none,
    /// and ``slotFailure(_:)`` says why. Not throwing, so the specialized evaluator inlines it.
    func slotValue(_ slot: Int32) -> Int64?
    func slotFailure(_ slot: Int32) -> EvaluationFailure
    /// The constant of a fused comparison.
    func constant(_ index: Int32) -> Int64
    /// `reference` indexes the references of the operations being run.
    mutating func load(_ reference: Int32) throws(EvaluationFailure) -> Int64
    mutating func length(_ reference: Int32) throws(EvaluationFailure) -> Int64
    /// Whether the field `reference` names was read (an absent field is not an error here).
    mutating func isPresent(_ reference: Int32) throws(EvaluationFailure) -> Bool
    /// Whether the field in `slot` of the current struct was read; nil outside a struct (or with
    /// no fields at all), which ``presenceFailure`` explains. Not throwing, as ``slotValue(_:)``.
    func slotPresence(_ slot: Int32) -> Bool?
    var presenceFailure: EvaluationFailure { get }
    var remainingBytes: Int64 { get }
    var currentOffset: Int64 { get }
    func peekByte(_ distance: Int64) throws(EvaluationFailure) -> Int64
    /// Whether the `count` bytes ahead of the cursor are all zero (`zeros(n)`).
    func areZeros(_ count: Int64) throws(EvaluationFailure) -> Bool
    /// Whether the bytes of the field `reference` names are literal `literal` of the plan.
    mutating func matchBytes(_ reference: Int32, literal: Int32) throws(EvaluationFailure) -> Bool
    /// `find`: the distance from the cursor of the first occurrence of literal `literal` lying
    /// wholly within the next `limit` bytes of the scope (with `anyByte`, of the first byte that
    /// is one of the literal's); -1 when there is none.
    func find(literal: Int32, anyByte: Bool, within limit: Int64) throws(EvaluationFailure) -> Int64
    /// `peek(n, "text")`: whether the bytes `distance` ahead of the cursor are literal `literal`
    /// (ASCII letters in either case when `caseless`); false when the scope ends first.
    func bytesAhead(_ distance: Int64, areLiteral literal: Int32, caseless: Bool) throws(EvaluationFailure) -> Bool
    /// As `load`, `length`, `isPresent` and `matchBytes`, for a reference with a computed index (`pool[i]`).
    mutating func load(_ reference: Int32, at index: Int64) throws(EvaluationFailure) -> Int64
    mutating func length(_ reference: Int32, at index: Int64) throws(EvaluationFailure) -> Int64
    mutating func isPresent(_ reference: Int32, at index: Int64) throws(EvaluationFailure) -> Bool
    mutating func matchBytes(_ reference: Int32, at index: Int64, literal: Int32) throws(EvaluationFailure) -> Bool
    /// Byte `index` of the bytes or string field `reference` names (`id[0]`).
    mutating func byte(of reference: Int32, at index: Int64) throws(EvaluationFailure) -> Int64
    /// The current struct's index among its array's elements (`index()`).
    func elementIndex() throws(EvaluationFailure) -> Int64
    /// An aggregate over the elements of the array `reference` names, running program `body` of the plan for each.
    mutating func aggregate(_ kind: Program.Aggregate, over reference: Int32, body: Int32) throws(EvaluationFailure) -> Int64
}

extension EvaluationContext {
    @inline(__always)
    func isSlotPresent(_ slot: Int32) throws(EvaluationFailure) -> Bool {
        guard let present = slotPresence(slot) else { throw presenceFailure }
        return present
    }

    @inline(__always)
    func loadSlot(_ slot: Int32) throws(EvaluationFailure) -> Int64 {
        guard let value = slotValue(slot) else { throw slotFailure(slot) }
        return value
    }

    /// A context with no fields to read has no bytes to compare.
    func matchBytes(_ reference: Int32, literal: Int32) throws(EvaluationFailure) -> Bool { throw .notAvailable }
    /// A context without a cursor has no bytes ahead.
    func areZeros(_ count: Int64) throws(EvaluationFailure) -> Bool { throw .notAvailable }
    func find(literal: Int32, anyByte: Bool, within limit: Int64) throws(EvaluationFailure) -> Int64 { throw .notAvailable }
    func bytesAhead(_ distance: Int64, areLiteral literal: Int32, caseless: Bool) throws(EvaluationFailure) -> Bool {
        throw .notAvailable
    }
}

/// The searches behind `find` and `peek(n, "text")`, over any bytes a context holds.
enum ByteSearch {
    /// The distance from `start` of the first occurrence of `needle` lying wholly within
    /// `haystack[start..<start + window]`; nil when there is none.
    static func firstDistance<Haystack: RandomAccessCollection<UInt8>, Needle: RandomAccessCollection<UInt8>>(
        of needle: Needle, in haystack: Haystack, from start: Int, window: Int
    ) -> Int? where Haystack.Index == Int, Needle.Index == Int {
        guard let first = needle.first, window >= needle.count else { return nil }
        let lastStart = start + window - needle.count
        var position = start
        while position <= lastStart {
            if haystack[position] == first, matches(needle, in: haystack, at: position, caseless: false) {
                return position - start
            }
            position += 1
        }
        return nil
    }

    /// The distance from `start` of the first byte of `haystack[start..<start + window]` that is
    /// one of `set`'s; nil when there is none.
    static func firstDistance<Haystack: RandomAccessCollection<UInt8>, Set: Sequence<UInt8>>(
        ofAnyOf set: Set, in haystack: Haystack, from start: Int, window: Int
    ) -> Int? where Haystack.Index == Int {
        var position = start
        while position < start + window {
            let byte = haystack[position]
            if set.contains(byte) { return position - start }
            position += 1
        }
        return nil
    }

    /// The search `find` or `find_any` asks for.
    static func search<Haystack: RandomAccessCollection<UInt8>, Needle: RandomAccessCollection<UInt8>>(
        _ needle: Needle, anyByte: Bool, in haystack: Haystack, from start: Int, window: Int
    ) -> Int64 where Haystack.Index == Int, Needle.Index == Int {
        let found = anyByte ? firstDistance(ofAnyOf: needle, in: haystack, from: start, window: window)
            : firstDistance(of: needle, in: haystack, from: start, window: window)
        return found.map { Int64($0) } ?? -1
    }

    /// Whether `haystack[position...]` begins with `needle` (ASCII letters in either case when
    /// `caseless`); the caller has checked that `needle.count` bytes are there.
    @inline(__always)
    static func matches<Haystack: RandomAccessCollection<UInt8>, Needle: RandomAccessCollection<UInt8>>(
        _ needle: Needle, in haystack: Haystack, at position: Int, caseless: Bool
    ) -> Bool where Haystack.Index == Int, Needle.Index == Int {
        var index = position
        for byte in needle {
            let other = haystack[index]
            if other != byte {
                guard caseless, isLetter(byte), other | 0x20 == byte | 0x20 else { return false }
            }
            index += 1
        }
        return true
    }

    @inline(__always)
    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }

    /// The bytes a search may look at: the next `limit` bytes, at most the `available` ones.
    static func window(limit: Int64, available: Int) -> Int {
        limit <= 0 ? 0 : Int(min(limit, Int64(available)))
    }
}

/// A context without arrays or computed indices (constant expressions, a stream's bytes, tests).
extension EvaluationContext {
    func load(_ reference: Int32, at index: Int64) throws(EvaluationFailure) -> Int64 { throw .notAvailable }
    func length(_ reference: Int32, at index: Int64) throws(EvaluationFailure) -> Int64 { throw .notAvailable }
    func isPresent(_ reference: Int32, at index: Int64) throws(EvaluationFailure) -> Bool { throw .notAvailable }
    func matchBytes(_ reference: Int32, at index: Int64, literal: Int32) throws(EvaluationFailure) -> Bool { throw .notAvailable }
    func byte(of reference: Int32, at index: Int64) throws(EvaluationFailure) -> Int64 { throw .notAvailable }
    func elementIndex() throws(EvaluationFailure) -> Int64 { throw .notAvailable }
    func aggregate(_ kind: Program.Aggregate, over reference: Int32, body: Int32) throws(EvaluationFailure) -> Int64 {
        throw .notAvailable
    }
}

/// A context with no fields: every field, constant and presence reads as not available.
protocol FieldlessContext: EvaluationContext {}

extension FieldlessContext {
    func slotValue(_ slot: Int32) -> Int64? { nil }
    func slotFailure(_ slot: Int32) -> EvaluationFailure { .notAvailable }
    func constant(_ index: Int32) -> Int64 { 0 }
    func load(_ reference: Int32) throws(EvaluationFailure) -> Int64 { throw .notAvailable }
    func length(_ reference: Int32) throws(EvaluationFailure) -> Int64 { throw .notAvailable }
    func isPresent(_ reference: Int32) throws(EvaluationFailure) -> Bool { throw .notAvailable }
    func slotPresence(_ slot: Int32) -> Bool? { nil }
    var presenceFailure: EvaluationFailure { .notAvailable }
}

/// The context of constant expressions in declarations: nothing to read.
struct ConstantContext: FieldlessContext {
    var remainingBytes: Int64 { 0 }
    var currentOffset: Int64 { 0 }
    func peekByte(_ distance: Int64) throws(EvaluationFailure) -> Int64 { throw .notAvailable }
}

/// Runs compiled operations in overflow-checked 64-bit arithmetic.
enum Evaluator {
    static let stackSize = 32

    @inline(__always)
    static func run<Context: EvaluationContext>(_ operations: UnsafeBufferPointer<Program.Operation>,
                                               in context: inout Context) throws(EvaluationFailure) -> Int64 {
        switch operations.count {
        case 1:
            switch operations[0] {
            case .constant(let value): return value
            case .loadSlot(let slot): return try context.loadSlot(slot)
            case .compareSlot(let comparison, let slot, let constant):
                return comparison.holds(try context.loadSlot(slot), context.constant(constant)) ? 1 : 0
            case .presentSlot(let slot): return try context.isSlotPresent(slot) ? 1 : 0
            default: break
            }
        case 2:
            // `!has(x)`: the other side of a field read in place of another.
            if case .presentSlot(let slot) = operations[0], case .logicalNot = operations[1] {
                return try context.isSlotPresent(slot) ? 0 : 1
            }
        case 4:
            // `peek(n) OP constant`: a look at the next bytes before choosing a field (Ethernet's
            // length or EtherType), on every frame.
            if case .constant(let distance) = operations[0], case .peek = operations[1],
               case .constant(let right) = operations[2], let comparison = Program.Comparison(operations[3]) {
                return comparison.holds(try context.peekByte(distance), right) ? 1 : 0
            }
        case 3:
            // `field OP constant` and the like, the most common shape, without the stack.
            if let left = try operand(operations[0], &context), let right = try operand(operations[1], &context) {
                return try apply(operations[2], left, right)
            }
        case 5:
            // `ihl * 4 - 20`: the length after a header, on every frame.
            if isBinary(operations[2]), isBinary(operations[4]), let a = try operand(operations[0], &context),
               let b = try operand(operations[1], &context) {
                // In the stack's order: a failure of the first operation comes before `c`'s.
                let left = try apply(operations[2], a, b)
                if let c = try operand(operations[3], &context) { return try apply(operations[4], left, c) }
            }
            // `a == 1 && b != 2` and `a < 1 || a > 9`: two fused comparisons joined by a short circuit.
            if case .compareSlot(let firstComparison, let firstSlot, let firstConstant) = operations[0],
               case .compareSlot(let secondComparison, let secondSlot, let secondConstant) = operations[2],
               case .jump = operations[3], case .constant(let shortCircuitValue) = operations[4] {
                let first = firstComparison.holds(try context.loadSlot(firstSlot), context.constant(firstConstant))
                switch operations[1] {
                case .jumpIfZero where shortCircuitValue == 0:
                    guard first else { return 0 }
                case .jumpIfNonZero where shortCircuitValue == 1:
                    if first { return 1 }
                default:
                    return try runOnStack(operations, in: &context)
                }
                return secondComparison.holds(try context.loadSlot(secondSlot), context.constant(secondConstant)) ? 1 : 0
            }
        default:
            // `a == 1 && <more>`, mostly false (TCP's `kind == .eol && remaining() > 0`): its first
            // comparison decides without the stack.
            if operations.count > 5, case .compareSlot(let comparison, let slot, let constant) = operations[0],
               case .jumpIfZero(let target) = operations[1], Int(target) == operations.count - 1,
               case .constant(0) = operations[operations.count - 1],
               !comparison.holds(try context.loadSlot(slot), context.constant(constant)) {
                return 0
            }
            // `remaining() > 0 && …`: a first comparison that fails decides a conjunction without
            // the stack (Ethernet's padding and trailer).
            if operations.count > 4, case .jumpIfZero(let target) = operations[3],
               let comparison = Program.Comparison(operations[2]), isZeroResult(from: Int(target), operations),
               let left = try operand(operations[0], &context), let right = try operand(operations[1], &context),
               !comparison.holds(left, right) {
                return 0
            }
        }
        return try runOnStack(operations, in: &context)
    }

    /// The stack machine with its stack. Never inlined: the stack is 256 bytes, and every struct's
    /// frame that inlines an evaluation would otherwise hold one for each place it evaluates, a
    /// few KB a frame, paid on every level of nesting.
    @inline(never)
    static func runOnStack<Context: EvaluationContext>(_ operations: UnsafeBufferPointer<Program.Operation>,
                                                      in context: inout Context) throws(EvaluationFailure) -> Int64 {
        try withUnsafeTemporaryAllocation(of: Int64.self, capacity: stackSize) { stack throws(EvaluationFailure) in
            try runStack(operations, stack: stack, in: &context)
        }
    }

    /// Whether a run that reaches `target` with nothing on the stack ends with 0: `&&`'s
    /// `constant(0)` at the end, or one that falls into the next `&&`'s test, and so on.
    @inline(__always)
    static func isZeroResult(from target: Int, _ operations: UnsafeBufferPointer<Program.Operation>) -> Bool {
        var position = target
        // Each step moves forward (a jump target past the `constant`), so this ends.
        while position >= 0, position < operations.count, case .constant(0) = operations[position] {
            let next = position + 1
            if next == operations.count { return true }
            guard case .jumpIfZero(let following) = operations[next], Int(following) > next else { return false }
            position = Int(following)
        }
        return false
    }

    @inline(__always)
    private static func isBinary(_ operation: Program.Operation) -> Bool {
        switch operation {
        case .add, .subtract, .multiply, .divide, .remainder, .bitwiseAnd, .bitwiseOr, .bitwiseXor, .shiftLeft, .shiftRight,
             .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual, .minimum, .maximum:
            return true
        default:
            return false
        }
    }

    /// A binary operation (`isBinary`) on two values.
    @inline(__always)
    private static func apply(_ operation: Program.Operation, _ left: Int64, _ right: Int64) throws(EvaluationFailure) -> Int64 {
        switch operation {
        case .minimum: return min(left, right)
        case .maximum: return max(left, right)
        default: return try binary(operation, left, right)
        }
    }

    @inline(__always)
    private static func operand<Context: EvaluationContext>(_ operation: Program.Operation,
                                                           _ context: inout Context) throws(EvaluationFailure) -> Int64? {
        switch operation {
        case .constant(let value): return value
        case .loadSlot(let slot): return try context.loadSlot(slot)
        case .remaining: return context.remainingBytes
        default: return nil
        }
    }

    static func runStack<Context: EvaluationContext>(_ operations: UnsafeBufferPointer<Program.Operation>,
                                                    stack: UnsafeMutableBufferPointer<Int64>,
                                                    in context: inout Context) throws(EvaluationFailure) -> Int64 {
        var top = 0
        var index = 0
        let count = operations.count
        while index < count {
            let operation = operations[index]
            index += 1
            var value: Int64
            switch operation {
            case .constant(let constant): value = constant
            case .loadSlot(let slot): value = try context.loadSlot(slot)
            case .load(let reference): value = try context.load(reference)
            case .length(let reference): value = try context.length(reference)
            case .present(let reference): value = try context.isPresent(reference) ? 1 : 0
            case .presentSlot(let slot): value = try context.isSlotPresent(slot) ? 1 : 0
            case .compareSlot(let comparison, let slot, let constant):
                value = comparison.holds(try context.loadSlot(slot), context.constant(constant)) ? 1 : 0
            case .matchBytes(let reference, let literal): value = try context.matchBytes(reference, literal: literal) ? 1 : 0
            case .remaining: value = context.remainingBytes
            case .offset: value = context.currentOffset
            case .elementIndex: value = try context.elementIndex()
            case .aggregate(let kind, let reference, let body): value = try context.aggregate(kind, over: reference, body: body)
            case .loadAt, .lengthAt, .presentAt, .matchBytesAt, .byteAt:
                guard top > 0 else { throw .overflow }
                top -= 1
                value = try indexed(operation, at: stack[top], in: &context)
            case .jump(let target):
                index = Int(target)
                continue
            case .jumpIfZero(let target), .jumpIfNonZero(let target):
                guard top > 0 else { throw .overflow }
                top -= 1
                let isZero = stack[top] == 0
                if case .jumpIfZero = operation { if isZero { index = Int(target) } } else if !isZero { index = Int(target) }
                continue
            case .peek, .zeros, .negate, .logicalNot, .bitwiseNot:
                guard top > 0 else { throw .overflow }
                top -= 1
                value = try unary(operation, stack[top], context)
            case .find(let literal, let anyByte):
                guard top > 0 else { throw .overflow }
                top -= 1
                value = try context.find(literal: literal, anyByte: anyByte, within: stack[top])
            case .peekMatch(let literal, let caseless):
                guard top > 0 else { throw .overflow }
                top -= 1
                value = try context.bytesAhead(stack[top], areLiteral: literal, caseless: caseless) ? 1 : 0
            case .minimum, .maximum:
                // Kept out of `binary`, which must stay small enough to be inlined here.
                guard top > 1 else { throw .overflow }
                top -= 2
                if case .minimum = operation { value = min(stack[top], stack[top + 1]) } else { value = max(stack[top], stack[top + 1]) }
            default:
                guard top > 1 else { throw .overflow }
                top -= 2
                value = try binary(operation, stack[top], stack[top + 1])
            }
            guard top < stackSize else { throw .overflow }
            stack[top] = value
            top += 1
        }
        guard top > 0 else { throw .overflow }
        return stack[top - 1]
    }

    /// An operation that pops an index: kept out of the loop, as rare.
    @inline(never)
    private static func indexed<Context: EvaluationContext>(_ operation: Program.Operation, at index: Int64,
                                                           in context: inout Context) throws(EvaluationFailure) -> Int64 {
        switch operation {
        case .loadAt(let reference): return try context.load(reference, at: index)
        case .lengthAt(let reference): return try context.length(reference, at: index)
        case .presentAt(let reference): return try context.isPresent(reference, at: index) ? 1 : 0
        case .matchBytesAt(let reference, let literal): return try context.matchBytes(reference, at: index, literal: literal) ? 1 : 0
        case .byteAt(let reference): return try context.byte(of: reference, at: index)
        default: throw .overflow
        }
    }

    private static func unary<Context: EvaluationContext>(_ operation: Program.Operation, _ operand: Int64,
                                                         _ context: Context) throws(EvaluationFailure) -> Int64 {
        switch operation {
        case .peek: return try context.peekByte(operand)
        case .zeros: return try context.areZeros(operand) ? 1 : 0
        case .negate:
            let (value, overflow) = Int64(0).subtractingReportingOverflow(operand)
            guard !overflow else { throw .overflow }
            return value
        case .logicalNot: return operand == 0 ? 1 : 0
        default: return ~operand
        }
    }

    @_transparent
    private static func binary(_ operation: Program.Operation, _ left: Int64, _ right: Int64) throws(EvaluationFailure) -> Int64 {
        func checked(_ result: (partialValue: Int64, overflow: Bool)) throws(EvaluationFailure) -> Int64 {
            guard !result.overflow else { throw .overflow }
            return result.partialValue
        }
        switch operation {
        case .add: return try checked(left.addingReportingOverflow(right))
        case .subtract: return try checked(left.subtractingReportingOverflow(right))
        case .multiply: return try checked(left.multipliedReportingOverflow(by: right))
        case .divide:
            guard right != 0 else { throw .divisionByZero }
            return try checked(left.dividedReportingOverflow(by: right))
        case .remainder:
            guard right != 0 else { throw .divisionByZero }
            return try checked(left.remainderReportingOverflow(dividingBy: right))
        case .bitwiseAnd: return left & right
        case .bitwiseOr: return left | right
        case .bitwiseXor: return left ^ right
        case .shiftLeft:
            guard right >= 0, right < 64 else { throw .overflow }
            let shifted = left << right
            guard shifted >> right == left else { throw .overflow }
            return shifted
        case .shiftRight:
            guard right >= 0 else { throw .overflow }
            return right >= 64 ? (left < 0 ? -1 : 0) : left >> right
        case .equal: return left == right ? 1 : 0
        case .notEqual: return left != right ? 1 : 0
        case .less: return left < right ? 1 : 0
        case .lessOrEqual: return left <= right ? 1 : 0
        case .greater: return left > right ? 1 : 0
        case .greaterOrEqual: return left >= right ? 1 : 0
        default: throw .overflow
        }
    }
}

extension Program {
    /// Runs the program with `context` (used for constant expressions while checking).
    func evaluate<Context: EvaluationContext>(in context: inout Context) throws(EvaluationFailure) -> Int64 {
        var result: Result<Int64, EvaluationFailure> = .failure(.notAvailable)
        operations.withUnsafeBufferPointer { buffer in
            do throws(EvaluationFailure) {
                result = .success(try Evaluator.run(buffer, in: &context))
            } catch {
                result = .failure(error)
            }
        }
        return try result.get()
    }
}
