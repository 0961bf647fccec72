//! Command line: `cards serve`, `cards keys create`, `cards keys revoke`. Every serve option also reads
//! an environment variable, so containers can configure it without flags.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};

pub mod listen;
pub mod seed;
pub mod vault;

#[derive(Debug, Parser)]
#[command(
    name = "cards",
    version = concat!(env!("CARGO_PKG_VERSION"), " (", env!("CARDS_GIT_COMMIT"), ")"),
    about = "Card-issuing REST service"
)]
pub struct Cli {
    /// Log lines as `text` (for people) or `json` (one object per line, for log pipelines).
    #[arg(long, env = "CARDS_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text, global = true)]
    pub log_format: LogFormat,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    Text,
    Json,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the HTTP server.
    /// (Boxed: the server has many more flags than any other command.)
    Serve(Box<ServeArgs>),
    /// Manage stored API keys (only their SHA-256 hashes are stored).
    #[command(subcommand)]
    Keys(KeysCommand),
    /// Vault keys: re-seal card data under the active key (`rotate`), count entries per key (`status`).
    #[command(subcommand)]
    Vault(VaultCommand),
    /// Fill the store with accounts, card holders and cards for one client, through the same code
    /// that serves requests (to try the service at volume).
    Seed(SeedArgs),
    /// Forward a service's events to a local receiver, each signed with a secret this prints (like
    /// `stripe listen`): follows `GET /events` and POSTs each new event to `--forward-to`.
    Listen(listen::ListenArgs),
    /// Print a shell completion script (`cards completions bash > /etc/bash_completion.d/cards`).
    Completions {
        /// The shell to complete in.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff) for `cards` (`cards man > cards.1 && man ./cards.1`).
    Man,
}

#[derive(Args)]
pub struct SeedArgs {
    /// The client the records belong to.
    #[arg(long, default_value = "default")]
    pub client: String,

    /// Cards to issue, each funded from an account (so each also adds a ledger entry).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub cards: u64,

    /// Funding accounts; cards draw from them in turn (1: one account with a ledger entry per card).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub accounts: u64,

    /// Card holders; cards are spread over them in turn (default: one per 100 cards).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub holders: Option<u64>,

    /// Requests per transaction.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..))]
    pub batch: u64,

    #[command(flatten)]
    pub data: DataArg,

    #[command(flatten)]
    pub vault: VaultArgs,
}

/// Where the vault keys come from (both `serve` and the commands that open card data).
#[derive(Args)]
pub struct VaultArgs {
    /// AES-256 vault key, 64 hex characters; repeatable (the env var takes a comma-separated list):
    /// the first seals, the others only open what they sealed until `cards vault rotate`. Default:
    /// `<data file>.vault-key` (one key per line), created on first start.
    #[arg(
        long = "vault-key",
        env = "CARDS_VAULT_KEY",
        value_delimiter = ',',
        hide_env_values = true
    )]
    pub vault_keys: Vec<String>,

    /// A file of vault keys, one per line, the first active (e.g. a mounted secret); refused when
    /// group or others may read it.
    #[arg(long, env = "CARDS_VAULT_KEY_FILE")]
    pub vault_key_file: Option<PathBuf>,
}

/// Never prints the keys.
impl std::fmt::Debug for VaultArgs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VaultArgs")
            .field(
                "vault_keys",
                &format_args!("<{} redacted>", self.vault_keys.len()),
            )
            .field("vault_key_file", &self.vault_key_file)
            .finish()
    }
}

#[derive(Debug, Subcommand)]
pub enum VaultCommand {
    /// Re-seal every card under the active (first) vault key, in batches of bounded size, each its
    /// own transaction: on PostgreSQL while the servers keep serving (a redb data file belongs to
    /// one process: stop the server first). Resumes where a killed run stopped.
    Rotate {
        #[command(flatten)]
        data: DataArg,
        #[command(flatten)]
        vault: VaultArgs,
        /// Entries re-sealed per transaction (small batches keep the servers' write latency low
        /// on a shared database; scripts/bench-rotate).
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=100_000))]
        batch: u64,
    },
    /// Count the sealed cards per vault key id, so an operator knows when an old key can go.
    Status {
        #[command(flatten)]
        data: DataArg,
        #[command(flatten)]
        vault: VaultArgs,
    },
}

