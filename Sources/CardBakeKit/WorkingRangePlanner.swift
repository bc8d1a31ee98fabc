import Foundation

/// Which cards to read ahead, which to decode and which to let go of as the cards scroll: the
/// interface states of Texture (AsyncDisplayKit) for prerendered cards. Call
/// ``update(viewportOffset:viewportLength:velocity:)`` on every scroll callback and act on the
/// ``Changes`` it returns; it is cheap enough for every frame (binary searches, and work in
/// proportion to the cards in range).
///
/// Three ranges around the viewport, in screenfuls (viewport lengths): *visible*; *display*, the
/// cards to have decoded; *preload*, the cards whose bytes to have read, which holds the display
/// range. At rest a range reaches its ``Tuning/Reach/leading`` distance both ways, since the next
/// scroll may go either way. While scrolling it moves ahead by the distance travelled in
/// ``Tuning/lookahead`` seconds: its leading side reaches that much further (at most
/// ``Tuning/maximumLookahead`` screenfuls more), its trailing side that much less (not below
/// ``Tuning/Reach/trailing``). A card is released, bytes and pixels, once it lies
/// ``Tuning/hysteresis`` screenfuls beyond the preload range, so that one at the range's edge is not
/// released and read again as the list jitters; a decoded card stays decoded until then.
public struct WorkingRangePlanner: Sendable {
    public let layout: ScrollLayout
    public let tuning: Tuning
    /// The ranges of the last update; all empty before the first.
    public private(set) var ranges = Ranges(visible: 0..<0, display: 0..<0, preload: 0..<0)
    /// The cards the updates so far said to prefetch and have not released.
    public private(set) var prefetched: Set<Int> = []
    /// The cards the updates so far said to decode and have not released; all of them prefetched.
    public private(set) var decoded: Set<Int> = []

    /// A planner with nothing prefetched; make a new one when the cards change. `tuning`'s numbers
    /// must be finite and non-negative, no range may reach further behind than ahead, and the
    /// preload range must reach at least as far as the display range on each side (a precondition).
    public init(layout: ScrollLayout, tuning: Tuning = Tuning()) {
        precondition(tuning.isValid, "WorkingRangePlanner: invalid tuning \(tuning)")
        self.layout = layout
        self.tuning = tuning
    }

    /// The ranges for a viewport of `viewportLength` points at `viewportOffset` on the scroll axis
    /// (`contentOffset.y` and `bounds.height` of a vertical `UIScrollView`), moving at `velocity`
    /// points a second (positive towards later cards, 0 at rest), and what to do about them. The
    /// numbers must be finite and the length non-negative (a precondition).
    public mutating func update(viewportOffset: Double, viewportLength: Double, velocity: Double) -> Changes {
        precondition(viewportOffset.isFinite && viewportLength.isFinite && viewportLength >= 0 && velocity.isFinite,
                     "WorkingRangePlanner: viewport \(viewportOffset), \(viewportLength) at \(velocity) points a second")
        let viewport = viewportOffset..<(viewportOffset + viewportLength)
        let preload = stretch(tuning.preload, around: viewport, velocity: velocity)
        ranges = Ranges(visible: layout.indices(overlapping: viewport),
                        display: layout.indices(overlapping: stretch(tuning.display, around: viewport, velocity: velocity)),
                        preload: layout.indices(overlapping: preload))

        let margin = tuning.hysteresis * viewportLength
        let kept = layout.indices(overlapping: (preload.lowerBound - margin)..<(preload.upperBound + margin))
        let release = prefetched.filter { !kept.contains($0) }.sorted()
        prefetched.subtract(release)
        decoded.subtract(release)
        let prefetch = nearestFirst(ranges.preload.filter { !prefetched.contains($0) }, to: viewport)
        let decode = nearestFirst(ranges.display.filter { !decoded.contains($0) }, to: viewport)
        prefetched.formUnion(prefetch)
        decoded.formUnion(decode)
        return Changes(prefetch: prefetch, decode: decode, release: release)
    }

