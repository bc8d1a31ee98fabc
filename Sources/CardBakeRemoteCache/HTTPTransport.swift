import CardBakeFiles
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends requests with Foundation's `URLSession` (FoundationNetworking, on libcurl, on Linux).
/// README, "Remote cache", says why this client.
final class HTTPTransport: Sendable {
    private let session: URLSession
    private let timeout: Duration

    init(limits: HTTPObjectStore.Limits) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = limits.connectTimeout.seconds
        configuration.timeoutIntervalForResource = limits.requestTimeout.seconds
        configuration.httpMaximumConnectionsPerHost = limits.parallelTransfers
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        session = URLSession(configuration: configuration)
        timeout = limits.requestTimeout
    }

    func send(_ request: HTTPRequest) async throws -> HTTPAnswer {
        guard let url = URL(string: request.url) else { throw HTTPTransportError.connection("not a URL") }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method
        if let authorization = request.authorization {
            urlRequest.setValue(authorization, forHTTPHeaderField: "Authorization")
        }
        let data: Data
        let response: URLResponse
        do {
            if let body = request.body {
                (data, response) = try await session.upload(for: urlRequest, from: body)
            } else {
                (data, response) = try await session.data(for: urlRequest)
            }
        } catch let error as URLError where error.code == .timedOut {
            throw HTTPTransportError.timedOut(timeout)
        } catch let error as URLError {
            throw HTTPTransportError.connection("URLError \(error.code.rawValue)")
        }
        guard let http = response as? HTTPURLResponse else { throw HTTPTransportError.connection("not an HTTP answer") }
        if http.expectedContentLength >= 0, request.method != "HEAD", http.expectedContentLength != data.count {
            throw HTTPTransportError.truncated(expected: Int(http.expectedContentLength), received: data.count)
        }
        return HTTPAnswer(status: http.statusCode, body: data)
    }

    func shutDown() async {
        session.invalidateAndCancel()
    }
}
