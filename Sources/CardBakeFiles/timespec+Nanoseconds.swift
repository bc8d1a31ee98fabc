import Glibc

extension timespec {
    /// The time as nanoseconds since 1970.
    package var nanoseconds: Int64 {
        Int64(tv_sec) * 1_000_000_000 + Int64(tv_nsec)
    }
}
