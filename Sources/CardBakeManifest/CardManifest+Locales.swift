extension CardManifest.Card {
    /// The locales the card is in, its source locale first, then the others by tag; empty for a
    /// catalog without `locales`.
    public var locales: [LocaleTag] {
        guard let locale else { return [] }
        return Self.listingOrder(source: locale, translated: translationsByTag.compactMap { LocaleTag($0.tag) })
    }

    /// `source`, then `translated` by tag: the order in which a card's locales are listed everywhere
    /// (the manifest's ``locales``, the gallery's menu, the asset catalog's image sets).
    package static func listingOrder(source: LocaleTag, translated: some Sequence<LocaleTag>) -> [LocaleTag] {
        [source] + translated.sorted { $0.description < $1.description }
    }

    /// The card's translations, by tag in ``listingOrder(source:translated:)``'s order.
    package var translationsByTag: [(tag: String, localization: CardManifest.Localization)] {
        (localizations ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// The card's images in each locale: the source locale's (with no tag), then each translation's by tag.
    package var imagesByLocale: [(tag: String?, images: [String: CardManifest.Image])] {
        [(nil, images)] + translationsByTag.map { ($0.tag, $0.localization.images) }
    }

    /// The card as a device whose languages are `preferredLanguages` (most preferred first, as
    /// `Locale.preferredLanguages` gives them) shows it: the locale ``LocaleFallback`` picks among
    /// the card's (`pt-BR` takes `pt`, then another of its language, else the source locale), with
    /// that locale's title, description, size, placeholder and images in place of the source's, and
    /// no localizations. A card of a catalog without `locales` is returned as it is.
    public func localized(for preferredLanguages: [String]) -> CardManifest.Card {
        guard let source = locale else { return self }
        let chosen = LocaleFallback(available: locales, source: source).resolve(preferredLanguages: preferredLanguages)
        return localized(in: chosen)
    }

    /// The card in `locale`, one of ``locales``; the source locale's card when it is not one.
    public func localized(in locale: LocaleTag) -> CardManifest.Card {
        var card = self
        card.localizations = nil
        guard locale != self.locale, let localization = localizations?[locale.description] else { return card }
        card.locale = locale
        card.title = localization.title
        card.description = localization.description
        card.size = localization.size ?? size
        card.placeholder = localization.placeholder ?? placeholder
        card.images = localization.images
        return card
    }

    /// The card's images in its source locale, then in each other locale.
    package var imagesInEveryLocale: [[String: CardManifest.Image]] { imagesByLocale.map(\.images) }
}