    /// The points `reach` covers around `viewport` at `velocity`.
    private func stretch(_ reach: Tuning.Reach, around viewport: Range<Double>, velocity: Double) -> Range<Double> {
        let screen = viewport.upperBound - viewport.lowerBound
        let travel = abs(velocity) * tuning.lookahead
        let ahead = reach.leading * screen + min(travel, tuning.maximumLookahead * screen)
        let behind = max(reach.trailing * screen, reach.leading * screen - travel)
        let (before, after) = velocity < 0 ? (ahead, behind) : (behind, ahead)
        return (viewport.lowerBound - before)..<(viewport.upperBound + after)
    }

    /// `indices` in the order to serve them: the visible cards, the ones furthest inside `viewport`
    /// first, then the others by their distance from it; cards as near as one another by index.
    private func nearestFirst(_ indices: [Int], to viewport: Range<Double>) -> [Int] {
        /// The points between the card and the viewport; negative, how far inside, for a visible card.
        func gap(_ index: Int) -> Double {
            let extent = layout.extent(of: index)
            return max(extent.lowerBound - viewport.upperBound, viewport.lowerBound - extent.upperBound)
        }
        return indices.sorted { (gap($0), $0) < (gap($1), $1) }
    }

    /// The cards in each range: `visible` lies in `display`, which lies in `preload`.
    public struct Ranges: Sendable, Equatable {
        public var visible: Range<Int>
        public var display: Range<Int>
        public var preload: Range<Int>

        public init(visible: Range<Int>, display: Range<Int>, preload: Range<Int>) {
            self.visible = visible
            self.display = display
            self.preload = preload
        }
    }

    /// What changed since the previous update.
    public struct Changes: Sendable, Equatable {
        /// Start reading these cards' bytes, nearest the viewport first.
        public var prefetch: [Int]
        /// Start decoding these cards' pixels (off the main thread), nearest the viewport first.
        /// Each is prefetched, by this update or an earlier one.
        public var decode: [Int]
        /// Let go of these cards' bytes and pixels, and cancel their reads and decodes; ascending.
        /// Never a visible card, and each one prefetched by an earlier update.
        public var release: [Int]

        public init(prefetch: [Int] = [], decode: [Int] = [], release: [Int] = []) {
            self.prefetch = prefetch
            self.decode = decode
            self.release = release
        }
    }

    /// How far the ranges reach. The defaults suit a phone: a card is decoded a screenful before it
    /// scrolls in and read two screenfuls before, and a fling reaches up to three screenfuls further.
    public struct Tuning: Sendable, Equatable {
        /// A range's reach beyond the viewport, in screenfuls.
        public struct Reach: Sendable, Equatable {
            /// Ahead, in the direction of the scroll; both ways at rest.
            public var leading: Double
            /// Behind, while scrolling fast; at most `leading`.
            public var trailing: Double

            public init(leading: Double, trailing: Double) {
                self.leading = leading
                self.trailing = trailing
            }
        }

        /// The cards to have decoded.
        public var display = Reach(leading: 1, trailing: 0.5)
        /// The cards to have read; reaches at least as far as `display` on each side.
        public var preload = Reach(leading: 2, trailing: 1)
        /// Seconds of travel at the current speed that move both ranges ahead (3,000 points a second
        /// moves them 1,500 points), so that a fast scroll still decodes a card well before it shows.
        public var lookahead = 0.5
        /// The most the speed adds, in screenfuls.
        public var maximumLookahead = 3.0
        /// How far beyond the preload range a card must lie, in screenfuls, to be released. One
        /// screenful holds what was read ahead while the list jitters or turns back at up to a
        /// screenful a second.
        public var hysteresis = 1.0

        public init() {}

        var isValid: Bool {
            let numbers = [display.leading, display.trailing, preload.leading, preload.trailing, lookahead,
                           maximumLookahead, hysteresis]
            return numbers.allSatisfy { $0.isFinite && $0 >= 0 }
                && display.leading >= display.trailing && preload.leading >= preload.trailing
                && preload.leading >= display.leading && preload.trailing >= display.trailing
        }
    }
}