impl std::fmt::Debug for SeedArgs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SeedArgs")
            .field("client", &self.client)
            .field("cards", &self.cards)
            .field("accounts", &self.accounts)
            .field("holders", &self.holders)
            .field("batch", &self.batch)
            .field("data", &self.data)
            .field("vault", &self.vault)
            .finish()
    }
}

#[derive(Debug, Args)]
pub struct DataArg {
    /// The redb data file (when no --store is given).
    #[arg(long, env = "CARDS_DATA", default_value = "./cards.redb")]
    pub data: PathBuf,

    /// A PostgreSQL database shared by any number of instances, as
    /// postgres://USER:PASSWORD@HOST:PORT/DB (add ?sslmode=require for TLS). Replaces --data; needs
    /// the vault key configured (--vault-key / CARDS_VAULT_KEY).
    #[arg(long, env = "CARDS_STORE", hide_env_values = true)]
    pub store: Option<String>,

    /// On PostgreSQL: how long a write transaction waits for a lock (or runs one statement)
    /// before the request is answered 503 busy with Retry-After (`5s`, `500ms`).
    #[arg(long, env = "CARDS_STORE_TIMEOUT", default_value = "5s", value_parser = parse_duration)]
    pub store_timeout: Duration,

    /// Memory for redb's page cache (`64MiB`): the B-tree's hot pages stay cached; a scan of a
    /// big list reads the rest from the OS page cache instead of growing the process. A pass
    /// over a table bigger than the cache gets no hits from it (each page is evicted before the
    /// pass comes back), so more only grows the process: the first pass after a start paid for
    /// filling 128 MiB (docs/benchmarks.md).
    #[arg(long, env = "CARDS_CACHE_SIZE", default_value = "64MiB", value_parser = parse_bytes)]
    pub cache_size: usize,
}

