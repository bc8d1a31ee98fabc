import CVips
import CVipsShim
import Foundation
import Synchronization

/// libvips, started once per process.
public enum Vips {
    private static let startup: Result<Void, VipsError> = {
        if cvips_start(CommandLine.arguments.first ?? "cardbake") != 0 {
            return .failure(VipsError.fromBuffer(operation: "start"))
        }
        started.store(true, ordering: .releasing)
        return .success(())
    }()
    private static let started = Atomic(false)

    /// Held while a libvips pipeline is built and while an image is released, never while pixels
    /// are computed. libvips 8.14 compiles orc programs as it builds some operations (the vertical
    /// reduce of every shrink, integer convolutions) and frees them when they are released, and
    /// orc 0.4.33's code allocator corrupts its lists when one thread frees while another compiles
    /// (docs/RELIABILITY.md reproduces the crash with libvips alone, and shows this lock preventing it).
    static let pipelineLock = Mutex<Void>(())

    /// Starts libvips (first call only): operation cache off, untrusted loaders blocked.
    /// Call before starting any thread that uses libvips. Throws if libvips cannot start.
    public static func start() throws(VipsError) {
        try startup.get()
    }

    /// Sets how many threads each libvips pipeline (a decode, a resize, an encode) runs on, unless
    /// the `VIPS_CONCURRENCY` environment variable chose it: the user's setting wins.
    public static func setThreadsPerPipeline(_ threads: Int) {
        guard ProcessInfo.processInfo.environment["VIPS_CONCURRENCY"] == nil else { return }
        vips_concurrency_set(Int32(max(1, threads)))
    }

    /// The libvips version, e.g. `8.14.1`.
    public static var version: String {
        String(cString: vips_version_string())
    }

    /// Frees libvips' per-thread state. Threads libvips did not create call this before they end;
    /// it does nothing while libvips has not started.
    public static func threadShutdown() {
        guard started.load(ordering: .acquiring) else { return }
        vips_thread_shutdown()
    }
}
