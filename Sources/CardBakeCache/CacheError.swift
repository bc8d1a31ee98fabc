/// A cache folder cardbake cannot use as it is.
public enum CacheError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A cache directory's `VERSION` file names a layout this version of cardbake does not read.
    case incompatibleStore(path: String, found: String)

    public var description: String {
        switch self {
        case let .incompatibleStore(path, found):
            "The cache directory \"\(path)\" has the layout \"\(found)\", which this version of cardbake "
                + "does not read; delete the directory (cardbake clean --only cache) to start again with an empty cache."
        }
    }
}
