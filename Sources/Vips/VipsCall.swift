import CVips
import CVipsShim
import Glibc

/// Runs libvips work so that each failure carries its own messages.
///
/// libvips 8.14 keeps one error buffer for the whole process, appended to by every thread: a message
/// read after a failing call may be another thread's, or joined with one. So libvips work runs in
/// steps (a decode, an operation, an encode): each step runs holding a shared lock, and a step that
/// fails runs again from its start holding the lock alone, after clearing the buffer, so what the
/// buffer then holds is that step's own. A step must therefore be safe to run twice; one that starts
/// from encoded bytes (a decode) fails the same way again, with the same messages. Failures are rare,
/// so the cost is one uncontended read lock per step. libvips' own threads work inside the calls that
/// start them, so inside a step.
enum VipsCall {
    private static let lock = ReadWriteLock()
    private static let outside: Int32 = 0, shared: Int32 = 1, alone: Int32 = 2

    /// Runs `body` as one step; a step run inside another is part of it. `body` reports a libvips call
    /// that failed by throwing ``failure(of:)``.
    static func step<Value>(_ body: () throws(VipsError) -> Value) throws(VipsError) -> Value {
        guard cvips_error_mode() == outside else { return try body() }
        defer { cvips_set_error_mode(outside) }
        do {
            return try lock.reading { () throws(VipsError) -> Value in
                cvips_set_error_mode(shared)
                return try body()
            }
        } catch {
            return try lock.writing { () throws(VipsError) -> Value in
                cvips_set_error_mode(alone)
                vips_error_clear()
                return try body()
            }
        }
    }

    /// The error of a libvips call about `operation` that just failed: with its messages when its step
    /// runs alone, else one that makes the step run again alone.
    static func failure(of operation: String) -> VipsError {
        guard cvips_error_mode() == alone else {
            return VipsError(operation: operation, message: "failed while other threads ran libvips")
        }
        return VipsError.fromBuffer(operation: operation)
    }
}

/// A POSIX read-write lock that lets a waiting writer in before new readers, so that a failed step is
/// not starved by the steps of other threads. Not recursive: ``VipsCall/step(_:)`` never nests it.
private final class ReadWriteLock: @unchecked Sendable {
    private let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)

    init() {
        var attributes = pthread_rwlockattr_t()
        pthread_rwlockattr_init(&attributes)
        pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
        pthread_rwlock_init(lock, &attributes)
        pthread_rwlockattr_destroy(&attributes)
    }

    func reading<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }

    func writing<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }
}
