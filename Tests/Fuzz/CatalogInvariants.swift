import Foundation

/// What must hold for any outcome of validating a catalog, whatever the input; a violation stops
/// the process (`fatalError`), which libFuzzer records as a crash with the input that caused it.
///
/// A catalog that validates carries only values the renderer accepts, so the checks restate the
/// README's rules independently of the validator; an error must tell its author where and why.
enum CatalogInvariants {
    static func check(_ catalog: Catalog) {
        check(catalog.style, at: "style")
        var ids = Set<String>()
        for (index, card) in catalog.cards.enumerated() {
            let at = "cards[\(index)]"
            require(card.index == index, at, "index \(card.index)")
            require(CardIDRule.problem(with: card.id) == nil, at, "unsafe id \(MessageText.quoted(card.id))")
            require(ids.insert(card.id).inserted, at, "repeated id \(MessageText.quoted(card.id))")
            require(card.image.isFileURL && card.image.path.hasPrefix("/"), at, "image \(card.image) is not an absolute file URL")
            require(TextRule.title.problem(with: card.title) == nil, at, "title breaks its rule")
            require(TextRule.description.problem(with: card.description) == nil, at, "description breaks its rule")
            check(card.style, at: "\(at).style")
        }
    }

    /// Every problem message says what is allowed in one of these words.
    private static let sayWhatIsAllowed = ["allowed", "expected", "required keys", "each key may appear only once",
                                           "each card needs its own id", "reads version"]

    static func check(_ error: CatalogError, file: URL) {
        switch error {
        case .unreadable:
            fail("decoding bytes reported an unreadable file: \(error)")
        case .invalidJSON(_, let line, let column, let reason):
            require(line >= 1 && column >= 1 && !reason.isEmpty, "invalidJSON", "position \(line):\(column), reason \(MessageText.quoted(reason))")
        case .invalid(_, let problems):
            require(!problems.isEmpty, "invalid", "no problems listed")
            for problem in problems {
                require(sayWhatIsAllowed.contains { problem.message.contains($0) },
                        problem.path, "message does not say what is allowed: \(problem.message)")
                require(problem.cardID.map { CardIDRule.problem(with: $0) == nil } ?? true, problem.path, "unsafe card id in a problem")
            }
        }
        let prefix = file.relativePath
        require(error.description.split(separator: "\n").allSatisfy { $0.hasPrefix(prefix) || $0.hasPrefix("… and ") },
                "description", "a line does not name the file:\n\(error.description)")
    }

    private static func check(_ style: CardStyle, at path: String) {
        require((1...2048).contains(style.cardWidth), path, "cardWidth \(style.cardWidth)")
        require((0...4096).contains(style.textAreaHeight), path, "textAreaHeight \(style.textAreaHeight)")
        require(!style.scales.isEmpty && style.scales == Array(Set(style.scales)).sorted()
                    && style.scales.allSatisfy((1...4).contains), path, "scales \(style.scales)")
        if let quality = style.output.quality { require((1...100).contains(quality), path, "quality \(quality)") }
        require((0...9).contains(style.output.pngCompression), path, "compression \(style.output.pngCompression)")
        require((0...100).contains(style.blur.radius) && (0...4).contains(style.blur.saturation), path, "blur \(style.blur)")
        require((0...100).contains(style.border.width), path, "border width \(style.border.width)")
        for (name, text) in [("title", style.title), ("description", style.description)] {
            require((1...200).contains(text.size), path, "\(name).size \(text.size)")
            require(TextRule.fontName.problem(with: text.font) == nil, path, "\(name).font breaks its rule")
            require(text.fontFile.map { $0.isFileURL && $0.path.hasPrefix("/") } ?? true, path, "\(name).fontFile is not absolute")
            require(text.weight.map(TextStyle.weightRange.contains) ?? true, path, "\(name).weight \(String(describing: text.weight))")
            if let shadow = text.shadow {
                require((-100...100).contains(shadow.offsetX) && (-100...100).contains(shadow.offsetY)
                            && (0...100).contains(shadow.radius), path, "\(name).shadow \(shadow)")
            }
        }
        for color in [style.blur.tint, style.border.color, style.title.color, style.description.color] {
            require((0...1).contains(color.alpha), path, "colour alpha \(color.alpha)")
        }
    }

    private static func require(_ condition: Bool, _ path: String, _ what: @autoclosure () -> String) {
        if !condition { fail("\(path): \(what())") }
    }

    private static func fail(_ message: String) -> Never {
        fatalError("catalog invariant broken: \(message)")
    }
}
