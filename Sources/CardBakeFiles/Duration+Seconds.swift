/// Seconds as a floating-point number, for reports.
extension Duration {
    package var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

extension Duration {
    /// Seconds in `text`, a non-negative count and a unit: `d` (days), `h`, `m` (minutes) or `s`
    /// (`30d`, `12h`, `90m`, `45s`); nil for anything else, or a count too large to hold in seconds.
    package static func seconds(parsingCountAndUnit text: String) -> Int64? {
        let units: [Character: Int64] = ["d": 86_400, "h": 3_600, "m": 60, "s": 1]
        guard let unit = text.last.flatMap({ units[$0] }), let count = Int64(text.dropLast()), count >= 0,
              count <= Int64.max / unit else { return nil }
        return count * unit
    }
}
