import CardBakeFiles
import Foundation

/// Which URLs a catalog's photos may be fetched from (`remoteImages.allow`), and how long a fetched
/// photo is used before it is revalidated (`remoteImages.maxAge`).
public struct RemoteImagePolicy: Sendable, Equatable {
    public var allow: [URLPattern]
    public var maxAge: Duration

    /// One day.
    public static let defaultMaxAge: Duration = .seconds(86_400)

    public init(allow: [URLPattern], maxAge: Duration = RemoteImagePolicy.defaultMaxAge) {
        self.allow = allow
        self.maxAge = maxAge
    }

    /// Whether some pattern of ``allow`` matches `url`.
    public func allows(_ url: RemoteImageURL) -> Bool {
        allow.contains { $0.matches(url) }
    }

    /// `"1d"`, `"12h"`, `"30m"`, `"45s"` or `"0"`: a count and a unit (days, hours, minutes, seconds).
    /// At most ten years.
    package static func maxAge(from text: String) -> Duration? {
        if text == "0" { return .zero }
        guard let seconds = Duration.seconds(parsingCountAndUnit: text), seconds <= 3_650 * 86_400 else { return nil }
        return .seconds(seconds)
    }
}

/// One entry of `remoteImages.allow`: an exact host or `*.` and a domain (any name under it, not the
/// domain itself), `:port` to pin a port (else any port), and a path prefix (`cdn.example.com/photos/`).
public struct URLPattern: Sendable, Equatable, CustomStringConvertible {
    /// Lowercased; for a wildcard, the domain after `*.`.
    public let host: String
    public let isWildcard: Bool
    public let port: Int?
    /// Starts with `/`; nil matches every path.
    public let pathPrefix: String?
    public let description: String

    /// Nil when `text` is not a pattern (a scheme, credentials, a query, an empty host, `*` elsewhere).
    public init?(_ text: String) {
        description = text
        guard !text.contains("://"), !text.contains("@"), !text.contains("?"), !text.contains("#"),
              !text.contains(where: \.isWhitespace)
        else { return nil }
        let slash = text.firstIndex(of: "/")
        let authority = slash.map { String(text[..<$0]) } ?? text
        pathPrefix = slash.map { String(text[$0...]) }
        var name = Substring(authority)
        if let colon = name.lastIndex(of: ":") {
            guard let port = Int(name[name.index(after: colon)...]), (1...65_535).contains(port) else { return nil }
            self.port = port
            name = name[..<colon]
        } else {
            port = nil
        }
        isWildcard = name.hasPrefix("*.")
        if isWildcard { name = name.dropFirst(2) }
        guard !name.isEmpty, !name.contains("*"), !name.contains(":"),
              name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" })
        else { return nil }
        host = name.lowercased()
    }

    public func matches(_ url: RemoteImageURL) -> Bool {
        let hostMatches = isWildcard ? url.host.hasSuffix("." + host) : url.host == host
        return hostMatches && (port == nil || port == url.port) && pathPrefix.map { url.path.hasPrefix($0) } != false
    }
}

/// An `http://` or `https://` address of a photo, with no user or password.
public struct RemoteImageURL: Sendable, Equatable {
    /// As written in the catalog.
    public let text: String
    /// Lowercased.
    public let host: String
    /// The port written, or the scheme's (80, 443).
    public let port: Int
    /// Starts with `/`.
    public let path: String

    /// Why `text` is no photo address a build fetches.
    public enum Refusal: Error, Equatable {
        case scheme(String)
        case credentials
        case malformed
    }

    public init(_ text: String) throws(Refusal) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw .malformed
        }
        guard scheme == "http" || scheme == "https" else { throw .scheme(scheme) }
        guard components.user == nil, components.password == nil else { throw .credentials }
        guard let host = components.host, !host.isEmpty else { throw .malformed }
        self.text = text
        self.host = host.lowercased()
        port = components.port ?? (scheme == "https" ? 443 : 80)
        path = components.path.isEmpty ? "/" : components.path
    }

    /// Whether a catalog's `image` value is meant as a URL: it starts with a scheme of two or more
    /// letters and a colon (`https:`, `file:`, `data:`), which no relative path of a photo does.
    public static func looksLikeURL(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":") else { return false }
        let scheme = text[..<colon]
        return scheme.count >= 2 && scheme.first!.isLetter
            && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+.-".contains($0)) }
    }

    /// The address with any user, password, query and fragment left out, for messages: a query may hold a token.
    public static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text) else { return "(an address that does not parse)" }
        let hadQuery = components.query != nil
        components.user = nil
        components.password = nil
        components.query = nil
        components.fragment = nil
        return (components.string ?? "") + (hadQuery ? "?…" : "")
    }
}
