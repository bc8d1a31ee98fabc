import Foundation
@testable import CardBake
@testable import CardBakeManifest
import Testing
import Vips

/// The preview gallery as a designer opens it: `file://…/index.html` in headless Chromium, checked by
/// the pixels of a screenshot.
@Suite("Gallery in Chromium", .vips, .serialized)
struct GalleryBrowserTests {
    /// A ThumbHash made by the reference JavaScript encoder (evanw/thumbhash) from a 60 × 40 image,
    /// orange on the left and teal on the right, darker at the top; and what the reference decoder
    /// makes of it: 32 × 23 pixels, this mean colour, these corner pixels.
    static let referenceHash = "1/gFdZx7dnhwiHh4iHiHh49394iH"
    static let referenceMean = [102.36, 104.06, 76.75]
    static let referenceTopLeft = [210, 54, 0]
    static let referenceBottomRight = [0, 132, 173]

    static func fixture() throws -> BuildFixture {
        try BuildFixture(images: [
            "alpha": try TestImage.blocks(width: 120, height: 80),
            "beta": try TestImage.solid(width: 60, height: 90, [40, 90, 200]),
            "gamma": try TestImage.solid(width: 90, height: 60, [220, 170, 30]),
        ])
    }

    /// Each card's id and frame in CSS pixels, and the file its bitmap came from.
    static let cardFrames = "eval:[...document.querySelectorAll('.card')].map(c => { const r = c.getBoundingClientRect(); "
        + "const i = c.querySelector('img.bitmap'); return [c.id, r.x, r.y, r.width, r.height, i ? i.currentSrc : ''] })"

    @Test("Every card shows at its size in points with its 1x bitmap faded in, on a neutral page that loads nothing from the network")
    func cardsShow() async throws {
        let fixture = try Self.fixture()
        try await fixture.build()
        let manifest = try #require(fixture.manifest)
        let page = fixture.output.appendingPathComponent("index.html")
        let screenshot = fixture.folder.file("shot.png")
        let values = try PageProbe.run(page, steps: [
            "wait:document.querySelectorAll('.card.shown').length === 3",
            "wait:[...document.querySelectorAll('img.bitmap')].every(i => getComputedStyle(i).opacity === '1')",
            Self.cardFrames,
            "requests:",
            "screenshot:\(screenshot.path)",
        ])
        let frames = try #require(values.first as? [[Any]])
        let resources = try #require(values.last as? [String])
        // The page, its version script, and the card files beside it: nothing from the network.
        #expect(resources.contains(page.absoluteString), "\(resources)")
        #expect(resources.contains { $0.hasSuffix("/cards/alpha@1x.jpg") }, "\(resources)")
        #expect(resources.filter { $0.contains("/gallery/") && $0.hasSuffix(".js") }.count == 2, "\(resources)")
        #expect(resources.allSatisfy { $0.hasPrefix("file://") || $0.hasPrefix("data:") }, "\(resources)")

        let shot = try Bitmap(encoded: Data(contentsOf: screenshot))
        #expect(frames.map { $0[0] as? String } == manifest.cards.map(\.id))
        for (frame, entry) in zip(frames, manifest.cards) {
            let (x, y) = (Int(frame[1] as! Double), Int(frame[2] as! Double))
            #expect(frame[3] as? Double == entry.size.width && frame[4] as? Double == entry.size.height, "\(frame)")
            #expect((frame[5] as? String)?.hasSuffix("cards/\(entry.id)@1x.jpg") == true, "\(frame)")
            // The screenshot shows the 1x bitmap itself where the card is.
            let bitmap = try Bitmap(encoded: Data(contentsOf: fixture.outputFile("\(entry.id)@1x.jpg")))
            let visibleHeight = min(bitmap.height, shot.height - y)
            try #require(visibleHeight > 100, "card \(entry.id) at y \(y) is off screen")
            let difference = Self.meanDifference(shot, at: (x, y), bitmap, rows: visibleHeight)
            #expect(difference < 3, "card \(entry.id): mean difference \(difference) from its 1x bitmap")
        }
        // A neutral page around the cards.
        let corner = shot.pixel(4, shot.height - 4)
        #expect(corner[0] == corner[2] || abs(corner[0] - corner[2]) <= 2, "page colour \(corner)")
    }