#[derive(Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "CARDS_LISTEN", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,

    #[command(flatten)]
    pub data: DataArg,

    /// An API key for development, as KEY=CLIENT (repeatable; the env var takes a comma-separated list).
    #[arg(
        long = "api-key",
        env = "CARDS_API_KEYS",
        value_delimiter = ',',
        hide_env_values = true
    )]
    pub api_keys: Vec<String>,

    /// API keys from a file, one `KEY=CLIENT` per line (`#` comments), e.g. a mounted secret;
    /// refused when group or others may read it. Kept hashed in memory, with full access.
    #[arg(long, env = "CARDS_API_KEYS_FILE")]
    pub api_keys_file: Option<PathBuf>,

    #[command(flatten)]
    pub vault: VaultArgs,

    /// Lifetime of a reveal token: seconds, or a duration (`2m`, `90s`).
    #[arg(long, env = "CARDS_TOKEN_TTL", default_value = "120", value_parser = parse_secs)]
    pub token_ttl: i64,

    /// How long an approved card authorization holds funds before it expires: seconds, or a
    /// duration (`7d`, `12h`).
    #[arg(long, env = "CARDS_AUTHORIZATION_TTL", default_value = "7d", value_parser = parse_secs)]
    pub authorization_ttl: i64,

    /// The test clock (`GET /test-clock`, `POST /test-clock/advance`): `false` (or off, no, 0) answers
    /// both routes 404. Clocks already advanced stay where they are.
    #[arg(long, env = "CARDS_TEST_CLOCK", default_value_t = true, action = clap::ArgAction::Set,
          value_parser = clap::builder::BoolishValueParser::new())]
    pub test_clock: bool,

    /// The wait after each failed webhook delivery attempt, comma-separated durations; after the
    /// last a delivery is `failed`. Shorten it for tests and demos (`1s,2s`).
    #[arg(long, env = "CARDS_WEBHOOK_RETRY_SCHEDULE", default_value = "5s,5m,30m,2h,5h,10h,10h",
          value_parser = parse_schedule)]
    pub webhook_retry_schedule: RetrySchedule,

    /// Send due webhook deliveries from this instance. Off, writes still queue their deliveries (in
    /// their transaction, as always) and nothing is sent from here: they go out from another
    /// instance on the same PostgreSQL database, or from this one once it runs with this on again
    /// (an instance that only serves the API, or outbound traffic paused during an incident).
    #[arg(long, env = "CARDS_DELIVER_WEBHOOKS", default_value_t = true, action = clap::ArgAction::Set,
          num_args = 0..=1, default_missing_value = "true",
          value_parser = clap::builder::BoolishValueParser::new())]
    pub deliver_webhooks: bool,

    /// Let clients' endpoints (webhook endpoints, the decision endpoint) point into private network
    /// ranges (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7). Loopback is always allowed over
    /// http; link-local and cloud metadata addresses never are.
    #[arg(long, env = "CARDS_ALLOW_PRIVATE_URLS", default_value_t = false, action = clap::ArgAction::Set,
          num_args = 0..=1, default_missing_value = "true",
          value_parser = clap::builder::BoolishValueParser::new())]
    pub allow_private_urls: bool,

    /// Re-seal card data and endpoint secrets under the active (first) vault key in the
    /// background while serving, a bounded batch per write (what `cards vault rotate` does with the
    /// server stopped; a redb data file cannot be opened by another process while served). Resumes
    /// where a stopped server left off; done once no entry is left under another key.
    #[arg(long, env = "CARDS_VAULT_ROTATE", default_value_t = false, action = clap::ArgAction::Set,
          num_args = 0..=1, default_missing_value = "true",
          value_parser = clap::builder::BoolishValueParser::new())]
    pub vault_rotate: bool,

    /// Card entries re-sealed per write by `--vault-rotate` (smaller: less added to the writes
    /// committed beside it).
    #[arg(long, env = "CARDS_VAULT_ROTATE_BATCH", default_value_t = 100,
          value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub vault_rotate_batch: u64,

    /// While clients write, the least time between the starts of two `--vault-rotate` batches:
    /// longer leaves more of the writer and the checkpoints to the clients and makes the rotation
    /// slower (with no client writing it goes at full speed; 0: never waits).
    #[arg(long, env = "CARDS_VAULT_ROTATE_PAUSE", default_value = "10ms", value_parser = parse_duration)]
    pub vault_rotate_pause: Duration,

    /// Answer a host name with an address for the service's outbound calls (webhooks, decisions)
    /// instead of asking DNS, as curl's `--resolve` (repeatable; `NAME=ADDRESS`, the env var takes a
    /// comma-separated list). The address policy judges these addresses as it judges DNS answers.
    #[arg(long = "resolve", env = "CARDS_RESOLVE", value_delimiter = ',')]
    pub resolve: Vec<crate::outbound::Pinned>,

    /// Most bytes of card-holder files one client may store (413 quota_exceeded past it): bytes, or
    /// a size (`1GiB`, `500MB`).
    #[arg(long, env = "CARDS_FILE_QUOTA", default_value = "1GiB", value_parser = parse_size)]
    pub file_quota: u64,

    /// Most write requests per group commit (1 = one commit per request).
    #[arg(long, env = "CARDS_MAX_BATCH", default_value_t = 256,
          value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub max_batch: u32,

    /// Group commit's window: while writes come faster than one batch per this time, a batch
    /// starts no sooner than this after the one before unless `--commit-window-batch` writes are
    /// queued (after PostgreSQL's `commit_delay`): fewer, larger batches and log fsyncs, each
    /// write waiting at most this long more. `0`: off. At most 10ms (`200us`, `1ms`). Measured
    /// (docs/benchmarks.md): less CPU a write and a lower p99 at fixed rates below the peak, 0 to
    /// 6% less throughput for 64 clients that each wait for their answer (`0` gives it back).
    #[arg(long, env = "CARDS_COMMIT_WINDOW", default_value = "500us", value_parser = parse_window)]
    pub commit_window: Duration,

    /// Writes queued that end the commit window at once.
    #[arg(long, env = "CARDS_COMMIT_WINDOW_BATCH", default_value_t = 16,
          value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub commit_window_batch: u32,

    /// How often the data file is brought up to date with the write-ahead log (`<data>.wal`) by
    /// an fsynced commit. Longer: a little less work per write, more log to apply after a crash.
    #[arg(long, env = "CARDS_CHECKPOINT_INTERVAL", default_value = "1s", value_parser = parse_duration)]
    pub checkpoint_interval: Duration,

    /// How the checkpointer thread is scheduled (Linux): `normal`, `low` (niceness 19) or `idle`
    /// (SCHED_IDLE: only the time the other threads leave). No request waits for a checkpoint; the
    /// writer waits only when recent writes reach twice the checkpoint size (128 MiB). Lowered, it
    /// can hold a lock redb's readers need while it waits for a core, and beside other busy
    /// processes it falls behind until the writes wait at that bound: `low` only on a machine that
    /// runs nothing else, where it raised the peak by 4 to 8% (docs/benchmarks.md).
    #[arg(
        long,
        env = "CARDS_CHECKPOINT_PRIORITY",
        value_enum,
        default_value = "normal"
    )]
    pub checkpoint_priority: crate::os_thread::Priority,

    /// The share of `--checkpoint-interval` (percent) over which the checkpointer spreads a
    /// checkpoint's inserts into the data file, pausing between slices of keys, rather than
    /// holding a core for its whole length; it frees the written memtable over the rest of the
    /// interval. When writes outrun it (the next checkpoint due) it goes at full speed. 0: at once.
    #[arg(long, env = "CARDS_CHECKPOINT_SPREAD", default_value_t = 60,
          value_parser = clap::value_parser!(u8).range(0..=95))]
    pub checkpoint_spread: u8,

    /// A checkpoint commits (durably) after about this many keys, so its page writes are spread
    /// over several commits instead of all at its end (0: one commit per checkpoint). Measured on
    /// a quiet machine, parts of 4,096 keys halved the write tail at 25% and 50% of peak
    /// (docs/benchmarks.md, "Paced checkpoints").
    #[arg(long, env = "CARDS_CHECKPOINT_COMMIT_KEYS", default_value_t = 4096)]
    pub checkpoint_commit_keys: u64,

    /// A checkpoint also commits after about this many bytes written (`1MiB`), whichever comes
    /// first: a run of kilobyte records (events, ledger entries) then commits as often as its
    /// bytes need rather than every 4,096 keys (4 MiB commits, whose fsyncs held the log's;
    /// docs/benchmarks.md). Its pace is counted in the same bytes. `0`: by keys alone.
    #[arg(long, env = "CARDS_CHECKPOINT_COMMIT_BYTES", default_value = "1MiB", value_parser = parse_size)]
    pub checkpoint_commit_bytes: u64,

    /// Serve Prometheus metrics at `GET /metrics` on this address (e.g. `127.0.0.1:9090`), a
    /// listener of its own so they are never public by accident. Off by default.
    #[arg(long, env = "CARDS_METRICS_LISTEN")]
    pub metrics_listen: Option<SocketAddr>,

    /// Let web pages on this origin (`https://app.example.com`, or `*` for any) call the API from a
    /// browser: preflights are answered and responses carry the CORS headers (repeatable; the env var
    /// takes a comma-separated list). Off by default.
    #[arg(
        long = "cors-origin",
        env = "CARDS_CORS_ORIGINS",
        value_delimiter = ','
    )]
    pub cors_origins: Vec<String>,

    /// Serve the web console from this directory (GET / and its files, e.g. web/ with web/pkg built
    /// by scripts/build-browser). Off by default.
    #[arg(long, env = "CARDS_CONSOLE")]
    pub console: Option<PathBuf>,

    #[command(flatten)]
    pub limits: Limits,
}

