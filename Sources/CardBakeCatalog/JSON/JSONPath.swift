/// Where a value sits in a JSON document, written like `cards[3].style.title.shadow.offset.y`.
///
/// Built while walking the tree (appending is O(1) and shares the parent) and only rendered
/// to text when a problem is reported.
package indirect enum JSONPath: Sendable, CustomStringConvertible {
    case root
    case key(JSONPath, String)
    case index(JSONPath, Int)

    package func appending(key: String) -> JSONPath { .key(self, key) }
    package func appending(index: Int) -> JSONPath { .index(self, index) }

    /// Empty for the root. Keys that are not plain identifiers are written `["some key"]`.
    package var description: String {
        switch self {
        case .root:
            return ""
        case .index(let parent, let index):
            return "\(parent)[\(index)]"
        case .key(let parent, let key):
            guard Self.isIdentifier(key) else { return "\(parent)[\(MessageText.quoted(key))]" }
            return parent.isRoot ? key : "\(parent).\(key)"
        }
    }

    private var isRoot: Bool {
        if case .root = self { true } else { false }
    }

    private static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return key.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"): true
            default: false
            }
        }
    }
}
