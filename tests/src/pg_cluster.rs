//! A throwaway PostgreSQL cluster for tests (Debian's `postgresql` package): `initdb` in a temporary
//! directory, then the `postgres` server in the foreground on a free port, tied to this process (it gets
//! SIGKILL if the test process dies, which a `pg_ctl`-daemonized server would not) and stopped on drop.
//!
//! PostgreSQL refuses to run as root: as root, the cluster runs as user `nobody` (the directory is
//! handed to it). The binaries come from `PG_BIN`, else the newest `/usr/lib/postgresql/*/bin`.
//! Authentication is `trust` on 127.0.0.1 for the superuser `cards`: test data only.

use std::ffi::CString;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::host::{free_addr, random_hex, spawn_tied_to_this_process};

pub struct PgCluster {
    dir: PathBuf,
    bin: PathBuf,
    pub port: u16,
    pid: u32,
}

/// The directory of `initdb`, `postgres`, `createdb`, `pg_isready`.
pub fn bin_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("PG_BIN") {
        return PathBuf::from(dir);
    }
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter_map(|e| {
                    let version = e.file_name().to_str()?.parse::<u32>().ok()?;
                    let bin = e.path().join("bin");
                    bin.join("initdb").is_file().then_some((version, bin))
                })
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found.pop().map(|(_, bin)| bin).unwrap_or_else(|| {
        panic!("no PostgreSQL found under /usr/lib/postgresql (apt-get install postgresql, or set PG_BIN)")
    })
}

/// The uid and gid to run PostgreSQL as: `nobody` when this process is root, else ourselves.
fn run_as() -> Option<(u32, u32)> {
    // SAFETY: plain libc calls; getpwnam's result is read at once, before any other call.
    unsafe {
        if libc::geteuid() != 0 {
            return None;
        }
        let name = CString::new("nobody").expect("no NUL");
        let pw = libc::getpwnam(name.as_ptr());
        assert!(
            !pw.is_null(),
            "running as root and there is no user `nobody` to run PostgreSQL as"
        );
        Some(((*pw).pw_uid, (*pw).pw_gid))
    }
}

fn as_user(cmd: &mut Command, user: Option<(u32, u32)>) {
    if let Some((uid, gid)) = user {
        cmd.uid(uid).gid(gid).env("HOME", "/tmp");
    }
}

fn chown_all(path: &Path, (uid, gid): (u32, u32)) {
    let c = CString::new(path.as_os_str().as_encoded_bytes()).expect("path without NUL");
    // SAFETY: chown on a path string we own.
    let r = unsafe { libc::chown(c.as_ptr(), uid, gid) };
    assert_eq!(r, 0, "chown {}", path.display());
}

/// Hands a file or directory to the user the server runs as (a TLS key PostgreSQL must own).
pub fn give_to_server(path: &Path) {
    if let Some(user) = run_as() {
        chown_all(path, user);
    }
}