/// Never prints the vault key or the API keys.
impl std::fmt::Debug for ServeArgs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServeArgs")
            .field("listen", &self.listen)
            .field("data", &self.data)
            .field(
                "api_keys",
                &format_args!("<{} redacted>", self.api_keys.len()),
            )
            .field("api_keys_file", &self.api_keys_file)
            .field("vault", &self.vault)
            .field("token_ttl", &self.token_ttl)
            .field("authorization_ttl", &self.authorization_ttl)
            .field("test_clock", &self.test_clock)
            .field("webhook_retry_schedule", &self.webhook_retry_schedule)
            .field("allow_private_urls", &self.allow_private_urls)
            .field("resolve", &self.resolve)
            .field("deliver_webhooks", &self.deliver_webhooks)
            .field("vault_rotate", &self.vault_rotate)
            .field("vault_rotate_batch", &self.vault_rotate_batch)
            .field("vault_rotate_pause", &self.vault_rotate_pause)
            .field("max_batch", &self.max_batch)
            .field("commit_window", &self.commit_window)
            .field("commit_window_batch", &self.commit_window_batch)
            .field("checkpoint_interval", &self.checkpoint_interval)
            .field("checkpoint_priority", &self.checkpoint_priority)
            .field("checkpoint_spread", &self.checkpoint_spread)
            .field("checkpoint_commit_keys", &self.checkpoint_commit_keys)
            .field("checkpoint_commit_bytes", &self.checkpoint_commit_bytes)
            .field("console", &self.console)
            .field("metrics_listen", &self.metrics_listen)
            .field("cors_origins", &self.cors_origins)
            .field("limits", &self.limits)
            .finish()
    }
}

