#if canImport(Glibc)
import Glibc
#endif

/// Gives memory that was freed back to the system, where the C library keeps it otherwise.
///
/// glibc keeps what a thread frees in that thread's arena for later use by the same arena; a
/// results writer frees its queue and SQLite's page cache on threads that then end, and nothing
/// later allocates from those arenas, so the process's resident size stayed ~15 MB higher
/// after every stored run (linkconform-bench protocol). `malloc_trim` returns such free pages.
/// It is looked up at run time (Swift does not import `malloc.h`); elsewhere this does nothing.
enum FreedMemory {
    #if canImport(Glibc)
    private typealias Trim = @convention(c) (Int) -> Int32
    private static let trim: Trim? = dlsym(nil, "malloc_trim").map { unsafeBitCast($0, to: Trim.self) }
    #endif

    /// Returns free pages of every arena to the system (a few milliseconds).
    static func release() {
        #if canImport(Glibc)
        _ = trim?(0)
        #endif
    }
}
