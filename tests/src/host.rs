//! Starting and stopping the server under test.
//!
//! One server per test process (the suite is one test binary, `tests/acceptance/`): every test shares
//! it, and isolates itself by using its own API key (its own client namespace). The host is chosen by `CARDS_TEST_HOST`:
//!
//! - `native` (default): the `cards` binary (`cargo build -p host-native`), started as
//!   `cards serve --listen ADDR --data DIR/cards.redb`.
//! - `spin`: the Spin component inside the wasmtime test host, started as
//!   `spin-test-host --component FILE --listen ADDR --sqlite DIR/cards.sqlite` (`SPIN_TEST_HOST_BIN` or
//!   `<target>/{debug,release}/spin-test-host`; `CARDS_SPIN_COMPONENT` or
//!   `<target>/wasm32-wasip2/release/host_wasm.wasm`).
//!
//! Both get the same environment: `CARDS_API_KEYS` with random keys ([`SHARED_KEY_COUNT`] for the
//! shared server, [`KEY_COUNT`] for an [`Instance`]), and `CARDS_VAULT_KEY`.
//!
//! `CARDS_TEST_STORE=postgres` runs the host on PostgreSQL instead of its redb or SQLite file: one
//! throwaway cluster per test process ([`crate::pg_cluster::shared`]) and a fresh database per server
//! (a restart reuses it), passed to the native host as `--store postgres://...` and to the Spin test
//! host as the variable `database_url` (`CARDS_DATABASE_URL`), with the component built with
//! `--features postgres` (`CARDS_SPIN_PG_COMPONENT` or `<target>/wasm32-wasip2/release/host_wasm_pg.wasm`).
//! To add a host: add a variant to [`HostKind`] and say in [`HostKind::command`] how to start it.

use std::fs::File;
use std::io::Read;
use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// How many API keys (tenants) an [`Instance`] is started with.
pub const KEY_COUNT: usize = 256;

/// How many API keys the shared server is started with: every test of the suite takes one or more
/// ([`crate::tenant`]). Not many more than needed: the Spin component hashes each configured key
/// on every request.
pub const SHARED_KEY_COUNT: usize = 512;

/// How long a host may take to answer `GET /health` after its start: the Spin test host compiles a
/// new component first (cached afterwards), which takes minutes on a loaded two-core machine.
const STARTUP_TIMEOUT: Duration = Duration::from_secs(180);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostKind {
    Native,
    Spin,
}

impl HostKind {
    /// From `CARDS_TEST_HOST`; unknown names are a setup error, not a silent fallback.
    pub fn from_env() -> HostKind {
        match std::env::var("CARDS_TEST_HOST").as_deref() {
            Err(_) | Ok("") | Ok("native") => HostKind::Native,
            Ok("spin") => HostKind::Spin,
            Ok(other) => panic!("CARDS_TEST_HOST={other:?}: expected `native` or `spin`"),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            HostKind::Native => "native",
            HostKind::Spin => "spin",
        }
    }

    /// The command that starts this host listening on `addr`, with its state under `dir` or in the
    /// PostgreSQL database `store`.
    fn command(self, addr: SocketAddr, dir: &Path, store: Option<&str>) -> Command {
        match self {
            HostKind::Native => {
                let bin = find_binary("CARDS_BIN", "cards", "cargo build -p host-native");
                let mut cmd = Command::new(bin);
                cmd.arg("serve").arg("--listen").arg(addr.to_string());
                match store {
                    Some(url) => cmd.arg("--store").arg(url),
                    None => cmd.arg("--data").arg(dir.join("cards.redb")),
                };
                cmd
            }
            HostKind::Spin => {
                let mut cmd = Command::new(spin_test_host_bin());
                cmd.current_dir(dir)
                    .arg("--component")
                    .arg(spin_component(store.is_some()))
                    .arg("--listen")
                    .arg(addr.to_string())
                    .arg("--sqlite")
                    .arg(dir.join("cards.sqlite"));
                // The component's Spin variable `database_url`: it then stores on PostgreSQL.
                match store {
                    Some(url) => cmd.env("CARDS_DATABASE_URL", url),
                    None => cmd.env_remove("CARDS_DATABASE_URL"),
                };
                cmd
            }
        }
    }
}

