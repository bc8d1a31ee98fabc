import CardBakeManifest
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `cardbake watch`, as a person editing a catalog uses it: save, see the card rebuilt; a broken
/// save keeps the last good output; Ctrl-C ends it with nothing half written.
@Suite("Watch")
struct WatchTests {
    static let cards = [CardSpec("coffee", image: "coffee.jpg", title: "Coffee"),
                        CardSpec("astronaut", image: "astronaut.jpg", title: "Astronaut")]

    /// The manifest's title of `id`, or nil when there is no manifest or no such card.
    static func title(of id: String, in sandbox: Sandbox) -> String? {
        (try? CardManifest(contentsOf: sandbox.url("OUT/manifest.json")))?.cards.first { $0.id == id }?.title
    }

    /// How many build summaries the watch has printed on stdout.
    static func summaries(_ watch: RunningCardbake) -> Int {
        watch.stdoutSoFar.split(separator: "\n").filter { $0.contains(" rendered, ") }.count
    }

    @Test("An edited title, an edited image, a broken catalog and Ctrl-C")
    func editLoop() throws {
        try Sandbox.with { sandbox in
            try sandbox.writeCatalog(Self.cards)
            let watch = try sandbox.start(["watch", "catalog.json", "--output", "OUT"])
            defer { watch.send(SIGKILL) }
            try #require(watch.waitForStderr(containing: "watching"), "no first build\n\(watch.stderrSoFar)")
            #expect(Self.title(of: "coffee", in: sandbox) == "Coffee")
            #expect(Self.summaries(watch) == 1)

            // A title saved the way editors do: a new file renamed over the catalog.
            var edited = Self.cards
            edited[0].title = "Espresso"
            try sandbox.writeCatalog(edited, to: "catalog.json.new")
            #expect(rename(sandbox.url("catalog.json.new").path, sandbox.url("catalog.json").path) == 0)
            #expect(watch.waitUntil { Self.title(of: "coffee", in: sandbox) == "Espresso" },
                    "the edited title never reached the manifest\n\(watch.stderrSoFar)")
            #expect(watch.waitUntil { Self.summaries(watch) == 2 })
            #expect(watch.stdoutSoFar.contains("1 rendered, 1 cached"), Comment(rawValue: watch.stdoutSoFar))

            // An image written in place.
            let before = try sandbox.data("OUT/cards/astronaut@1x.jpg")
            try sandbox.copyImage("chelsea.jpg", as: "astronaut.jpg")
            #expect(watch.waitUntil { (try? sandbox.data("OUT/cards/astronaut@1x.jpg")) != before },
                    "the new image never reached the card\n\(watch.stderrSoFar)")

            // A catalog saved mid-edit: its errors, and the last good output kept.
            #expect(watch.waitUntil { Self.summaries(watch) == 3 })
            let good = sandbox.listing("OUT")
            try sandbox.write("{\"version\": 1, \"cards\": [", to: "catalog.json")
            #expect(watch.waitForStderr(containing: "catalog.json"), Comment(rawValue: watch.stderrSoFar))
            #expect(watch.waitForStderr(containing: "last good build"))
            #expect(sandbox.listing("OUT") == good)

            // Fixed again: built again.
            try sandbox.writeCatalog(Self.cards)
            #expect(watch.waitUntil { Self.title(of: "coffee", in: sandbox) == "Coffee" })
            #expect(watch.waitUntil { Self.summaries(watch) == 4 })

            watch.send(SIGINT)
            let result = try watch.wait()
            #expect(result.exited && result.status == 130, result.comment)
            #expect(sandbox.temporaryFiles(".").isEmpty, "left behind: \(sandbox.temporaryFiles("."))")
        }
    }
}
