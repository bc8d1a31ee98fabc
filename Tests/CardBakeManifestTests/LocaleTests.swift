import CardBakeManifest
import Foundation
import Testing

@Suite("Locale tags and fallback")
struct LocaleTests {
    static func tag(_ text: String) -> LocaleTag { LocaleTag(text)! }

    @Test("Tags are held in canonical case, with _ read as -", arguments: [
        ("en", "en"), ("PT-br", "pt-BR"), ("pt_BR", "pt-BR"), ("zh-hant", "zh-Hant"), ("ZH-HANT-tw", "zh-Hant-TW"),
        ("es-419", "es-419"), ("sr-latn-rs", "sr-Latn-RS"), ("de-CH-1996", "de-CH-1996"), ("fil", "fil"),
    ])
    func canonicalCase(text: String, canonical: String) throws {
        let tag = try #require(LocaleTag(text))
        #expect(tag.description == canonical)
        #expect(LocaleTag(canonical) == tag)
    }

    @Test("What is not a language tag is refused with a reason", arguments: [
        "", "e", "english1", "en-", "-en", "en--US", "en-US-x-private", "en-u-ca-buddhist", "12", "en US", "pt-BRA",
    ])
    func refused(text: String) {
        #expect(LocaleTag(text) == nil)
        #expect(LocaleTag.problem(with: text)?.contains("allowed: a BCP 47 language tag") == true)
    }

    @Test("A tag's parent drops its last subtag")
    func parents() {
        #expect(Self.tag("zh-Hant-TW").parent == Self.tag("zh-Hant"))
        #expect(Self.tag("zh-Hant").parent == Self.tag("zh"))
        #expect(Self.tag("pt-BR").parent == Self.tag("pt"))
        #expect(Self.tag("pt").parent == nil)
    }

