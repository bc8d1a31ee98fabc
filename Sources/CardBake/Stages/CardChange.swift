import CardBakeManifest

/// How a card's output differs from what a build of it would write: what `check` reports for a
/// stale card, and what a build's report and `--verbose` give as the reason a card was rendered.
enum CardChange: Sendable, Equatable, CustomStringConvertible {
    /// Not in the manifest in place.
    case new
    /// These groups of inputs have other digests than the manifest records.
    case inputs([CardInputs.Group])
    case scales(from: [String], to: [String])
    case format(file: String, expected: String)
    case missing(file: String)
    case modified(file: String)
    /// Nothing the manifest records differs, but the cache lacked a bitmap or had it damaged.
    case notCached
    /// The card's translated locales are not those the manifest records.
    case locales(from: [String], to: [String])
    /// The card differs in one of its translated locales.
    indirect case inLocale(LocaleTag, CardChange)

    var description: String {
        switch self {
        case .new: "new card"
        case let .inputs(groups): groups.map(\.description).joined(separator: "; ")
        case let .scales(from, to): "scales changed from \(from.joined(separator: ",")) to \(to.joined(separator: ","))"
        case let .format(file, expected): "format changed: \(file) would be \(expected)"
        case let .missing(file): "\(file) is missing"
        case let .modified(file): "\(file) was modified after the build"
        case .notCached: "not in the cache, or its cache entry was damaged"
        case let .locales(from, to): "locales changed from [\(from.joined(separator: ","))] to [\(to.joined(separator: ","))]"
        case let .inLocale(locale, change): "in locale \(locale): \(change)"
        }
    }

    /// The first difference between `entry`, as the manifest in place records the card, and
    /// `plan`: inputs, then scales, then format, then (with `output`) each file's bytes through the
    /// stat cache. nil when there is none.
    static func between(_ entry: CardManifest.Outline.Card, and plan: CardPlan, filesIn output: OutputFolder?) -> CardChange? {
        if let change = between(entry.images, entry.inputs, and: plan, filesIn: output) {
            return change
        }
        let locales = plan.translations.map { $0.card.locale!.description }
        if Set(entry.translations.keys) != Set(locales) {
            return .locales(from: entry.translations.keys.sorted(), to: locales.sorted())
        }
        for (locale, translation) in zip(locales, plan.translations) {
            let recorded = entry.translations[locale]!
            if let change = between(recorded.images, recorded.inputs, and: translation, filesIn: output) {
                return .inLocale(translation.card.locale!, change)
            }
        }
        return nil
    }

    /// The first difference between `images` and `inputs`, as the manifest records the card in one
    /// locale, and `plan`, its plan in that locale.
    private static func between(_ images: [String: CardManifest.Image], _ inputs: CardInputs, and plan: CardPlan,
                                filesIn output: OutputFolder?) -> CardChange? {
        let changed = plan.inputs.differences(from: inputs)
        if !changed.isEmpty {
            return .inputs(changed)
        }
        let wanted = Set(plan.card.style.scales.map(CardManifest.scaleName))
        if Set(images.keys) != wanted {
            return .scales(from: images.keys.sorted(), to: wanted.sorted())
        }
        for scale in plan.card.style.scales {
            guard let image = images[CardManifest.scaleName(scale)] else { continue }
            let expected = OutputFolder.file(for: plan.card, scale: scale)
            if image.file != expected {
                return .format(file: image.file, expected: expected)
            }
            guard let output else { continue }
            guard let digest = try? output.statCache.digest(ofFileAtPath: output.path(of: image.file)) else {
                return .missing(file: image.file)
            }
            if digest != image.sha256 {
                return .modified(file: image.file)
            }
        }
        return nil
    }
}

/// The entries of the manifest in place, by card ID: what a card rendered again is compared with.
struct PreviousEntries: Sendable {
    private let entries: [String: CardManifest.Outline.Card]

    init(_ manifest: ManifestInPlace) {
        entries = manifest.outline?.cards ?? [:]
    }

    /// Why the card of `plan` is rendered: it is new, or what differs from its entry.
    func change(to plan: CardPlan) -> CardChange {
        entries[plan.card.id].map { CardChange.between($0, and: plan, filesIn: nil) ?? .notCached } ?? .new
    }
}
