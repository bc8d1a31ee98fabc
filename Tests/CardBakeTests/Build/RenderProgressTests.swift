@testable import CardBake
import Synchronization
import Testing

/// Rendering that starts before planning ends: the feed of cards to render and the order of the
/// progress events a listener hears.
@Suite("Rendering while planning")
struct RenderProgressTests {
    /// The events a listener heard, in order.
    final class Heard: Sendable {
        private let events = Mutex<[String]>([])

        func hear(_ event: BuildEvent) {
            let line = switch event {
            case let .planned(total, toRender, failed): "planned \(total) \(toRender) \(failed)"
            case let .finished(result, done, of): "finished \(result.id) \(done)/\(of)"
            default: "other"
            }
            events.withLock { $0.append(line) }
        }

        var lines: [String] { events.withLock { $0 } }
    }

    static func result(_ id: String) -> BuildReport.CardResult {
        .cached(id: id, index: 0, scales: [1])
    }

    @Test("Cards that finish before planning ends are heard after `.planned`, numbered out of the cards to render")
    func heldUntilPlanned() {
        let heard = Heard()
        let progress = RenderProgress(heard.hear)
        progress.finished(Self.result("a"))
        progress.finished(Self.result("b"))
        #expect(heard.lines.isEmpty)
        progress.planned(total: 10, toRender: 3, failed: 1)
        progress.finished(Self.result("c"))
        #expect(heard.lines == ["planned 10 3 1", "finished a 1/3", "finished b 2/3", "finished c 3/3"])
    }

    @Test("With planning over before any card finishes, each card is heard as it finishes")
    func passedThroughOncePlanned() {
        let heard = Heard()
        let progress = RenderProgress(heard.hear)
        progress.planned(total: 2, toRender: 2, failed: 0)
        progress.finished(Self.result("a"))
        #expect(heard.lines == ["planned 2 2 0", "finished a 1/2"])
        progress.finished(Self.result("b"))
        #expect(heard.lines.last == "finished b 2/2")
    }

    @Test("Concurrent finishes while planning ends: every card heard once, after `.planned`, numbered 1 to n in order")
    func concurrentFinishes() async {
        let heard = Heard()
        let progress = RenderProgress(heard.hear)
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask { progress.finished(Self.result("card-\(index)")) }
                if index == 100 {
                    group.addTask { progress.planned(total: 200, toRender: 200, failed: 0) }
                }
            }
        }
        let lines = heard.lines
        #expect(lines.first == "planned 200 200 0")
        #expect(lines.count == 201)
        let numbers = lines.dropFirst().map { String($0.split(separator: " ")[2]) }
        #expect(numbers == (1...200).map { "\($0)/200" })
        #expect(Set(lines.dropFirst().map { $0.split(separator: " ")[1] }).count == 200)
    }

    /// How many items run at once, and the most that ever did.
    final class InFlight: Sendable {
        private let state = Mutex((now: 0, most: 0))

        func enter() { state.withLock { $0.now += 1; $0.most = max($0.most, $0.now) } }
        func leave() { state.withLock { $0.now -= 1 } }
        var now: Int { state.withLock { $0.now } }
        var most: Int { state.withLock { $0.most } }
    }

    @Test("Items are asked for one at a time as places free up: never more than `width` at once, each handled once, offsets in the order taken")
    func forEachTakesAsPlacesFree() async {
        let inFlight = InFlight()
        var given = 0
        var busyWhenAsked: [Int] = []
        var received: [(offset: Int, item: Int)] = []
        await forEachConcurrently(width: 3, next: { () async -> Int? in
            busyWhenAsked.append(inFlight.now)
            guard given < 20 else { return nil }
            given += 1
            return given
        }, { item -> Int in
            inFlight.enter()
            try? await Task.sleep(for: .milliseconds(item % 3 + 1))
            inFlight.leave()
            return item
        }, receive: { offset, item in received.append((offset, item)) })
        #expect(inFlight.most <= 3)
        #expect(busyWhenAsked.allSatisfy { $0 < 3 })
        #expect(received.map(\.item).sorted() == Array(1...20))
        #expect(received.allSatisfy { $0.offset == $0.item - 1 })
    }

    @Test("A feed that ends at once runs nothing")
    func emptyFeed() async {
        var received = 0
        await forEachConcurrently(width: 2, next: { () async -> Int? in nil }, { $0 }, receive: { _, _ in received += 1 })
        #expect(received == 0)
    }
}
