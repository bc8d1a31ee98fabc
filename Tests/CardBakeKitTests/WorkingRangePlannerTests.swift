import CardBakeKit
import Testing

/// The planner driven as a scroll view drives it: 1,000 cards of 100 points one after another
/// (card `i` covers `100 i ..< 100 i + 100`), a viewport of 1,000 points (a screenful of ten cards),
/// the default tuning, one update a frame at 60 frames a second. Every update's changes are checked
/// against the state before it.
@Suite("Working ranges in an app")
struct WorkingRangePlannerTests {
    static let cards = try! ScrollLayout(heights: Array(repeating: 100, count: 1000))

    struct Scroll {
        var planner: WorkingRangePlanner
        var offset = 0.0
        var length = 1000.0
        var frame = 0
        /// Every card released so far, in order.
        var released: [Int] = []
        /// The frame each card was last told to decode at.
        var decodedAt: [Int: Int] = [:]
        /// For each card that came into view, the frames between its decode and that.
        var decodeLeads: [Int: Int] = [:]

        init(_ layout: ScrollLayout = WorkingRangePlannerTests.cards, tuning: WorkingRangePlanner.Tuning = .init()) {
            planner = WorkingRangePlanner(layout: layout, tuning: tuning)
        }

        /// One frame at `offset` moving at `velocity`.
        @discardableResult
        mutating func update(velocity: Double) -> WorkingRangePlanner.Changes {
            let before = planner
            let changes = planner.update(viewportOffset: offset, viewportLength: length, velocity: velocity)
            WorkingRangePlannerTests.expectConsistent(changes, from: before, to: planner)
            frame += 1
            released += changes.release
            for index in changes.decode { decodedAt[index] = frame }
            for index in planner.ranges.visible where !before.ranges.visible.contains(index) {
                decodeLeads[index] = frame - decodedAt[index]!
            }
            return changes
        }

        /// A frame at a time from `offset` to `target` at `velocity` (whose sign must point at `target`).
        mutating func scroll(to target: Double, velocity: Double) {
            let step = velocity / 60
            while offset != target {
                offset = abs(target - offset) <= abs(step) ? target : offset + step
                update(velocity: velocity)
            }
        }
    }