    @Test("The locale menu shows every card in another locale: its bitmaps, its title, the page's lang and dir, rows from the right for Arabic")
    func localeSwitch() async throws {
        let fixture = try Self.fixture()
        fixture.members["locales"] = ["en", "ar"]
        fixture.cardMembers["alpha"] = ["title": ["en": "Morning coffee", "ar": "قهوة الصباح"]]
        try await fixture.build()
        let page = fixture.output.appendingPathComponent("index.html")
        let screenshot = fixture.folder.file("arabic.png")
        let state = "eval:[document.documentElement.lang, document.documentElement.dir, location.search, "
            + "document.querySelector('#alpha figcaption span').textContent]"
        let values = try PageProbe.run(page, steps: [
            "wait:document.querySelectorAll('.card.shown').length === 3",
            state,
            Self.cardFrames,
            "eval:(s => { s.value = 'ar'; s.dispatchEvent(new Event('change')); return s.options.length })(document.querySelector('select[name=locale]'))",
            "wait:[...document.querySelectorAll('.card.shown img.bitmap')].filter(i => i.currentSrc.includes('/cards/ar/')).length === 3",
            "wait:[...document.querySelectorAll('img.bitmap')].every(i => getComputedStyle(i).opacity === '1')",
            state,
            Self.cardFrames,
            "screenshot:\(screenshot.path)",
        ])
        let english = try #require(values[0] as? [String]), englishFrames = try #require(values[1] as? [[Any]])
        #expect(english == ["en", "ltr", "", "Morning coffee"])
        #expect(values[2] as? Int == 2, "a menu of the two locales")
        let arabic = try #require(values[3] as? [String]), arabicFrames = try #require(values[4] as? [[Any]])
        #expect(arabic == ["ar", "rtl", "?locale=ar", "قهوة الصباح"])
        // Right to left, the first card of a row is at its right end.
        let x = { (frames: [[Any]], id: String) in frames.first { $0[0] as? String == id }?[1] as? Double }
        #expect(try #require(x(englishFrames, "alpha")) < (try #require(x(englishFrames, "beta"))))
        #expect(try #require(x(arabicFrames, "alpha")) > (try #require(x(arabicFrames, "beta"))))
        // The screenshot shows the Arabic bitmap where the card is.
        let shot = try Bitmap(encoded: Data(contentsOf: screenshot))
        let frame = try #require(arabicFrames.first { $0[0] as? String == "alpha" })
        #expect((frame[5] as? String)?.hasSuffix("cards/ar/alpha@1x.jpg") == true, "\(frame)")
        let bitmap = try Bitmap(encoded: Data(contentsOf: fixture.output.appendingPathComponent("cards/ar/alpha@1x.jpg")))
        let (left, top) = (Int(frame[1] as! Double), Int(frame[2] as! Double))
        let rows = min(bitmap.height, shot.height - top)
        #expect(Self.meanDifference(shot, at: (left, top), bitmap, rows: rows) < 3)
        let source = try Bitmap(encoded: Data(contentsOf: fixture.outputFile("alpha@1x.jpg")))
        #expect(Self.meanDifference(shot, at: (left, top), source, rows: rows) > Self.meanDifference(shot, at: (left, top), bitmap, rows: rows))
    }

