import CardBakeFiles
import CardBakeManifest
import Foundation

/// One card of a catalog: an image, a title, a description and the style it is rendered with.
public struct Card: Sendable, Equatable {
    /// 1–100 characters of `a-z 0-9 . _ -`, starting with a letter or digit; unique in its catalog.
    public var id: String
    /// The source image, by its absolute path (the catalog stores it relative to its own folder).
    public var image: URL {
        get { URL(fileURLWithPath: imagePath, isDirectory: false) }
        set { imagePath = newValue.path }
    }
    /// The photo's http(s) address when the catalog gives a URL; ``image`` is then where its fetched
    /// bytes are (in the cache's content store) once a build has fetched it.
    public private(set) var imageURL: String?
    /// ``image``'s path, which is what a card holds: a `URL` takes several hundred bytes, and a
    /// build holds every card of its catalog.
    package private(set) var imagePath: String
    /// ``imagePath`` absolute and normal (``NormalPath``), as system calls and the stat cache take it.
    package var imageFileSystemPath: String { NormalPath.inCurrentDirectory(imagePath) }
    public var title: String {
        get { texts.title }
        set { texts = .held(title: newValue, description: description) }
    }
    public var description: String {
        get { texts.description }
        set { texts = .held(title: title, description: newValue) }
    }
    /// The title and description, held or, for a card of a decoded catalog, in its ``TextSpool``.
    var texts: CardTexts
    /// The catalog's style with this card's own `style` block, if any, applied over it, then the overrides.
    public var style: CardStyle {
        get { sharedStyle.style }
        set { sharedStyle = SharedCardStyle(newValue) }
    }
    /// Zero-based position in the catalog's `cards` array, for messages (`cards[3]`).
    public var index: Int
    /// Held by reference: a style is several hundred bytes, and most cards of a catalog have the same one.
    private(set) var sharedStyle: SharedCardStyle
    /// The card in each of its catalog's translated locales (``CatalogLocales/translated``), in that
    /// order; empty for a catalog without `locales`. The card itself is in the source locale.
    public internal(set) var localizations: [CardLocalization] = []
    /// The locale the card's texts are in: its catalog's source locale, or a translated one for a card
    /// ``localized(_:)``; nil for a catalog without `locales`.
    public internal(set) var locale: LocaleTag?
    /// Whether ``locale`` is one of the catalog's translated locales, whose bitmaps go in a folder of
    /// their own (`cards/<locale>/`).
    public private(set) var isTranslation = false

    /// `style.digest`, worked out once for all the cards that share the style.
    package var styleDigest: ContentDigest { sharedStyle.digest }

    public init(id: String, image: URL, title: String, description: String, style: CardStyle, index: Int) {
        self.init(id: id, image: image, title: title, description: description, sharing: SharedCardStyle(style),
                  index: index)
    }

    /// A card whose style is `style`'s, shared with the other cards made with it.
    package init(id: String, image: URL, title: String, description: String, sharing style: SharedCardStyle,
                 index: Int) {
        self.id = id
        self.imagePath = image.path
        self.texts = .held(title: title, description: description)
        self.sharedStyle = style
        self.index = index
    }

    /// This card with its texts in memory, read from its catalog's spool at once: for a stage that
    /// reads them several times.
    package var holdingTexts: Card {
        guard case .spooled(let spool, let place) = texts else { return self }
        var card = self
        let (title, description) = spool.texts(at: place)
        card.texts = .held(title: title, description: description)
        return card
    }

    /// Makes this card's photo the one at `url`, not fetched yet.
    package mutating func fetchImage(from url: String) {
        imageURL = url
        imagePath = ""
    }

    /// Where the bytes fetched from ``imageURL``, whose digest is `digest`, are: a file, or (nil) the
    /// remote cache, when they are not on this machine yet (``remoteImageDigest``).
    package mutating func useFetchedImage(atPath path: String?, digest: ContentDigest) {
        imagePath = path ?? ""
        remoteImageDigest = path == nil ? digest : nil
    }

    /// The digest of the photo from ``imageURL`` while its bytes are in the remote cache and not on this
    /// machine: the card's key needs only the digest, and a card that renders fetches the bytes.
    package private(set) var remoteImageDigest: ContentDigest?

    /// This card with the bytes of its photo from the remote cache (``remoteImageDigest``) in the file
    /// at `path`; the card as it is when `path` is nil or its photo is a file here already.
    package func withRemoteImage(atPath path: String?) -> Card {
        guard let path, let digest = remoteImageDigest else { return self }
        var card = self
        card.useFetchedImage(atPath: path, digest: digest)
        return card
    }

    /// Whether the photo is a URL that no build has resolved to a file or a digest yet.
    package var isAwaitingFetch: Bool { imageURL != nil && imagePath.isEmpty && remoteImageDigest == nil }

    /// This card as drawn in `localization`'s locale: its texts and style, with the same id, image
    /// and position, and no localizations of its own.
    public func localized(_ localization: CardLocalization) -> Card {
        var card = self
        card.texts = .held(title: localization.title, description: localization.description)
        card.sharedStyle = localization.sharedStyle
        card.localizations = []
        card.locale = localization.locale
        card.isTranslation = true
        return card
    }

    /// The card in each of its locales: itself, then ``localized(_:)`` for each of ``localizations``.
    public var inEveryLocale: [Card] { [self] + localizations.map(localized) }

    /// Makes ``imagePath`` the equal string in `paths`, adding it if there is none, so that cards
    /// of the same image hold one copy of its path.
    package mutating func shareImagePath(with paths: inout Set<String>) {
        imagePath = paths.insert(imagePath).memberAfterInsert
    }

    public static func == (lhs: Card, rhs: Card) -> Bool {
        lhs.id == rhs.id && lhs.imagePath == rhs.imagePath && lhs.imageURL == rhs.imageURL
            && lhs.remoteImageDigest == rhs.remoteImageDigest && lhs.title == rhs.title && lhs.description == rhs.description
            && lhs.index == rhs.index && (lhs.sharedStyle === rhs.sharedStyle || lhs.style == rhs.style)
            && lhs.localizations == rhs.localizations && lhs.locale == rhs.locale && lhs.isTranslation == rhs.isTranslation
    }
}

/// A style that cards share instead of each holding a copy.
package final class SharedCardStyle: Sendable {
    package let style: CardStyle
    /// `style.digest`, worked out once for every card that shares the style.
    package let digest: ContentDigest

    package init(_ style: CardStyle) {
        self.style = style
        digest = style.digest
    }
}

/// A card's title and description: held, or in the spool of the catalog it was decoded from.
enum CardTexts: Sendable {
    case held(title: String, description: String)
    case spooled(TextSpool, TextSpool.Place)

    var title: String {
        switch self {
        case .held(let title, _): title
        case .spooled(let spool, let place): spool.texts(at: place).title
        }
    }

    var description: String {
        switch self {
        case .held(_, let description): description
        case .spooled(let spool, let place): spool.texts(at: place).description
        }
    }
}