    /// What every change set must keep true: releases only cards held and out of range, never asks
    /// twice, decodes only what is prefetched, and the planner holds exactly what its changes said.
    static func expectConsistent(_ changes: WorkingRangePlanner.Changes, from before: WorkingRangePlanner,
                                 to after: WorkingRangePlanner) {
        let released = Set(changes.release), prefetched = Set(changes.prefetch), decoded = Set(changes.decode)
        #expect(released.count == changes.release.count && prefetched.count == changes.prefetch.count
                && decoded.count == changes.decode.count, "an index twice in \(changes)")
        #expect(changes.release == changes.release.sorted())
        #expect(released.isSubset(of: before.prefetched), "released what was not held: \(changes.release)")
        #expect(released.isDisjoint(with: after.ranges.preload), "released a card in range: \(changes.release)")
        #expect(prefetched.isDisjoint(with: before.prefetched) && decoded.isDisjoint(with: before.decoded),
                "asked again: \(changes)")
        #expect(after.prefetched == before.prefetched.subtracting(released).union(prefetched))
        #expect(after.decoded == before.decoded.subtracting(released).union(decoded))
        #expect(after.decoded.isSubset(of: after.prefetched), "decoded what is not prefetched")
        let visible = Set(after.ranges.visible), display = Set(after.ranges.display), preload = Set(after.ranges.preload)
        #expect(visible.isSubset(of: display) && display.isSubset(of: preload), "\(after.ranges)")
        #expect(display.isSubset(of: after.decoded) && preload.isSubset(of: after.prefetched))
    }

    @Test("At rest, both ranges reach their leading distance both ways, and the cards most in view come first")
    func atRest() {
        var scroll = Scroll()
        scroll.offset = 5000
        let changes = scroll.update(velocity: 0)
        #expect(scroll.planner.ranges == .init(visible: 50..<60, display: 40..<70, preload: 30..<80))
        #expect(changes.release.isEmpty)
        // The middle of the screen first, then outwards; cards as far away as each other by index.
        #expect(changes.decode.prefix(10) == [54, 55, 53, 56, 52, 57, 51, 58, 50, 59])
        #expect(changes.decode.dropFirst(10).prefix(6) == [49, 60, 48, 61, 47, 62])
        #expect(Set(changes.prefetch) == Set(30..<80) && Set(changes.decode) == Set(40..<70))
        #expect(changes.prefetch.prefix(20) == changes.decode.prefix(20))
        // Nothing moved, nothing to do.
        #expect(scroll.update(velocity: 0) == .init())
    }

    @Test("Scrolling slowly down, the ranges reach further ahead than behind, and what falls behind is released in order")
    func slowScrollDown() {
        var scroll = Scroll()
        scroll.update(velocity: 0)
        scroll.scroll(to: 5000, velocity: 300)
        // 300 points a second moves the ranges 150 points ahead.
        #expect(scroll.planner.ranges == .init(visible: 50..<60, display: 41..<72, preload: 31..<82))
        // Released once the card lies a screenful beyond the preload range: above 2,150 points.
        #expect(scroll.released == Array(0..<21))
        #expect(scroll.planner.prefetched == Set(21..<82))
        #expect(scroll.planner.decoded == Set(21..<72))
        // Each card beyond the first frame's range was decoded 1,150 points (a screenful and the
        // 150 points of lookahead), 230 frames, before it came into view.
        let arrivals = scroll.decodeLeads.filter { $0.key >= 22 }
        #expect(arrivals.count == 38 && arrivals.values.allSatisfy { $0 == 230 }, "\(arrivals)")
    }

    struct Fling: Sendable, CustomTestStringConvertible {
        var name: String
        var start: Double
        var end: Double
        var velocity: Double
        /// At `end`, moving, and at rest there.
        var moving: WorkingRangePlanner.Ranges
        var resting: WorkingRangePlanner.Ranges
        var held: Range<Int>
        var released: Set<Int>
        /// The cards that come into view once the fling is 4,000 points (40 frames) on.
        var arriving: Range<Int>
        /// The fling's lookahead, released when it comes to rest.
        var releasedAtRest: Range<Int>
        var testDescription: String { name }
    }

    @Test("A fast scroll reaches further ahead the way it goes, less far behind, and releases what it leaves", arguments: [
        // 6,000 points a second moves the ranges 3,000 points ahead: the leading side of the display
        // range reaches 4,000 points (1 screenful and the most speed adds, 3), the trailing side its
        // 500 (0.5 screenful); the preload range 5,000 and 1,000 points.
        Fling(name: "down", start: 0, end: 30000, velocity: 6000,
              moving: .init(visible: 300..<310, display: 295..<350, preload: 290..<360),
              resting: .init(visible: 300..<310, display: 290..<320, preload: 280..<330),
              held: 280..<360, released: Set(0..<280), arriving: 50..<310, releasedAtRest: 340..<360),
        Fling(name: "up", start: 30000, end: 10000, velocity: -6000,
              moving: .init(visible: 100..<110, display: 60..<115, preload: 50..<120),
              resting: .init(visible: 100..<110, display: 90..<120, preload: 80..<130),
              held: 50..<130, released: Set(130..<330), arriving: 100..<260, releasedAtRest: 50..<70),
    ])
    func fastScroll(_ fling: Fling) {
        var scroll = Scroll()
        scroll.offset = fling.start
        scroll.update(velocity: 0)
        scroll.scroll(to: fling.end, velocity: fling.velocity)
        #expect(scroll.planner.ranges == fling.moving)
        #expect(scroll.planner.prefetched == Set(fling.held))
        #expect(Set(scroll.released) == fling.released && scroll.released.count == fling.released.count)
        // Each card coming into view was decoded at least half a second (the lookahead) before: 30
        // frames, where the display range's one screenful alone would give 10.
        let arrivals = scroll.decodeLeads.filter { fling.arriving.contains($0.key) }
        #expect(arrivals.count == fling.arriving.count && arrivals.values.allSatisfy { $0 >= 30 }, "\(arrivals)")
        // Coming to rest there, the ranges become even again: released is only the part of the
        // fling's lookahead more than the hysteresis beyond them.
        let rest = scroll.update(velocity: 0)
        #expect(scroll.planner.ranges == fling.resting)
        #expect(rest.release == Array(fling.releasedAtRest))
    }

    @Test("A jump to the top releases everything it left and decodes the new range first; a short one keeps what is still in range",
          arguments: [0.0, -3_000_000])
    func jump(velocity: Double) {
        var scroll = Scroll()
        scroll.offset = 50000
        scroll.update(velocity: 0)
        // A jump of 50,000 points in one frame: at rest, or at the speed an app would measure for it,
        // whose lookahead is capped and here reaches past the top.
        scroll.offset = 0
        let changes = scroll.update(velocity: velocity)
        #expect(changes.release == Array(480..<530))
        #expect(changes.decode.prefix(10).sorted() == Array(0..<10))
        #expect(Set(changes.decode) == Set(scroll.planner.ranges.display))
        #expect(Set(changes.prefetch) == Set(scroll.planner.ranges.preload))
        #expect(scroll.planner.ranges.preload == (velocity == 0 ? 0..<30 : 0..<20))

        var short = Scroll()
        short.offset = 3000
        short.update(velocity: 0)
        short.offset = 0
        let kept = short.update(velocity: 0)
        // At 3,000 the cards 10..<60 were read and 20..<50 decoded; at the top 0..<40 are kept.
        #expect(kept.release == Array(40..<60))
        #expect(Set(kept.prefetch) == Set(0..<10) && Set(kept.decode) == Set(0..<20))
        #expect(short.planner.decoded == Set(0..<40) && short.planner.prefetched == Set(0..<40))
    }

    @Test("A card at the preload range's edge is not released and read again as the list jitters; without hysteresis it is")
    func hysteresis() {
        // Ten points back and forth at 600 points a second: the preload range's ends move by 900
        // points at each turn, which one screenful of hysteresis holds.
        func jitter(hysteresis: Double) -> [WorkingRangePlanner.Changes] {
            var tuning = WorkingRangePlanner.Tuning()
            tuning.hysteresis = hysteresis
            var scroll = Scroll(tuning: tuning)
            return (0..<20).map { turn in
                scroll.offset = turn.isMultiple(of: 2) ? 5860 : 5850
                return scroll.update(velocity: turn.isMultiple(of: 2) ? 600 : -600)
            }
        }
        let held = jitter(hysteresis: WorkingRangePlanner.Tuning().hysteresis)
        #expect(held.dropFirst(2).allSatisfy { $0 == .init() }, "\(held)")
        let flapping = jitter(hysteresis: 0)
        #expect(flapping.dropFirst(2).allSatisfy { $0.release == Array(86..<92) || $0.prefetch == Array(86..<92) },
                "\(flapping)")
    }

    @Test("No cards, one card, content shorter than the viewport, and the end of the list")
    func edges() throws {
        var empty = Scroll(try ScrollLayout(heights: []))
        #expect(empty.update(velocity: 0) == .init())
        empty.scroll(to: 3000, velocity: 6000)
        #expect(empty.planner.ranges == .init(visible: 0..<0, display: 0..<0, preload: 0..<0))

        var one = Scroll(try ScrollLayout(heights: [100], start: 20))
        #expect(one.update(velocity: 0) == .init(prefetch: [0], decode: [0]))
        one.scroll(to: 4000, velocity: 3000)
        #expect(one.released == [0] && one.planner.ranges.visible == 1..<1)

        // Five cards in a viewport of 1,000 points, bouncing past both ends: always all of them, never released.
        var short = Scroll(try ScrollLayout(heights: Array(repeating: 100, count: 5), spacing: 10))
        // All visible; the furthest inside the viewport first.
        #expect(short.update(velocity: 0) == .init(prefetch: [4, 3, 2, 1, 0], decode: [4, 3, 2, 1, 0]))
        short.scroll(to: -120, velocity: -2400)
        short.scroll(to: 80, velocity: 2400)
        #expect(short.released.isEmpty && short.planner.ranges.visible == 0..<5)

        var end = Scroll()
        end.scroll(to: 99000, velocity: 6000)
        #expect(end.planner.ranges == .init(visible: 990..<1000, display: 985..<1000, preload: 980..<1000))
        #expect(end.planner.prefetched == Set(970..<1000))
        end.scroll(to: 99500, velocity: 600)
        #expect(end.planner.ranges.visible == 995..<1000)
    }

    @Test("An invalid tuning stops the app at once")
    func invalidTuning() async {
        await #expect(processExitsWith: .failure) {
            var tuning = WorkingRangePlanner.Tuning()
            tuning.display.leading = 3   // further than preload's 2
            _ = WorkingRangePlanner(layout: WorkingRangePlannerTests.cards, tuning: tuning)
        }
    }
}

