/// One reason a catalog does not validate, or values overriding it (``OverrideError``) cannot be used.
public struct CatalogProblem: Sendable, Equatable, CustomStringConvertible {
    /// Where the problem is, e.g. `cards[3].titel`, `style.blur.radius` or `--scales[1]`; empty for the top level.
    public var path: String
    /// The id of the card the problem is in, when the card has a valid id.
    public var cardID: String?
    /// A sentence saying what is wrong and what is allowed, e.g.
    /// `10000 is out of range; allowed: a number from 0 to 100.`
    public var message: String

    public init(path: String, cardID: String? = nil, message: String) {
        self.path = path
        self.cardID = cardID
        self.message = message
    }

    /// `cards[3] ("toucan").titel: unknown key "titel"; allowed keys: …` — the path with the card's id
    /// after its `cards[N]` part, then the message. The top level is called `top level`.
    public var description: String {
        "\(location): \(message)"
    }

    private var location: String {
        guard !path.isEmpty else { return "top level" }
        guard let cardID, let close = path.firstIndex(of: "]") else { return path }
        let afterCard = path.index(after: close)
        return "\(path[..<afterCard]) (\(MessageText.quoted(cardID)))\(path[afterCard...])"
    }
}
