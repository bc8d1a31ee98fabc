import Foundation

/// Where each card lies along the scroll axis, in points, and which cards overlap a stretch of it,
/// found by binary search (a catalog of 10,000 cards costs some 14 comparisons a look-up).
///
/// A list passes its cards' heights. A grid passes its rows' heights instead: the indices are then
/// row indices, and row `r` stands for the cards `r * columns ..< (r + 1) * columns`.
public struct ScrollLayout: Sendable, Equatable {
    /// Each card's first point, ascending.
    private let starts: [Double]
    /// Each card's point after its last, ascending.
    private let ends: [Double]

    /// Cards one after another: the first at `start` (the inset above it), `spacing` between two.
    /// Throws when a height is not a positive finite number, `spacing` is negative or not finite, or
    /// `start` is not finite.
    public init(heights: [Double], spacing: Double = 0, start: Double = 0) throws(LayoutError) {
        guard spacing.isFinite, spacing >= 0 else { throw .invalidSpacing(spacing) }
        guard start.isFinite else { throw .invalidStart(start) }
        var starts: [Double] = [], ends: [Double] = []
        starts.reserveCapacity(heights.count)
        ends.reserveCapacity(heights.count)
        var next = start
        for (index, height) in heights.enumerated() {
            guard height.isFinite, height > 0 else { throw .invalidHeight(index: index, height: height) }
            starts.append(next)
            ends.append(next + height)
            next += height + spacing
        }
        self.starts = starts
        self.ends = ends
    }

    public var count: Int { starts.count }

    /// The first and the point after the last of card `index`.
    public func extent(of index: Int) -> Range<Double> {
        starts[index]..<ends[index]
    }

    /// The cards that share a point with `stretch` (touching its ends is not enough). An empty
    /// range when none does (always for an empty `stretch`); it then lies where such cards would be.
    public func indices(overlapping stretch: Range<Double>) -> Range<Int> {
        let first = Self.firstIndex(in: ends) { $0 > stretch.lowerBound }
        guard !stretch.isEmpty else { return first..<first }
        let end = Self.firstIndex(in: starts) { $0 >= stretch.upperBound }
        return first..<end
    }

    /// The first index of ascending `values` whose value satisfies `isAbove`, which holds for every
    /// value after one that satisfies it; `values.count` when none does.
    private static func firstIndex(in values: [Double], where isAbove: (Double) -> Bool) -> Int {
        var low = 0, high = values.count
        while low < high {
            let middle = (low + high) / 2
            if isAbove(values[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// A height, spacing or start that cannot lay out cards.
    public enum LayoutError: Error, Sendable, Equatable, CustomStringConvertible {
        case invalidHeight(index: Int, height: Double)
        case invalidSpacing(Double)
        case invalidStart(Double)

        public var description: String {
            switch self {
            case let .invalidHeight(index, height): "card \(index): height \(height) is not a positive number of points"
            case let .invalidSpacing(spacing): "spacing \(spacing) is not zero or a positive number of points"
            case let .invalidStart(start): "start \(start) is not a number of points"
            }
        }
    }
}
