import CardBakeFiles
import CCurl
import Foundation
import Synchronization

/// Sends requests with libcurl's easy interface: up to `parallelTransfers` threads of its own, each
/// with one easy handle that keeps its connection alive from one request to the next. A request is a
/// blocking `curl_easy_perform` on one of those threads, never on Swift's cooperative pool; `send`
/// suspends until it is done. A connect timeout (`CURLOPT_CONNECTTIMEOUT_MS`) and a deadline for the
/// whole request (`CURLOPT_TIMEOUT_MS`). No proxy from the environment; the certificate authorities
/// trusted are the system's, or those of the PEM file `SSL_CERT_FILE` names (a CI behind a proxy that
/// signs TLS itself). A request's body may stream to a file with a byte limit, and a request may
/// follow redirects (``HTTPRequest/maxRedirects``).
/// README, "Remote cache", says why this client.
package final class HTTPTransport: Sendable {
    private let queue: RequestQueue

    /// - Parameter threadName: the name of its threads, for a debugger.
    package init(connectTimeout: Duration, requestTimeout: Duration, parallelTransfers: Int, threadName: String) {
        queue = RequestQueue(limits: Limits(connectTimeout: connectTimeout, requestTimeout: requestTimeout,
                                            parallelTransfers: parallelTransfers, threadName: threadName))
    }

    deinit {
        queue.close()
    }

    /// The answer to `request`.
    /// - Throws: ``HTTPTransportError``, or `CancellationError` when the task is cancelled (a
    ///   transfer under way stops within about a second, when libcurl next reports progress).
    package func send(_ request: HTTPRequest) async throws -> HTTPAnswer {
        try Task.checkCancellation()
        let cancelled = CancelFlag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                queue.add(PendingRequest(request: request, cancelled: cancelled, continuation: continuation))
            }
        } onCancel: {
            cancelled.set()
        }
    }

    /// Fails the requests still queued and lets the threads end once their transfer is done; requests after this fail.
    package func shutDown() async {
        queue.close()
    }
}

private struct Limits: Sendable {
    let connectTimeout: Duration
    let requestTimeout: Duration
    let parallelTransfers: Int
    let threadName: String
    /// `SSL_CERT_FILE`: the certificate authorities to trust instead of the system's.
    let certificateAuthorities = ProcessInfo.processInfo.environment["SSL_CERT_FILE"].flatMap { $0.isEmpty ? nil : $0 }
}

/// Set once, when the task that sent a request is cancelled; read by the transfer's progress callback.
private final class CancelFlag: Sendable {
    private let value = Atomic(false)
    func set() { value.store(true, ordering: .relaxed) }
    var isSet: Bool { value.load(ordering: .relaxed) }
}

/// A request waiting for a thread, and whom to tell its outcome.
private struct PendingRequest: Sendable {
    let request: HTTPRequest
    let cancelled: CancelFlag
    let continuation: CheckedContinuation<HTTPAnswer, any Error>
}

/// The requests waiting, and the threads that take them: started as requests come, up to `parallelTransfers`.
private final class RequestQueue: Sendable {
    private let limits: Limits
    private let state = Mutex((waiting: [PendingRequest](), threads: 0, idle: 0, closed: false))
    /// Signalled once for each request added, and once for each thread when the queue closes.
    private let ready = DispatchSemaphore(value: 0)

    init(limits: Limits) {
        self.limits = limits
    }

    func add(_ pending: PendingRequest) {
        let (accepted, startsThread) = state.withLock { state -> (Bool, Bool) in
            guard !state.closed else { return (false, false) }
            state.waiting.append(pending)
            let starts = state.idle == 0 && state.threads < max(1, limits.parallelTransfers)
            if starts { state.threads += 1 } else { state.idle -= 1 }
            return (true, starts)
        }
        guard accepted else {
            pending.continuation.resume(throwing: HTTPTransportError.connection("the client was shut down"))
            return
        }
        if startsThread {
            let thread = Thread { [self] in work() }
            thread.name = limits.threadName
            thread.start()
        }
        ready.signal()
    }

    func close() {
        let (left, threads) = state.withLock { state -> ([PendingRequest], Int) in
            guard !state.closed else { return ([], 0) }
            state.closed = true
            defer { state.waiting.removeAll() }
            return (state.waiting, state.threads)
        }
        for pending in left {
            pending.continuation.resume(throwing: HTTPTransportError.connection("the client was shut down"))
        }
        for _ in 0..<threads { ready.signal() }
    }

    /// A thread's life: one easy handle, requests one after another until the queue closes.
    private func work() {
        let connection = CurlConnection(limits: limits)
        while true {
            ready.wait()
            let next = state.withLock { state -> PendingRequest? in
                guard !state.closed, !state.waiting.isEmpty else { return nil }
                return state.waiting.removeFirst()
            }
            guard let next else { return }
            next.continuation.resume(with: Result { try connection.perform(next.request, cancelled: next.cancelled) })
            state.withLock { $0.idle += 1 }
        }
    }
}

