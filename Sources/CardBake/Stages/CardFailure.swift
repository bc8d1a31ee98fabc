import CardBakeCatalog
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
        self.field = Self.named(field, for: card)
        reason = "\(error)"
    }

    init(card: Card, field: String, reason: String) {
        cardID = card.id
        index = card.index
        self.field = Self.named(field, for: card)
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

    /// `field` as a failure or warning of `card` names it: as it is, or for a card drawn in a
    /// translated locale, as the catalog's JSON path to the text (`title.ar`) or with the locale beside
    /// it (`style.title.font (locale "ar")`).
    static func named(_ field: String?, for card: Card) -> String? {
        guard card.isTranslation, let locale = card.locale else { return field }
        switch field {
        case "title", "description": return "\(field!).\(locale)"
        case let field?: return "\(field) (locale \"\(locale)\")"
        case nil: return "(locale \"\(locale)\")"
        }
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
