import CardBakeCatalog
import Foundation
import Testing

/// `remoteImages.allow` patterns, `maxAge`, and which `image` values are URLs.
@Suite("Remote image rules")
struct RemoteImageRuleTests {
    static func url(_ text: String) throws -> RemoteImageURL { try RemoteImageURL(text) }

    @Test("Exact hosts, *. domains, pinned ports and path prefixes match as documented")
    func patterns() throws {
        let cases: [(pattern: String, url: String, matches: Bool)] = [
            ("cdn.example.com", "https://cdn.example.com/a.jpg", true),
            ("cdn.example.com", "https://CDN.Example.com:8443/a.jpg", true),
            ("cdn.example.com", "https://img.cdn.example.com/a.jpg", false),
            ("cdn.example.com", "https://cdn.example.com.evil.net/a.jpg", false),
            ("*.example.org", "https://img.example.org/a.jpg", true),
            ("*.example.org", "https://a.b.example.org/a.jpg", true),
            ("*.example.org", "https://example.org/a.jpg", false),
            ("*.example.org", "https://badexample.org/a.jpg", false),
            ("cdn.example.com:8080", "http://cdn.example.com:8080/a.jpg", true),
            ("cdn.example.com:8080", "http://cdn.example.com/a.jpg", false),
            ("cdn.example.com/photos/", "https://cdn.example.com/photos/a.jpg", true),
            ("cdn.example.com/photos/", "https://cdn.example.com/private/a.jpg", false),
            ("cdn.example.com/photos/", "https://cdn.example.com/photos-old/a.jpg", false),
        ]
        for (text, url, matches) in cases {
            let pattern = try #require(URLPattern(text), "\(text)")
            #expect(pattern.matches(try Self.url(url)) == matches, "\(text) against \(url)")
        }
    }

    @Test("A pattern with a scheme, credentials, a query, a misplaced * or a bad port is refused")
    func badPatterns() {
        for text in ["https://cdn.example.com", "user@cdn.example.com", "cdn.example.com?x=1", "*", "*.", "a.*.com",
                     "cdn.example.com:0", "cdn.example.com:99999", "cdn.example.com:http", "", "cdn example.com"] {
            #expect(URLPattern(text) == nil, "\(text)")
        }
    }

    @Test("Only http and https without credentials are photo URLs; a relative path is no URL")
    func urls() {
        #expect(throws: RemoteImageURL.Refusal.scheme("file")) { try RemoteImageURL("file:///etc/passwd") }
        #expect(throws: RemoteImageURL.Refusal.scheme("data")) { try RemoteImageURL("data:image/png;base64,AAAA") }
        #expect(throws: RemoteImageURL.Refusal.credentials) { try RemoteImageURL("https://u:p@cdn.example.com/a.jpg") }
        #expect(throws: RemoteImageURL.Refusal.credentials) { try RemoteImageURL("https://token@cdn.example.com/a.jpg") }
        #expect(RemoteImageURL.looksLikeURL("https://cdn.example.com/a.jpg"))
        #expect(RemoteImageURL.looksLikeURL("data:image/png;base64,AAAA"))
        #expect(!RemoteImageURL.looksLikeURL("images/a.jpg"))
        #expect(!RemoteImageURL.looksLikeURL("/photos/a:b.jpg"))
        #expect(!RemoteImageURL.looksLikeURL("c:photo.jpg"))
    }

    @Test("Messages leave out the query, user and password")
    func redaction() {
        #expect(RemoteImageURL.redacted("https://u:p@cdn.example.com/a.jpg?token=abc#x") == "https://cdn.example.com/a.jpg?…")
        #expect(RemoteImageURL.redacted("https://cdn.example.com/a.jpg") == "https://cdn.example.com/a.jpg")
    }

    @Test("maxAge takes a count and a unit, or 0")
    func maxAge() {
        #expect(RemoteImagePolicy.maxAge(from: "1d") == .seconds(86_400))
        #expect(RemoteImagePolicy.maxAge(from: "12h") == .seconds(43_200))
        #expect(RemoteImagePolicy.maxAge(from: "30m") == .seconds(1_800))
        #expect(RemoteImagePolicy.maxAge(from: "45s") == .seconds(45))
        #expect(RemoteImagePolicy.maxAge(from: "0") == .zero)
        for bad in ["", "d", "1", "1w", "-1d", "1.5h", "99999d"] {
            #expect(RemoteImagePolicy.maxAge(from: bad) == nil, "\(bad)")
        }
    }

    /// A catalog of one card whose image is `image`, with `remoteImages` (JSON text) when given.
    static func catalog(image: String, remoteImages: String?) -> String {
        let card = #"{"id": "toucan", "image": "\#(image)", "title": "Toucan", "description": "A bird."}"#
        return #"{"version": 1, "# + (remoteImages.map { #""remoteImages": \#($0), "# } ?? "") + #""cards": [\#(card)]}"#
    }

    @Test("A catalog's URL validates against remoteImages, and its problems name the JSON path")
    func catalogValidation() throws {
        let catalog = try CatalogFixture.decode(Self.catalog(image: "https://cdn.example.com/a.jpg",
                                                             remoteImages: #"{"allow": ["cdn.example.com"], "maxAge": "2h"}"#))
        #expect(catalog.cards.first?.imageURL == "https://cdn.example.com/a.jpg")
        #expect(catalog.remoteImages?.maxAge == .seconds(7_200))

        let cases: [(image: String, remoteImages: String?, path: String, phrase: String)] = [
            ("https://cdn.example.com/a.jpg", nil, "cards[0].image", "no remoteImages.allow list"),
            ("https://other.example.com/a.jpg", #"{"allow": ["cdn.example.com"]}"#, "cards[0].image", "matches no pattern"),
            ("ftp://cdn.example.com/a.jpg", #"{"allow": ["cdn.example.com"]}"#, "cards[0].image", "the scheme ftp:"),
            ("https://u:p@cdn.example.com/a.jpg", #"{"allow": ["cdn.example.com"]}"#, "cards[0].image", "user or password"),
            ("https://cdn.example.com/a.jpg", #"{"allow": ["https://cdn.example.com"]}"#, "remoteImages.allow[0]", "is not a host pattern"),
            ("https://cdn.example.com/a.jpg", #"{"allow": []}"#, "remoteImages.allow", "the list is empty"),
            ("https://cdn.example.com/a.jpg", #"{"allow": ["cdn.example.com"], "maxAge": "1w"}"#, "remoteImages.maxAge", "a duration"),
            ("https://cdn.example.com/a.jpg", #"{"maxAge": "1d"}"#, "remoteImages", "allow"),
        ]
        for (image, remoteImages, path, phrase) in cases {
            let problem = CatalogFixture.problem(Self.catalog(image: image, remoteImages: remoteImages))
            #expect(problem?.path == path, "\(image) \(remoteImages ?? "-"): \(String(describing: problem))")
            #expect(problem?.message.contains(phrase) == true, "\(String(describing: problem))")
            #expect(problem?.message.contains("u:p@") != true)
        }
    }
}
