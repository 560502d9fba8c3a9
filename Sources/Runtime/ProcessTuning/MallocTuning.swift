import CSystem

/// The allocator setting the gateway runs with.
public enum MallocTuning {
    /// Every block of 128 KiB or more gets a mapping of its own, returned to the system when freed.
    ///
    /// By default glibc raises this threshold each time such a block is freed (up to 32 MiB), after
    /// which blocks of that size come from the threads' arenas, whose free space is not given back:
    /// after a burst of large upstream bodies or log batches each event loop's arena stays
    /// megabytes larger for good (docs/PERFORMANCE.md, docs/RELIABILITY.md). Setting the threshold
    /// turns that adjustment off. Such a block then costs a mapping and its page faults each time,
    /// little beside what decoding that much JSON costs.
    static let mmapThreshold: Int32 = 128 << 10

    /// Sets the threshold; once, before the gateway allocates much.
    public static func apply() {
        mallopt(M_MMAP_THRESHOLD, mmapThreshold)
    }
}
