import ArgumentParser
import CardBakeCache
import CardBakeRemoteCache
import Foundation

/// The remote cache behind the local one: `--remote-cache`, `--remote-cache-mode`, and the
/// environment's `CARDBAKE_REMOTE_CACHE` and `CARDBAKE_REMOTE_CACHE_AUTHORIZATION`.
struct RemoteCacheOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "An HTTP cache shared by machines (bazel-remote, nginx with WebDAV): GET and PUT on <url>/ac/… and <url>/cas/….",
        discussion: "Default: $CARDBAKE_REMOTE_CACHE, which may carry user:password; "
            + "$CARDBAKE_REMOTE_CACHE_AUTHORIZATION is sent as the Authorization header.",
        valueName: "url"))
    var remoteCache: String?

    @Option(help: "read: fetch only (untrusted builds); write: upload only; readwrite: both.")
    var remoteCacheMode: RemoteCacheMode = .readwrite

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Give up on one request to the remote cache after this many seconds.", valueName: "seconds"))
    var remoteCacheTimeout: Double = 30

    func validate() throws {
        guard remoteCacheTimeout > 0, remoteCacheTimeout.isFinite else {
            throw ValidationError("--remote-cache-timeout takes a number of seconds above 0, such as 30; found \(remoteCacheTimeout).")
        }
    }

    /// Runs `body` with the server to use (nil for none), and closes the server's connections afterwards.
    /// - Throws: what `body` throws, or ``FlagError`` with a ``RemoteCacheAddressError`` for a URL
    ///   cardbake cannot use.
    func withServer<T: Sendable>(_ body: (HTTPObjectStore?) async throws -> T) async throws -> T {
        let server = try server()
        let result: Result<T, any Error>
        do {
            result = .success(try await body(server))
        } catch {
            result = .failure(error)
        }
        await server?.shutDown()
        return try result.get()
    }

    /// The server to use, nil for none. The flag's URL may not carry credentials (the command line is
    /// readable by every user); the environment's may.
    /// - Throws: ``FlagError`` with a ``RemoteCacheAddressError`` for a URL cardbake cannot use.
    private func server(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> HTTPObjectStore? {
        let fromFlag = remoteCache != nil
        guard let url = remoteCache ?? environment["CARDBAKE_REMOTE_CACHE"].flatMap({ $0.isEmpty ? nil : $0 }) else {
            return nil
        }
        do {
            let address = try RemoteCacheAddress(parsing: url,
                                                 authorization: environment["CARDBAKE_REMOTE_CACHE_AUTHORIZATION"],
                                                 allowingCredentials: !fromFlag)
            return HTTPObjectStore(address: address, limits: HTTPObjectStore.Limits(
                connectTimeout: .seconds(min(5, remoteCacheTimeout)), requestTimeout: .seconds(remoteCacheTimeout)))
        } catch {
            throw FlagError(flag: fromFlag ? "--remote-cache" : "CARDBAKE_REMOTE_CACHE", underlying: error)
        }
    }
}

extension RemoteCacheMode: ExpressibleByArgument {}
