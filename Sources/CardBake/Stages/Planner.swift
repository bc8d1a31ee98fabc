import CardBakeCache
import CardBakeCatalog
import CardBakeFetch
import CardBakeManifest
import CardBakeRender
import Foundation

/// Works out each card's inputs and keys without decoding images.
struct Planner: Sendable {
    let statCache: StatCache
    let fonts: FontResolver
    /// Whether text with characters no installed font draws fails its card (`--strict`), rather than
    /// being drawn with boxes and warned about.
    var strict = false
    /// Coverage earlier builds laid out; without it every text is laid out.
    var coverageMemo: TextCoverageMemo? = nil
    /// Plans of the last build in this process: a card whose value, fonts as resolved now and image
    /// digest are those of its kept plan, planned with the same settings, gets that plan.
    var memo: CardMemo<CardPlan.Kept>? = nil
    /// Why photos given as URLs could not be had, by URL: their cards fail with it.
    var photoFailures: [String: PhotoFetchFailure] = [:]

    /// The plan for one card, or why it cannot be built (text a catalog refuses, missing image, unknown font, …).
    func plan(_ card: Card) -> Result<CardPlan, CardFailure> {
        // Read several times below, and by the later stages through the plan.
        let card = card.holdingTexts
        do throws(CardFailure) {
            try Self.checkText(of: card)
            if card.isAwaitingFetch, let url = card.imageURL {
                throw CardFailure(card: card, field: "image",
                                  reason: (photoFailures[url] ?? PhotoFetchFailure(url, "not fetched")).description)
            }
            let fonts = try self.fonts(for: card)
            guard let memo, let image = try? imageDigest(of: card) else {
                return .success(try newPlan(of: card, fonts: fonts))
            }
            // A card that fails is never kept, so its failure is found again in the usual order.
            return .success(try memo.value(for: card.id, if: { kept in
                kept.plan.card == card && kept.plan.fonts == fonts
                    && kept.plan.translations.allSatisfy({ (try? self.fonts(for: $0.card)) == $0.fonts })
                    && kept.plan.inputs.image == image && kept.installedFonts == coverageMemo?.installedFonts && kept.strict == strict
            }, else: { () throws(CardFailure) in
                CardPlan.Kept(plan: try newPlan(of: card, fonts: fonts), installedFonts: coverageMemo?.installedFonts,
                              strict: strict)
            }).plan)
        } catch {
            return .failure(error)
        }
    }

    /// The digest of `card`'s image: its file's through the stat cache, or the remote cache's for a
    /// photo whose bytes are not on this machine.
    private func imageDigest(of card: Card) throws -> ContentDigest {
        try card.remoteImageDigest ?? statCache.digest(ofFileAtPath: card.imageFileSystemPath)
    }

    /// The fonts of `card`'s style, resolved.
    private func fonts(for card: Card) throws(CardFailure) -> ResolvedFonts {
        do {
            return try fonts.fonts(for: card.style)
        } catch {
            throw CardFailure(card: card, field: error.field, error: error.error)
        }
    }

    /// A new plan for `card`, whose fonts resolved to `fonts`, with a plan for each of its translated
    /// locales; a failure in one of them fails the card, naming the locale (``CardFailure``), after the
    /// source locale's own failures (an image that cannot be read is the card's, not a locale's).
    private func newPlan(of card: Card, fonts: ResolvedFonts) throws(CardFailure) -> CardPlan {
        let source = try plan(of: card, fonts: fonts)
        guard !card.localizations.isEmpty else { return source }
        let translations = try card.localizations.map { localization throws(CardFailure) in
            let translated = card.localized(localization)
            try Self.checkText(of: translated)
            return try plan(of: translated, fonts: try self.fonts(for: translated))
        }
        return CardPlan(card: source.card, fonts: source.fonts, inputs: source.inputs, warnings: source.warnings,
                        translations: translations)
    }

    /// The plan of `card` in its own locale.
    private func plan(of card: Card, fonts: ResolvedFonts) throws(CardFailure) -> CardPlan {
        let title = try coverage(of: card, "title", card.title, in: fonts.title, size: card.style.title.size)
        let description = try coverage(of: card, "description", card.description, in: fonts.description,
                                       size: card.style.description.size)
        let digest = try CardFailure.field("image", of: card) { () throws(RenderError) in
            do {
                return try imageDigest(of: card)
            } catch {
                throw .unreadableImage(path: card.imagePath, reason: RenderError.cause(of: error))
            }
        }
        let drawn = DrawnFonts(title: title.fonts, description: description.fonts)
        let inputs = CardInputs(imageDigest: digest, card: card, fonts: fonts, drawnFonts: drawn)
        let warnings = [("title", title), ("description", description)].compactMap { field, coverage in
            coverage.missing.isEmpty ? nil
                : BuildReport.Warning(field: CardFailure.named(field, for: card) ?? field,
                                      message: "\(UndrawableText(characters: coverage.missing))")
        }
        return CardPlan(card: card, fonts: fonts, inputs: inputs, warnings: warnings)
    }

    /// The fonts `text` (the card's `field`) is drawn from; with ``strict``, a failure when some of
    /// its characters have none.
    private func coverage(of card: Card, _ field: String, _ text: String, in font: ResolvedFont,
                          size: Double) throws(CardFailure) -> TextCoverage {
        let coverage = try CardFailure.field(field, of: card) { () throws(RenderError) in
            if let coverageMemo {
                return try coverageMemo.coverage(of: text, in: font, language: card.locale, size: size, fonts: fonts)
            }
            return try fonts.coverage(of: text, in: font, language: card.locale, size: size)
        }
        if strict, !coverage.missing.isEmpty {
            throw CardFailure(card: card, field: field, error: UndrawableText(characters: coverage.missing))
        }
        return coverage
    }

    /// The catalog's rules for text, for a card that did not come from a catalog file (``CardBitmaps``,
    /// a ``Card`` changed in code): Pango and fontconfig take text as C strings, which a NUL would cut short.
    private static func checkText(of card: Card) throws(CardFailure) {
        let texts: [(field: String, text: String, rule: TextRule)] = [
            ("title", card.title, .title), ("description", card.description, .description),
            ("style.title.font", card.style.title.font, .fontName),
            ("style.description.font", card.style.description.font, .fontName),
        ]
        for (field, text, rule) in texts {
            if let problem = rule.problem(with: text) {
                throw CardFailure(card: card, field: field, reason: problem)
            }
        }
    }
}