    @Test("Before a bitmap decodes, a card shows its ThumbHash, or its placeholder colour when it has none")
    func placeholders() async throws {
        try await withTemporaryDirectory { folder in
            let cards = [
                GalleryCard(id: "hashed", title: "Hashed", width: 300, height: 200, color: "#66684D",
                            thumbhash: Self.referenceHash, dataURL: nil, images: [(1, "cards/missing@1x.png")]),
                GalleryCard(id: "plain", title: "Plain", width: 200, height: 200, color: "#3366CC",
                            thumbhash: nil, dataURL: nil, images: [(1, "cards/missing@1x.png")]),
            ]
            let gallery = GalleryFolder(folder)
            try await gallery.write(cards)
            let screenshot = folder.appendingPathComponent("shot.png")
            let values = try PageProbe.run(gallery.page, steps: [
                "wait:document.querySelectorAll('.card.failed').length === 2",
                Self.cardFrames,
                "screenshot:\(screenshot.path)",
            ])
            let frames = try #require(values.first as? [[Any]])
            let shot = try Bitmap(encoded: Data(contentsOf: screenshot))
            let hashed = (x: Int(frames[0][1] as! Double), y: Int(frames[0][2] as! Double))
            // The ThumbHash's corners: orange top left, teal bottom right, as the reference decodes them.
            Self.expectClose(shot.mean(x: hashed.x + 2, y: hashed.y + 2, width: 4, height: 4), Self.referenceTopLeft, 12)
            Self.expectClose(shot.mean(x: hashed.x + 294, y: hashed.y + 194, width: 4, height: 4), Self.referenceBottomRight, 12)
            let plain = (x: Int(frames[1][1] as! Double), y: Int(frames[1][2] as! Double))
            Self.expectClose(shot.mean(x: plain.x + 20, y: plain.y + 20, width: 160, height: 160), [0x33, 0x66, 0xCC], 2)
        }
    }

    /// Whether every card in the viewport shows its bitmap, faded in, and there is one at least (cards
    /// come into the DOM as the scroll event that brings them near is handled, a frame after the scroll).
    static let inViewShown = "wait:(cards => cards.length > 0 && cards.every(c => c.classList.contains('shown') "
        + "&& getComputedStyle(c.querySelector('img.bitmap')).opacity === '1'))(\(cardsInView))"

    /// The cards in the viewport, as a script expression.
    static let cardsInView = "[...document.querySelectorAll('.card')].filter(c => { const r = c.getBoundingClientRect(); "
        + "return r.bottom > 0 && r.top < innerHeight })"

    /// Whether every card more than six screens above or below the viewport (600 %) has left the DOM:
    /// the release follows the scroll or the change of layout by a frame.
    static let farReleased = "wait:[...document.querySelectorAll('.card')].every(c => { const r = c.getBoundingClientRect(); "
        + "return r.bottom >= -6 * innerHeight && r.top <= 7 * innerHeight })"

    /// Each card's ``CardState``.
    static let cardStates = "eval:[...document.querySelectorAll('.card')].map(c => { const r = c.getBoundingClientRect(); "
        + "const i = c.querySelector('img.bitmap'); return [r.left, r.top, r.bottom, i ? i.naturalWidth : -1, "
        + "c.classList.contains('shown'), c.id] })"

    /// A card as the page holds it: where it is in the viewport, in CSS pixels, its bitmap and its id.
    struct CardState: CustomStringConvertible {
        let left, top, bottom: Double
        /// -1 with no `<img>`, 0 for one not loaded.
        let naturalWidth: Int
        let shown: Bool
        let id: String

        init(_ values: [Any]) {
            (left, top, bottom) = (values[0] as! Double, values[1] as! Double, values[2] as! Double)
            (naturalWidth, shown, id) = (values[3] as! Int, values[4] as! Bool, values[5] as! String)
        }

        /// The 300-px bitmap loaded and faded in.
        var holdsBitmap: Bool { naturalWidth == 300 && shown }
        var description: String { "\(id): top \(top), bottom \(bottom), naturalWidth \(naturalWidth), shown \(shown)" }
    }

    /// The colour of every card's bitmap in ``writeLongPage(in:)``.
    static let longPageColour: [UInt8] = [40, 90, 200]

    /// A gallery of 60 cards of 300 × 200 with one blue bitmap, its page in `folder`: in a viewport of 400 × 600,
    /// one card a row, 240 px apart, 24 screens.
    static func writeLongPage(in folder: URL) async throws -> URL {
        try TestImage.write(TestImage.solid(width: 300, height: 200, longPageColour),
                            to: folder.appendingPathComponent("cards/blue@1x.png"))
        let cards = (0..<60).map {
            GalleryCard(id: "card-\($0)", title: "Card \($0)", width: 300, height: 200, color: "#C86414",
                        thumbhash: nil, dataURL: nil, images: [(1, "cards/blue@1x.png")])
        }
        let gallery = GalleryFolder(folder)
        try await gallery.write(cards)
        return gallery.page
    }

