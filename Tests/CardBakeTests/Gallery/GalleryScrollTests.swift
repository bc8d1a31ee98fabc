import Foundation
@testable import CardBake
@testable import CardBakeManifest
import Testing
import Vips

/// A gallery of thousands of cards in headless Chromium: laid out whole from the start, with only the
/// cards near the viewport in the DOM, and a search box that jumps to a card.
@Suite("Gallery of thousands of cards in Chromium", .vips, .serialized)
struct GalleryScrollTests {
    static let count = 3_000
    /// The card whose title holds a word no other title has.
    static let quetzal = 2_345
    /// The viewport: 1,216 px of content between the page's padding holds three cards of 320 a row,
    /// 32 apart, the row centred: at 128, 480 and 832.
    static let (width, height) = (1280, 1000)

    /// Writes the gallery of ``count`` generated cards and their shared bitmap into `folder`.
    static func write(in folder: URL) async throws -> URL {
        try TestImage.write(TestImage.solid(width: 64, height: 96, [200, 120, 40]),
                            to: folder.appendingPathComponent("cards/shared@1x.png"))
        let gallery = GalleryFolder(folder)
        try await gallery.write((0..<count).map { index in
            .generated(index, title: index == quetzal ? "Resplendent Quetzal over the cloud forest" : nil)
        })
        return gallery.page
    }

    /// Where card `index` is in the page, its top relative to the first card's: three a row, each
    /// row as tall as its tallest card, 40 px between rows.
    static let layout: [(left: Double, top: Double)] = {
        var rowTop = 0.0
        return (0..<count).map { index in
            let column = index % 3
            if column == 0 && index > 0 {
                rowTop += (index - 3..<index).map(GalleryCard.generatedHeight).max()! + 40
            }
            return (left: 128 + Double(column) * 352, top: rowTop)
        }
    }()

    /// The cards whose boxes meet the band from `top` to `bottom`, relative to the first card's top.
    static func cards(meeting top: Double, _ bottom: Double) -> Set<String> {
        Set((0..<count).filter { layout[$0].top < bottom && layout[$0].top + GalleryCard.generatedHeight($0) > top }
            .map(GalleryCard.generatedID))
    }

    /// The scroll position, the first card's top in the page (nil when it is not held), and each card
    /// in the DOM in order: id, left and top in the page, width, height.
    static let domCards = "eval:(() => { const first = document.getElementById('card-00000'); "
        + "return [scrollY, first ? first.getBoundingClientRect().top + scrollY : null, "
        + "[...document.querySelectorAll('.card')].map(c => { const r = c.getBoundingClientRect(); "
        + "return [c.id, r.left, r.top + scrollY, r.width, r.height] })] })()"

    /// Two frames later: the scroll event handled (it comes with the frame after the scroll).
    static let nextFrame = "eval:new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"

    /// Every card in the DOM filled in from its chunk (its id set), every card in the viewport showing
    /// its bitmap, and one there at least.
    static let inViewShown = "wait:[...document.querySelectorAll('.card')].every(c => c.id) && "
        + "(cards => cards.length > 0 && cards.every(c => c.classList.contains('shown')))"
        + "([...document.querySelectorAll('.card')].filter(c => { const r = c.getBoundingClientRect(); "
        + "return r.bottom > 0 && r.top < innerHeight }))"