impl PgCluster {
    /// initdb + start, waiting until it accepts connections. `settings` are extra `-c name=value`.
    pub fn start(settings: &[&str]) -> PgCluster {
        let bin = bin_dir();
        let user = run_as();
        let dir = tempfile::Builder::new()
            .prefix("cards-pg-")
            .tempdir()
            .expect("temporary directory")
            .keep();
        if let Some(user) = user {
            chown_all(&dir, user);
        }
        let data = dir.join("data");
        let mut initdb = Command::new(bin.join("initdb"));
        initdb
            .current_dir(&dir)
            .args([
                "-U",
                "cards",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
                "-D",
            ])
            .arg(&data)
            .stdin(Stdio::null());
        as_user(&mut initdb, user);
        let out = initdb.output().expect("run initdb");
        assert!(
            out.status.success(),
            "initdb failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let mut last = String::new();
        for _ in 0..3 {
            let port = free_addr().port();
            let log = dir.join(format!("postgres-{port}.log"));
            let file = std::fs::File::create(&log).expect("log file");
            if let Some(user) = user {
                chown_all(&log, user);
            }
            let mut cmd = Command::new(bin.join("postgres"));
            cmd.current_dir(&dir)
                .arg("-D")
                .arg(&data)
                .arg("-p")
                .arg(port.to_string())
                .arg("-k")
                .arg(&dir)
                .args([
                    "-c",
                    "listen_addresses=127.0.0.1",
                    "-c",
                    "max_connections=300",
                ])
                .stdin(Stdio::null())
                .stdout(file.try_clone().expect("log"))
                .stderr(file);
            for s in settings {
                cmd.arg("-c").arg(s);
            }
            as_user(&mut cmd, user);
            let child = spawn_tied_to_this_process(cmd);
            let cluster = PgCluster {
                dir: dir.clone(),
                bin: bin.clone(),
                port,
                pid: child.id(),
            };
            if cluster.wait_ready(child) {
                return cluster;
            }
            last = std::fs::read_to_string(&log).unwrap_or_default();
            std::mem::forget(cluster);
        }
        panic!("PostgreSQL did not start:\n{last}");
    }

    fn wait_ready(&self, mut child: std::process::Child) -> bool {
        let deadline = Instant::now() + Duration::from_secs(60);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = child.try_wait() {
                return false;
            }
            let ok = Command::new(self.bin.join("pg_isready"))
                .args(["-q", "-h", "127.0.0.1", "-U", "cards", "-p"])
                .arg(self.port.to_string())
                .status()
                .map(|s| s.success())
                .unwrap_or(false);
            if ok {
                return true;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        false
    }

    /// A new, empty database; returns its URL.
    pub fn create_database(&self) -> String {
        let name = format!("cards_{}", random_hex(6));
        let out = Command::new(self.bin.join("createdb"))
            .args(["-h", "127.0.0.1", "-U", "cards", "-p"])
            .arg(self.port.to_string())
            .arg(&name)
            .output()
            .expect("run createdb");
        assert!(
            out.status.success(),
            "createdb failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        self.url(&name)
    }

    /// The cluster's files: tables, indexes and WAL.
    pub fn data_dir(&self) -> PathBuf {
        self.dir.join("data")
    }

    pub fn url(&self, database: &str) -> String {
        format!("postgres://cards@127.0.0.1:{}/{database}", self.port)
    }

    /// Runs one SQL command through `psql` and returns its unaligned output.
    pub fn psql(&self, database: &str, sql: &str) -> String {
        let out = Command::new(self.bin.join("psql"))
            .args([
                "-h",
                "127.0.0.1",
                "-U",
                "cards",
                "-AtX",
                "-v",
                "ON_ERROR_STOP=1",
                "-p",
            ])
            .arg(self.port.to_string())
            .args(["-d", database, "-c", sql])
            .output()
            .expect("run psql");
        assert!(
            out.status.success(),
            "psql failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// A `psql` session on the database at `url` that stays open: statements sent with
    /// [`PsqlSession::send`] run in it, in order (for holding a lock while a test runs).
    pub fn session(&self, url: &str) -> PsqlSession {
        let child = Command::new(self.bin.join("psql"))
            .args(["-AtqX", "-v", "ON_ERROR_STOP=1", "-d", url])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("run psql");
        PsqlSession { child }
    }

    fn stop(&self) {
        // SAFETY: signals and waitpid on the postmaster this process started.
        unsafe {
            // SIGQUIT: immediate shutdown; nothing here needs the data after the tests.
            libc::kill(self.pid as libc::pid_t, libc::SIGQUIT);
            let deadline = Instant::now() + Duration::from_secs(10);
            loop {
                let r = libc::waitpid(self.pid as libc::pid_t, std::ptr::null_mut(), libc::WNOHANG);
                if r != 0 || Instant::now() > deadline {
                    break;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            libc::kill(self.pid as libc::pid_t, libc::SIGKILL);
            libc::waitpid(self.pid as libc::pid_t, std::ptr::null_mut(), libc::WNOHANG);
        }
        if std::env::var_os("CARDS_TEST_KEEP_DATA").is_none() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

impl Drop for PgCluster {
    fn drop(&mut self) {
        self.stop();
    }
}

static SHARED: OnceLock<PgCluster> = OnceLock::new();

/// The cluster of this test process (one per run of the suite), for `CARDS_TEST_STORE=postgres` (one
/// database per server) and the tests of several instances on one database; stopped at exit.
pub fn shared() -> &'static PgCluster {
    SHARED.get_or_init(|| {
        // Every test of the run shares it: the shared server, and at the same time several tests'
        // instances (each native one keeps a pool of 16 connections).
        let cluster = PgCluster::start(&["fsync=off", "max_connections=1000"]);
        extern "C" fn cleanup() {
            if let Some(c) = SHARED.get() {
                c.stop();
            }
        }
        // SAFETY: registering a plain extern "C" function.
        unsafe {
            libc::atexit(cleanup);
        }
        cluster
    })
}

/// An open `psql` session ([`PgCluster::session`]); ended (and its transaction rolled back) on drop.
pub struct PsqlSession {
    child: std::process::Child,
}

impl PsqlSession {
    /// Sends SQL to the session (it runs asynchronously; poll the database to see its effect).
    pub fn send(&mut self, sql: &str) {
        use std::io::Write as _;
        let stdin = self.child.stdin.as_mut().expect("psql stdin");
        stdin.write_all(sql.as_bytes()).expect("write to psql");
        stdin.write_all(b"\n").expect("write to psql");
        stdin.flush().expect("flush psql");
    }
}

impl Drop for PsqlSession {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
