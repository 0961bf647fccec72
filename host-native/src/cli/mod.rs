//! Command line: `cards serve`, `cards keys create`, `cards keys revoke`. Every serve option also reads
//! an environment variable, so containers can configure it without flags.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};

pub mod seed;

#[derive(Debug, Parser)]
#[command(name = "cards", version, about = "Card-issuing REST service")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the HTTP server.
    Serve(ServeArgs),
    /// Manage stored API keys (only their SHA-256 hashes are stored).
    #[command(subcommand)]
    Keys(KeysCommand),
    /// Fill the store with accounts, card holders and cards for one client, through the same code
    /// that serves requests (to try the service at volume).
    Seed(SeedArgs),
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

    /// AES-256 key (64 hex characters) for card numbers; default: the key file beside the data file.
    #[arg(long, env = "CARDS_VAULT_KEY", hide_env_values = true)]
    pub vault_key: Option<String>,
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
            .field("vault_key", &self.vault_key.as_ref().map(|_| "<redacted>"))
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

    /// Memory for redb's page cache (`128MiB`): the B-tree's inner pages stay cached; a scan of a
    /// big list reads the rest from the OS page cache instead of growing the process.
    #[arg(long, env = "CARDS_CACHE_SIZE", default_value = "128MiB", value_parser = parse_bytes)]
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

    /// AES-256 vault key, 64 hex characters. Default: `<data file>.vault-key`, created on first start.
    #[arg(long, env = "CARDS_VAULT_KEY", hide_env_values = true)]
    pub vault_key: Option<String>,

    /// Lifetime of a reveal token, in seconds.
    #[arg(long, env = "CARDS_TOKEN_TTL", default_value_t = 120,
          value_parser = clap::value_parser!(i64).range(1..))]
    pub token_ttl: i64,

    /// How long an approved card authorization holds funds before it expires, in seconds (7 days).
    #[arg(long, env = "CARDS_AUTHORIZATION_TTL", default_value_t = card_core::domain::authorizations::DEFAULT_TTL_SECS,
          value_parser = clap::value_parser!(i64).range(1..))]
    pub authorization_ttl: i64,

    /// The test clock (`GET /test-clock`, `POST /test-clock/advance`): `false` (or off, no, 0) answers
    /// both routes 404. Clocks already advanced stay where they are.
    #[arg(long, env = "CARDS_TEST_CLOCK", default_value_t = true, action = clap::ArgAction::Set,
          value_parser = clap::builder::BoolishValueParser::new())]
    pub test_clock: bool,

    /// Most bytes of card-holder files one client may store (413 quota_exceeded past it).
    #[arg(long, env = "CARDS_FILE_QUOTA", default_value_t = card_core::Config::DEFAULT_FILE_QUOTA_BYTES)]
    pub file_quota: u64,

    /// Most write requests per group commit (1 = one commit per request).
    #[arg(long, env = "CARDS_MAX_BATCH", default_value_t = 256,
          value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub max_batch: u32,

    /// How often the data file is brought up to date with the write-ahead log (`<data>.wal`) by
    /// an fsynced commit. Longer: a little less work per write, more log to apply after a crash.
    #[arg(long, env = "CARDS_CHECKPOINT_INTERVAL", default_value = "1s", value_parser = parse_duration)]
    pub checkpoint_interval: Duration,

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
            .field("vault_key", &self.vault_key.as_ref().map(|_| "<redacted>"))
            .field("token_ttl", &self.token_ttl)
            .field("authorization_ttl", &self.authorization_ttl)
            .field("test_clock", &self.test_clock)
            .field("max_batch", &self.max_batch)
            .field("checkpoint_interval", &self.checkpoint_interval)
            .field("console", &self.console)
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
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArgError {
    #[error("{0:?}: expected e.g. 30s or 500ms")]
    NotADuration(String),
    #[error("{0:?}: the unit must be ms, s or m")]
    DurationUnit(String),
    #[error("{0:?}: expected e.g. 64MiB")]
    NotASize(String),
    #[error("{0:?}: the unit must be KiB, MiB or GiB")]
    SizeUnit(String),
    #[error("{0:?} is too large")]
    TooLarge(String),
    #[error("must be more than zero")]
    Zero,
}

/// `30`, `30s`, `500ms`, `2m`.
fn parse_duration(s: &str) -> Result<Duration, ArgError> {
    let s = s.trim();
    let split = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let (n, unit) = s.split_at(split);
    let n: u64 = n.parse().map_err(|_| ArgError::NotADuration(s.into()))?;
    let d = match unit.trim() {
        "" | "s" => Duration::from_secs(n),
        "ms" => Duration::from_millis(n),
        "m" => Duration::from_secs(n.saturating_mul(60)),
        _ => return Err(ArgError::DurationUnit(s.into())),
    };
    if d.is_zero() {
        return Err(ArgError::Zero);
    }
    Ok(d)
}

/// `1048576`, `512KiB`, `64MiB`, `1GiB` (also `K`, `M`, `G`, `KB`, `MB`, `GB` as powers of 1024).
fn parse_bytes(s: &str) -> Result<usize, ArgError> {
    let s = s.trim();
    let split = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let (n, unit) = s.split_at(split);
    let n: usize = n.parse().map_err(|_| ArgError::NotASize(s.into()))?;
    let scale: usize = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        _ => return Err(ArgError::SizeUnit(s.into())),
    };
    match n.checked_mul(scale) {
        Some(0) => Err(ArgError::Zero),
        Some(b) => Ok(b),
        None => Err(ArgError::TooLarge(s.into())),
    }
}

#[derive(Debug, Subcommand)]
pub enum KeysCommand {
    /// Create a key for a client and print it (it is shown only this once).
    Create {
        #[arg(long)]
        client: String,
        #[command(flatten)]
        data: DataArg,
    },
    /// Revoke a stored key.
    Revoke {
        #[arg(long)]
        key: String,
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
        assert!(Cli::try_parse_from(["cards", "serve", "--listen", "nope"]).is_err());
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
        assert!(parse_duration("0s").is_err() && parse_duration("5h").is_err());
        assert_eq!(parse_bytes("512KiB"), Ok(512 << 10));
        assert_eq!(parse_bytes("1000"), Ok(1000));
        assert!(parse_bytes("1TiB").is_err() && parse_bytes("0").is_err());
    }

    #[test]
    fn debug_never_prints_keys() {
        let vault = "ab".repeat(32);
        let cli = Cli::try_parse_from([
            "cards",
            "serve",
            "--vault-key",
            &vault,
            "--api-key",
            "sekrit-api-key-123=alice",
        ])
        .unwrap();
        let printed = format!("{cli:?}");
        assert!(!printed.contains(&vault), "{printed}");
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
    }
}
