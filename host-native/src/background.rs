//! The server's background work (webhook deliveries, `--vault-rotate`) runs on a runtime of its
//! own: one worker thread (and its blocking threads) at a lower OS priority than the threads that
//! serve clients. On a machine whose cores the clients keep busy, the background gets what they
//! leave; on an idle one it runs at full speed. Its writes still go through the one writer, which
//! runs at the normal priority, so what it submits is committed like any request.
//! ARCHITECTURE.md, "Hosts" and "Webhooks", says what runs here.

use std::io;

/// The background threads' nice value (Linux: per thread; 0 is the clients'). 10 leaves the
/// background about a tenth of a core's share beside a busy client thread, so it never starves.
pub const NICE: i32 = 10;

/// The background runtime: one worker thread and its blocking pool, every thread niced at start.
pub fn runtime() -> io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .thread_name("cards-background")
        .on_thread_start(|| lower_priority(NICE))
        .enable_all()
        .build()
}

/// Lowers the calling thread's priority to `nice` (a failure only costs the clients some CPU).
fn lower_priority(nice: i32) {
    if let Err(cause) = crate::os_thread::lower_nice(nice) {
        tracing::debug!(%cause, "cannot lower a background thread's priority");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The runtime's threads run at the lowered priority; the caller's thread keeps its own.
    #[cfg(target_os = "linux")]
    #[test]
    fn background_threads_are_niced() {
        fn own_nice() -> i32 {
            // SAFETY: gettid takes nothing; getpriority reads its two integers.
            unsafe {
                let tid = libc::gettid() as libc::id_t;
                libc::getpriority(libc::PRIO_PROCESS, tid)
            }
        }
        let before = own_nice();
        let rt = runtime().unwrap();
        let worker = rt.block_on(async { tokio::spawn(async { own_nice() }).await.unwrap() });
        let blocking = rt.block_on(async { tokio::task::spawn_blocking(own_nice).await.unwrap() });
        // A thread already niced past NICE stays there.
        assert_eq!(worker, NICE.max(before));
        assert_eq!(blocking, NICE.max(before));
        assert_eq!(own_nice(), before);
    }
}
