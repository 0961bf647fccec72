//! Command line: `cards serve`, `cards keys create`, `cards keys revoke`. Every serve option also reads
//! an environment variable, so containers can configure it without flags.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

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
}

#[derive(Debug, Args)]
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

    /// Most bytes of card-holder files one client may store (413 quota_exceeded past it).
    #[arg(long, env = "CARDS_FILE_QUOTA", default_value_t = card_core::Config::DEFAULT_FILE_QUOTA_BYTES)]
    pub file_quota: u64,

    /// Most write requests per group commit (1 = one commit per request).
    #[arg(long, env = "CARDS_MAX_BATCH", default_value_t = 256,
          value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub max_batch: u32,

    /// Serve the web console from this directory (GET / and its files, e.g. web/ with web/pkg built
    /// by scripts/build-browser). Off by default.
    #[arg(long, env = "CARDS_CONSOLE")]
    pub console: Option<PathBuf>,
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
