/// A growable array in memory it allocates and frees itself: the one place the walk's tables
/// (nodes, struct frames, field slots) touch raw pointers. Appending and reading through it
/// retains nothing and checks no uniqueness, as an `Array` in a class would on every access.
///
/// Invariants, which every method keeps:
/// - Ownership: the buffer alone owns `base`. It allocates it in `init` and on growth and
///   frees it on growth and in `deinit`; being `~Copyable`, it has exactly one owner, so the
///   memory is freed once. No pointer into it outlives the call that made it, except
///   ``elements``, which is valid only until the next append, reset or deinit.
/// - Capacity and count: `0 <= count <= capacity`, and `capacity >= 1`.
/// - Initialization: elements `0..<count` are initialized, `count..<capacity` are not.
///   Appends initialize the element at `count` before counting it; ``removeAll()``,
///   ``removeLast(keeping:)`` and `deinit` deinitialize what they drop (free for the plain
///   values stored here).
/// - Growth: when an append finds `count == capacity`, the elements move to a new block of
///   twice the capacity (at least 16) and the old block is freed.
/// - Access: every index is checked against `count`; an index outside it traps rather than
///   reading or writing memory that is not an initialized element.
@usableFromInline @safe
struct GrowableBuffer<Element>: ~Copyable {
    @usableFromInline private(set) var base: UnsafeMutablePointer<Element>
    @usableFromInline private(set) var count = 0
    private(set) var capacity: Int

    /// An empty buffer with room for `capacity` elements (at least 1) before it grows.
    init(capacity: Int) {
        self.capacity = max(1, capacity)
        unsafe base = .allocate(capacity: self.capacity)
    }

    deinit {
        unsafe base.deinitialize(count: count)
        unsafe base.deallocate()
    }

    /// Empties the buffer, keeping its memory.
    mutating func removeAll() {
        unsafe base.deinitialize(count: count)
        count = 0
    }

    /// Drops the elements from `kept` on, keeping the first `kept` (which must be at most ``count``).
    mutating func removeLast(keeping kept: Int) {
        precondition(kept >= 0 && kept <= count, "GrowableBuffer removeLast(keeping:) out of range")
        unsafe (base + kept).deinitialize(count: count - kept)
        count = kept
    }

    /// Appends `element`; returns its index.
    @inline(__always)
    @discardableResult
    mutating func append(_ element: Element) -> Int {
        if count == capacity { grow(toHold: count + 1) }
        unsafe (base + count).initialize(to: element)
        count += 1
        return count - 1
    }

    /// Appends `repetitions` (at least 0) copies of `element`; returns the first one's index.
    @inline(__always)
    mutating func append(repeating element: Element, count repetitions: Int) -> Int {
        let first = count
        guard repetitions > 0 else { return first }
        let (needed, overflow) = count.addingReportingOverflow(repetitions)
        precondition(!overflow, "buffer size overflow")
        if needed > capacity { grow(toHold: needed) }
        unsafe (base + count).initialize(repeating: element, count: repetitions)
        count = needed
        return first
    }

    /// Appends every element of `other`.
    mutating func append(contentsOf other: borrowing GrowableBuffer<Element>) {
        let needed = count + other.count
        if needed > capacity { grow(toHold: needed) }
        unsafe (base + count).initialize(from: other.base, count: other.count)
        count = needed
    }

    private mutating func grow(toHold needed: Int) {
        var larger = max(16, capacity)
        while larger < needed {
            let (doubled, overflow) = larger.multipliedReportingOverflow(by: 2)
            precondition(!overflow, "buffer size overflow")
            larger = doubled
        }
        let replacement = UnsafeMutablePointer<Element>.allocate(capacity: larger)
        unsafe replacement.moveInitialize(from: base, count: count)
        unsafe base.deallocate()
        unsafe base = replacement
        capacity = larger
    }

    /// Element `index`, which must be below ``count``.
    @inlinable @inline(__always)
    subscript(index: Int) -> Element {
        unsafeAddress {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "GrowableBuffer index out of range")
            return unsafe UnsafePointer(base + index)
        }
        unsafeMutableAddress {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "GrowableBuffer index out of range")
            return unsafe base + index
        }
    }

    /// The elements in place, for loops that read many: valid until the next append, reset or deinit.
    @inlinable
    var elements: UnsafeBufferPointer<Element> { unsafe UnsafeBufferPointer(start: base, count: count) }
}