/// One libcurl easy handle, used by one thread at a time.
private final class CurlConnection {
    private let handle: UnsafeMutableRawPointer?
    private let limits: Limits
    /// Where libcurl writes what went wrong (CURLOPT_ERRORBUFFER).
    private let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    /// libcurl's global state, set up once before the first handle (curl_global_init is not thread-safe).
    private static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    init(limits: Limits) {
        handle = Self.initialized ? curl_easy_init() : nil
        self.limits = limits
    }

    deinit {
        curl_easy_cleanup(handle)
        errorText.deallocate()
    }

    /// What a transfer's callbacks read and write.
    private final class Transfer {
        var received = Data()
        var receivedBytes = 0
        let maxBodyBytes: Int
        var tooLarge = false
        /// The body's file, open for writing, when the request streams it to one.
        let bodyFile: FileHandle?
        var fileError: (any Error)?
        /// The header fields of the latest answer (a redirect's are replaced by the next answer's).
        var headers: [String: String] = [:]
        let upload: Data
        var uploaded = 0
        let cancelled: CancelFlag

        init(upload: Data, maxBodyBytes: Int, bodyFile: FileHandle?, cancelled: CancelFlag) {
            self.upload = upload
            self.maxBodyBytes = maxBodyBytes
            self.bodyFile = bodyFile
            self.cancelled = cancelled
        }
    }

