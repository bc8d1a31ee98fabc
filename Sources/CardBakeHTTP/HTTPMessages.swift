import CardBakeFiles
import Foundation

/// One request for ``HTTPTransport``.
package struct HTTPRequest: Sendable {
    package var method: String
    package var url: String
    package var body: Data?
    /// Sent as `Authorization: <value>`.
    package var authorization: String?
    /// More header lines, `Name: value` (`If-None-Match: "abc"`).
    package var headers: [String] = []
    /// Redirects followed, at most; 0 follows none. From an https URL only to https.
    package var maxRedirects = 0
    /// Where the body of a 200 answer streams to (created or truncated) instead of ``HTTPAnswer/body``;
    /// nil keeps it in memory.
    package var bodyFile: String?
    /// The largest body accepted; a larger one stops the transfer (``HTTPTransportError/tooLarge(limit:)``).
    package var maxBodyBytes = 512 << 20

    package init(method: String, url: String, body: Data? = nil, authorization: String? = nil) {
        self.method = method
        self.url = url
        self.body = body
        self.authorization = authorization
    }
}

/// The status, the headers cardbake reads and the body of an answer.
package struct HTTPAnswer: Sendable {
    package var status: Int
    /// Empty when the body went to ``HTTPRequest/bodyFile``.
    package var body: Data
    /// The body's length, wherever it went.
    package var bodyBytes: Int
    /// The final answer's header fields, names lowercased (`etag`, `last-modified`, `retry-after`).
    package var headers: [String: String]

    package init(status: Int, body: Data, bodyBytes: Int? = nil, headers: [String: String] = [:]) {
        self.status = status
        self.body = body
        self.bodyBytes = bodyBytes ?? body.count
        self.headers = headers
    }

    /// `Retry-After` as a wait: seconds, or an HTTP date from now; nil when absent or unreadable.
    package func retryAfter(now: Date = Date()) -> Duration? {
        guard let value = headers["retry-after"]?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Int(value), seconds >= 0 { return .seconds(seconds) }
        guard let date = HTTPDate.parse(value) else { return nil }
        return .milliseconds(max(0, Int64(date.timeIntervalSince(now) * 1000)))
    }
}

/// The HTTP date format (RFC 9110's IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`).
package enum HTTPDate {
    private static let format: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }()
    private static let lock = NSLock()

    package static func parse(_ text: String) -> Date? {
        lock.withLock { format.date(from: text) }
    }
}

/// Why a request got no answer.
package enum HTTPTransportError: Error, CustomStringConvertible, Equatable {
    /// No connection: refused, or no route to the host.
    case refused(String)
    /// The host's name does not resolve.
    case unknownHost(String)
    /// No connection or no complete answer within the limit.
    case timedOut(Duration)
    /// The server closed or reset the connection before its answer was complete.
    case closed(String)
    /// The TLS handshake failed (certificate, protocol).
    case tls(String)
    /// Another failure of the transfer.
    case connection(String)
    /// The body's length differs from its `Content-Length`.
    case truncated(expected: Int, received: Int)
    /// The body is longer than the request's ``HTTPRequest/maxBodyBytes``.
    case tooLarge(limit: Int)
    /// More redirects than the request's ``HTTPRequest/maxRedirects``.
    case tooManyRedirects(Int)
    /// A redirect to a scheme the request may not go to (https to http).
    case redirectRefused(String)

    /// A failure that may pass on a second try.
    package var isWorthRetrying: Bool {
        switch self {
        case .closed, .connection, .truncated: true
        case .refused, .unknownHost, .timedOut, .tls, .tooLarge, .tooManyRedirects, .redirectRefused: false
        }
    }

    /// The server cannot be used for now: a build gives up on it at once.
    package var isOutage: Bool {
        switch self {
        case .refused, .unknownHost, .timedOut, .closed, .tls: true
        case .connection, .truncated, .tooLarge, .tooManyRedirects, .redirectRefused: false
        }
    }

    package var description: String {
        switch self {
        case .refused(let reason): reason
        case .unknownHost(let host): "unknown host \(host) (DNS)"
        case .timedOut(let limit): "timed out after \(Self.seconds(limit)) s"
        case .closed(let reason): "the server closed the connection (\(reason))"
        case .tls(let reason): "TLS failed (\(reason))"
        case .connection(let reason): "no connection (\(reason))"
        case let .truncated(expected, received): "the body has \(received.counting("byte")), its Content-Length says \(expected)"
        case .tooLarge(let limit): "the body is over the limit of \(limit.counting("byte"))"
        case .tooManyRedirects(let limit): "more than \(limit.counting("redirect"))"
        case .redirectRefused(let reason): "a redirect to a scheme not allowed (\(reason)): to http or https only, and from https only to https"
        }
    }

    /// `1`, `2.5`: a duration in seconds as a person writes it.
    package static func seconds(_ duration: Duration) -> String {
        let (whole, attoseconds) = duration.components
        guard attoseconds != 0 else { return "\(whole)" }
        return String(format: "%g", Double(whole) + Double(attoseconds) / 1e18)
    }
}
