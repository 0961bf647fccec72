//! The process's allocator (mimalloc), and how the server has its memory handed out.
//!
//! A checkpoint drops the memtable it wrote, tens of MiB each second at full write speed, and the
//! writer fills the next one with as much again. By default mimalloc asks for transparent huge
//! pages and gives freed memory back to the OS a second after it is freed, so each new memtable
//! faulted its memory in again, 2 MiB at a time, zeroed on first touch inside a batch on the
//! writer thread. On the 2-core virtual machine of docs/benchmarks.md such a fault took about
//! 7 ms (likely because its kernel reports freed pages to the host, `page_reporting`, so the host
//! must supply them again), 2 to 18 times a second, and every write in those batches waited for
//! it. So the server keeps what it frees for reuse ([`keep_freed_memory`]: its footprint stays at
//! its high-water mark, which the memtables' bound keeps) and takes its memory in 4 KiB pages
//! ([`small_pages`]: what still has to be faulted in comes a page at a time, not in 7 ms lumps).

use libmimalloc_sys as ffi;

// The writer thread allocates for every key it stages and every page redb copies; glibc's malloc
// spent a sixth of that thread's time on it (perf, 64 concurrent card creations).
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay` (libmimalloc-sys names no constant for it): milliseconds
/// before freed memory goes back to the OS; -1: never.
const PURGE_DELAY: ffi::mi_option_t = 15;

/// mimalloc keeps freed memory for reuse instead of returning it to the OS, unless the operator
/// set `MIMALLOC_PURGE_DELAY` (mimalloc reads it at start).
pub fn keep_freed_memory() {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: sets one of mimalloc's options, which it reads atomically; no memory is involved.
        unsafe { ffi::mi_option_set(PURGE_DELAY, -1) };
    }
}

/// Transparent huge pages off for this process (`PR_SET_THP_DISABLE`; the kernel checks it at
/// each fault, so it covers what mimalloc mapped before). False if the kernel refused.
pub fn small_pages() -> bool {
    // SAFETY: sets a flag of the process; no memory is passed.
    unsafe { libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0) == 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeping_freed_memory_sets_the_purge_delay() {
        if std::env::var_os("MIMALLOC_PURGE_DELAY").is_some() {
            return;
        }
        // SAFETY: reads an option.
        let get = || unsafe { ffi::mi_option_get(PURGE_DELAY) };
        // 1,000 ms is the purge delay's default and no other option's: the number names it.
        assert_eq!(get(), 1000);
        keep_freed_memory();
        assert_eq!(get(), -1);
    }

    #[test]
    fn small_pages_turns_huge_pages_off_for_the_process() {
        assert!(small_pages());
        // SAFETY: reads a flag of the process.
        assert_eq!(
            unsafe { libc::prctl(libc::PR_GET_THP_DISABLE, 0, 0, 0, 0) },
            1
        );
    }
}
