import FuzzTargets

/// libFuzzer's entry point; built with `swift build --sanitize=fuzzer --product fuzz-reassembly`.
/// Without the flag this binary does nothing: replay inputs with `swift test` instead.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzTarget.reassembly.fuzz(data, size)
}
