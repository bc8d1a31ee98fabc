import Foundation

extension CardManifest {
    /// What a build needs of the manifest in place: each card's ID, images and inputs, and the pages
    /// the manifest is made of. Read a page at a time, so that a large manifest is never decoded whole.
    package struct Outline: Sendable, Equatable {
        /// By ID; the first entry of an ID the manifest repeats.
        package let cards: [String: Card]
        /// The manifest's page files, relative to its folder.
        package let pages: Set<String>

        package struct Card: Sendable, Equatable {
            package let id: String
            /// By scale name, as in ``CardManifest/Card/images``.
            package let images: [String: Image]
            package let inputs: CardInputs
            /// The card in each translated locale, by locale tag; empty for a catalog without `locales`.
            package let translations: [String: Translation]

            package init(id: String, images: [String: Image], inputs: CardInputs, translations: [String: Translation] = [:]) {
                self.id = id
                self.images = images
                self.inputs = inputs
                self.translations = translations
            }

            /// Its images in every locale: the source locale's, then each translated locale's.
            package var imagesInEveryLocale: [[String: Image]] { [images] + translations.values.map(\.images) }
        }

        /// A card's images and inputs in one translated locale.
        package struct Translation: Sendable, Equatable {
            package let images: [String: Image]
            package let inputs: CardInputs
        }

        package init(cards: [Card], pages: Set<String>) {
            self.cards = Dictionary(cards.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            self.pages = pages
        }

        /// The cards' bitmaps, relative to the manifest's folder.
        package var files: Set<String> { CardManifest.files(in: cards.values.lazy.flatMap(\.imagesInEveryLocale)) }

        /// The outline of the manifest whose root is at `url`, its pages checked by `digest`; nil when
        /// there is none, or it is not a manifest of this schema, or a page is damaged.
        package static func read(from url: URL, digest: @escaping @Sendable (Data) -> ContentDigest) -> Outline? {
            try? Outline(reading: ManifestReader(contentsOf: url, digest: digest))
        }

        package init(reading reader: ManifestReader) throws(ReadError) {
            var cards: [Card] = []
            cards.reserveCapacity(reader.count)
            for section in 0..<reader.sectionCount {
                cards += try reader.entries(ofSection: section).map(\.outline)
            }
            self.init(cards: cards, pages: try reader.pageFiles())
        }
    }
}

extension CardManifest.Entry {
    /// The entry's ID, images and inputs, in every locale.
    package var outline: CardManifest.Outline.Card {
        var translations: [String: CardManifest.Outline.Translation] = [:]
        for (locale, localization) in card.localizations ?? [:] {
            guard let build = localeBuilds?[locale] else { continue }
            translations[locale] = CardManifest.Outline.Translation(images: localization.images, inputs: build.inputs)
        }
        return CardManifest.Outline.Card(id: card.id, images: card.images, inputs: inputs, translations: translations)
    }
}
