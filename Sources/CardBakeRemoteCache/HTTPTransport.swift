import CCurl
import Foundation
import Synchronization

/// Sends requests with libcurl's easy interface: up to `parallelTransfers` threads of its own, each
/// with one easy handle that keeps its connection alive from one request to the next. A request is a
/// blocking `curl_easy_perform` on one of those threads, never on Swift's cooperative pool; `send`
/// suspends until it is done. A connect timeout (`CURLOPT_CONNECTTIMEOUT_MS`) and a deadline for the
/// whole request (`CURLOPT_TIMEOUT_MS`). README, "Remote cache", says why this client.
final class HTTPTransport: Sendable {
    private let queue: RequestQueue

    init(limits: HTTPObjectStore.Limits) {
        queue = RequestQueue(limits: limits)
    }

    deinit {
        queue.close()
    }

    /// The answer to `request`.
    /// - Throws: ``HTTPTransportError``, or `CancellationError` when the task is cancelled (a
    ///   transfer under way stops within about a second, when libcurl next reports progress).
    func send(_ request: HTTPRequest) async throws -> HTTPAnswer {
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
    func shutDown() async {
        queue.close()
    }
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
    private let limits: HTTPObjectStore.Limits
    private let state = Mutex((waiting: [PendingRequest](), threads: 0, idle: 0, closed: false))
    /// Signalled once for each request added, and once for each thread when the queue closes.
    private let ready = DispatchSemaphore(value: 0)

    init(limits: HTTPObjectStore.Limits) {
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
            thread.name = "cardbake remote cache"
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
    private let limits: HTTPObjectStore.Limits
    /// Where libcurl writes what went wrong (CURLOPT_ERRORBUFFER).
    private let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    /// The largest body accepted: well above any card's bitmap.
    private static let largestBody = 512 << 20
    /// libcurl's global state, set up once before the first handle (curl_global_init is not thread-safe).
    private static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    init(limits: HTTPObjectStore.Limits) {
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
        var tooLarge = false
        let upload: Data
        var uploaded = 0
        let cancelled: CancelFlag

        init(upload: Data, cancelled: CancelFlag) {
            self.upload = upload
            self.cancelled = cancelled
        }
    }

    func perform(_ request: HTTPRequest, cancelled: CancelFlag) throws -> HTTPAnswer {
        guard let handle else { throw HTTPTransportError.connection("libcurl could not be set up") }
        if cancelled.isSet { throw CancellationError() }
        // Forgets the last request's options, keeps its connection.
        curl_easy_reset(handle)
        let transfer = Transfer(upload: request.body ?? Data(), cancelled: cancelled)
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        var headers: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headers) }
        if let authorization = request.authorization {
            headers = curl_slist_append(headers, "Authorization: \(authorization)")
        }
        // No "Expect: 100-continue" round trip before a body.
        headers = curl_slist_append(headers, "Expect:")
        errorText[0] = 0
        cardbake_curl_setopt_string(handle, CURLOPT_URL, request.url)
        cardbake_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorText)
        cardbake_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        cardbake_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        // As with no client at all: no proxy from the environment. No redirects either (the default):
        // a cache answers where it is asked, and following could carry the credentials elsewhere.
        cardbake_curl_setopt_string(handle, CURLOPT_PROXY, "")
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
            if request.method != "HEAD", declared >= 0, Int(declared) != transfer.received.count {
                throw HTTPTransportError.truncated(expected: Int(declared), received: transfer.received.count)
            }
            return HTTPAnswer(status: status, body: transfer.received)
        case CURLE_ABORTED_BY_CALLBACK:
            throw CancellationError()
        case CURLE_WRITE_ERROR where transfer.tooLarge:
            throw HTTPTransportError.connection("the body is over \(Self.largestBody >> 20) MiB")
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
            throw HTTPTransportError.truncated(expected: Int(declared), received: transfer.received.count)
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

    /// CURLOPT_WRITEFUNCTION: keeps the body's bytes; a body over ``largestBody`` stops the transfer.
    private static let receive: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
        bytes, size, count, context in
        let transfer = transfer(context)
        let length = size * count
        guard transfer.received.count + length <= largestBody else {
            transfer.tooLarge = true
            return 0
        }
        if let bytes, length > 0 { transfer.received.append(UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self), count: length) }
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
