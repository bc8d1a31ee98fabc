extension Int {
    /// `1 card`, `2 cards`, `0 cards`: the count with the noun in the number it needs; `plural`
    /// when adding an "s" does not make it.
    package func counting(_ noun: String, plural: String? = nil) -> String {
        "\(self) \(self == 1 ? noun : plural ?? noun + "s")"
    }
}
