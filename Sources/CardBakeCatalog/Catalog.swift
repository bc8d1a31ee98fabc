import CardBakeManifest
import Foundation

/// A validated card catalog: the cards to render, in catalog order, each with its resolved style.
///
/// Obtain one with ``CatalogLoader/load(from:overrides:)``; every value in it has passed validation,
/// so image paths are absolute, ids are unique and safe as file names, and styles are complete.
public struct Catalog: Sendable, Equatable {
    /// The catalog file this was read from.
    public var file: URL
    /// The catalog-wide style (defaults of CARD_SPEC.md overridden by the catalog's `style` block, then by
    /// the ``StyleOverrides`` it was loaded with).
    public var style: CardStyle
    /// The cards in catalog order.
    public var cards: [Card]
    /// Where photos given as URLs may come from; nil when the catalog has no `remoteImages`.
    public var remoteImages: RemoteImagePolicy?
    /// SHA-256 of the file's bytes, when the catalog was read from one, combined with its String
    /// Catalog's when it names one: with the file's path and the overrides, it decides everything
    /// above. nil for a catalog made in code.
    public var digest: ContentDigest?
    /// The languages the catalog is built in (`locales`, `sourceLocale`); nil for a catalog that
    /// declares none, built in one unnamed language as before locales existed.
    public var locales: CatalogLocales?

    public init(file: URL, style: CardStyle, cards: [Card], digest: ContentDigest? = nil,
                remoteImages: RemoteImagePolicy? = nil, locales: CatalogLocales? = nil) {
        self.file = file
        self.remoteImages = remoteImages
        self.style = style
        self.cards = cards
        self.digest = digest
        self.locales = locales
    }
}
