import Foundation
import Testing

/// A seeded generator (SplitMix64), so a random test that fails can be rerun with the seed
/// its failure message prints.
struct SplitMix64: RandomNumberGenerator {
    let seed: UInt64
    private var state: UInt64

    init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

/// Runs `body` on a new thread with a stack of `stackSize` bytes and waits for it: what
/// overflows that stack crashes the test run instead of passing unnoticed.
func onThread<Result: Sendable>(stackSize: Int, _ body: @escaping @Sendable () throws -> Result) throws -> Result {
    let outcome = Outcome<Result>()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        outcome.set(Swift.Result { try body() })
        done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    done.wait()
    guard let result = outcome.value else { throw ThreadDidNotFinish() }
    return try result.get()
}

struct ThreadDidNotFinish: Error {}

/// What a thread hands back to the one waiting for it.
private final class Outcome<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Swift.Result<Value, any Error>?

    var value: Swift.Result<Value, any Error>? { lock.withLock { stored } }

    func set(_ result: Swift.Result<Value, any Error>) {
        lock.withLock { stored = result }
    }
}

/// The lowest stack address reached where a ``StackMark`` was coded (the stack grows down),
/// handed to the coders through `userInfo`.
final class StackProbe: @unchecked Sendable {
    static let key: CodingUserInfoKey = {
        guard let key = CodingUserInfoKey(rawValue: "stackProbe") else { preconditionFailure("a valid key") }
        return key
    }()

    private let lock = NSLock()
    private var lowest = UInt.max

    var deepest: UInt { lock.withLock { lowest } }

    /// The address of a local in the caller's frame: where the stack is now.
    @inline(never)
    static func here() -> UInt {
        var marker: UInt8 = 0
        return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    }

    func record() {
        let address = Self.here()
        lock.withLock { lowest = min(lowest, address) }
    }
}

/// A leaf that records the stack depth where it is encoded or decoded: one byte.
struct StackMark: Codable, Equatable {
    init() {}

    init(from decoder: any Decoder) throws {
        (decoder.userInfo[StackProbe.key] as? StackProbe)?.record()
        _ = try decoder.singleValueContainer().decode(UInt8.self)
    }

    func encode(to encoder: any Encoder) throws {
        (encoder.userInfo[StackProbe.key] as? StackProbe)?.record()
        var container = encoder.singleValueContainer()
        try container.encode(UInt8(0))
    }
}

/// False under AddressSanitizer (`make test-asan` sets `DISSECT_SANITIZED`): it moves locals to
/// a fake stack on the heap, so their addresses measure nothing. The tests still code at the
/// bound on the small thread there; only the measured figures are not checked.
let stackAddressesAreMeaningful = ProcessInfo.processInfo.environment["DISSECT_SANITIZED"] == nil
