import CMalloc

/// Gives the memory that glibc's allocator holds free back to the system once it holds more than a bound.
///
/// glibc returns a freed block to the system only from the top of its heaps; what is freed below
/// live blocks stays resident. Render workers free buffers of many sizes, so without this a long
/// build's peak creeps up with the catalog (bench/README.md, "Memory: what sets the peak"). Each
/// page given back is a page fault when touched again, so memory the next cards will reuse is kept.
package final class FreeMemoryReturn: Sendable {
    /// What glibc may hold free before it is given back: more than a build's workers free between
    /// cards and take again for the next ones (bench/README.md, "Workers and the allocator"). `Main`
    /// gives the heap's trim threshold the same value.
    package static let keptFree = 64 << 20

    private let bound: Int
    private let freeHeld: @Sendable () -> Int
    private let action: @Sendable () -> Void

    /// `freeHeld` is the bytes the allocator holds free, glibc's `mallinfo2`; `action` gives them back,
    /// glibc's `malloc_trim`. Tests replace both.
    init(whenHoldingMoreThan bound: Int = keptFree,
         freeHeld: @escaping @Sendable () -> Int = { Int(mallinfo2().fordblks) },
         action: @escaping @Sendable () -> Void = { malloc_trim(0) }) {
        self.bound = bound
        self.freeHeld = freeHeld
        self.action = action
    }

    /// Gives free memory back if the allocator holds more than the bound.
    func giveBack() {
        if freeHeld() > bound { action() }
    }
}
