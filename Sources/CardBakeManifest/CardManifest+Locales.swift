extension CardManifest.Card {
    /// The locales the card is in, its source locale first, then the others by tag; empty for a
    /// catalog without `locales`.
    public var locales: [LocaleTag] {
        guard let locale else { return [] }
        return [locale] + (localizations ?? [:]).keys.sorted().compactMap(LocaleTag.init)
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
    package var imagesInEveryLocale: [[String: CardManifest.Image]] {
        [images] + (localizations ?? [:]).values.map(\.images)
    }
}
