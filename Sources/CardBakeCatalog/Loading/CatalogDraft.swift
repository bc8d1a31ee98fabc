import Foundation

/// A catalog made in code, before validation: what a tool builds instead of writing a catalog file.
///
///     var draft = CatalogDraft(file: URL(fileURLWithPath: "cards.json"))
///     draft.cards.append(.init(id: "toucan", image: URL(fileURLWithPath: "/photos/toucan.jpg"),
///                              title: "Toucan", description: "Ramphastos sulfuratus"))
///     let catalog = try draft.validated()
public struct CatalogDraft: Sendable {
    /// Where the catalog is said to come from in messages; relative paths in it are relative to its folder.
    public var file: URL
    /// The catalog-wide style.
    public var style: CardStyle
    public var cards: [CardDraft]

    public init(file: URL, style: CardStyle = CardStyle(), cards: [CardDraft] = []) {
        self.file = file
        self.style = style
        self.cards = cards
    }

    /// The validated catalog, by the same rules and with the same messages as a catalog file, since
    /// it is checked as the catalog file it stands for (only the values that differ from the defaults
    /// are written to it, so the defaults need no catalog text). Throws ``CatalogError``; a value a
    /// catalog file cannot hold (a colour's alpha between two of its 256 steps) is one of its problems.
    public func validated(overrides: StyleOverrides = StyleOverrides()) throws -> Catalog {
        // Written in the order of a catalog file, so that problems are listed style first, then by card.
        func json(_ value: Any) throws -> Data {
            try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
        }
        let cardObjects = try cards.map { card in
            var entry: [String: Any] = ["id": card.id, "image": card.image.path, "title": card.title,
                                        "description": card.description]
            if let own = card.style { entry["style"] = own.catalogBlock(over: style) }
            return try json(entry)
        }
        var data = Data(#"{"version": \#(CatalogDecoder.supportedVersion), "style": "#.utf8)
        data += try json(style.catalogBlock(over: CardStyle()))
        data += Data(#", "cards": ["#.utf8) + Data(cardObjects.joined(separator: Data(",".utf8))) + Data("]}".utf8)
        let catalog = try CatalogLoader.decode(data, file: file, overrides: overrides)
        var problems: [CatalogProblem] = []
        if catalog.style != overrides.applied(to: style) {
            problems.append(CatalogProblem(path: "style", message: Self.inexpressible))
        }
        for (index, (card, draft)) in zip(catalog.cards, cards).enumerated()
        where card.style != overrides.applied(to: draft.style ?? style) {
            problems.append(CatalogProblem(path: "cards[\(index)] (\(MessageText.quoted(draft.id))).style",
                                           message: Self.inexpressible))
        }
        guard problems.isEmpty else { throw CatalogError.invalid(file: file, problems: problems) }
        return Catalog(file: file, style: catalog.style, cards: catalog.cards)
    }

    private static let inexpressible = "a value a catalog cannot hold: a colour's alpha must be a multiple of 1/255."
}

/// A card made in code, before validation.
public struct CardDraft: Sendable {
    public var id: String
    /// The image file.
    public var image: URL
    public var title: String
    public var description: String
    /// The card's own style in full; nil takes the catalog's.
    public var style: CardStyle?

    public init(id: String, image: URL, title: String, description: String, style: CardStyle? = nil) {
        self.id = id
        self.image = image
        self.title = title
        self.description = description
        self.style = style
    }
}

extension CardStyle {
    /// The catalog `style` block that turns `base` into this style: the keys whose values differ, and
    /// in nested blocks only their keys that differ.
    func catalogBlock(over base: CardStyle) -> [String: Any] {
        var block = CatalogBlock()
        block.set("cardWidth", cardWidth, base.cardWidth) { $0 }
        block.set("textAreaHeight", textAreaHeight, base.textAreaHeight) { $0 }
        block.set("maxFeatureHeight", maxFeatureHeight, base.maxFeatureHeight) { height -> Any in height ?? NSNull() }
        block.set("minFeatureHeight", minFeatureHeight, base.minFeatureHeight) { $0 }
        block.set("scales", scales, base.scales) { $0 }
        block.set("format", output.kind, base.output.kind) { $0.rawValue }
        block.set("quality", output.quality, base.output.quality) { $0 ?? NSNull() }
        block.set("compression", output.pngCompression, base.output.pngCompression) { $0 }
        block.set("pngFilter", output.pngFilter, base.output.pngFilter) { $0.rawValue }
        var blurBlock = CatalogBlock()
        blurBlock.set("radius", blur.radius, base.blur.radius) { $0 }
        blurBlock.set("saturation", blur.saturation, base.blur.saturation) { $0 }
        blurBlock.set("tint", blur.tint, base.blur.tint) { $0.description }
        block.nest("blur", blurBlock)
        block.nest("title", title.catalogBlock(over: base.title))
        block.nest("description", description.catalogBlock(over: base.description))
        var borderBlock = CatalogBlock()
        borderBlock.set("width", border.width, base.border.width) { $0 }
        borderBlock.set("color", border.color, base.border.color) { $0.description }
        block.nest("border", borderBlock)
        return block.members
    }
}

extension TextStyle {
    /// The catalog block that turns `base` into this text style.
    fileprivate func catalogBlock(over base: TextStyle) -> CatalogBlock {
        var block = CatalogBlock()
        block.set("font", font, base.font) { $0 }
        block.set("fontFile", fontFile, base.fontFile) { file -> Any in file?.path ?? NSNull() }
        block.set("size", size, base.size) { $0 }
        block.set("color", color, base.color) { $0.description }
        if shadow != base.shadow {
            if let shadow {
                // A shadow block applies over the base's shadow, or over the default one when it has none.
                let under = base.shadow ?? ShadowStyle()
                var shadowBlock = CatalogBlock()
                shadowBlock.set("color", shadow.color, under.color) { $0.description }
                var offset = CatalogBlock()
                offset.set("x", shadow.offsetX, under.offsetX) { $0 }
                offset.set("y", shadow.offsetY, under.offsetY) { $0 }
                shadowBlock.nest("offset", offset)
                shadowBlock.set("radius", shadow.radius, under.radius) { $0 }
                block.members["shadow"] = shadowBlock.members
            } else {
                block.members["shadow"] = NSNull()
            }
        }
        return block
    }
}

/// The members of a catalog block being written: only values that differ from the base.
private struct CatalogBlock {
    var members: [String: Any] = [:]

    mutating func set<Value: Equatable>(_ key: String, _ value: Value, _ base: Value, _ json: (Value) -> Any) {
        if value != base { members[key] = json(value) }
    }

    mutating func nest(_ key: String, _ block: CatalogBlock) {
        if !block.members.isEmpty { members[key] = block.members }
    }
}