    @Test("A bitmap decoded while its card is on screen fades in; one decoded ahead, off screen, shows without a fade")
    func fadeOnlyOnScreen() async throws {
        try await withTemporaryDirectory { folder in
            let page = try await Self.writeLongPage(in: folder)
            // Every card within the two screens below the first is decoded ahead of the reader.
            let ahead = "[...document.querySelectorAll('.card')].filter(c => c.getBoundingClientRect().top < 3 * innerHeight)"
            let values = try PageProbe.run(page, width: 400, height: 600, steps: [
                "wait:\(ahead).every(c => c.classList.contains('shown'))",
                "eval:\(ahead).map(c => [c.getBoundingClientRect().top < innerHeight, "
                    + "c.querySelector('img.bitmap').classList.contains('arriving')])",
            ])
            let cards = try #require(values.first as? [[Bool]])
            let onScreen = cards.filter { $0[0] }, offScreen = cards.filter { !$0[0] }
            try #require(onScreen.count >= 2 && offScreen.count >= 4, "\(cards)")
            #expect(onScreen.allSatisfy { $0[1] }, "a card on screen without its fade: \(cards)")
            #expect(offScreen.allSatisfy { !$0[1] }, "a card decoded off screen with a fade: \(cards)")
        }
    }

    @Test("A card six screens from the viewport leaves the DOM with its bitmap, and comes back with it loaded again")
    func farCardsReleased() async throws {
        try await withTemporaryDirectory { folder in
            let page = try await Self.writeLongPage(in: folder)
            let screenshot = folder.appendingPathComponent("shot.png")
            // Down a screen at a time, each card shown on the way; at the bottom, back to the top at once.
            let down = (0..<30).flatMap { _ in ["eval:scrollBy(0, innerHeight)", Self.inViewShown] }
            let values = try PageProbe.run(page, width: 400, height: 600, steps: [Self.inViewShown] + down + [
                Self.farReleased, Self.cardStates,
                "eval:scrollTo(0, 0)", Self.inViewShown, Self.farReleased, Self.cardStates, "screenshot:\(screenshot.path)",
            ])
            let states = values.compactMap { $0 as? [[Any]] }.map { $0.map(CardState.init) }
            try #require(states.count == 2)
            let (bottom, top) = (states[0], states[1])

            // At the bottom: the DOM holds the cards of the last thirteen screens at most (the six
            // above, the six below and the viewport; 240 px a card), the first ones gone; every card
            // held, all loaded on the way down, still shows its bitmap (the four screens between two
            // and six, some ten cards, are the hysteresis).
            #expect(bottom.last!.bottom <= 600 && bottom.last!.id == "card-59", "not at the bottom: \(bottom.last!)")
            #expect(bottom.count <= 13 * 600 / 240 + 2 && !bottom.contains { $0.id == "card-0" }, "\(bottom)")
            for card in bottom {
                #expect(card.holdsBitmap, "at the bottom: \(card)")
            }
            #expect(bottom.filter { $0.bottom < -2 * 600 }.count >= 9)
            // Back at the top: the first cards placed, loaded and decoded again, those far below gone.
            #expect(top.first?.id == "card-0" && top[0].holdsBitmap, "\(top)")
            #expect(top.count <= 8 * 600 / 240 + 2 && top.allSatisfy { $0.top <= 7 * 600 }, "\(top)")
            // The screenshot shows the first card's bitmap, not its placeholder colour.
            let shot = try Bitmap(encoded: Data(contentsOf: screenshot))
            let first = (x: Int(top[0].left), y: Int(top[0].top))
            Self.expectClose(shot.mean(x: first.x + 20, y: first.y + 20, width: 260, height: 160),
                             Self.longPageColour.map(Int.init), 2)
        }
    }

