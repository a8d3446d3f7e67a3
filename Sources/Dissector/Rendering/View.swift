import BinarySchema

/// The ways to show a dissection.
public enum View: String, CaseIterable, Sendable {
    /// One row per field: offset, bytes, indented path, value.
    case fields
    /// The classic 16-bytes-a-line dump with each field's bytes colored and annotated.
    case hex
    /// One line per field, indented, like `tshark -V`.
    case tree
    /// One JSON object per frame, on one line.
    case json
    /// One line per frame, like tcpdump.
    case summary
    /// An interactive page: ``HTMLPage/head(title:)``, a line of data per frame, ``HTMLPage/tail``.
    case html

    /// Whether each frame is one line, with no blank line between frames.
    public var isOneLinePerFrame: Bool { self == .summary || self == .json || self == .html }

    /// Renders `dissection` in this view.
    public func render(_ dissection: Dissection, frame: FrameInfo = FrameInfo(),
                       options: RenderOptions = RenderOptions()) -> String {
        switch self {
        case .fields: return FieldRowsRenderer(options: options).render(dissection, frame: frame)
        case .hex: return HexDumpRenderer(options: options).render(dissection, frame: frame)
        case .tree: return TreeRenderer(options: options).render(dissection, frame: frame)
        case .json: return JSONRenderer(options: options).render(dissection, frame: frame)
        case .summary: return SummaryRenderer(options: options).render(dissection, frame: frame)
        case .html: return HTMLRenderer(options: options).render(dissection, frame: frame)
        }
    }

    /// Appends `dissection` in this view to `sink`, without a final newline: the streaming form,
    /// which reuses one buffer for every frame.
    public func render(_ dissection: Dissection, frame: FrameInfo = FrameInfo(),
                       options: RenderOptions = RenderOptions(), into sink: inout TextSink) {
        switch self {
        case .fields: FieldRowsRenderer(options: options).render(dissection, frame: frame, into: &sink)
        case .hex: HexDumpRenderer(options: options).render(dissection, frame: frame, into: &sink)
        case .tree: TreeRenderer(options: options).render(dissection, frame: frame, into: &sink)
        case .json: JSONRenderer(options: options).render(dissection, frame: frame, into: &sink)
        case .summary: SummaryRenderer(options: options).render(dissection, frame: frame, into: &sink)
        case .html: HTMLRenderer(options: options).render(dissection, frame: frame, into: &sink)
        }
    }
}

/// Renders frame after frame in one view, reusing its working memory: the streaming form for
/// captures. Use one per thread.
public final class ViewRenderer {
    /// The view it renders.
    public let view: View
    /// Colour and width.
    public let options: RenderOptions
    private let scratch = RenderScratch()

    /// A renderer of `view` with `options`.
    public init(view: View, options: RenderOptions = RenderOptions()) {
        self.view = view
        self.options = options
    }

    /// Appends `dissection` in the view to `sink`, without a final newline.
    public func render(_ dissection: Dissection, frame: FrameInfo = FrameInfo(), into sink: inout TextSink) {
        switch view {
        case .fields: FieldRowsRenderer(options: options).render(dissection, frame: frame, into: &sink, scratch: scratch)
        case .hex: HexDumpRenderer(options: options).render(dissection, frame: frame, into: &sink, scratch: scratch)
        case .tree: TreeRenderer(options: options).render(dissection, frame: frame, into: &sink, scratch: scratch)
        case .json: JSONRenderer(options: options).render(dissection, frame: frame, into: &sink, scratch: scratch)
        case .summary: SummaryRenderer(options: options).render(dissection, frame: frame, into: &sink, scratch: scratch)
        case .html: HTMLRenderer(options: options).render(dissection, frame: frame, into: &sink, scratch: scratch)
        }
    }
}