/// The test executable runs as `<target>/<profile>/deps/xxx`: returns `<target>/<profile>` and `<target>`.
fn build_dirs() -> (PathBuf, PathBuf) {
    let exe = std::env::current_exe().expect("the test executable's path");
    let profile = exe
        .parent()
        .and_then(Path::parent)
        .expect("the test executable lives in <target>/<profile>/deps")
        .to_path_buf();
    let target = profile.parent().unwrap_or(&profile).to_path_buf();
    (profile, target)
}

/// The Spin component: `CARDS_SPIN_COMPONENT`, else `<target>/wasm32-wasip2/release/host_wasm.wasm`;
/// on PostgreSQL the one built with `--features postgres`: `CARDS_SPIN_PG_COMPONENT`, else
/// `<target>/wasm32-wasip2/release/host_wasm_pg.wasm` (`scripts/build-spin-pg` puts it there).
pub fn spin_component(postgres: bool) -> PathBuf {
    let (var, file, build) = if postgres {
        (
            "CARDS_SPIN_PG_COMPONENT",
            "host_wasm_pg.wasm",
            "scripts/build-spin-pg",
        )
    } else {
        (
            "CARDS_SPIN_COMPONENT",
            "host_wasm.wasm",
            "cargo build -p host-wasm --target wasm32-wasip2 --release",
        )
    };
    if let Some(path) = std::env::var_os(var) {
        return PathBuf::from(path);
    }
    let (_, target) = build_dirs();
    let path = target.join("wasm32-wasip2/release").join(file);
    assert!(
        path.is_file(),
        "no Spin component at {} (or set {var}); build it first: {build}",
        path.display()
    );
    path
}

/// The Spin test host binary (`SPIN_TEST_HOST_BIN` or next to the test executable).
pub fn spin_test_host_bin() -> PathBuf {
    find_binary(
        "SPIN_TEST_HOST_BIN",
        "spin-test-host",
        "cargo build -p spin-test-host --release",
    )
}

/// `$ENV_VAR` if set, else `name` next to the test executable's profile directory
/// (the test runs as `<target>/debug/deps/xxx`, the binary is `<target>/debug/name`).
fn find_binary(env_var: &str, name: &str, build: &str) -> PathBuf {
    if let Some(path) = std::env::var_os(env_var) {
        let path = PathBuf::from(path);
        assert!(
            path.is_file(),
            "{env_var}={} does not exist; build it first: {build}",
            path.display()
        );
        return path;
    }
    // The test's own profile first (debug tests start the debug server), then either profile.
    let (profile, target) = build_dirs();
    let candidates = [
        profile.join(name),
        target.join("release").join(name),
        target.join("debug").join(name),
    ];
    candidates
        .iter()
        .find(|p| p.is_file())
        .cloned()
        .unwrap_or_else(|| {
            panic!(
                "no `{name}` binary found (looked in {candidates:?}, or set {env_var}); build it first: {build}"
            )
        })
}

/// One API key of the running server and the client it belongs to.
#[derive(Debug, Clone)]
pub struct KeyPair {
    pub key: String,
    pub client: String,
}

/// How to start a server: host kind, keys, vault key and state directory. Restarting with the same
/// `Launch` reuses the same data.
struct Launch {
    kind: HostKind,
    keys: Vec<KeyPair>,
    api_keys: String,
    /// None: started without one (the native host then keeps a key file beside its data).
    vault_key: Option<String>,
    /// Extra environment for the server.
    env: Vec<(String, String)>,
    dir: PathBuf,
    /// The PostgreSQL URL under `CARDS_TEST_STORE=postgres`.
    store: Option<String>,
}

