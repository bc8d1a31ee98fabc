/// The stored properties of a value, found with `Mirror`, so that a test can require a change for
/// each and fail when a type gains one that the test does not know.
enum StoredProperties {
    /// Dotted paths to the leaves of `value`, e.g. `title.shadow.color.red`. The walk goes into structs
    /// whose module-qualified type name starts with one of `prefixes`, into the wrapped value of an
    /// optional that is set and into each value of a dictionary (by its key); anything else is a leaf.
    static func leafPaths(of value: Any, walking prefixes: [String], at path: String = "") -> [String] {
        func below(_ label: String) -> String { path.isEmpty ? label : path + "." + label }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional? where !mirror.children.isEmpty:
            return mirror.children.flatMap { leafPaths(of: $0.value, walking: prefixes, at: path) }
        case .dictionary?:
            return mirror.children.flatMap { entry in
                let pair = Mirror(reflecting: entry.value).children.map(\.value)
                return leafPaths(of: pair[1], walking: prefixes, at: below("\(pair[0])"))
            }
        case .struct? where prefixes.contains(where: String(reflecting: type(of: value)).hasPrefix):
            return mirror.children.flatMap { leafPaths(of: $0.value, walking: prefixes, at: below($0.label ?? "?")) }
        default:
            return [path]
        }
    }
}
