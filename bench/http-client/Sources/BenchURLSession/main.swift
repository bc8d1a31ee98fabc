import BenchShared
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

let (base, expected) = arguments()
let configuration = URLSessionConfiguration.ephemeral
configuration.httpMaximumConnectionsPerHost = 8
let session = URLSession(configuration: configuration)
try await measure(client: "URLSession", base: base, expected: expected) { url in
    let (data, response) = try await session.data(from: URL(string: url)!)
    guard (response as? HTTPURLResponse)?.statusCode == 200 else { return -1 }
    return data.count
}