/// What one client or connection may take of the server: connections, time, queued bytes, rates.
#[derive(Debug, Clone, Args)]
pub struct Limits {
    /// Most open connections; past it, new ones wait in the listen backlog.
    #[arg(long, env = "CARDS_MAX_CONNECTIONS", default_value_t = 1024,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub max_connections: u32,

    /// Most time a client may stay silent while sending a request head or body (`30s`, `500ms`).
    #[arg(long, env = "CARDS_READ_TIMEOUT", default_value = "30s", value_parser = parse_duration)]
    pub read_timeout: Duration,

    /// Most time from a request's first byte until its body is read (`60s`); past it, 408.
    #[arg(long, env = "CARDS_REQUEST_TIMEOUT", default_value = "60s", value_parser = parse_duration)]
    pub request_timeout: Duration,

    /// Most request-body bytes held at once, being read or queued for the writer (`64MiB`); more
    /// requests wait for room.
    #[arg(long, env = "CARDS_MAX_QUEUED_BYTES", default_value = "64MiB", value_parser = parse_bytes)]
    pub max_queued_bytes: usize,

    /// Read requests per second per client (a token bucket with a burst of as many); 0 = unlimited.
    #[arg(long, env = "CARDS_READ_RATE", default_value_t = 1000)]
    pub read_rate: u32,

    /// Write requests per second per client (a token bucket with a burst of as many); 0 = unlimited.
    #[arg(long, env = "CARDS_WRITE_RATE", default_value_t = 200)]
    pub write_rate: u32,
}

/// A flag value that does not parse.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ArgError {
    #[error("{0:?}: expected a duration, e.g. 30s, 500ms, 2m, 7d ({1})")]
    NotADuration(String, #[source] humantime::DurationError),
    #[error("{0:?}: expected a size, e.g. 64MiB, 1GiB, 500MB ({1})")]
    NotASize(String, String),
    #[error("{0:?}: a whole number of seconds")]
    NotWholeSeconds(String),
    #[error("{0:?} is too large")]
    TooLarge(String),
    #[error("must be more than zero")]
    Zero,
}

/// Every duration flag: a bare number is seconds (as before), anything else humantime's syntax
/// (`500ms`, `30s`, `2m`, `7d`, `1h 30m`).
fn parse_duration(s: &str) -> Result<Duration, ArgError> {
    let s = s.trim();
    let d = match s.parse::<u64>() {
        Ok(secs) => Duration::from_secs(secs),
        Err(_) => humantime::parse_duration(s).map_err(|e| ArgError::NotADuration(s.into(), e))?,
    };
    if d.is_zero() {
        return Err(ArgError::Zero);
    }
    Ok(d)
}

