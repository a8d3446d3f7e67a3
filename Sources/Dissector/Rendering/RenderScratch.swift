/// Working memory the views reuse from one frame to the next: the layout's tables, the path
/// table and small line buffers, so a stream of frames allocates nothing per frame. Used by one
/// thread at a time; ``ViewRenderer`` keeps one.
final class RenderScratch {
    @exclusivity(unchecked) private var leaves: [Int] = []
    @exclusivity(unchecked) private var leafOrdinals: [Int] = []
    @exclusivity(unchecked) private var isLayer: [Bool] = []
    @exclusivity(unchecked) private var owners: [Int] = []
    @exclusivity(unchecked) private var gaps: [Layout.Gap] = []
    @exclusivity(unchecked) private var layers: [Int] = []
    @exclusivity(unchecked) private var depths: [Int] = []
    @exclusivity(unchecked) private var pathStarts: [Int] = []
    @exclusivity(unchecked) private var pathEnds: [Int] = []
    @exclusivity(unchecked) private var filterStarts: [Int] = []
    @exclusivity(unchecked) private var filterEnds: [Int] = []
    /// Text of the paths.
    let pathText = TextSink(capacity: 4096)
    /// Text of the filter names.
    let filterText = TextSink(capacity: 4096)
    /// A line or a value being composed before it is measured, wrapped or escaped.
    let line = TextSink(capacity: 256)
    let value = TextSink(capacity: 256)

    /// Empty arrays holding the memory of the last frame's.
    func takeLayoutTables() -> (leaves: [Int], leafOrdinals: [Int], isLayer: [Bool], owners: [Int], gaps: [Layout.Gap],
                                layers: [Int], depths: [Int]) {
        (Self.take(&leaves), Self.take(&leafOrdinals), Self.take(&isLayer), Self.take(&owners), Self.take(&gaps),
         Self.take(&layers), Self.take(&depths))
    }

    func takePathTables() -> (starts: [Int], ends: [Int]) {
        (Self.take(&pathStarts), Self.take(&pathEnds))
    }

    func takeFilterTables() -> (starts: [Int], ends: [Int]) {
        (Self.take(&filterStarts), Self.take(&filterEnds))
    }

    func keep(_ filters: FilterNameTable) {
        (filterStarts, filterEnds) = filters.tables
    }

    /// Takes back a finished frame's tables for the next frame.
    func keep(_ layout: Layout) {
        leaves = layout.leaves
        leafOrdinals = layout.leafOrdinals
        isLayer = layout.isLayer
        owners = layout.owners
        gaps = layout.gaps
        layers = layout.layers
        depths = layout.depths
    }

    func keep(_ paths: PathTable) {
        (pathStarts, pathEnds) = paths.tables
    }

    /// Takes back path tables a view filled itself (``PathTable/appendPath(of:_:_:to:starts:ends:)``).
    func keepPathTables(starts: [Int], ends: [Int]) {
        (pathStarts, pathEnds) = (starts, ends)
    }

    /// Moves the array out (so it is uniquely referenced) and empties it, keeping its memory.
    private static func take<Element>(_ array: inout [Element]) -> [Element] {
        var taken: [Element] = []
        swap(&taken, &array)
        taken.removeAll(keepingCapacity: true)
        return taken
    }
}
