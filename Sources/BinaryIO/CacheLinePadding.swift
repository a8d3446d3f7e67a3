/// 128 bytes of nothing. Objects that one thread writes on every field or byte (a walk's node
/// counts, an output buffer's length) start and end with one, so two threads' objects never
/// share a cache line: without it, neighbouring allocations made the cores invalidate each
/// other's lines on every write, and two threads did the work of one and a half.
package struct CacheLinePadding {
    private var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

    package init() {}
}