@Suite("Cards along the scroll axis")
struct ScrollLayoutTests {
    @Test("The binary search finds the cards a linear scan finds, among 10,000 of uneven heights")
    func overlapping() throws {
        let heights = (0..<10000).map { Double($0 * 7919 % 397 + 1) / 2 }
        let layout = try ScrollLayout(heights: heights, spacing: 8, start: 16)
        #expect(layout.count == 10000 && layout.extent(of: 1) == 16 + heights[0] + 8..<16 + heights[0] + 8 + heights[1])
        let total = layout.extent(of: 9999).upperBound
        for step in 0...200 {
            let lower = -200 + (total + 400) * Double(step) / 200
            let stretch = lower..<lower + Double(step * 613 % 3000)
            let scanned = (0..<10000).filter { layout.extent(of: $0).overlaps(stretch) }
            #expect(Array(layout.indices(overlapping: stretch)) == scanned, "\(stretch)")
        }
        // Touching a card is not overlapping it; between two cards, an empty range where the next one starts.
        let first = layout.extent(of: 0)
        #expect(layout.indices(overlapping: first.upperBound..<first.upperBound + 4) == 1..<1)
        #expect(layout.indices(overlapping: -100..<first.lowerBound) == 0..<0)
    }

    @Test("A height, spacing or start that lays out nothing is an error naming it")
    func invalid() {
        #expect(throws: ScrollLayout.LayoutError.invalidHeight(index: 2, height: -1)) {
            try ScrollLayout(heights: [10, 20, -1])
        }
        #expect(throws: ScrollLayout.LayoutError.invalidHeight(index: 0, height: 0)) { try ScrollLayout(heights: [0]) }
        #expect(throws: ScrollLayout.LayoutError.invalidSpacing(-2)) { try ScrollLayout(heights: [10], spacing: -2) }
        #expect(throws: ScrollLayout.LayoutError.invalidStart(.infinity)) { try ScrollLayout(heights: [10], start: .infinity) }
        #expect(ScrollLayout.LayoutError.invalidHeight(index: 2, height: -1).description
                == "card 2: height -1.0 is not a positive number of points")
    }
}
