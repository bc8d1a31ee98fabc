import AsyncHTTPClient
import BenchShared
import Foundation

let (base, expected) = arguments()
var configuration = HTTPClient.Configuration()
configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 8
let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
try await measure(client: "AsyncHTTPClient", base: base, expected: expected) { url in
    let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
    guard response.status == .ok else { return -1 }
    let body = try await response.body.collect(upTo: 64 << 20)
    return body.readableBytes
}
try await client.shutdown()