/// `--commit-window`: 0 (off) or a duration up to 10 ms.
fn parse_window(s: &str) -> Result<Duration, ArgError> {
    if s.trim() == "0" {
        return Ok(Duration::ZERO);
    }
    let d = parse_duration(s)?;
    if d > Duration::from_millis(10) {
        return Err(ArgError::TooLarge(s.into()));
    }
    Ok(d)
}

/// `--webhook-retry-schedule`: the waits between webhook attempts, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetrySchedule(pub Vec<Duration>);

fn parse_schedule(s: &str) -> Result<RetrySchedule, ArgError> {
    s.split(',')
        .map(parse_duration)
        .collect::<Result<Vec<_>, _>>()
        .map(RetrySchedule)
}

/// A duration flag the service keeps in whole seconds (`--token-ttl`, `--authorization-ttl`).
fn parse_secs(s: &str) -> Result<i64, ArgError> {
    let d = parse_duration(s)?;
    if d.subsec_nanos() != 0 {
        return Err(ArgError::NotWholeSeconds(s.trim().into()));
    }
    i64::try_from(d.as_secs()).map_err(|_| ArgError::TooLarge(s.trim().into()))
}

/// Every size flag: a bare number is bytes (as before), anything else bytesize's syntax (`512KiB`,
/// `64MiB`, `1GiB`; `KB`, `MB`, `GB` are powers of 1000).
fn parse_size(s: &str) -> Result<u64, ArgError> {
    let s = s.trim();
    let n = match s.parse::<u64>() {
        Ok(n) => n,
        Err(_) => {
            s.parse::<bytesize::ByteSize>()
                .map_err(|e| ArgError::NotASize(s.into(), e))?
                .0
        }
    };
    if n == 0 {
        return Err(ArgError::Zero);
    }
    Ok(n)
}

/// [`parse_size`] for sizes held in memory.
fn parse_bytes(s: &str) -> Result<usize, ArgError> {
    usize::try_from(parse_size(s)?).map_err(|_| ArgError::TooLarge(s.trim().into()))
}

