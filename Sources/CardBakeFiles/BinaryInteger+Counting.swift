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
