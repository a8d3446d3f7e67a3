/// A context whose fields are the nodes of a ``NodeStore``: the interpreter's walk, the schema
/// encoder's, and a recorded dissection (`@display` arguments, checksum conditions). References,
/// computed indices, `index()` and aggregates resolve the same way in all three.
protocol NodeEvaluationContext: EvaluationContext {
    var nodeStore: NodeStore { get }
    var nodePlan: ExecutionPlan { get }
    /// The frame of the struct whose fields names are looked up in.
    var referenceFrame: Int32 { get }
    /// `it`: the element an `until` condition or an aggregate is looking at.
    var elementNode: Int32 { get set }
    /// The bytes the nodes span.
    var nodeBytes: [UInt8] { get }
    /// While the arguments of an array element's struct are computed (`Entry(index())[n]`), the
    /// element's index, which `index()` gives there; else -1.
    var argumentsElementIndex: Int32 { get }
    /// Reads the `lazy` field that `reference` starts at, which is absent, if this context can
    /// (only the walk can); whether it did.
    mutating func readLazyField(for reference: Int32) throws(EvaluationFailure) -> Bool
}

extension NodeEvaluationContext {
    /// A finished dissection or an encoder's layout: what was not read stays absent.
    mutating func readLazyField(for reference: Int32) throws(EvaluationFailure) -> Bool { false }

    @inline(__always)
    private mutating func node(_ reference: Int32, at index: Int64 = -1) throws(EvaluationFailure) -> Int32 {
        do {
            return try nodeStore.resolve(reference, plan: nodePlan, frame: referenceFrame, element: elementNode, computedIndex: index)
        } catch {
            guard case .absentField = error, try readLazyField(for: reference) else { throw error }
            return try nodeStore.resolve(reference, plan: nodePlan, frame: referenceFrame, element: elementNode, computedIndex: index)
        }
    }

    mutating func load(_ reference: Int32) throws(EvaluationFailure) -> Int64 {
        try nodeStore.integerValue(of: try node(reference), nodePlan.referenceTexts[Int(reference)])
    }

    mutating func length(_ reference: Int32) throws(EvaluationFailure) -> Int64 {
        nodeStore.length(of: try node(reference))
    }

    mutating func isPresent(_ reference: Int32) throws(EvaluationFailure) -> Bool {
        try nodeStore.isPresent(reference, plan: nodePlan, frame: referenceFrame, element: elementNode)
    }

    mutating func matchBytes(_ reference: Int32, literal: Int32) throws(EvaluationFailure) -> Bool {
        nodeStore.bytes(of: try node(reference), in: nodeBytes, equal: nodePlan.literal(literal))
    }

    mutating func load(_ reference: Int32, at index: Int64) throws(EvaluationFailure) -> Int64 {
        try nodeStore.integerValue(of: try node(reference, at: index), nodePlan.referenceTexts[Int(reference)])
    }

    mutating func length(_ reference: Int32, at index: Int64) throws(EvaluationFailure) -> Int64 {
        nodeStore.length(of: try node(reference, at: index))
    }

    mutating func isPresent(_ reference: Int32, at index: Int64) throws(EvaluationFailure) -> Bool {
        if try nodeStore.isPresent(reference, plan: nodePlan, frame: referenceFrame, element: elementNode, computedIndex: index) {
            return true
        }
        guard try readLazyField(for: reference) else { return false }
        return try nodeStore.isPresent(reference, plan: nodePlan, frame: referenceFrame, element: elementNode, computedIndex: index)
    }

    mutating func matchBytes(_ reference: Int32, at index: Int64, literal: Int32) throws(EvaluationFailure) -> Bool {
        nodeStore.bytes(of: try node(reference, at: index), in: nodeBytes, equal: nodePlan.literal(literal))
    }

    mutating func byte(of reference: Int32, at index: Int64) throws(EvaluationFailure) -> Int64 {
        let field = try node(reference)
        let count = nodeStore.length(of: field)
        let start = Int64(nodeStore.nodes[Int(field)].byteOffset)
        guard index >= 0, index < count, start + index < Int64(nodeBytes.count) else {
            throw .indexOutOfRange(nodePlan.referenceTexts[Int(reference)], index: index, count: count, isBeingRead: false)
        }
        return Int64(nodeBytes[Int(start + index)])
    }

    func elementIndex() throws(EvaluationFailure) -> Int64 {
        if argumentsElementIndex >= 0 { return Int64(argumentsElementIndex) }
        guard let frame = nodeStore.frame(referenceFrame) else { throw .noEnclosingStruct("index()") }
        let index = nodeStore.nodes[Int(frame.node)].arrayIndex
        guard index >= 0 else { throw .noValue("index()", reason: "this struct is not an array element") }
        return Int64(index)
    }

    mutating func aggregate(_ kind: Program.Aggregate, over reference: Int32, body: Int32) throws(EvaluationFailure) -> Int64 {
        let array = try node(reference)
        let count = nodeStore.elementsRead(of: array) ?? 0
        let operations = nodePlan.operations(of: body)
        let savedElement = elementNode
        defer { elementNode = savedElement }
        var result: Int64 = 0
        var found = false
        var position: Int64 = 0
        while position < count, let element = nodeStore.element(position, of: array) {
            nodeStore.aggregateSteps += 1
            guard nodeStore.aggregateSteps <= NodeStore.aggregateLimit else { throw .aggregateLimit(NodeStore.aggregateLimit) }
            elementNode = element
            let value = try Evaluator.run(operations, in: &self)
            switch kind {
            case .count:
                if value != 0 { result += 1 }
            case .any:
                if value != 0 { return 1 }
            case .all:
                if value == 0 { return 0 }
            case .sum:
                let (sum, overflow) = result.addingReportingOverflow(value)
                guard !overflow else { throw .overflow }
                result = sum
            case .minimum:
                result = found ? Swift.min(result, value) : value
            case .maximum:
                result = found ? Swift.max(result, value) : value
            case .first:
                if value != 0 { return position }
            }
            found = true
            position += 1
        }
        switch kind {
        case .any: return 0
        case .all: return 1
        case .minimum, .maximum:
            guard found else {
                throw .noValue("\(kind == .minimum ? "min" : "max")(\(nodePlan.referenceTexts[Int(reference)]), …)",
                               reason: "the array has no elements")
            }
            return result
        case .first:
            throw .noValue("first(\(nodePlan.referenceTexts[Int(reference)]), \(nodePlan.programTexts[Int(body)]))",
                           reason: "no element satisfies the condition")
        case .count, .sum: return result
        }
    }
}