    @Test("A change of layout that moves the cards, with no scroll, releases those it takes far and loads those it brings near")
    func layoutChangeMovesTheRange() async throws {
        try await withTemporaryDirectory { folder in
            let page = try await Self.writeLongPage(in: folder)
            // Ten screens of header push every card, the first ones loaded, far below the viewport.
            let values = try PageProbe.run(page, width: 400, height: 600, steps: [
                "wait:document.querySelectorAll('.card.shown').length >= 2",
                Self.inViewShown, "eval:document.querySelector('header').style.height = 10 * innerHeight + 'px'",
                Self.farReleased, Self.cardStates,
                "eval:scrollTo(0, 10 * innerHeight)", Self.inViewShown, "eval:\(Self.cardsInView).map(c => c.classList.contains('shown'))",
            ])
            let pushed = try #require(values.compactMap { $0 as? [[Any]] }.first).map(CardState.init)
            #expect(pushed.isEmpty, "\(pushed)")
            let shown = try #require(values.last as? [Bool])
            #expect(shown.count >= 2 && shown.allSatisfy { $0 }, "\(shown)")
        }
    }

    @Test("The page's ThumbHash decoder gives what the reference decoder gives")
    func thumbHashDecoder() async throws {
        try await withTemporaryDirectory { folder in
            let gallery = GalleryFolder(folder)
            try await gallery.write([])
            let values = try PageProbe.run(gallery.page, steps: [
                "eval:(() => { const d = cardbakeGallery.decodeThumbHash(Uint8Array.from(atob('\(Self.referenceHash)'), "
                    + "c => c.charCodeAt(0))); const m = [0, 0, 0]; for (let i = 0; i < d.width * d.height; i++) "
                    + "for (let c = 0; c < 3; c++) m[c] += d.rgba[i * 4 + c] / (d.width * d.height); "
                    + "return [d.width, d.height, m, [...d.rgba.slice(0, 3)], [...d.rgba.slice(-4, -1)], d.rgba[3]] })()",
            ])
            let decoded = try #require(values.first as? [Any])
            #expect(decoded[0] as? Int == 32 && decoded[1] as? Int == 23, "\(decoded)")
            // Rounding where the reference truncates adds up to half a level.
            Self.expectClose(try #require(decoded[2] as? [Double]), Self.referenceMean.map { $0 + 0.5 }, 0.6)
            Self.expectClose(try #require(decoded[3] as? [Double]), Self.referenceTopLeft.map(Double.init), 1)
            Self.expectClose(try #require(decoded[4] as? [Double]), Self.referenceBottomRight.map(Double.init), 1)
            #expect(decoded[5] as? Int == 255)
        }
    }

    @Test("The page reloads itself when index-version.js names another version")
    func liveReload() async throws {
        let fixture = try Self.fixture()
        try await fixture.build()
        let page = fixture.output.appendingPathComponent("index.html")
        let versionFile = fixture.output.appendingPathComponent(Gallery.versionName)
        _ = try PageProbe.run(page, steps: [
            "eval:window.loadedBefore = true",
            "wait:window.cardbakeGalleryVersion === document.documentElement.dataset.version",
            "write:\(versionFile.path)=window.cardbakeGalleryVersion = \"another\";",
            "wait:window.loadedBefore === undefined",
        ])
    }

    /// Mean absolute difference of the colour bands between `bitmap` and the screenshot's region at `origin`.
    static func meanDifference(_ shot: Bitmap, at origin: (Int, Int), _ bitmap: Bitmap, rows: Int) -> Double {
        var total = 0
        for y in 0..<rows {
            for x in 0..<bitmap.width {
                let a = shot.pixel(origin.0 + x, origin.1 + y), b = bitmap.pixel(x, y)
                total += (0..<3).reduce(0) { $0 + abs(a[$1] - b[$1]) }
            }
        }
        return Double(total) / Double(rows * bitmap.width * 3)
    }

    static func expectClose(_ actual: [Double], _ expected: [Int], _ tolerance: Double,
                            sourceLocation: SourceLocation = #_sourceLocation) {
        expectClose(actual, expected.map(Double.init), tolerance, sourceLocation: sourceLocation)
    }

    static func expectClose(_ actual: [Double], _ expected: [Double], _ tolerance: Double,
                            sourceLocation: SourceLocation = #_sourceLocation) {
        let close = zip(actual.prefix(3), expected).allSatisfy { abs($0 - $1) <= tolerance }
        #expect(close, "\(actual) is not within \(tolerance) of \(expected)", sourceLocation: sourceLocation)
    }
}
