import CardBakeCache
import CardBakeManifest
import Foundation
import Synchronization

/// A remote cache in memory, for the tier's unit tests: keeps what is put, counts requests, and
/// fails every request while `failing` is set (as an outage when `outage` is set too).
final class InMemoryRemote: RemoteObjectStore {
    private let state = Mutex((objects: [String: Data](), gets: 0, puts: 0, failing: false, outage: false))

    var displayName: String { "memory://remote" }

    func get(_ area: RemoteArea, _ digest: ContentDigest) async throws -> Data? {
        try state.withLock { state in
            state.gets += 1
            if state.failing { throw RemoteCacheFailure("down", isOutage: state.outage) }
            return state.objects["\(area.rawValue)/\(digest)"]
        }
    }

    func contains(_ area: RemoteArea, _ digest: ContentDigest) async throws -> Bool {
        try state.withLock { state in
            if state.failing { throw RemoteCacheFailure("down", isOutage: state.outage) }
            return state.objects["\(area.rawValue)/\(digest)"] != nil
        }
    }

    func put(_ data: Data, in area: RemoteArea, as digest: ContentDigest) async throws {
        try state.withLock { state in
            state.puts += 1
            if state.failing { throw RemoteCacheFailure("down", isOutage: state.outage) }
            state.objects["\(area.rawValue)/\(digest)"] = data
        }
    }

    var gets: Int { state.withLock { $0.gets } }
    var puts: Int { state.withLock { $0.puts } }
    var objects: [String: Data] { state.withLock { $0.objects } }

    func setFailing(_ failing: Bool, outage: Bool = false) {
        state.withLock {
            $0.failing = failing
            $0.outage = outage
        }
    }

    /// Replaces an object's bytes, as a damaged or malicious server would.
    func replace(_ path: String, with data: Data) { state.withLock { $0.objects[path] = data } }
}

/// Warning lines, collected.
final class Warnings: Sendable {
    private let lines = Mutex<[String]>([])
    func add(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}