#[derive(Debug, Subcommand)]
pub enum KeysCommand {
    /// Create a key for a client and print it (it is shown only this once).
    Create {
        /// The client the key acts for (its records are the client's own).
        #[arg(long)]
        client: String,
        /// What the key may do, comma-separated: RESOURCE:LEVEL (none, read, write; `*` for every
        /// resource) and `reveal` (card tokens and reveals). Default: `*:write` (everything but reveal).
        #[arg(long, value_delimiter = ',')]
        permissions: Vec<String>,
        #[command(flatten)]
        data: DataArg,
    },
    /// List the stored keys: id, client, grants, creation (never the keys).
    List {
        /// Only this client's keys.
        #[arg(long)]
        client: Option<String>,
        #[command(flatten)]
        data: DataArg,
    },
    /// Revoke a stored key, by the key itself or by its id (as `keys list` shows it).
    Revoke {
        /// The key to revoke, as printed by `keys create`.
        #[arg(long, required_unless_present = "id", conflicts_with = "id")]
        key: Option<String>,
        /// The key's id, as `keys list` and `/api-keys` show it.
        #[arg(long)]
        id: Option<String>,
        #[command(flatten)]
        data: DataArg,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn serve_flags_parse() {
        let cli = Cli::try_parse_from([
            "cards",
            "serve",
            "--listen",
            "127.0.0.1:9",
            "--data",
            "/tmp/d.redb",
            "--api-key",
            "0123456789abcdef=alice",
            "--api-key",
            "fedcba9876543210=bob",
            "--token-ttl",
            "30",
            "--authorization-ttl",
            "3600",
            "--max-batch",
            "1",
        ])
        .unwrap();
        let Command::Serve(s) = cli.command else {
            panic!("not serve")
        };
        assert_eq!(s.listen.port(), 9);
        assert_eq!(s.data.data, PathBuf::from("/tmp/d.redb"));
        assert_eq!(s.api_keys.len(), 2);
        assert_eq!((s.token_ttl, s.max_batch), (30, 1));
        assert_eq!(s.authorization_ttl, 3600);
        assert_eq!(s.data.store, None);
        let cli = Cli::try_parse_from([
            "cards",
            "keys",
            "create",
            "--client",
            "a",
            "--store",
            "postgres://u@h/db",
        ])
        .unwrap();
        let Command::Keys(KeysCommand::Create { data, .. }) = cli.command else {
            panic!("not keys create")
        };
        assert_eq!(data.store.as_deref(), Some("postgres://u@h/db"));
        assert!(Cli::try_parse_from(["cards", "serve", "--max-batch", "0"]).is_err());
        let window = |w: &str| match Cli::try_parse_from(["cards", "serve", "--commit-window", w])
            .map(|c| c.command)
        {
            Ok(Command::Serve(s)) => Ok(s.commit_window),
            Ok(_) => panic!("not serve"),
            Err(e) => Err(e.to_string()),
        };
        let Command::Serve(s) = Cli::try_parse_from(["cards", "serve"]).unwrap().command else {
            panic!("not serve")
        };
        assert_eq!(
            (s.commit_window, s.commit_window_batch),
            (Duration::from_micros(500), 16)
        );
        assert_eq!(window("0"), Ok(Duration::ZERO));
        assert_eq!(window("200us"), Ok(Duration::from_micros(200)));
        assert!(window("20ms").unwrap_err().contains("too large"));
        assert!(window("1").is_err(), "a bare number is seconds");
        assert!(Cli::try_parse_from(["cards", "serve", "--listen", "nope"]).is_err());
    }

    #[test]
    fn the_webhook_flags_parse_and_default_to_the_standard_schedule() {
        let serve = |args: &[&str]| {
            let all = [&["cards", "serve"], args].concat();
            match Cli::try_parse_from(all).unwrap().command {
                Command::Serve(s) => s,
                _ => panic!("not serve"),
            }
        };
        let s = serve(&[]);
        assert_eq!(
            s.webhook_retry_schedule.0,
            card_core::domain::webhooks::deliveries::default_schedule()
        );
        assert!(!s.allow_private_urls);
        let s = serve(&[
            "--webhook-retry-schedule",
            "1s,500ms, 2m",
            "--allow-private-urls",
        ]);
        assert_eq!(
            s.webhook_retry_schedule.0,
            [1000, 500, 120_000].map(Duration::from_millis)
        );
        assert!(s.allow_private_urls);
        assert!(parse_schedule("1s,,2s").is_err() && parse_schedule("0s").is_err());
    }

    #[test]
    fn limits_parse_with_units_and_defaults() {
        let Command::Serve(s) = Cli::try_parse_from(["cards", "serve"]).unwrap().command else {
            panic!("not serve")
        };
        let l = s.limits;
        assert_eq!(
            (l.max_connections, l.read_rate, l.write_rate),
            (1024, 1000, 200)
        );
        assert_eq!(l.read_timeout, Duration::from_secs(30));
        assert_eq!(l.request_timeout, Duration::from_secs(60));
        assert_eq!(l.max_queued_bytes, 64 << 20);
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_duration("45"), Ok(Duration::from_secs(45)));
        assert_eq!(parse_duration("5h"), Ok(Duration::from_secs(5 * 3600)));
        assert!(parse_duration("0s").is_err() && parse_duration("5 parsecs").is_err());
        assert_eq!(parse_secs("7d"), Ok(7 * 86_400));
        assert_eq!(parse_secs("3600"), Ok(3600));
        assert!(parse_secs("1500ms").is_err());
        assert_eq!(parse_bytes("512KiB"), Ok(512 << 10));
        assert_eq!(parse_bytes("1000"), Ok(1000));
        assert_eq!(parse_size("1GiB"), Ok(1 << 30));
        assert_eq!(parse_size("500MB"), Ok(500_000_000));
        assert!(parse_bytes("lots").is_err() && parse_bytes("0").is_err());
    }

