import CardBakeManifest

/// One entry of a ``DiskArtifactStore``: an action result under its key, or a blob under its digest.
package struct CacheEntryID: Hashable, Sendable, Comparable, CustomStringConvertible {
    package enum Area: UInt8, Sendable, CaseIterable {
        /// `ac/`: action results.
        case actionResult = 0
        /// `cas/`: blobs.
        case blob = 1

        /// The store's folder for the area.
        package var folder: String { self == .actionResult ? "ac" : "cas" }
    }

    package var area: Area
    package var digest: ContentDigest

    package init(_ area: Area, _ digest: ContentDigest) {
        self.area = area
        self.digest = digest
    }

    package static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.area.rawValue, lhs.digest) < (rhs.area.rawValue, rhs.digest)
    }

    package var description: String { "\(area.folder)/\(digest)" }
}