    @Test("Right-to-left follows the script, else the language")
    func direction() {
        for rtl in ["ar", "he", "fa", "ur", "ar-EG", "az-Arab", "iw", "yi"] { #expect(Self.tag(rtl).isRightToLeft, "\(rtl)") }
        for ltr in ["en", "ja", "az", "zh-Hant", "pa", "ku-Latn"] { #expect(!Self.tag(ltr).isRightToLeft, "\(ltr)") }
    }

    @Test("A tag round-trips through JSON as its canonical text; a bad one fails to decode")
    func codable() throws {
        let data = try JSONEncoder().encode([Self.tag("pt_br")])
        #expect(String(decoding: data, as: UTF8.self) == #"["pt-BR"]"#)
        #expect(try JSONDecoder().decode([LocaleTag].self, from: data) == [Self.tag("pt-BR")])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([LocaleTag].self, from: Data(#"["x-y"]"#.utf8)) }
    }

    static let fallback = LocaleFallback(available: ["en", "pt", "pt-PT", "zh-Hans", "zh-Hant", "ar"].map(tag),
                                         source: tag("en"))

    @Test("Fallback: the tag, its parents, Chinese by region, then its language; else nothing", arguments: [
        ("pt-BR", "pt"), ("pt-PT", "pt-PT"), ("ar-EG", "ar"), ("zh-TW", "zh-Hant"), ("zh-HK", "zh-Hant"),
        ("zh-CN", "zh-Hans"), ("zh-Hant-TW", "zh-Hant"), ("zh", "zh-Hans"), ("en-GB", "en"),
    ])
    func match(wanted: String, served: String) {
        #expect(Self.fallback.match(Self.tag(wanted)) == Self.tag(served))
    }

    @Test("A language with no localization of its own gets the source locale")
    func source() {
        #expect(Self.fallback.match(Self.tag("de")) == nil)
        #expect(Self.fallback.resolve(Self.tag("de")) == Self.tag("en"))
        let brazilianOnly = LocaleFallback(available: ["en", "pt-BR"].map(Self.tag), source: Self.tag("en"))
        #expect(brazilianOnly.resolve(Self.tag("pt-PT")) == Self.tag("pt-BR"))
        #expect(brazilianOnly.resolve(Self.tag("pt")) == Self.tag("pt-BR"))
    }

    @Test("A device's preferred languages are tried in order; tags it cannot read are passed over")
    func preferredLanguages() {
        #expect(Self.fallback.resolve(preferredLanguages: ["de-DE", "pt-BR", "en"]) == Self.tag("pt"))
        #expect(Self.fallback.resolve(preferredLanguages: ["not a tag", "zh-Hant-HK"]) == Self.tag("zh-Hant"))
        #expect(Self.fallback.resolve(preferredLanguages: ["de", "fr"]) == Self.tag("en"))
        #expect(Self.fallback.resolve(preferredLanguages: []) == Self.tag("en"))
    }
}

@Suite("Manifest locales")
struct ManifestLocaleTests {
    static func image(_ file: String) -> CardManifest.Image {
        CardManifest.Image(file: file, width: 320, height: 513, bytes: 1000, sha256: CardManifestTests.digest(2))
    }

    /// `toucan` in en (source), ar (its own size and placeholder) and pt.
    static var entry: CardManifest.Entry {
        var entry = CardManifestTests.entry(id: "toucan", index: 0)
        entry.card.locale = LocaleTag("en")
        entry.card.localizations = [
            "ar": CardManifest.Localization(title: "طوقان", description: "طائر.",
                                            size: CardManifest.Size(width: 320, height: 530),
                                            placeholder: CardManifest.Placeholder(color: "#000000", thumbhash: "AAAA",
                                                                                  dataURL: "data:,"),
                                            images: ["1x": image("cards/ar/toucan@1x.png")]),
            "pt": CardManifest.Localization(title: "Tucano", description: "Um pássaro.",
                                            images: ["1x": image("cards/pt/toucan@1x.png")]),
        ]
        return entry
    }

    @Test("A card without locales encodes no locale fields, so a one-locale manifest is as before")
    func noLocaleFields() throws {
        let card = CardManifestTests.entry(id: "toucan", index: 0).card
        let json = String(decoding: try ManifestPaging.encoded(card), as: UTF8.self)
        #expect(!json.contains("locale"))
        #expect(card.locales.isEmpty)
        #expect(card.localized(for: ["ar"]) == card)
    }

    @Test("Locales and localizations round-trip through the paged manifest; every locale's files are named")
    func roundTrip() throws {
        let manifest = CardManifest(generator: "cardbake test", cards: [Self.entry, CardManifestTests.entry(id: "heron", index: 1)])
        let written = try WrittenManifest(manifest)
        #expect(try CardManifest(reading: written.reader()) == manifest)
        let card = try written.reader().card(at: 0)
        #expect(card.locales == ["en", "ar", "pt"].map { LocaleTag($0)! })
        // Through the public fields an app reads: this suite also runs where the package's own API is hidden.
        let files = card.images.values.map(\.file) + (card.localizations ?? [:]).values.flatMap { $0.images.values.map(\.file) }
        #expect(Set(files).isSuperset(of: ["cards/ar/toucan@1x.png", "cards/pt/toucan@1x.png", "cards/toucan@1x.png"]))
    }

    @Test("A device's preferred languages pick the card's locale; size and placeholder fall back to the source's")
    func localizedForDevice() {
        let card = Self.entry.card
        let arabic = card.localized(for: ["ar-EG", "en"])
        #expect(arabic.locale == LocaleTag("ar") && arabic.title == "طوقان" && arabic.size.height == 530)
        #expect(arabic.images["1x"]?.file == "cards/ar/toucan@1x.png" && arabic.localizations == nil)
        let brazilian = card.localized(for: ["pt-BR"])
        #expect(brazilian.title == "Tucano" && brazilian.size == card.size && brazilian.placeholder == card.placeholder)
        let german = card.localized(for: ["de-DE", "fr"])
        #expect(german.locale == LocaleTag("en") && german.title == card.title && german.images == card.images)
        #expect(german.localizations == nil)
    }
}
