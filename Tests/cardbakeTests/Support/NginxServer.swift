import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A real nginx (Debian's, with its WebDAV module) on a free 127.0.0.1 port, serving a remote cache
/// the way a team would run one: `GET` and `PUT` under `/ac/` and `/cas/`, objects kept as files in
/// `data/`. Its config, pid, logs and data live in `folder`; it runs in the foreground as a child
/// of the tests, as the current user, and ``stop()`` (or the end of ``with(in:behaviour:_:)``) ends it.
final class NginxServer {
    /// How the server answers, beyond a plain WebDAV cache.
    struct Behaviour {
        /// Every request answered with HTTP 500.
        var failing = false
        /// Bodies sent at this many bytes per second: a server that hangs.
        var bytesPerSecond: Int?
        /// HTTP Basic authentication required, with this user and password.
        var credentials: (user: String, password: String)?
        /// TLS with this certificate and key (PEM files): the server speaks https only.
        var tls: (certificate: URL, key: URL)?
        /// Paths answered with a `302` to another URL.
        var redirects: [String: String] = [:]
    }

    let folder: URL
    let port: Int
    private let process: Process
    private let scheme: String

    var url: String { "\(scheme)://127.0.0.1:\(port)" }
    var data: URL { folder.appendingPathComponent("data") }

    /// Starts nginx serving `folder/data` (kept if it is already there).
    init(in folder: URL, behaviour: Behaviour = Behaviour()) throws {
        self.folder = folder
        let temp = folder.appendingPathComponent("temp")
        for made in [folder.appendingPathComponent("data"), temp] {
            try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
        }
        port = try Self.freePort()
        scheme = behaviour.tls == nil ? "http" : "https"
        let tls = behaviour.tls.map { " ssl;\n ssl_certificate \($0.certificate.path);\n ssl_certificate_key \($0.key.path)" } ?? ""
        let redirects = behaviour.redirects.sorted { $0.key < $1.key }.map { "location = \($0.key) { return 302 \($0.value); }" }
        var location = "dav_methods PUT;\n create_full_put_path on;\n client_max_body_size 64m;\n"
        if behaviour.failing { location += "return 500;\n" }
        if let rate = behaviour.bytesPerSecond { location += "limit_rate \(rate);\n" }
        if let credentials = behaviour.credentials {
            let users = folder.appendingPathComponent("htpasswd")
            try Data("\(credentials.user):{PLAIN}\(credentials.password)\n".utf8).write(to: users)
            location += "auth_basic \"cardbake\";\n auth_basic_user_file \(users.path);\n"
        }
        // As root, nginx's worker would switch to `nobody`, who cannot write the folder.
        let user = geteuid() == 0 ? "user root root;" : ""
        let config = """
            \(user)
            daemon off;
            worker_processes 1;
            pid \(folder.path)/nginx.pid;
            error_log \(folder.path)/error.log warn;
            events { worker_connections 256; }
            http {
                access_log \(folder.path)/access.log;
                client_body_temp_path \(temp.path)/body;
                proxy_temp_path \(temp.path)/proxy;
                fastcgi_temp_path \(temp.path)/fastcgi;
                uwsgi_temp_path \(temp.path)/uwsgi;
                scgi_temp_path \(temp.path)/scgi;
                server {
                    listen 127.0.0.1:\(port)\(tls);
                    root \(folder.path)/data;
                    \(redirects.joined(separator: "\n"))
                    location / {
                        \(location)
                    }
                }
            }
            """
        let configFile = folder.appendingPathComponent("nginx.conf")
        try Data(config.utf8).write(to: configFile)
        process = Process()
        process.executableURL = try Self.executable()
        process.arguments = ["-p", folder.path, "-e", folder.appendingPathComponent("error.log").path,
                             "-c", configFile.path]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try waitUntilListening()
    }

    /// Runs `body` with a server in `folder`, stopped afterwards whatever happens.
    static func with<T>(in folder: URL, behaviour: Behaviour = Behaviour(), _ body: (NginxServer) throws -> T) throws -> T {
        let server = try NginxServer(in: folder, behaviour: behaviour)
        defer { server.stop() }
        return try body(server)
    }

    /// Ends nginx and waits for it.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    /// Paths of the objects the server keeps, such as `cas/<sha256>`, sorted.
    func objects() -> [String] {
        (FileManager.default.enumerator(atPath: data.path)?.compactMap { $0 as? String } ?? [])
            .filter { $0.split(separator: "/").count == 2 }.sorted()
    }

    /// What nginx logged of each request, one line each.
    func accessLog() -> [String] {
        let text = (try? String(contentsOf: folder.appendingPathComponent("access.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    private func waitUntilListening() throws {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            guard process.isRunning else {
                let log = (try? String(contentsOf: folder.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
                throw SandboxError("nginx exited at start (status \(process.terminationStatus)): \(log)")
            }
            if Self.accepts(port: port) { return }
            usleep(20_000)
        }
        stop()
        throw SandboxError("nginx did not listen on 127.0.0.1:\(port) within 30 s")
    }

    private static func executable() throws -> URL {
        for path in ["/usr/sbin/nginx", "/usr/bin/nginx"] where FileManager.default.isExecutableFile(atPath: path) {
            return URL(fileURLWithPath: path)
        }
        throw SandboxError("nginx not found in /usr/sbin or /usr/bin; `make test-deps` installs it (Debian's nginx-light)")
    }

    /// A port no one listens on now (the kernel's choice for port 0).
    private static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard bound else { throw SandboxError("no free port: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func accepts(port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}