    func perform(_ request: HTTPRequest, cancelled: CancelFlag) throws -> HTTPAnswer {
        guard let handle else { throw HTTPTransportError.connection("libcurl could not be set up") }
        if cancelled.isSet { throw CancellationError() }
        // Forgets the last request's options, keeps its connection.
        curl_easy_reset(handle)
        let bodyFile = try request.bodyFile.map { path in
            guard FileManager.default.createFile(atPath: path, contents: nil), let file = FileHandle(forWritingAtPath: path) else {
                throw HTTPTransportError.connection("cannot create \(path)")
            }
            return file
        }
        defer { try? bodyFile?.close() }
        let transfer = Transfer(upload: request.body ?? Data(), maxBodyBytes: request.maxBodyBytes, bodyFile: bodyFile,
                                cancelled: cancelled)
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        var headers: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headers) }
        if let authorization = request.authorization {
            headers = curl_slist_append(headers, "Authorization: \(authorization)")
        }
        for line in request.headers {
            headers = curl_slist_append(headers, line)
        }
        // No "Expect: 100-continue" round trip before a body.
        headers = curl_slist_append(headers, "Expect:")
        errorText[0] = 0
        cardbake_curl_setopt_string(handle, CURLOPT_URL, request.url)
        cardbake_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorText)
        cardbake_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        cardbake_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        // As with no client at all: no proxy from the environment.
        cardbake_curl_setopt_string(handle, CURLOPT_PROXY, "")
        if let certificateAuthorities = limits.certificateAuthorities {
            cardbake_curl_setopt_string(handle, CURLOPT_CAINFO, certificateAuthorities)
        }
        if request.maxRedirects > 0 {
            // libcurl sends no Authorization header to another host after a redirect.
            cardbake_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 1)
            cardbake_curl_setopt_long(handle, CURLOPT_MAXREDIRS, request.maxRedirects)
            cardbake_curl_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR,
                                        request.url.lowercased().hasPrefix("https:") ? "https" : "http,https")
        }
        cardbake_curl_setopt_data_callback(handle, CURLOPT_HEADERFUNCTION, Self.header)
        cardbake_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context)
        cardbake_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(limits.connectTimeout))
        cardbake_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, Self.milliseconds(limits.requestTimeout))
        cardbake_curl_setopt_pointer(handle, CURLOPT_HTTPHEADER, headers)
        cardbake_curl_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION, Self.receive)
        cardbake_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
        cardbake_curl_setopt_long(handle, CURLOPT_NOPROGRESS, 0)
        cardbake_curl_setopt_progress_callback(handle, Self.progress)
        cardbake_curl_setopt_pointer(handle, CURLOPT_XFERINFODATA, context)
        switch request.method {
        case "GET":
            cardbake_curl_setopt_long(handle, CURLOPT_HTTPGET, 1)
        case "HEAD":
            cardbake_curl_setopt_long(handle, CURLOPT_NOBODY, 1)
        case "PUT":
            cardbake_curl_setopt_long(handle, CURLOPT_UPLOAD, 1)
            cardbake_curl_setopt_offset(handle, CURLOPT_INFILESIZE_LARGE, curl_off_t(transfer.upload.count))
            cardbake_curl_setopt_data_callback(handle, CURLOPT_READFUNCTION, Self.send)
            cardbake_curl_setopt_pointer(handle, CURLOPT_READDATA, context)
            cardbake_curl_setopt_seek_callback(handle, Self.rewind)
            cardbake_curl_setopt_pointer(handle, CURLOPT_SEEKDATA, context)
        default:
            cardbake_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, request.method)
        }
        let code = curl_easy_perform(handle)
        let reason = String(cString: errorText).isEmpty ? String(cString: curl_easy_strerror(code)) : String(cString: errorText)

        switch code {
        case CURLE_OK:
            var status = 0
            cardbake_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
            var declared: curl_off_t = -1
            cardbake_curl_getinfo_offset(handle, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &declared)
            if request.method != "HEAD", status != 304, declared >= 0, Int(declared) != transfer.receivedBytes {
                throw HTTPTransportError.truncated(expected: Int(declared), received: transfer.receivedBytes)
            }
            return HTTPAnswer(status: status, body: transfer.received, bodyBytes: transfer.receivedBytes,
                              headers: transfer.headers)
        case CURLE_ABORTED_BY_CALLBACK:
            throw CancellationError()
        case CURLE_WRITE_ERROR where transfer.tooLarge:
            throw HTTPTransportError.tooLarge(limit: request.maxBodyBytes)
        case CURLE_WRITE_ERROR where transfer.fileError != nil:
            throw HTTPTransportError.connection("cannot write the body: \(transfer.fileError!)")
        case CURLE_TOO_MANY_REDIRECTS:
            throw HTTPTransportError.tooManyRedirects(request.maxRedirects)
        case CURLE_UNSUPPORTED_PROTOCOL where request.maxRedirects > 0:
            throw HTTPTransportError.redirectRefused(reason)
        case CURLE_COULDNT_RESOLVE_HOST:
            throw HTTPTransportError.unknownHost(URLComponents(string: request.url)?.host ?? "")
        case CURLE_COULDNT_CONNECT:
            var number = 0
            cardbake_curl_getinfo_long(handle, CURLINFO_OS_ERRNO, &number)
            throw HTTPTransportError.refused(number == ECONNREFUSED || number == 0 ? "connection refused"
                                                 : String(cString: strerror(Int32(number))))
        case CURLE_OPERATION_TIMEDOUT:
            var connected: curl_off_t = 0
            cardbake_curl_getinfo_offset(handle, CURLINFO_CONNECT_TIME_T, &connected)
            throw HTTPTransportError.timedOut(connected > 0 ? limits.requestTimeout : limits.connectTimeout)
        case CURLE_PARTIAL_FILE:
            var declared: curl_off_t = -1
            cardbake_curl_getinfo_offset(handle, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &declared)
            throw HTTPTransportError.truncated(expected: Int(declared), received: transfer.receivedBytes)
        case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR:
            throw HTTPTransportError.closed(reason)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE:
            throw HTTPTransportError.tls(reason)
        default:
            throw HTTPTransportError.connection(reason)
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }

    private static func transfer(_ context: UnsafeMutableRawPointer?) -> Transfer {
        Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
    }

    /// CURLOPT_WRITEFUNCTION: keeps the body's bytes, or writes them to the body's file; a body over
    /// the request's limit stops the transfer.
    private static let receive: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
        bytes, size, count, context in
        let transfer = transfer(context)
        let length = size * count
        guard transfer.receivedBytes + length <= transfer.maxBodyBytes else {
            transfer.tooLarge = true
            return 0
        }
        guard let bytes, length > 0 else { return length }
        let buffer = UnsafeRawBufferPointer(start: bytes, count: length)
        if let file = transfer.bodyFile {
            do {
                try file.write(contentsOf: buffer)
            } catch {
                transfer.fileError = error
                return 0
            }
        } else {
            transfer.received.append(contentsOf: buffer)
        }
        transfer.receivedBytes += length
        return length
    }

    /// CURLOPT_HEADERFUNCTION: one header line; a status line starts the next answer's fields.
    private static let header: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
        bytes, size, count, context in
        let transfer = transfer(context)
        let length = size * count
        guard let bytes else { return length }
        let line = String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            transfer.headers = [:]
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].lowercased()
            transfer.headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return length
    }

    /// CURLOPT_READFUNCTION: the next bytes of a PUT's body.
    private static let send: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
        buffer, size, count, context in
        let transfer = transfer(context)
        let length = min(size * count, transfer.upload.count - transfer.uploaded)
        guard let buffer, length > 0 else { return 0 }
        let start = transfer.upload.startIndex + transfer.uploaded
        transfer.upload.copyBytes(to: UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: UInt8.self),
                                  from: start..<start + length)
        transfer.uploaded += length
        return length
    }

    /// CURLOPT_SEEKFUNCTION: back to a place in the PUT's body, when libcurl sends it again (on a
    /// kept-alive connection the server had closed meanwhile).
    private static let rewind: @convention(c) (UnsafeMutableRawPointer?, curl_off_t, Int32) -> Int32 = {
        context, offset, origin in
        let transfer = transfer(context)
        guard origin == SEEK_SET, offset >= 0, offset <= transfer.upload.count else { return Int32(CURL_SEEKFUNC_CANTSEEK) }
        transfer.uploaded = Int(offset)
        return Int32(CURL_SEEKFUNC_OK)
    }

    /// CURLOPT_XFERINFOFUNCTION: stops the transfer once its task is cancelled.
    private static let progress: @convention(c) (UnsafeMutableRawPointer?, curl_off_t, curl_off_t, curl_off_t, curl_off_t) -> Int32 = {
        context, _, _, _, _ in
        transfer(context).cancelled.isSet ? 1 : 0
    }
}
