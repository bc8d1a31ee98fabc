/// Reads the cards of a catalog, checking each card and that ids are unique.
package struct CardDecoder {
    package static let cardKeys = ["id", "image", "title", "description", "style"]
    package static let requiredKeys = ["id", "image", "title", "description"]

    package let reader: SchemaReader
    /// The catalog's resolved style, overrides applied, which a card's own `style` block is applied
    /// over; shared by every card without a `style` block of its own.
    private let sharedCatalogStyle: SharedCardStyle
    package var catalogStyle: CardStyle { sharedCatalogStyle.style }
    /// Applied over a card's own `style` block.
    package let overrides: StyleOverrides
    /// Where each id was first used, to report repeats.
    private var firstIndexByID: [String: Int] = [:]

    package init(reader: SchemaReader, catalogStyle: CardStyle, overrides: StyleOverrides, cardCount: Int) {
        self.reader = reader
        sharedCatalogStyle = SharedCardStyle(catalogStyle)
        self.overrides = overrides
        firstIndexByID.reserveCapacity(cardCount)
    }

    /// The card at `cards[index]`, or nil after reporting its problems.
    package mutating func decode(_ node: SchemaReader.Node, index: Int) -> Card? {
        var reader = reader
        // Known before reading anything, so that every problem of the card can name it.
        if case .string(let id)? = node.value["id"]?.kind, CardIDRule.problem(with: id) == nil {
            reader.cardID = id
        }
        let problemsBefore = reader.log.count
        guard let fields = reader.object(node, keys: Self.cardKeys, required: Self.requiredKeys) else { return nil }
        let id = uniqueID(fields["id"], index: index, reader: reader)
        let image = reader.filePath(fields["image"])
        let title = reader.text(fields["title"], rule: .title)
        let description = reader.text(fields["description"], rule: .description)
        let style = fields["style"].map {
            SharedCardStyle(StyleDecoder(reader: reader, overrides: overrides).overlay($0, on: catalogStyle))
        } ?? sharedCatalogStyle
        guard let id, let image, let title, let description, reader.log.count == problemsBefore else { return nil }
        return Card(id: id, image: image, title: title, description: description, sharing: style, index: index)
    }

    /// A valid id not used by an earlier card.
    private mutating func uniqueID(_ node: SchemaReader.Node?, index: Int, reader: SchemaReader) -> String? {
        guard let node, let id = reader.string(node, expected: CardIDRule.allowed) else { return nil }
        if let problem = CardIDRule.problem(with: id) {
            reader.report(problem, at: node)
            return nil
        }
        if let first = firstIndexByID[id] {
            reader.report("duplicate id \(MessageText.quoted(id)); first used by cards[\(first)]; each card needs its own id.", at: node)
            return nil
        }
        firstIndexByID[id] = index
        return id
    }
}
