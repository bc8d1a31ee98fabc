import CardBakeCatalog
import CardBakeManifest
import CardBakeRender
import Foundation

/// A card that could not be built: which card, which of its fields is at fault, and why.
public struct CardFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public let cardID: String
    public let index: Int
    /// The card's field the failure is about (`image`, `style.title`), nil when it is none in particular.
    public let field: String?
    public let reason: String

    /// `cards[3] ("toucan").image: cannot decode image …`.
    public var description: String {
        "cards[\(index)] (\"\(cardID)\")" + (field.map { ".\($0)" } ?? "") + ": \(reason)"
    }

    init(card: Card, field: String?, error: any Error) {
        cardID = card.id
        index = card.index
        self.field = field
        reason = "\(error)"
    }

    init(card: Card, field: String, reason: String) {
        cardID = card.id
        index = card.index
        self.field = field
        self.reason = reason
    }

    /// `error` itself when it is a failure already, else a failure of `card` as a whole.
    init(card: Card, error: any Error) {
        if let failure = error as? CardFailure {
            self = failure
        } else {
            self.init(card: card, field: nil, error: error)
        }
    }

    /// This failure of a card drawn in the translated `locale`: its field named as the catalog's JSON
    /// path to the text (`title.ar`), or with the locale beside it (`style.title.font (locale "ar")`).
    func inLocale(_ locale: LocaleTag) -> CardFailure {
        CardFailure(cardID: cardID, index: index, field: Self.field(field, in: locale), reason: reason)
    }

    /// `field` of a card drawn in the translated `locale`, as ``inLocale(_:)`` names it.
    static func field(_ field: String?, in locale: LocaleTag) -> String {
        switch field {
        case "title", "description": "\(field!).\(locale)"
        case let field?: "\(field) (locale \"\(locale)\")"
        case nil: "(locale \"\(locale)\")"
        }
    }

    private init(cardID: String, index: Int, field: String?, reason: String) {
        self.cardID = cardID
        self.index = index
        self.field = field
        self.reason = reason
    }

    /// Runs `body`, turning its error into a failure of `card`'s `field`.
    static func field<T>(_ field: String, of card: Card, _ body: () throws(RenderError) -> T) throws(CardFailure) -> T {
        do {
            return try body()
        } catch {
            throw CardFailure(card: card, field: field, error: error)
        }
    }
}
