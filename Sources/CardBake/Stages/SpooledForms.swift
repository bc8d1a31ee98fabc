import CardBakeManifest
import Foundation

/// A manifest entry in the forms an ``EntrySpool`` keeps: its texts in the manifest's pages, its line
/// of the gallery page (empty when the build writes no gallery) and its files.
struct SpooledForms: Sendable {
    let page: ManifestWriter.PageEntry
    let figure: Data
    let files: Data

    /// Encodes `entry`; its gallery line only when `figures`.
    init(of entry: CardManifest.Entry, figures: Bool) throws {
        page = try entry.pageEntry
        figure = figures ? GalleryCard(entry: entry).line : Data()
        files = CardFile.encode(CardFile.files(of: entry))
    }

    /// What a ``RebuildMemo`` keeps of a card's entry: the forms, and what they were made from.
    struct Kept: Sendable {
        let entry: CardManifest.Entry
        let figures: Bool
        let forms: SpooledForms
    }

    /// The forms of `entry` (with its gallery line when `figures`): those `memo` kept when it has an
    /// equal entry, else encoded now and kept there.
    static func of(_ entry: CardManifest.Entry, figures: Bool, memo: CardMemo<Kept>?) throws -> SpooledForms {
        guard let memo else { return try SpooledForms(of: entry, figures: figures) }
        return try memo.value(for: entry.id, if: { $0.figures == figures && $0.entry == entry }) {
            Kept(entry: entry, figures: figures, forms: try SpooledForms(of: entry, figures: figures))
        }.forms
    }
}
