import BinaryCoding
import BinarySchema
import Foundation
import Testing

/// The language's one nesting budget (`Interpreter.Options.nestingLimit`): kept by every way of
/// nesting structs, and safe at its maximum on the stack of a process's main or dispatch thread.
@Suite struct NestingLimitTests {
    /// Each way a struct can hold another: in place, in an array in a switch, with arguments, in a
    /// `@size` scope, and through a dispatch table.
    static let shapes = """
        table nest: u8
        struct Plain { tag: u8  next: Plain if tag == 1 }
        struct Listed { tag: u8  next: switch tag { 1 => Listed[1]  _ => bytes[0] } }
        struct Passed(level: u8) { tag: u8  next: Passed(tag) if tag == 1 }
        struct PassedRoot { first: Passed(0) }
        struct Sized { tag: u8  next: Sized if tag == 1 @size(remaining()) }
        struct Dispatched { tag: u8  next: dispatch nest(tag) }
        register nest 1 => Dispatched
        """

    /// Bytes that nest `levels` structs of any shape: a 1 opens the next level, a 0 ends.
    static func nested(_ levels: Int) -> [UInt8] { Array(repeating: 1, count: max(0, levels - 1)) + [0] }

    static func walk(_ root: String, levels: Int, limit: Int) throws -> Dissection {
        let schema = try SchemaLoader.load(text: shapes)
        var options = Interpreter.Options()
        options.nestingLimit = limit
        var interpreter = Interpreter(schema: schema, options: options)
        // PassedRoot adds a level of its own.
        let bytes = nested(root == "PassedRoot" ? levels - 1 : levels)
        return interpreter.dissect(bytes, root: try #require(schema.structType(named: root)))
    }

    static let roots = ["Plain", "Listed", "PassedRoot", "Sized", "Dispatched"]

    @Test(arguments: roots)
    func everyShapeStopsAtTheBudget(root: String) throws {
        let within = try Self.walk(root, levels: 40, limit: 40)
        #expect(within.error == nil, "\(String(describing: within.error))")
        let past = try Self.walk(root, levels: 41, limit: 40)
        #expect(past.error?.kind == .depthLimit(40))
        let byDefault = try Self.walk(root, levels: Interpreter.Options.defaultNestingLimit + 1,
                                      limit: Interpreter.Options.defaultNestingLimit)
        #expect(byDefault.error?.code == "depth_limit")
    }

    /// 8 MiB: the stack of Linux's main thread (ulimit -s) and of the threads dispatch starts.
    @Test(.disabled(if: ProcessInfo.processInfo.environment["DISSECT_SANITIZED"] != nil,
                    "a sanitizer changes how much stack a frame takes"),
          arguments: roots)
    func theMaximumIsWalkedOnAnEightMebibyteStack(root: String) throws {
        let maximum = Interpreter.Options.maximumNestingLimit
        let error = try onThread(stackSize: 8 << 20) { () throws -> DissectionError? in
            try Self.walk(root, levels: maximum, limit: maximum).error
        }
        #expect(error == nil, "\(String(describing: error))")
    }

    /// 2 MiB: the default budget, in a debug build, with room to spare.
    @Test(.disabled(if: ProcessInfo.processInfo.environment["DISSECT_SANITIZED"] != nil,
                    "a sanitizer changes how much stack a frame takes"),
          arguments: roots)
    func theDefaultIsWalkedOnATwoMebibyteStack(root: String) throws {
        let limit = Interpreter.Options.defaultNestingLimit
        let error = try onThread(stackSize: 2 << 20) { () throws -> DissectionError? in
            try Self.walk(root, levels: limit, limit: limit).error
        }
        #expect(error == nil, "\(String(describing: error))")
    }

    struct Chain: Codable, Equatable {
        var tag: UInt8
        var next: [Chain]?
    }

    @Test func theEncoderAndDecoderKeepTheSameBudget() throws {
        let schema = try SchemaLoader.load(text: "struct Chain { tag: u8  next: Chain[1] if tag == 1 }")
        func chain(_ levels: Int) -> Chain {
            var value = Chain(tag: 0, next: nil)
            for _ in 1..<levels { value = Chain(tag: 1, next: [value]) }
            return value
        }
        var encoder = try SchemaEncoder(schema: schema, root: "Chain")
        encoder.nestingLimit = 30
        let bytes = try encoder.encode(chain(30))
        #expect(bytes == Self.nested(30))
        #expect(throws: EncodingError.self) { _ = try encoder.encode(chain(31)) }
        var options = Interpreter.Options()
        options.nestingLimit = 30
        #expect(try SchemaDecoder(schema: schema, root: "Chain", options: options).decode(Chain.self, from: bytes) == chain(30))
        #expect(throws: DecodingError.self) {
            _ = try SchemaDecoder(schema: schema, root: "Chain", options: options).decode(Chain.self, from: Self.nested(31))
        }
    }
}