    @Test("Scrolled from top to bottom, the DOM holds only the cards near the viewport, and those in it are the right ones where they belong")
    func virtualised() async throws {
        try await withTemporaryDirectory { folder in
            let page = try await Self.write(in: folder)
            // A screen at a time for ten screens, then eight screens less a little at a time, then the bottom.
            let positions = (1...10).map { $0 * Self.height } + stride(from: 18_000, to: 640_000, by: 7_919) + [10_000_000]
            let steps = [Self.inViewShown, Self.domCards] + positions.flatMap {
                ["eval:scrollTo(0, \($0))", Self.nextFrame, Self.inViewShown, Self.domCards]
            } + ["requests:"]
            let values = try PageProbe.run(page, width: Self.width, height: Self.height, steps: steps)
            let states = values.dropLast().compactMap { $0 as? [Any] }
            try #require(states.count == positions.count + 1)
            let origin = try #require(states[0][1] as? Double)
            let viewport = Double(Self.height)
            var largest = 0
            for state in states {
                let scroll = state[0] as! Double - origin
                let cards = state[2] as! [[Any]]
                let ids = cards.map { $0[0] as! String }
                largest = max(largest, cards.count)
                // In order, none far from the viewport: the DOM holds at most the cards meeting the
                // six screens above and below it, and at least those meeting the two.
                #expect(ids == ids.sorted(), "at \(scroll): \(ids)")
                let kept = Self.cards(meeting: scroll - 6 * viewport, scroll + 7 * viewport)
                let loaded = Self.cards(meeting: scroll - 2 * viewport, scroll + 3 * viewport)
                #expect(Set(ids).subtracting(kept).isEmpty, "at \(scroll), held too far: \(Set(ids).subtracting(kept).sorted())")
                #expect(loaded.subtracting(ids).isEmpty, "at \(scroll), not held: \(loaded.subtracting(ids).sorted())")
                // The cards in the viewport are the ones the layout puts there, each at its place and size.
                let inView = cards.filter { card in
                    let top = card[2] as! Double - origin
                    return top < scroll + viewport && top + (card[4] as! Double) > scroll
                }
                #expect(Set(inView.map { $0[0] as! String }) == Self.cards(meeting: scroll, scroll + viewport), "at \(scroll)")
                for card in inView {
                    let index = Int((card[0] as! String).dropFirst(5))!
                    let expected = Self.layout[index]
                    #expect(card[1] as? Double == expected.left && card[2] as! Double - origin == expected.top
                            && card[3] as? Double == 320 && card[4] as? Double == GalleryCard.generatedHeight(index),
                            "\(card) at \(scroll), expected \(expected)")
                }
            }
            // The bottom reached; never more than about thirteen screens of cards held (rows 420 to 810 px).
            let bottom = try #require(states.last?[2] as? [[Any]])
            #expect(bottom.last?[0] as? String == GalleryCard.generatedID(Self.count - 1))
            #expect(largest <= 3 * (13 * Self.height / 420 + 2), "\(largest) cards in the DOM at once")
            // Nothing but the page's own files and data URLs.
            let resources = try #require(values.last as? [String])
            #expect(resources.allSatisfy { $0.hasPrefix("file://") || $0.hasPrefix("data:") }, "\(resources.filter { !$0.hasPrefix("file://") })")
        }
    }

    /// Types `query` into the search box and presses Enter, as a script expression.
    static func search(_ query: String) -> String {
        "eval:(() => { const box = document.querySelector('#search input'); box.focus(); box.value = '\(query)'; "
            + "box.dispatchEvent(new Event('input')); document.getElementById('search').requestSubmit(); })()"
    }

    /// The focused card's id, its frame in the viewport, whether it is ringed, the search's status, the viewport's height.
    static let focused = "eval:(() => { const c = document.activeElement, r = c.getBoundingClientRect(); "
        + "return [c.id, r.left, r.top, r.width, r.height, c.classList.contains('found'), "
        + "document.querySelector('#search output').value, innerHeight] })()"

    @Test("The search box finds a card by id, by the start of an id and by a word of its title, and scrolls it into view ringed")
    func search() async throws {
        try await withTemporaryDirectory { folder in
            let page = try await Self.write(in: folder)
            let shots = (0..<3).map { folder.appendingPathComponent("search-\($0).png") }
            let queries = [("card-01234", "card-01234"), ("card-0299", "card-02990"), ("Quetzal", GalleryCard.generatedID(Self.quetzal))]
            let steps = [Self.inViewShown] + queries.enumerated().flatMap { index, query in
                [Self.search(query.0), "wait:document.activeElement?.id === '\(query.1)'", Self.inViewShown,
                 Self.focused, "screenshot:\(shots[index].path)"]
            } + ["eval:JSON.parse(document.getElementById('gallery-data').textContent).cards.length", "requests:"]
            let values = try PageProbe.run(page, width: Self.width, height: Self.height, steps: steps)
            let found = values.compactMap { $0 as? [Any] }.filter { $0.count == 8 }
            try #require(found.count == 3)
            for ((query, id), (card, shot)) in zip(queries, zip(found, shots)) {
                let (left, top, width, height) = (card[1] as! Double, card[2] as! Double, card[3] as! Double, card[4] as! Double)
                #expect(card[0] as? String == id)
                #expect(top >= 0 && top + height <= card[7] as! Double, "\(query): \(card)")
                #expect(card[5] as? Bool == true && (card[6] as? String)?.hasPrefix("1 of ") == true, "\(query): \(card)")
                // The ring, 4 px wide and 4 px out from the card, in the accent colour, on every side.
                let image = try Bitmap(encoded: Data(contentsOf: shot))
                // A pixel in the middle of the band on each side, 6 px out.
                let (right, bottom) = (left + width, top + height)
                let (middleX, middleY) = (Int(left + width / 2), Int(top + height / 2))
                let ring: [(x: Int, y: Int)] = [(Int(left - 6), middleY), (Int(right + 6), middleY),
                                                (middleX, Int(top - 6)), (middleX, Int(bottom + 6))]
                for (x, y) in ring {
                    GalleryBrowserTests.expectClose(image.mean(x: x, y: y, width: 1, height: 1), [10, 108, 255], 24)
                }
            }
            // Only the chunks near the cards shown are loaded, not every one.
            let chunks = try #require(values.dropLast().last as? Int)
            let requested = Set(try #require(values.last as? [String]).filter { $0.contains("/gallery/") })
            #expect(requested.count < chunks, "\(requested.count) chunks loaded of \(chunks) and the titles'")
        }
    }
}
