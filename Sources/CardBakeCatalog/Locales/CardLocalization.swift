import CardBakeManifest

/// A card in one of its catalog's translated locales: the texts and the style it is drawn with there.
public struct CardLocalization: Sendable, Equatable {
    public let locale: LocaleTag
    public let title: String
    public let description: String
    /// The fields (`title`, `description`) drawn in the source locale's text for want of a
    /// translation in this locale's language.
    public let untranslatedFields: [String]
    /// The card's style with the `styles` blocks for this locale applied; it differs from the card's
    /// in `title` and `description` only.
    public var style: CardStyle { sharedStyle.style }
    let sharedStyle: SharedCardStyle

    init(locale: LocaleTag, title: LocalizedText, description: LocalizedText, in locales: CatalogLocales,
         style: SharedCardStyle) {
        self.locale = locale
        let (title, titleTranslated) = title.text(for: locale, in: locales)
        let (description, descriptionTranslated) = description.text(for: locale, in: locales)
        self.title = title
        self.description = description
        untranslatedFields = [("title", titleTranslated), ("description", descriptionTranslated)]
            .filter { !$0.1 }.map(\.0)
        sharedStyle = style
    }

    public static func == (lhs: CardLocalization, rhs: CardLocalization) -> Bool {
        lhs.locale == rhs.locale && lhs.title == rhs.title && lhs.description == rhs.description
            && lhs.untranslatedFields == rhs.untranslatedFields
            && (lhs.sharedStyle === rhs.sharedStyle || lhs.style == rhs.style)
    }
}

/// The translations a catalog lacks in one locale, whose cards draw the source locale's text instead.
public struct MissingTranslations: Sendable, Equatable, CustomStringConvertible {
    public let locale: LocaleTag
    public let source: LocaleTag
    /// How many cards lack a title or a description in ``locale``'s language.
    public let cardCount: Int
    /// The first few of them, in catalog order.
    public let firstCardIDs: [String]

    /// How many card ids a report names.
    public static let namedCards = 5

    /// `locale "ar": 3 cards lack a translation and show the source locale "en"'s text: "toucan", "heron", "ibis".`
    public var description: String {
        let cards = cardCount == 1 ? "1 card lacks a translation and shows" : "\(cardCount) cards lack a translation and show"
        let named = firstCardIDs.map { MessageText.quoted($0) }.joined(separator: ", ")
        let more = cardCount > firstCardIDs.count ? ", …" : ""
        return "locale \(MessageText.quoted(locale.description)): \(cards) the source locale"
            + " \(MessageText.quoted(source.description))'s text: \(named)\(more)."
    }
}

extension Catalog {
    /// Per translated locale that lacks any, the cards drawn in the source locale's text; empty
    /// when every text is translated or the catalog has no `locales`.
    public var missingTranslations: [MissingTranslations] {
        guard let locales else { return [] }
        var untranslated: [LocaleTag: (count: Int, first: [String])] = [:]
        for card in cards {
            for localization in card.localizations where !localization.untranslatedFields.isEmpty {
                untranslated[localization.locale, default: (0, [])].count += 1
                if untranslated[localization.locale]!.first.count < MissingTranslations.namedCards {
                    untranslated[localization.locale]!.first.append(card.id)
                }
            }
        }
        return locales.translated.compactMap { locale in
            untranslated[locale].map {
                MissingTranslations(locale: locale, source: locales.source, cardCount: $0.count, firstCardIDs: $0.first)
            }
        }
    }
}
