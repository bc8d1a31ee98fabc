import Foundation

/// Where the remote cache is and how to authenticate, from `--remote-cache` or `CARDBAKE_REMOTE_CACHE`
/// and `CARDBAKE_REMOTE_CACHE_AUTHORIZATION`. Only ``displayName`` may be printed.
public struct RemoteCacheAddress: Sendable {
    /// The base URL without credentials and without a trailing slash; objects are `<base>/ac/…` and `<base>/cas/…`.
    public let base: String
    /// The `Authorization` header value: the one given, or Basic from the URL's user and password.
    let authorization: String?
    /// The URL with any user and password replaced by `***`.
    public let displayName: String

    /// Parses `text`, an http or https URL with a host, optionally `user:password@` (percent-encoded).
    ///
    /// - Parameters:
    ///   - authorization: a full `Authorization` header value; it wins over credentials in the URL.
    ///   - allowingCredentials: false for a URL given on the command line, where every user of the
    ///     machine can read it.
    /// - Throws: ``RemoteCacheAddressError``, whose text shows the URL without its credentials.
    public init(parsing text: String, authorization: String? = nil, allowingCredentials: Bool = true) throws {
        let shown = Self.redacting(text)
        guard let parts = URLComponents(string: text), let scheme = parts.scheme?.lowercased(),
              ["http", "https"].contains(scheme), let host = parts.host, !host.isEmpty else {
            throw RemoteCacheAddressError.notHTTP(shown)
        }
        guard parts.query == nil, parts.fragment == nil else { throw RemoteCacheAddressError.queryOrFragment(shown) }
        let hasCredentials = parts.user != nil || parts.password != nil
        guard allowingCredentials || !hasCredentials else { throw RemoteCacheAddressError.credentialsOnCommandLine(shown) }
        var plain = parts
        plain.user = nil
        plain.password = nil
        var base = plain.string ?? text
        while base.hasSuffix("/") { base.removeLast() }
        self.base = base
        displayName = hasCredentials ? Self.redacting(text) : base
        if let authorization, !authorization.isEmpty {
            self.authorization = authorization
        } else if hasCredentials {
            let pair = (parts.user ?? "") + ":" + (parts.password ?? "")
            self.authorization = "Basic " + Data(pair.utf8).base64EncodedString()
        } else {
            self.authorization = nil
        }
    }

    /// `text` with whatever sits between `//` and `@` in its authority replaced by `***`.
    static func redacting(_ text: String) -> String {
        guard let start = text.range(of: "//") else { return text }
        let authorityEnd = text[start.upperBound...].firstIndex(where: { "/?#".contains($0) }) ?? text.endIndex
        guard let at = text[start.upperBound..<authorityEnd].lastIndex(of: "@") else { return text }
        return String(text[..<start.upperBound]) + "***" + String(text[at...])
    }
}

/// A remote cache address cardbake cannot use; the text never shows credentials.
public enum RemoteCacheAddressError: Error, Sendable, CustomStringConvertible {
    case notHTTP(String)
    case queryOrFragment(String)
    case credentialsOnCommandLine(String)

    public var description: String {
        switch self {
        case .notHTTP(let url):
            "The remote cache \"\(url)\" is not an http or https URL with a host, such as http://cache.example:8080/cardbake."
        case .queryOrFragment(let url):
            "The remote cache \"\(url)\" has a query or fragment; give the base URL the ac/ and cas/ folders are under."
        case .credentialsOnCommandLine(let url):
            "The remote cache \"\(url)\" carries a user and password on the command line, where every user of "
                + "the machine can read them; put the URL in CARDBAKE_REMOTE_CACHE or the header value in "
                + "CARDBAKE_REMOTE_CACHE_AUTHORIZATION instead."
        }
    }
}
