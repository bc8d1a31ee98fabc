/// Where a list of records is cut into pages, chosen by the records' IDs so that an edit rewrites few
/// pages: a record starts a new page when the 64-bit FNV-1a hash of its ID's UTF-8 bytes is a
/// multiple of ``averageCount``, or when the page already holds ``maximumCount``. So a page's records
/// depend on its own IDs only: editing a record rewrites its page; inserting or removing one rewrites
/// its page (and splits or joins it when that record's hash says so), never the pages after it, but
/// within a stretch longer than ``maximumCount`` with no such hash, where the forced cuts move.
/// Simple to compute in any language that writes or reads these pages.
public struct PageBoundary: Sendable, Equatable {
    /// A power of two: the mean number of records per page.
    public let averageCount: UInt64
    public let maximumCount: Int

    public init(averageCount: UInt64, maximumCount: Int) {
        precondition(averageCount > 0 && averageCount & (averageCount - 1) == 0 && maximumCount > 0)
        self.averageCount = averageCount
        self.maximumCount = maximumCount
    }

    /// Whether the record whose ID has `key` (``key(of:)``) starts a new page after one of `count` records.
    public func starts(key: UInt64, after count: Int) -> Bool {
        count > 0 && (key % averageCount == 0 || count >= maximumCount)
    }

    /// ``starts(key:after:)`` for the record with `id`.
    public func starts(_ id: String, after count: Int) -> Bool {
        starts(key: Self.key(of: id), after: count)
    }

    /// 64-bit FNV-1a of `id`'s UTF-8 bytes.
    public static func key(of id: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in id.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