/// True when `CARDS_TEST_STORE=postgres`; unknown values are a setup error.
pub fn on_postgres() -> bool {
    match std::env::var("CARDS_TEST_STORE").as_deref() {
        Err(_) | Ok("") | Ok("redb") => false,
        Ok("postgres") => true,
        Ok(other) => panic!("CARDS_TEST_STORE={other:?}: expected `redb` or `postgres`"),
    }
}

impl Launch {
    fn new(kind: HostKind, key_count: usize) -> Launch {
        // Random per run so a stray server or log from another run can never authenticate these tests.
        let run = random_hex(4);
        let keys: Vec<KeyPair> = (0..key_count)
            .map(|n| KeyPair {
                key: format!("test_{}", random_hex(16)),
                client: format!("client-{run}-{n}"),
            })
            .collect();
        let api_keys = keys
            .iter()
            .map(|k| format!("{}={}", k.key, k.client))
            .collect::<Vec<_>>()
            .join(",");
        let dir = tempfile::Builder::new()
            .prefix("cards-acceptance-")
            .tempdir()
            .expect("temporary directory")
            .keep();
        let store = on_postgres().then(|| crate::pg_cluster::shared().create_database());
        Launch {
            kind,
            keys,
            api_keys,
            vault_key: Some(random_hex(32)),
            env: Vec::new(),
            dir,
            store,
        }
    }

    /// Starts the host and waits for `GET /health`; returns its pid and base URL.
    fn run(&self) -> (u32, String) {
        self.try_run()
            .unwrap_or_else(|e| panic!("the {} host did not start:\n{e}", self.kind.name()))
    }

    /// [`Launch::run`], with a host that exits during startup as an error carrying its log.
    fn try_run(&self) -> Result<(u32, String), String> {
        // A port found free can be taken by someone else before the server binds it: retry a few times.
        let mut last_error = String::new();
        for _ in 0..3 {
            let addr = free_port();
            let log_path = self.dir.join(format!("server-{}.log", random_hex(4)));
            let log = File::create(&log_path).expect("server log file");
            let mut cmd = self.kind.command(addr, &self.dir, self.store.as_deref());
            // No per-client rate limit (0), so load and concurrency tests are not throttled; the
            // rate-limit test starts its own server with low rates.
            cmd.env("CARDS_API_KEYS", &self.api_keys)
                .env("CARDS_READ_RATE", "0")
                .env("CARDS_WRITE_RATE", "0");
            cmd.envs(self.env.iter().map(|(k, v)| (k, v)));
            match &self.vault_key {
                Some(key) => cmd.env("CARDS_VAULT_KEY", key),
                None => cmd.env_remove("CARDS_VAULT_KEY"),
            };
            cmd.stdin(Stdio::null())
                .stdout(log.try_clone().expect("log handle"))
                .stderr(log);
            let child = spawn_tied_to_this_process(cmd);
            let pid = child.id();
            let base_url = format!("http://{addr}");
            match wait_healthy(child, &base_url) {
                Ok(()) => return Ok((pid, base_url)),
                Err(e) => {
                    kill(pid);
                    let exited = e.starts_with(EXITED);
                    last_error = format!(
                        "{e}\n--- server log ({}) ---\n{}",
                        log_path.display(),
                        read_tail(&log_path)
                    );
                    // A host that refused to start will refuse again: only a lost port is retried.
                    if exited {
                        break;
                    }
                }
            }
        }
        Err(last_error)
    }
}

/// The running server shared by all tests of the process.
pub struct Server {
    pub kind: HostKind,
    pub base_url: String,
    pub keys: Vec<KeyPair>,
    pid: u32,
    dir: PathBuf,
}

impl Server {
    /// The directory holding the server's state (data files) and its captured logs.
    pub fn state_dir(&self) -> &Path {
        &self.dir
    }

