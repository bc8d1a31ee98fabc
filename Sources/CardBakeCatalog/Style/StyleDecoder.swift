/// Applies a `style` block of a catalog — a partial style — over a base style, then the overrides.
///
/// The same overlay serves the catalog's style (over `CardStyle()`) and each card's style (over the
/// catalog's): every key present replaces the corresponding field of the base, every key absent
/// keeps it, and nested blocks (`blur`, `title`, `shadow`, …) are partial in the same way.
/// A key with a problem is reported and leaves the base value; the caller discards the result then.
/// A style whose tallest card would be more pixels than its format's encoder writes, overrides
/// applied, is reported too, at the block that makes it so.
package struct StyleDecoder {
    package let reader: SchemaReader
    /// Applied over every block, so that their values win; a base must have them applied already.
    package let overrides: StyleOverrides

    package static let styleKeys = ["cardWidth", "textAreaHeight", "maxFeatureHeight", "minFeatureHeight", "scales", "format",
                                    "quality", "compression", "pngFilter", "blur", "title", "description", "border"]

    package func overlay(_ node: SchemaReader.Node, on base: CardStyle) -> CardStyle {
        guard let fields = reader.object(node, keys: Self.styleKeys) else { return base }
        var style = base
        if let width = reader.number(fields["cardWidth"], in: 1...2048) { style.cardWidth = width }
        if let height = reader.number(fields["textAreaHeight"], in: 0...4096) { style.textAreaHeight = height }
        if let height = reader.removable(fields["maxFeatureHeight"], { reader.number($0, in: 1...8192, orNull: true) }) {
            style.maxFeatureHeight = height
        }
        if let height = reader.number(fields["minFeatureHeight"], in: 1...8192) { style.minFeatureHeight = height }
        if let scales = scales(fields["scales"]) { style.scales = scales }
        if let kind = reader.choice(fields["format"], of: OutputFormat.Kind.self) { style.output.kind = kind }
        // null: the format's default, which for JPEG is picked per image.
        if let quality = reader.removable(fields["quality"], { reader.integer($0, in: 1...100, orNull: true) }) {
            style.output.quality = quality
        }
        if let level = reader.integer(fields["compression"], in: 0...9) { style.output.pngCompression = level }
        if let filter = reader.choice(fields["pngFilter"], of: OutputFormat.PNGFilter.self) { style.output.pngFilter = filter }
        if let blur = fields["blur"] { style.blur = overlay(blur, on: style.blur) }
        if let title = fields["title"] { style.title = overlay(title, on: style.title) }
        if let description = fields["description"] { style.description = overlay(description, on: style.description) }
        if let border = fields["border"] { style.border = overlay(border, on: style.border) }
        style = overrides.applied(to: style)
        if base.tallestCardFitsEncoder && !style.tallestCardFitsEncoder { reportEncoderLimit(of: style, at: node) }
        return style
    }

    /// Says how tall the tallest card is, what the format allows, and what the feature and text area may add up to;
    /// scales and a format from the overrides are marked as such.
    private func reportEncoderLimit(of style: CardStyle, at node: SchemaReader.Node) {
        let format = MessageText.quoted(style.output.kind.rawValue)
        let limit = style.output.kind.maxDimension
        let scale = style.scales.max() ?? 1
        let cap = style.maxFeatureHeight == nil ? "maxFeatureHeight's default, 3 × cardWidth" : "maxFeatureHeight"
        reader.report("the tallest card, a feature of \(MessageText.number(style.featureHeightLimit)) points (\(cap)) over a"
                      + " text area of \(MessageText.number(style.textAreaHeight)) (textAreaHeight), is"
                      + " \(style.tallestCardPixelHeight) pixels tall at scale \(scale)\(overrides.scalesSource), over the"
                      + " \(limit) pixels format \(format)\(overrides.formatSource) allows; allowed: maxFeatureHeight"
                      + " + textAreaHeight up to \(MessageText.number(Double(limit) / Double(scale))) points for \(format)"
                      + " at scale \(scale); lower them, drop scale \(scale), or choose another format.", at: node)
    }

    /// Scales to render, by ``ScaleListRule``; returned in ascending order.
    private func scales(_ node: SchemaReader.Node?) -> [Int]? {
        let rule = ScaleListRule.catalog
        guard let node, let elements = reader.array(node, expected: rule.allowed) else { return nil }
        return rule.scales(elements.map { reader.integer($0, in: ScaleListRule.range) },
                           location: { node.path.appending(index: $0).description },
                           report: { message, index in reader.report(message, at: index.map { elements[$0] } ?? node) })
    }

    private func overlay(_ node: SchemaReader.Node, on base: BlurStyle) -> BlurStyle {
        guard let fields = reader.object(node, keys: ["radius", "saturation", "tint"]) else { return base }
        var blur = base
        if let radius = reader.number(fields["radius"], in: 0...100) { blur.radius = radius }
        if let saturation = reader.number(fields["saturation"], in: 0...4) { blur.saturation = saturation }
        if let tint = reader.color(fields["tint"]) { blur.tint = tint }
        return blur
    }

    /// `fontFile: null` removes the base's font file, `weight: null` its weight (for the face's own) and
    /// `shadow: null` its shadow.
    private func overlay(_ node: SchemaReader.Node, on base: TextStyle) -> TextStyle {
        let keys = ["font", "fontFile", "weight", "italic", "size", "color", "shadow"]
        guard let fields = reader.object(node, keys: keys) else { return base }
        var text = base
        if let font = reader.text(fields["font"], rule: .fontName) { text.font = font }
        if let fontFile = reader.removable(fields["fontFile"], { reader.filePath($0, orNull: true) }) {
            text.fontFile = fontFile
        }
        if let weight = reader.removable(fields["weight"], weight) { text.weight = weight }
        if let italic = reader.boolean(fields["italic"]) { text.italic = italic }
        if let size = reader.number(fields["size"], in: 1...200) { text.size = size }
        if let color = reader.color(fields["color"]) { text.color = color }
        if let shadow = reader.removable(fields["shadow"], { overlay($0, on: text.shadow ?? ShadowStyle()) }) {
            text.shadow = shadow
        }
        return text
    }

    /// A weight: a whole number in ``TextStyle/weightRange`` or one of ``TextStyle/weightKeywords``.
    private func weight(_ node: SchemaReader.Node) -> Int? {
        let keywords = TextStyle.weightKeywords.sorted { $0.value < $1.value }
            .map { "\(MessageText.quoted($0.key)) (\($0.value))" }.joined(separator: ", ")
        let allowed = "null, \(MessageText.integer(in: TextStyle.weightRange)) or one of \(keywords)"
        switch node.value.kind {
        case .number:
            return reader.integer(node, in: TextStyle.weightRange)
        case .string(let keyword):
            guard let weight = TextStyle.weightKeywords[keyword] else {
                reader.report("\(MessageText.quoted(keyword)) is not a weight; allowed: \(allowed).", at: node)
                return nil
            }
            return weight
        default:
            reader.reportMismatch(node, expected: allowed)
            return nil
        }
    }

    private func overlay(_ node: SchemaReader.Node, on base: ShadowStyle) -> ShadowStyle {
        guard let fields = reader.object(node, keys: ["color", "offset", "radius"], orNull: true) else { return base }
        var shadow = base
        if let color = reader.color(fields["color"]) { shadow.color = color }
        if let offset = fields["offset"], let offsetFields = reader.object(offset, keys: ["x", "y"]) {
            if let x = reader.number(offsetFields["x"], in: -100...100) { shadow.offsetX = x }
            if let y = reader.number(offsetFields["y"], in: -100...100) { shadow.offsetY = y }
        }
        if let radius = reader.number(fields["radius"], in: 0...100) { shadow.radius = radius }
        return shadow
    }

    private func overlay(_ node: SchemaReader.Node, on base: BorderStyle) -> BorderStyle {
        guard let fields = reader.object(node, keys: ["width", "color"]) else { return base }
        var border = base
        if let width = reader.number(fields["width"], in: 0...100) { border.width = width }
        if let color = reader.color(fields["color"]) { border.color = color }
        return border
    }
}
