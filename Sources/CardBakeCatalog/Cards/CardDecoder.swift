import CardBakeManifest
import Dispatch
import Foundation

/// Reads the cards of a catalog, checking each card and that ids are unique.
package struct CardDecoder {
    package static let cardKeys = ["id", "image", "title", "description", "style", "styles"]
    package static let requiredKeys = ["id", "image", "title", "description"]

    package let reader: SchemaReader
    /// The catalog's resolved style, overrides applied, which a card's own `style` block is applied
    /// over; shared by every card without a `style` block of its own.
    private let sharedCatalogStyle: SharedCardStyle
    package var catalogStyle: CardStyle { sharedCatalogStyle.style }
    /// Applied over a card's own `style` block.
    package let overrides: StyleOverrides
    /// How many cards one thread reads at a time.
    private let shareSize: Int
    /// What the catalog's `remoteImages` says, which an `image` URL must pass.
    private let remoteImages: RemoteImages

    /// The catalog's `remoteImages` as read.
    package enum RemoteImages: Sendable {
        case absent
        /// Present with a problem of its own (reported): a URL is not checked against it.
        case invalid
        case read(RemoteImagePolicy)
    }

    /// The catalog's locales; nil when it declares none.
    private let locales: CatalogLocales?
    /// The catalog's String Catalog, if it names one.
    private let strings: StringCatalog?
    /// The catalog's `styles`, applied over each card's style in their locales.
    private let localeStyles: LocaleStyles
    /// The catalog's style in each of its locales, shared by every card without a `style` or
    /// `styles` block of its own.
    private let sharedLocaleStyles: [LocaleTag: SharedCardStyle]

    package init(reader: SchemaReader, catalogStyle: CardStyle, overrides: StyleOverrides,
                 remoteImages: RemoteImages = .absent, locales: CatalogLocales? = nil,
                 localeStyles: LocaleStyles = LocaleStyles(), strings: StringCatalog? = nil, shareSize: Int = 512) {
        self.reader = reader
        self.remoteImages = remoteImages
        let shared = SharedCardStyle(catalogStyle)
        sharedCatalogStyle = shared
        self.overrides = overrides
        self.shareSize = max(1, shareSize)
        self.locales = locales
        self.localeStyles = localeStyles
        self.strings = strings
        let decoder = StyleDecoder(reader: reader.silenced, overrides: overrides)
        sharedLocaleStyles = Dictionary(uniqueKeysWithValues: (locales?.all ?? []).map { locale in
            (locale, localeStyles.applies(to: locale)
                ? SharedCardStyle(localeStyles.applied(to: catalogStyle, for: locale, decoder: decoder)) : shared)
        })
    }

    /// The cards that are valid, in order, after reporting the problems of the others. The ids are
    /// checked first, in order (``uniqueIDs(of:)``); then the cards are read in shares of a few
    /// hundred on every CPU, each share reporting to a log of its own, merged into the reader's after.
    /// Cards with the same image share one string of its path (catalogs repeat images), and their
    /// texts wait in a ``TextSpool`` (held, if no spool can be made in the temporary folder).
    package func decode(_ cards: [SchemaReader.Node]) -> [Card] {
        var decoded = decodeCards(cards)
        var paths = Set<String>()
        for index in decoded.indices {
            decoded[index].shareImagePath(with: &paths)
        }
        TextSpool()?.take(&decoded)
        return decoded
    }

    private func decodeCards(_ cards: [SchemaReader.Node]) -> [Card] {
        let ids = uniqueIDs(of: cards)
        let shares = cards.count / shareSize + (cards.count % shareSize == 0 ? 0 : 1)
        guard shares > 1 else {
            return cards.indices.compactMap { decode(cards[$0], index: $0, id: ids[$0], reader: reader) }
        }
        // Each share reads only what it is given and writes only its own slot and log.
        nonisolated(unsafe) let decoder = self
        let size = shareSize
        var decoded = [(cards: [Card], log: ProblemLog)?](repeating: nil, count: shares)
        decoded.withUnsafeMutableBufferPointer { results in
            nonisolated(unsafe) let results = results
            DispatchQueue.concurrentPerform(iterations: shares) { share in
                let reader = SchemaReader(log: ProblemLog(), paths: decoder.reader.paths)
                let range = share * size..<min(cards.count, (share + 1) * size)
                results[share] = (range.compactMap { decoder.decode(cards[$0], index: $0, id: ids[$0], reader: reader) },
                                  reader.log)
            }
        }
        // Gathered into an array of exactly their count: a build holds it to its end.
        var gathered: [Card] = []
        gathered.reserveCapacity(decoded.reduce(0) { $0 + $1!.cards.count })
        for share in decoded {
            reader.log.append(contentsOf: share!.log)
            gathered.append(contentsOf: share!.cards)
        }
        return gathered
    }

    /// The card at `cards[index]` with its id as ``uniqueIDs(of:)`` found it, or nil after reporting
    /// its problems to `reader`.
    private func decode(_ node: SchemaReader.Node, index: Int, id: CardID, reader: SchemaReader) -> Card? {
        var reader = reader
        reader.cardID = id.naming
        let problemsBefore = reader.log.count
        guard let fields = reader.object(node, keys: Self.cardKeys, required: Self.requiredKeys) else { return nil }
        let image = self.image(fields["image"], reader: reader)
        let texts = LocalizedTextDecoder(reader: reader, locales: locales, strings: strings)
        let title = texts.decode(fields["title"], rule: .title)
        let description = texts.decode(fields["description"], rule: .description)
        let ownStyle = fields["style"].map {
            SharedCardStyle(StyleDecoder(reader: reader, overrides: overrides).overlay($0, on: catalogStyle))
        }
        let cardStyle = ownStyle ?? sharedCatalogStyle
        let ownLocaleStyles = LocaleStylesDecoder(reader: reader, locales: locales, overrides: overrides)
            .decode(fields["styles"], checkedOver: cardStyle.style)
        guard let id = id.unique, let image, let title, let description, reader.log.count == problemsBefore else {
            return nil
        }
        let isCatalogs = ownStyle == nil && ownLocaleStyles.isEmpty
        func style(in locale: LocaleTag) -> SharedCardStyle {
            if isCatalogs { return sharedLocaleStyles[locale]! }
            guard localeStyles.applies(to: locale) || ownLocaleStyles.applies(to: locale) else { return cardStyle }
            let decoder = StyleDecoder(reader: reader.silenced, overrides: overrides)
            let catalogs = localeStyles.applied(to: cardStyle.style, for: locale, decoder: decoder)
            return SharedCardStyle(ownLocaleStyles.applied(to: catalogs, for: locale, decoder: decoder))
        }
        var card = Card(id: id, image: image.file ?? URL(fileURLWithPath: "/"), title: title.source,
                        description: description.source, sharing: locales.map { style(in: $0.source) } ?? cardStyle,
                        index: index)
        if let locales {
            card.locale = locales.source
            card.localizations = locales.translated.map {
                CardLocalization(locale: $0, title: title, description: description, in: locales, style: style(in: $0))
            }
        }
        if let url = image.url { card.fetchImage(from: url) }
        return card
    }

    /// A card's `image`: a file path, or an http(s) URL that `remoteImages.allow` lets a build fetch.
    private func image(_ node: SchemaReader.Node?, reader: SchemaReader) -> (file: URL?, url: String?)? {
        guard let node, case .string(let text) = node.value.kind, RemoteImageURL.looksLikeURL(text) else {
            return reader.filePath(node).map { ($0, nil) }
        }
        let url: RemoteImageURL
        do {
            url = try RemoteImageURL(text)
        } catch {
            let reason = switch error {
            case .scheme(let scheme): "the scheme \(scheme): is not fetched; an image is a file path or an http:// or https:// URL"
            case .credentials: "the URL holds a user or password; put credentials in no catalog (fetch photos from a URL without them)"
            case .malformed: "the URL does not parse, or has no host"
            }
            reader.report("\(reason): \(MessageText.quoted(RemoteImageURL.redacted(text))).", at: node)
            return nil
        }
        switch remoteImages {
        case .invalid:
            return nil
        case .absent:
            reader.report("\(MessageText.quoted(RemoteImageURL.redacted(text))) is a URL, and the catalog has no "
                          + "remoteImages.allow list; add {\"remoteImages\": {\"allow\": [\"\(url.host)\"]}} to fetch from \(url.host).", at: node)
            return nil
        case .read(let policy):
            guard policy.allows(url) else {
                reader.report("\(MessageText.quoted(RemoteImageURL.redacted(text))) matches no pattern of remoteImages.allow ("
                              + policy.allow.map(\.description).joined(separator: ", ") + ").", at: node)
                return nil
            }
            return (nil, text)
        }
    }

    /// A card's `id` as the first pass found it.
    private struct CardID {
        /// The id when it follows the rule, even if an earlier card has it too: it names the card in
        /// its problems, known before anything else of the card is read.
        var naming: String?
        /// The id when it also is the first use: the card's id if the card is valid.
        var unique: String?
    }

    /// Each card's id, in order, after reporting every id that is not a string, breaks the rule or
    /// repeats an earlier card's (a missing id, or a card that is not an object, is reported with the
    /// card's keys).
    private func uniqueIDs(of cards: [SchemaReader.Node]) -> [CardID] {
        var firstIndexByID: [String: Int] = [:]
        firstIndexByID.reserveCapacity(cards.count)
        return cards.enumerated().map { index, node -> CardID in
            guard let idValue = node.value["id"] else { return CardID() }
            let idNode = SchemaReader.Node(value: idValue, path: node.path.appending(key: "id"))
            guard case .string(let id) = idValue.kind else {
                reader.reportMismatch(idNode, expected: CardIDRule.allowed)
                return CardID()
            }
            if let problem = CardIDRule.problem(with: id) {
                reader.report(problem, at: idNode)
                return CardID()
            }
            var reader = reader
            reader.cardID = id
            if let first = firstIndexByID[id] {
                reader.report("duplicate id \(MessageText.quoted(id)); first used by cards[\(first)]; each card needs its own id.", at: idNode)
                return CardID(naming: id)
            }
            firstIndexByID[id] = index
            return CardID(naming: id, unique: id)
        }
    }
}