    /// Every directory holding the server's data: the state directory, and the PostgreSQL cluster's
    /// files (tables and WAL) under `CARDS_TEST_STORE=postgres`.
    pub fn data_dirs(&self) -> Vec<PathBuf> {
        let mut dirs = vec![self.dir.clone()];
        if on_postgres() {
            dirs.push(crate::pg_cluster::shared().data_dir());
        }
        dirs
    }
}

static SERVER: OnceLock<Server> = OnceLock::new();

/// The server shared by every test of this process, started on first use.
pub fn server() -> &'static Server {
    SERVER.get_or_init(start)
}

pub(crate) fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).expect("OS randomness");
    buf.iter().map(|b| format!("{b:02x}")).collect()
}

fn free_port() -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind a free port");
    listener.local_addr().expect("local address")
}

fn start() -> Server {
    let launch = Launch::new(HostKind::from_env(), SHARED_KEY_COUNT);
    let (pid, base_url) = launch.run();
    register_cleanup();
    Server {
        kind: launch.kind,
        base_url,
        keys: launch.keys,
        pid,
        dir: launch.dir,
    }
}

/// A server of its own for one test (not shared), which the test can stop and start again on the same
/// data: for persistence and shutdown tests. Killed and its directory removed on drop.
pub struct Instance {
    launch: Launch,
    pid: Option<u32>,
    base_url: String,
}

/// How [`Instance::stop`] ends the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// SIGTERM: a graceful shutdown.
    Graceful,
    /// SIGKILL: a crash; only durable data may survive.
    Crash,
}

impl Instance {
    /// Starts a dedicated server of the kind chosen by `CARDS_TEST_HOST`.
    pub fn start() -> Instance {
        Instance::start_with_env(&[])
    }

    /// [`Instance::start`] with extra environment variables (e.g. `CARDS_AUTHORIZATION_TTL`; the Spin
    /// test host maps those to its variables).
    pub fn start_with_env(env: &[(&str, &str)]) -> Instance {
        let mut launch = Launch::new(HostKind::from_env(), KEY_COUNT);
        launch.env = env
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let (pid, base_url) = launch.run();
        Instance {
            launch,
            pid: Some(pid),
            base_url,
        }
    }

    pub fn kind(&self) -> HostKind {
        self.launch.kind
    }

    /// The directory holding this instance's data files (the native host's `cards.redb`).
    pub fn state_dir(&self) -> &Path {
        &self.launch.dir
    }

    /// The base URL of the current run (a restart listens on a new port).
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// Tenant `n` (0..KEY_COUNT) of this instance; the same `n` is the same client across restarts.
    pub fn tenant(&self, n: usize) -> crate::client::Tenant {
        let pair = &self.launch.keys[n];
        crate::client::Tenant::at(&self.base_url, &pair.key, &pair.client)
    }

