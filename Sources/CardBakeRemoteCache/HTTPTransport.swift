import AsyncHTTPClient
import CardBakeFiles
import Foundation
import NIOCore
import NIOHTTP1

/// Sends requests with AsyncHTTPClient (SwiftNIO): a pool of keep-alive connections, a connect
/// timeout, and a deadline for each request. README, "Remote cache", says why this client.
final class HTTPTransport: Sendable {
    private let client: HTTPClient
    private let timeout: Duration

    /// The largest body accepted: well above any card's bitmap.
    private static let largestBody = 512 << 20

    init(limits: HTTPObjectStore.Limits) {
        var configuration = HTTPClient.Configuration(
            timeout: .init(connect: TimeAmount(limits.connectTimeout), read: TimeAmount(limits.requestTimeout)))
        configuration.connectionPool = .init(idleTimeout: .seconds(60),
                                             concurrentHTTP1ConnectionsPerHostSoftLimit: limits.parallelTransfers)
        // A cache answers where it is asked; following a redirect could carry the credentials elsewhere.
        configuration.redirectConfiguration = .disallow
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        timeout = limits.requestTimeout
    }

    func send(_ request: HTTPRequest) async throws -> HTTPAnswer {
        var outgoing = HTTPClientRequest(url: request.url)
        outgoing.method = HTTPMethod(rawValue: request.method)
        if let authorization = request.authorization {
            outgoing.headers.add(name: "Authorization", value: authorization)
        }
        if let body = request.body {
            outgoing.body = .bytes(ByteBuffer(bytes: body))
        }
        do {
            let response = try await client.execute(outgoing, timeout: TimeAmount(timeout))
            let declared = response.headers.first(name: "Content-Length").flatMap { Int($0) }
            let body = try await response.body.collect(upTo: Self.largestBody)
            if let declared, declared != body.readableBytes {
                throw HTTPTransportError.truncated(expected: declared, received: body.readableBytes)
            }
            return HTTPAnswer(status: Int(response.status.code), body: Data(body.readableBytesView))
        } catch let error as HTTPTransportError {
            throw error
        } catch let error as HTTPClientError
            where [.deadlineExceeded, .connectTimeout, .readTimeout, .getConnectionFromPoolTimeout].contains(error) {
            throw HTTPTransportError.timedOut(timeout)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw HTTPTransportError.connection("\(error)")
        }
    }

    func shutDown() async {
        try? await client.shutdown()
    }
}

/// NIO's time amount for a Swift `Duration`, to the nanosecond.
extension TimeAmount {
    init(_ duration: Duration) {
        self = .nanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }
}
