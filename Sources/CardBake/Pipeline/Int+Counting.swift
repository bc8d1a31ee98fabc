extension Int {
    /// `1 card`, `2 cards`, `0 cards`: the count with the noun in the number it needs.
    package func counting(_ noun: String) -> String {
        "\(self) \(noun)\(self == 1 ? "" : "s")"
    }
}
