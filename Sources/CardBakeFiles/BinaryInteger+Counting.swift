import Foundation

extension BinaryInteger {
    /// `1 card`, `2 cards`, `0 cards`: the count with the noun in the number it needs; `plural`
    /// when adding an "s" does not make it. Every count cardbake words goes through this or ``word(_:plural:)``.
    package func counting(_ noun: String, plural: String? = nil) -> String {
        "\(self) \(word(noun, plural: plural))"
    }

    /// The word in the number this count needs, without the count: `shard`/`shards`, `is`/`are`,
    /// `it`/`them`; `plural` when adding an "s" does not make it.
    package func word(_ singular: String, plural: String? = nil) -> String {
        self == 1 ? singular : plural ?? singular + "s"
    }
}

extension Int {
    /// `512 B`, `3.4 KB`, `12.0 MB`: a size in decimal units, as reports word it.
    package var byteSize: String {
        switch self {
        case ..<1_000: "\(self) B"
        case ..<1_000_000: String(format: "%.1f KB", Double(self) / 1e3)
        default: String(format: "%.1f MB", Double(self) / 1e6)
        }
    }
}
