//! The calling thread's scheduling and CPU time. Background threads (the checkpointer) run work no
//! request waits for on what the request threads leave of the cores, rather than beside them.
//! Linux only; elsewhere, and when the kernel refuses, the thread keeps its priority (a warning).

use std::time::Duration;

/// How a background thread is scheduled (`--checkpoint-priority`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Priority {
    /// As every other thread (nice 0).
    Normal,
    /// Niceness 19: the scheduler gives it about 1.5% of a core that another thread wants.
    Low,
    /// `SCHED_IDLE`: only time no other thread wants (still a little, so it never starves wholly).
    Idle,
}

impl Priority {
    /// Schedules the calling thread (only it: Linux schedules threads, not processes) at this
    /// priority.
    pub fn apply_to_this_thread(self) -> std::io::Result<()> {
        apply(self)
    }
}

/// Lowers the calling thread's nice value to `nice`, or leaves it where it is already lower (the
/// background runtime's threads, `background.rs`).
pub fn lower_nice(nice: i32) -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: gettid takes nothing; getpriority and setpriority read plain integers. On Linux
        // PRIO_PROCESS with a thread id is that one thread's nice value.
        let done = unsafe {
            let tid = libc::gettid() as libc::id_t;
            let now = libc::getpriority(libc::PRIO_PROCESS, tid);
            libc::setpriority(libc::PRIO_PROCESS, tid, nice.max(now))
        };
        if done == 0 {
            Ok(())
        } else {
            Err(std::io::Error::last_os_error())
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = nice;
        Err(std::io::Error::new(
            std::io::ErrorKind::Unsupported,
            "thread priorities are set on Linux only",
        ))
    }
}

/// CPU time the calling thread has used (user and system): what a piece of work cost, apart from
/// the time it waited for a core or the disk. Zero where unknown.
pub fn cpu_time() -> Duration {
    #[cfg(target_os = "linux")]
    {
        let mut t = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: clock_gettime writes one timespec that lives across the call.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0 {
            return Duration::new(t.tv_sec as u64, t.tv_nsec as u32);
        }
    }
    Duration::ZERO
}

#[cfg(target_os = "linux")]
fn apply(priority: Priority) -> std::io::Result<()> {
    // SAFETY: gettid, setpriority and sched_setscheduler take plain values and a pointer to a
    // param that outlives the call; they change only the calling thread's scheduling.
    let done = unsafe {
        let tid = libc::gettid();
        match priority {
            Priority::Normal => return Ok(()),
            Priority::Low => return lower_nice(19),
            Priority::Idle => {
                let param = libc::sched_param { sched_priority: 0 };
                libc::sched_setscheduler(tid, libc::SCHED_IDLE, &param)
            }
        }
    };
    if done == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

#[cfg(not(target_os = "linux"))]
fn apply(priority: Priority) -> std::io::Result<()> {
    match priority {
        Priority::Normal => Ok(()),
        _ => Err(std::io::Error::new(
            std::io::ErrorKind::Unsupported,
            "thread priorities are set on Linux only",
        )),
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// The priority lands on the thread that asked, not on the process's other threads.
    #[test]
    fn a_thread_lowers_only_itself() {
        let nice =
            || unsafe { libc::getpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t) };
        let before = nice();
        let (inside, policy) = std::thread::spawn(move || {
            Priority::Low.apply_to_this_thread().unwrap();
            let low = nice();
            Priority::Idle.apply_to_this_thread().unwrap();
            (low, unsafe { libc::sched_getscheduler(0) })
        })
        .join()
        .unwrap();
        assert_eq!(inside, 19);
        assert_eq!(policy, libc::SCHED_IDLE);
        assert_eq!(nice(), before);
        assert_eq!(unsafe { libc::sched_getscheduler(0) }, libc::SCHED_OTHER);
    }
}
