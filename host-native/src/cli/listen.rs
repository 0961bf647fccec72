//! `cards listen`: forwards a service's events to a local receiver, for a service that cannot reach
//! the developer's machine (README, "Forward events to a local receiver"). It follows `GET /events`
//! in creation order with `startingAfter` (polling: it works against every host, Spin included,
//! where no instance outlives a request to hold a stream open), signs each event with a secret of
//! its own (Standard Webhooks, the same signing as the service's), POSTs it to `--forward-to` and
//! prints one line per event with the receiver's answer.

use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, bail};
use bytes::Bytes;
use card_core::Env;
use card_core::domain::push::signature::{self, Secret};
use card_core::domain::push::url_policy::{self, Target, UrlPolicy};
use clap::Args;
use serde_json::Value;

use crate::outbound::Outbound;
use crate::system_env::SystemEnv;

#[derive(Args)]
pub struct ListenArgs {
    /// Where to POST each event (the local receiver), e.g. http://127.0.0.1:4242/webhooks.
    #[arg(long)]
    pub forward_to: String,

    /// Only these event types, comma-separated (e.g. card.created,authorization.created). Default: all.
    #[arg(long, value_delimiter = ',')]
    pub events: Vec<String>,

    /// The service's base URL.
    #[arg(long, env = "CARDS_API", default_value = "http://127.0.0.1:8080")]
    pub api: String,

    /// An API key of the client whose events to forward.
    #[arg(long, env = "CARDS_KEY")]
    pub key: String,

    /// How long to wait between polls when there was nothing new (e.g. 250ms, 2s).
    #[arg(long, default_value = "250ms", value_parser = humantime::parse_duration)]
    pub interval: Duration,

    /// Signing secret to use (`whsec_...`); default: a fresh one, printed at start.
    #[arg(long, env = "CARDS_LISTEN_SECRET")]
    pub secret: Option<String>,

    /// Stop after forwarding this many events (for scripts and tests).
    #[arg(long)]
    pub max_events: Option<u64>,
}

/// Never prints the key or the secret.
impl std::fmt::Debug for ListenArgs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ListenArgs")
            .field("forward_to", &self.forward_to)
            .field("events", &self.events)
            .field("api", &self.api)
            .field("interval", &self.interval)
            .field("max_events", &self.max_events)
            .finish_non_exhaustive()
    }
}

/// How long one call to the service or the receiver may take.
const CALL_TIMEOUT: Duration = Duration::from_secs(10);
/// Events per page.
const PAGE: usize = 100;

pub fn run(args: ListenArgs) -> anyhow::Result<ExitCode> {
    let secret = match &args.secret {
        Some(text) => Secret::parse(text).context("--secret is not a whsec_ secret")?,
        None => Secret::generate(&SystemEnv),
    };
    // The developer's own machine: its private addresses are fine to call.
    let policy = UrlPolicy {
        allow_private: true,
    };
    let api = args.api.trim_end_matches('/').to_string();
    let forward = url_policy::check_url(policy, &args.forward_to)
        .map_err(|r| anyhow::anyhow!("--forward-to: {r}"))?;
    url_policy::check_url(policy, &api).map_err(|r| anyhow::anyhow!("--api: {r}"))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the runtime")?;
    let outbound = Outbound::new(policy);
    println!(
        "Ready! Forwarding events of {api} to {} (signing secret {})",
        forward.url,
        secret.to_whsec()
    );
    runtime.block_on(follow(&outbound, &args, &api, &forward, &secret))?;
    Ok(ExitCode::SUCCESS)
}

async fn follow(
    outbound: &Outbound,
    args: &ListenArgs,
    api: &str,
    forward: &Target,
    secret: &Secret,
) -> anyhow::Result<()> {
    let filter = match args.events.as_slice() {
        [] => String::new(),
        types => format!("&type.in={}", types.join(",")),
    };
    // Start after the newest event: only what happens from now on is forwarded.
    let newest = page(
        outbound,
        api,
        &args.key,
        &format!("sort=-createdAt&limit=1{filter}"),
    )
    .await?;
    let mut cursor = newest
        .0
        .first()
        .and_then(|e| e["_id"].as_str())
        .map(str::to_owned);
    let mut forwarded = 0u64;
    loop {
        let after = cursor
            .as_deref()
            .map(|id| format!("&startingAfter={id}"))
            .unwrap_or_default();
        let query = format!("sort=createdAt&limit={PAGE}{after}{filter}");
        let (events, more) = match page(outbound, api, &args.key, &query).await {
            Ok(page) => page,
            Err(e) => {
                eprintln!("cannot read events (retrying): {e:#}");
                tokio::time::sleep(args.interval.max(Duration::from_secs(1))).await;
                continue;
            }
        };
        for event in &events {
            forward_one(outbound, forward, secret, event).await;
            cursor = event["_id"].as_str().map(str::to_owned).or(cursor);
            forwarded += 1;
            if args.max_events.is_some_and(|max| forwarded >= max) {
                return Ok(());
            }
        }
        if !more {
            tokio::time::sleep(args.interval).await;
        }
    }
}

/// One page of `GET /events?{query}`: the events and whether more follow.
async fn page(
    outbound: &Outbound,
    api: &str,
    key: &str,
    query: &str,
) -> anyhow::Result<(Vec<Value>, bool)> {
    let url = format!("{api}/events?{query}");
    let target = url_policy::check_url(
        UrlPolicy {
            allow_private: true,
        },
        &url,
    )
    .map_err(|r| anyhow::anyhow!("{url}: {r}"))?;
    let attempt = outbound
        .get(&target, &[("x-api-key", key)], CALL_TIMEOUT)
        .await;
    if let Some(error) = attempt.error {
        bail!("GET /events: {}", error.whole());
    }
    let body: Value = serde_json::from_slice(&attempt.body).context("GET /events: not JSON")?;
    if attempt.status != Some(200) {
        bail!(
            "GET /events answered {}: {}",
            attempt.status.unwrap_or_default(),
            body["message"].as_str().unwrap_or_default()
        );
    }
    let events = body["data"].as_array().cloned().unwrap_or_default();
    let more = body["meta"]["hasMore"].as_bool().unwrap_or(false);
    Ok((events, more))
}

/// Signs and POSTs one event, and prints what the receiver answered.
async fn forward_one(outbound: &Outbound, forward: &Target, secret: &Secret, event: &Value) {
    let id = event["_id"].as_str().unwrap_or_default();
    let kind = event["type"].as_str().unwrap_or_default();
    let body = Bytes::from(serde_json::to_vec(event).unwrap_or_default());
    let now = SystemEnv.now();
    let headers = signature::headers(&[secret], id, now.seconds(), &body);
    let headers: Vec<(&str, &str)> = headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let attempt = outbound.post(forward, &headers, body, CALL_TIMEOUT).await;
    let answer = match (&attempt.error, attempt.status) {
        (Some(error), _) => format!("failed: {}", error.whole()),
        (None, Some(status)) => format!("[{status}]"),
        (None, None) => "no answer".into(),
    };
    println!(
        "{}  {kind:<24} {id}  -> {answer} in {} ms",
        now.to_rfc3339(),
        attempt.duration.as_millis()
    );
}
