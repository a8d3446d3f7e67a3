/// A compiled expression: stack-machine operations over 64-bit signed integers.
/// Booleans are 0 and 1; enum values are their raw numbers.
package final class Program: Sendable {
    enum Operation: Sendable {
        case constant(Int64)
        /// Push the integer value of the field in this slot of the current struct.
        case loadSlot(Int32)
        /// Push the integer value of the field `references[index]`.
        case load(Int32)
        /// Push the length of the field `references[index]`: bytes for bytes and strings, elements for arrays.
        case length(Int32)
        /// Push 1 when the field `references[index]` was read, 0 when it is absent (`has(x)`).
        case present(Int32)
        /// Push 1 when the field in this slot of the current struct was read, else 0: `has(x)` of
        /// a field of the same struct, without resolving a reference.
        case presentSlot(Int32)
        /// Bytes left in the current scope.
        case remaining
        /// Current byte offset from the start of the buffer.
        case offset
        /// Pop n; push the byte n bytes ahead of the cursor, without consuming it.
        case peek
        /// Pop n; push 1 when the n bytes ahead of the cursor are all zero (`zeros(n)`), else 0.
        case zeros
        /// Pop a limit; push the distance from the cursor of the first occurrence of literal
        /// `literal` lying wholly within the next `limit` bytes of the scope, or -1 (`find`); with
        /// `anyByte`, of the first byte that is one of the literal's (`find_any`).
        case find(literal: Int32, anyByte: Bool)
        /// Pop n; push 1 when the bytes n ahead of the cursor are literal `literal` (ASCII letters
        /// in either case when `caseless`), 0 when not or when the scope ends first
        /// (`peek(n, "SIP/")`, `peek_caseless(n, "cseq")`).
        case peekMatch(literal: Int32, caseless: Bool)
        case negate, logicalNot, bitwiseNot
        case add, subtract, multiply, divide, remainder
        case bitwiseAnd, bitwiseOr, bitwiseXor, shiftLeft, shiftRight
        case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual
        /// `min(a, b)`, `max(a, b)`.
        case minimum, maximum
        /// Pop; jump to the operation at the index when the popped value is zero.
        case jumpIfZero(Int32)
        /// Pop; jump to the operation at the index when the popped value is not zero.
        case jumpIfNonZero(Int32)
        case jump(Int32)
        /// Push `slot OP constants[constant]`: a fused `loadSlot, constant, compare`, made
        /// when a schema is lowered for the interpreter.
        case compareSlot(Comparison, slot: Int32, constant: Int32)
        /// Push 1 when the bytes of the field `references[reference]` (a string's text, without
        /// its terminator) are `literals[literal]`, else 0.
        case matchBytes(reference: Int32, literal: Int32)
        /// Pop an index; then as `load`, `length`, `present` and `matchBytes` for a reference
        /// with a computed index (``FieldReference/Step/computedElement``), which takes it.
        case loadAt(Int32)
        case lengthAt(Int32)
        case presentAt(Int32)
        case matchBytesAt(reference: Int32, literal: Int32)
        /// Pop an index; push byte `index` of the bytes or string field `references[reference]` (`id[0]`).
        case byteAt(Int32)
        /// Push the index of the current struct among its array's elements (`index()`).
        case elementIndex
        /// Push `kind` over the elements of the array `references[reference]`, running program
        /// `body` (of the program's ``Program/bodies`` until lowered, then of the plan) with each as `it`.
        case aggregate(Aggregate, reference: Int32, body: Int32)
    }

    /// What an aggregate computes over an array's elements.
    enum Aggregate: UInt8, Sendable {
        /// How many elements the body holds for; whether it holds for any, for all.
        case count, any, all
        /// The sum, the smallest, the largest of the body's values (min and max of none fail).
        case sum, minimum, maximum
        /// The index of the first element the body holds for (none fails).
        case first
    }

    enum Comparison: UInt8, Sendable {
        case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual

        init?(_ operation: Operation) {
            switch operation {
            case .equal: self = .equal
            case .notEqual: self = .notEqual
            case .less: self = .less
            case .lessOrEqual: self = .lessOrEqual
            case .greater: self = .greater
            case .greaterOrEqual: self = .greaterOrEqual
            default: return nil
            }
        }

        @inline(__always)
        func holds(_ left: Int64, _ right: Int64) -> Bool {
            switch self {
            case .equal: return left == right
            case .notEqual: return left != right
            case .less: return left < right
            case .lessOrEqual: return left <= right
            case .greater: return left > right
            case .greaterOrEqual: return left >= right
            }
        }
    }

    let operations: [Operation]
    let references: [FieldReference]
    /// The byte strings `matchBytes` compares with.
    let literals: [[UInt8]]
    /// The bodies of the program's aggregates, each run once per element.
    let bodies: [Program]
    /// The expression as written, for error messages.
    package let text: String
    /// The largest stack depth the operations reach.
    let stackDepth: Int

    init(operations: [Operation], references: [FieldReference], literals: [[UInt8]] = [], bodies: [Program] = [],
         text: String, stackDepth: Int) {
        self.operations = operations
        self.references = references
        self.literals = literals
        self.bodies = bodies
        self.text = text
        self.stackDepth = stackDepth
    }

    /// The value when the program is a single constant.
    var constantValue: Int64? {
        if operations.count == 1, case .constant(let value) = operations[0] { return value }
        return nil
    }
}

/// Where a field referenced by an expression lives, relative to the struct being read.
struct FieldReference: Sendable {
    enum Base: Sendable {
        /// The struct `levelsUp` enclosing structs out from the current one (0 is the current one).
        case enclosing(levelsUp: Int)
        /// `it`: the array element just read.
        case element
    }

    /// One step from a node to the next.
    enum Step: Sendable {
        /// The field in this slot of the struct at hand.
        case slot(Int32)
        /// Through a switch's or dispatch's result: the field's slot in whichever struct was read.
        case slotByStruct([Int: Int32])
        /// Element `index` of the array at hand.
        case element(Int32)
        /// The array's last element.
        case lastElement
        /// The element of the array at hand whose index the operation pops (`pool[i - 1]`): at
        /// most one step of a reference.
        case computedElement
    }

    let base: Base
    /// Steps to follow: the first in the base struct (`.slot(-1)` for `parent.x`, whose slot is in
    /// ``firstSlotByStruct``), the rest into nested structs and arrays.
    let slots: [Step]
    /// For `parent.x`: the slot of `x` in each struct that can enclose this one (the first of ``slots`` is unused).
    let firstSlotByStruct: [Int: Int32]
    /// The reference as written, for error messages.
    let text: String
}