    /// Stops the server and returns how it exited: `Some(code)` for a normal exit, `None` when a signal
    /// ended it (or it had to be killed after 30 s).
    pub fn stop(&mut self, how: Stop) -> Option<i32> {
        let pid = self.pid.take().expect("the instance is running");
        let signal = match how {
            Stop::Graceful => libc::SIGTERM,
            Stop::Crash => libc::SIGKILL,
        };
        // SAFETY: plain syscalls on a pid this process started and has not reaped yet.
        unsafe {
            libc::kill(pid as libc::pid_t, signal);
        }
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let mut status: libc::c_int = 0;
            // SAFETY: as above; WNOHANG never blocks.
            let r = unsafe { libc::waitpid(pid as libc::pid_t, &mut status, libc::WNOHANG) };
            if r == pid as libc::pid_t {
                return libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
            }
            if r < 0 || Instant::now() > deadline {
                kill(pid);
                return None;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Starts the server again on the same data, keys and vault key.
    pub fn restart(&mut self) {
        self.try_restart()
            .unwrap_or_else(|e| panic!("the {} host did not restart:\n{e}", self.kind().name()));
    }

    /// [`Instance::restart`], with a refusal to start (and the server's log) as the error.
    pub fn try_restart(&mut self) -> Result<(), String> {
        assert!(self.pid.is_none(), "stop the instance before restarting it");
        let (pid, base_url) = self.launch.try_run()?;
        self.pid = Some(pid);
        self.base_url = base_url;
        Ok(())
    }

    /// The vault key the next (re)start is given; None starts it without one.
    pub fn set_vault_key(&mut self, key: Option<&str>) {
        self.launch.vault_key = key.map(str::to_owned);
    }

    pub fn vault_key(&self) -> Option<&str> {
        self.launch.vault_key.as_deref()
    }

    /// Several vault keys for the next (re)start, the first active: the native host's
    /// `CARDS_VAULT_KEY` list, the Spin component's `vault_keys` variable.
    pub fn set_vault_keys(&mut self, keys: &[&str]) {
        let list = keys.join(",");
        self.set_env("CARDS_VAULT_KEYS", &list);
        self.launch.vault_key = Some(list);
    }

    /// An environment variable for the next (re)start, replacing the one it was started with.
    pub fn set_env(&mut self, key: &str, value: &str) {
        self.launch.env.retain(|(k, _)| k != key);
        self.launch.env.push((key.into(), value.into()));
    }

    /// Everything every run of this instance logged so far (each run has its own log file).
    pub fn log(&self) -> String {
        let mut text = String::new();
        for entry in std::fs::read_dir(&self.launch.dir).expect("the instance's directory") {
            let path = entry.expect("a directory entry").path();
            if path.extension().is_some_and(|e| e == "log") {
                text += &std::fs::read_to_string(&path).expect("the server log");
            }
        }
        text
    }

    /// The PostgreSQL database under `CARDS_TEST_STORE=postgres`; else None (the data is in
    /// [`Instance::state_dir`]).
    pub fn store_url(&self) -> Option<&str> {
        self.launch.store.as_deref()
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        if let Some(pid) = self.pid.take() {
            kill(pid);
        }
        if std::env::var_os("CARDS_TEST_KEEP_DATA").is_none() {
            let _ = std::fs::remove_dir_all(&self.launch.dir);
        }
    }
}

/// Polls `GET /health` until 200; fails early when the child exits.
const EXITED: &str = "the server exited during startup";

fn wait_healthy(mut child: Child, base_url: &str) -> Result<(), String> {
    let client = reqwest::blocking::Client::builder()
        .no_proxy()
        .timeout(Duration::from_secs(2))
        .build()
        .map_err(|e| e.to_string())?;
    let deadline = Instant::now() + STARTUP_TIMEOUT;
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            return Err(format!("{EXITED}: {status}"));
        }
        if let Ok(resp) = client.get(format!("{base_url}/health")).send()
            && resp.status().as_u16() == 200
        {
            // The child handle is dropped here; the process keeps running and is killed by pid at exit.
            return Ok(());
        }
        if Instant::now() > deadline {
            return Err(format!(
                "GET {base_url}/health did not answer 200 within {STARTUP_TIMEOUT:?}"
            ));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn read_tail(path: &Path) -> String {
    let mut text = String::new();
    if let Ok(mut f) = File::open(path) {
        let _ = f.read_to_string(&mut text);
    }
    let start = text.len().saturating_sub(4000);
    let start = (start..text.len())
        .find(|i| text.is_char_boundary(*i))
        .unwrap_or(text.len());
    text[start..].to_string()
}

/// Spawns the child so that it dies with this process even when the process is killed or crashes:
/// on Linux the child asks for SIGKILL when its parent thread ends. `std::process::Command::spawn`
/// is called from a thread that never ends, because the death signal follows the spawning *thread*
/// and libtest runs each test on its own short-lived thread.
pub(crate) fn spawn_tied_to_this_process(cmd: Command) -> Child {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("server-parent".into())
        .spawn(move || {
            let mut cmd = cmd;
            set_parent_death_signal(&mut cmd);
            let result = cmd.spawn();
            let _ = tx.send(result);
            loop {
                std::thread::park();
            }
        })
        .expect("spawn the server-parent thread");
    rx.recv()
        .expect("the server-parent thread answers")
        .unwrap_or_else(|e| panic!("cannot start the server: {e}"))
}

#[cfg(target_os = "linux")]
fn set_parent_death_signal(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: prctl is async-signal-safe and touches no memory of the parent.
    unsafe {
        cmd.pre_exec(|| {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
fn set_parent_death_signal(_cmd: &mut Command) {}

fn kill(pid: u32) {
    #[cfg(unix)]
    // SAFETY: plain syscalls on a pid this process started.
    unsafe {
        let pid = pid as libc::pid_t;
        libc::kill(pid, libc::SIGKILL);
        libc::waitpid(pid, std::ptr::null_mut(), 0);
    }
}

/// Statics are never dropped, so the server is stopped and its directory removed by an exit hook.
fn register_cleanup() {
    extern "C" fn cleanup() {
        if let Some(server) = SERVER.get() {
            kill(server.pid);
            if std::env::var_os("CARDS_TEST_KEEP_DATA").is_none() {
                let _ = std::fs::remove_dir_all(&server.dir);
            }
        }
    }
    // SAFETY: registering a plain extern "C" function.
    unsafe {
        libc::atexit(cleanup);
    }
}

/// The `cards` binary (native host), for tests of its command line.
pub fn cards_bin() -> PathBuf {
    find_binary("CARDS_BIN", "cards", "cargo build -p host-native")
}

/// A server process started by a test itself (for command-line and configuration tests): waits for
/// `GET /health`, is killed on drop. Its stdout and stderr go to `log`.
pub struct Process {
    pid: u32,
    pub base_url: String,
    pub log: PathBuf,
}

impl Process {
    /// Runs `cmd`, which must listen on `addr`; stdout and stderr are captured in `log`.
    pub fn spawn(mut cmd: Command, addr: SocketAddr, log: &Path) -> Result<Process, String> {
        let file = File::create(log).map_err(|e| e.to_string())?;
        cmd.stdin(Stdio::null())
            .stdout(file.try_clone().map_err(|e| e.to_string())?)
            .stderr(file);
        let child = spawn_tied_to_this_process(cmd);
        let pid = child.id();
        let base_url = format!("http://{addr}");
        match wait_healthy(child, &base_url) {
            Ok(()) => Ok(Process {
                pid,
                base_url,
                log: log.to_path_buf(),
            }),
            Err(e) => {
                kill(pid);
                Err(format!("{e}\n--- log ---\n{}", read_tail(log)))
            }
        }
    }

    /// The process id (to signal it).
    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// What the process printed so far.
    pub fn output(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Waits up to `timeout` for the process to end on its own: `Some(code)` for an exit, `None`
    /// when a signal ended it; `Err` if it is still running.
    pub fn wait_exit(&self, timeout: Duration) -> Result<Option<i32>, String> {
        let deadline = Instant::now() + timeout;
        loop {
            let mut status: libc::c_int = 0;
            // SAFETY: waitpid on a child this process started; WNOHANG never blocks.
            let r = unsafe { libc::waitpid(self.pid as libc::pid_t, &mut status, libc::WNOHANG) };
            if r == self.pid as libc::pid_t {
                return Ok(libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)));
            }
            if r < 0 {
                return Err(format!(
                    "waitpid failed: {}",
                    std::io::Error::last_os_error()
                ));
            }
            if Instant::now() > deadline {
                return Err(format!("still running after {timeout:?}"));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        kill(self.pid);
    }
}

/// A free 127.0.0.1 address for a server the test starts itself.
pub fn free_addr() -> SocketAddr {
    free_port()
}