    #[test]
    fn ttl_and_quota_take_units_and_bare_numbers_keep_their_meaning() {
        let serve = |args: &[&str]| {
            let argv = [&["cards", "serve"][..], args].concat();
            match Cli::try_parse_from(argv).unwrap().command {
                Command::Serve(s) => s,
                _ => panic!("not serve"),
            }
        };
        let d = serve(&[]);
        assert_eq!(
            (d.token_ttl, d.authorization_ttl, d.file_quota),
            (120, 604_800, 1 << 30)
        );
        assert_eq!(
            card_core::domain::authorizations::DEFAULT_TTL_SECS,
            604_800,
            "the default above"
        );
        assert_eq!(
            card_core::Config::DEFAULT_FILE_QUOTA_BYTES,
            1 << 30,
            "the default above"
        );
        let s = serve(&[
            "--authorization-ttl",
            "7d",
            "--token-ttl",
            "2m",
            "--file-quota",
            "1GiB",
        ]);
        assert_eq!(
            (s.authorization_ttl, s.token_ttl, s.file_quota),
            (604_800, 120, 1 << 30)
        );
        let s = serve(&["--authorization-ttl", "3600", "--file-quota", "2048"]);
        assert_eq!((s.authorization_ttl, s.file_quota), (3600, 2048));
    }

    #[test]
    fn every_flag_and_subcommand_has_help() {
        fn walk(cmd: &clap::Command, path: &str) {
            for arg in cmd.get_arguments() {
                let id = arg.get_id().as_str();
                if matches!(id, "help" | "version") {
                    continue;
                }
                assert!(arg.get_help().is_some(), "{path} {id} has no help text");
            }
            for sub in cmd.get_subcommands() {
                assert!(
                    sub.get_about().is_some(),
                    "{path} {} has no help text",
                    sub.get_name()
                );
                walk(sub, &format!("{path} {}", sub.get_name()));
            }
        }
        walk(&Cli::command(), "cards");
    }

    #[test]
    fn debug_never_prints_keys() {
        let vault = "ab".repeat(32);
        let cli = Cli::try_parse_from([
            "cards",
            "serve",
            "--vault-key",
            &vault,
            "--vault-key",
            &"cd".repeat(32),
            "--api-key",
            "sekrit-api-key-123=alice",
        ])
        .unwrap();
        let printed = format!("{cli:?}");
        assert!(!printed.contains(&vault), "{printed}");
        assert!(!printed.contains(&"cd".repeat(32)), "{printed}");
        assert!(!printed.contains("sekrit-api-key-123"), "{printed}");
        assert!(printed.contains("redacted"), "{printed}");
    }

    #[test]
    fn keys_subcommands_parse() {
        let cli = Cli::try_parse_from(["cards", "keys", "create", "--client", "acme"]).unwrap();
        assert!(
            matches!(cli.command, Command::Keys(KeysCommand::Create { ref client, .. }) if client == "acme")
        );
        let cli = Cli::try_parse_from([
            "cards", "keys", "revoke", "--key", "ck_x", "--data", "a.redb",
        ])
        .unwrap();
        assert!(matches!(
            cli.command,
            Command::Keys(KeysCommand::Revoke { .. })
        ));
        assert!(Cli::try_parse_from(["cards", "keys", "revoke"]).is_err());
        assert!(
            Cli::try_parse_from(["cards", "keys", "revoke", "--key", "k", "--id", "i"]).is_err()
        );
        let cli = Cli::try_parse_from([
            "cards",
            "keys",
            "create",
            "--client",
            "acme",
            "--permissions",
            "cards:read,accounts:write,reveal",
        ])
        .unwrap();
        let Command::Keys(KeysCommand::Create { permissions, .. }) = cli.command else {
            panic!("not keys create")
        };
        assert_eq!(permissions, ["cards:read", "accounts:write", "reveal"]);
    }
}
