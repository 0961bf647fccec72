//! Sending a signed message out (webhook deliveries, authorization requests): one HTTP/1.1 POST, with the
//! address policy applied to every address the host name resolves to BEFORE any connection is made, so a
//! refused URL never sees a packet. https through rustls with Mozilla's roots (webpki-roots).
//! Connections are kept alive and reused, a pooled one only for the same scheme, host and port it was
//! made (and checked) for: a new connection is checked again, so a name now resolving somewhere refused is
//! never connected.
//! A leaf module: the server and the delivery task call it; it knows nothing of either.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use card_core::domain::push::url_policy::{self, Host, Scheme, Target, UrlPolicy};
use http_body_util::{BodyExt, Full, Limited};
use hyper::client::conn::http1;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;
use tokio_rustls::rustls::{self, pki_types::ServerName};

/// How much of an answer's body is read (a decision answer is small; a webhook answer is ignored).
const MAX_ANSWER_BYTES: usize = 64 * 1024;

/// How much of a `get` answer is read (a page of events).
const MAX_PAGE_BYTES: usize = 8 * 1024 * 1024;

/// Idle connections kept per target.
const MAX_IDLE_PER_TARGET: usize = 64;

/// How long an idle connection is kept (receivers close theirs after a while; many after 5 to 60 s).
const IDLE_FOR: Duration = Duration::from_secs(4);

/// Targets with idle connections kept, at most (the oldest target's are dropped past it).
const MAX_TARGETS: usize = 1024;

type Sender = http1::SendRequest<Full<Bytes>>;

/// Where a connection goes: the same scheme, host and port.
type PoolKey = (bool, String, u16);

/// Idle keep-alive connections by target, each with when it went idle.
#[derive(Default)]
struct Pool {
    idle: HashMap<PoolKey, Vec<(Sender, Instant)>>,
}

impl Pool {
    fn take(&mut self, key: &PoolKey) -> Option<Sender> {
        let list = self.idle.get_mut(key)?;
        while let Some((sender, since)) = list.pop() {
            if since.elapsed() < IDLE_FOR && !sender.is_closed() && sender.is_ready() {
                return Some(sender);
            }
        }
        self.idle.remove(key);
        None
    }

    fn give(&mut self, key: PoolKey, sender: Sender) {
        if self.idle.len() >= MAX_TARGETS && !self.idle.contains_key(&key) {
            self.idle
                .retain(|_, l| l.iter().any(|(_, t)| t.elapsed() < IDLE_FOR));
            if self.idle.len() >= MAX_TARGETS {
                return;
            }
        }
        let list = self.idle.entry(key).or_default();
        // One clock read per give, not one per idle connection (up to 64, on every attempt).
        let now = Instant::now();
        list.retain(|(s, t)| now.saturating_duration_since(*t) < IDLE_FOR && !s.is_closed());
        if list.len() < MAX_IDLE_PER_TARGET {
            list.push((sender, now));
        }
    }
}

/// One request to send.
struct Call<'a> {
    method: hyper::Method,
    headers: &'a [(&'a str, &'a str)],
    body: Option<Bytes>,
    max_answer: usize,
}

/// What came of one attempt. `status` is set when an HTTP answer arrived (any status); `error` says why
/// there was none, or why the body could not be read.
#[derive(Debug, Clone)]
pub struct Attempt {
    pub status: Option<u16>,
    pub body: Bytes,
    pub duration: Duration,
    pub error: Option<AttemptError>,
}

impl Attempt {
    pub fn succeeded(&self) -> bool {
        self.error.is_none() && self.status.is_some_and(|s| (200..300).contains(&s))
    }
}

/// Why an attempt has no answer. The causes stay a chain (`source()`); [`AttemptError::whole`] is
/// the text users see (a delivery's recorded error, `cards listen`, the Spin host's outbound call).
#[derive(Debug, Clone, thiserror::Error)]
pub enum AttemptError {
    #[error("refused: {0}")]
    Refused(String),
    #[error("timed out")]
    Timeout,
    #[error("could not resolve {0}")]
    Resolve(String),
    #[error("could not connect")]
    Connect(#[source] Option<Cause>),
    #[error("TLS")]
    Tls(#[source] Cause),
    #[error("HTTP")]
    Http(#[source] Cause),
}

impl AttemptError {
    /// The error and every cause under it ("TLS: invalid peer certificate: UnknownIssuer").
    pub fn whole(&self) -> String {
        let mut text = self.to_string();
        let mut cause = std::error::Error::source(self);
        while let Some(c) = cause {
            text.push_str(": ");
            text.push_str(&c.to_string());
            cause = c.source();
        }
        text
    }
}

/// A cause, shared so an [`Attempt`] stays cheap to clone; shows as the error it holds.
#[derive(Debug, Clone)]
pub struct Cause(Arc<dyn std::error::Error + Send + Sync>);

impl Cause {
    fn of(e: impl std::error::Error + Send + Sync + 'static) -> Cause {
        Cause(Arc::new(e))
    }

    fn boxed(e: Box<dyn std::error::Error + Send + Sync>) -> Cause {
        Cause(Arc::from(e))
    }

    fn msg(text: &str) -> Cause {
        Cause::boxed(text.into())
    }
}

impl std::fmt::Display for Cause {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for Cause {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

/// The sender, shared by every caller (cheap to clone).
#[derive(Clone)]
pub struct Outbound {
    policy: UrlPolicy,
    /// Names answered here instead of by DNS (`--resolve`); their addresses are checked the same.
    resolve: Arc<HashMap<String, Vec<IpAddr>>>,
    tls: TlsConnector,
    user_agent: Arc<str>,
    pool: Arc<Mutex<Pool>>,
}

impl Outbound {
    pub fn new(policy: UrlPolicy) -> Outbound {
        let roots = rustls::RootCertStore {
            roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
        };
        // The ring provider named explicitly: the process may link more than one (see store/pg.rs).
        let config = rustls::ClientConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .expect("ring supports the default protocol versions")
        .with_root_certificates(roots)
        .with_no_client_auth();
        Outbound {
            policy,
            resolve: Arc::default(),
            tls: TlsConnector::from(Arc::new(config)),
            user_agent: format!("cards/{}", env!("CARGO_PKG_VERSION")).into(),
            pool: Arc::default(),
        }
    }

    /// The same sender with an empty connection pool of its own (for callers on another runtime).
    pub fn separate_pool(&self) -> Outbound {
        Outbound {
            pool: Arc::default(),
            ..self.clone()
        }
    }

    /// Answers these names with these addresses instead of asking DNS (as curl's `--resolve`): for
    /// split-horizon names, and to show that a name's addresses are what the policy judges.
    pub fn resolving(mut self, names: &[Pinned]) -> Outbound {
        let mut map: HashMap<String, Vec<IpAddr>> = HashMap::new();
        for p in names {
            map.entry(p.name.to_ascii_lowercase())
                .or_default()
                .push(p.addr);
        }
        self.resolve = Arc::new(map);
        self
    }

    /// POSTs `body` as JSON to `target` with `headers`, all of it (resolving, connecting, TLS, the answer)
    /// within `timeout`.
    pub async fn post(
        &self,
        target: &Target,
        headers: &[(&str, &str)],
        body: Bytes,
        timeout: Duration,
    ) -> Attempt {
        let call = Call {
            method: hyper::Method::POST,
            headers,
            body: Some(body),
            max_answer: MAX_ANSWER_BYTES,
        };
        self.send(target, call, timeout).await
    }

    /// GETs `target` with `headers` (`cards listen` reading the service's events), reading at most
    /// [`MAX_PAGE_BYTES`] of the answer.
    pub async fn get(
        &self,
        target: &Target,
        headers: &[(&str, &str)],
        timeout: Duration,
    ) -> Attempt {
        let call = Call {
            method: hyper::Method::GET,
            headers,
            body: None,
            max_answer: MAX_PAGE_BYTES,
        };
        self.send(target, call, timeout).await
    }

    async fn send(&self, target: &Target, call: Call<'_>, timeout: Duration) -> Attempt {
        let start = Instant::now();
        let result = tokio::time::timeout(timeout, self.exchange(target, call)).await;
        let duration = start.elapsed();
        match result {
            Ok(Ok((status, body))) => Attempt {
                status: Some(status),
                body,
                duration,
                error: None,
            },
            Ok(Err(error)) => Attempt {
                status: None,
                body: Bytes::new(),
                duration,
                error: Some(error),
            },
            Err(_) => Attempt {
                status: None,
                body: Bytes::new(),
                duration,
                error: Some(AttemptError::Timeout),
            },
        }
    }

    async fn exchange(
        &self,
        target: &Target,
        call: Call<'_>,
    ) -> Result<(u16, Bytes), AttemptError> {
        let key: PoolKey = (
            matches!(target.scheme, Scheme::Https),
            target.authority(),
            target.port,
        );
        let pooled = self
            .pool
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take(&key);
        if let Some(sender) = pooled {
            match self.request(sender, target, &call).await {
                Ok((status, body, sender)) => {
                    self.give_back(key, sender);
                    return Ok((status, body));
                }
                // The receiver closed the idle connection as it was reused (the request never
                // reached it, or no answer started): send once more on a new connection.
                Err(Reuse::Closed) => {}
                Err(Reuse::Failed(e)) => return Err(e),
            }
        }
        let sender = self.connect(target).await?;
        match self.request(sender, target, &call).await {
            Ok((status, body, sender)) => {
                self.give_back(key, sender);
                Ok((status, body))
            }
            Err(Reuse::Closed) => Err(AttemptError::Http(Cause::msg(
                "the connection closed before an answer",
            ))),
            Err(Reuse::Failed(e)) => Err(e),
        }
    }

    fn give_back(&self, key: PoolKey, sender: Sender) {
        if !sender.is_closed() {
            self.pool
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .give(key, sender);
        }
    }

    /// A new connection to the target, its addresses checked first, its driver spawned.
    async fn connect(&self, target: &Target) -> Result<Sender, AttemptError> {
        let addrs = self.addresses(target).await?;
        let tcp = connect(&addrs).await?;
        let _ = tcp.set_nodelay(true);
        match target.scheme {
            Scheme::Http => handshake(tcp).await,
            Scheme::Https => {
                let name = match &target.host {
                    Host::Name(name) => ServerName::try_from(name.clone())
                        .map_err(|e| AttemptError::Tls(Cause::of(e)))?,
                    Host::Ip(ip) => ServerName::IpAddress((*ip).into()),
                };
                let tls = self
                    .tls
                    .connect(name, tcp)
                    .await
                    .map_err(|e| AttemptError::Tls(Cause::of(e)))?;
                handshake(tls).await
            }
        }
    }

    /// Every address the target may be reached at, each allowed by the policy. One refused address refuses
    /// the whole name: a name that mixes allowed and refused answers is how DNS rebinding starts.
    async fn addresses(&self, target: &Target) -> Result<Vec<SocketAddr>, AttemptError> {
        let ips: Vec<IpAddr> = match &target.host {
            Host::Ip(ip) => vec![*ip],
            Host::Name(name) => match self.resolve.get(&name.to_ascii_lowercase()) {
                Some(pinned) => pinned.clone(),
                None => tokio::net::lookup_host((name.as_str(), target.port))
                    .await
                    .map_err(|_| AttemptError::Resolve(name.clone()))?
                    .map(|a| a.ip())
                    .collect(),
            },
        };
        if ips.is_empty() {
            return Err(AttemptError::Resolve(target.authority()));
        }
        for ip in &ips {
            url_policy::check_addr(self.policy, target, *ip)
                .map_err(|r| AttemptError::Refused(r.0))?;
        }
        Ok(ips
            .into_iter()
            .map(|ip| SocketAddr::new(ip, target.port))
            .collect())
    }

    /// One request on `sender`; the sender back when the connection may be used again.
    async fn request(
        &self,
        mut sender: Sender,
        target: &Target,
        call: &Call<'_>,
    ) -> Result<(u16, Bytes, Sender), Reuse> {
        let http = |e: hyper::Error| AttemptError::Http(Cause::of(e));
        let mut request = hyper::Request::builder()
            .method(call.method.clone())
            .uri(target.path_and_query.as_str())
            .header(hyper::header::HOST, target.authority())
            .header(hyper::header::USER_AGENT, &*self.user_agent);
        if call.body.is_some() {
            request = request.header(hyper::header::CONTENT_TYPE, "application/json");
        }
        for (name, value) in call.headers {
            request = request.header(*name, *value);
        }
        let request = request
            .body(Full::new(call.body.clone().unwrap_or_default()))
            .map_err(|e| Reuse::Failed(AttemptError::Http(Cause::of(e))))?;
        if sender.ready().await.is_err() {
            return Err(Reuse::Closed);
        }
        let answer = match sender.send_request(request).await {
            Ok(answer) => answer,
            // Closed before any answer began: nothing was answered, the caller may send again.
            Err(e) if e.is_canceled() || e.is_incomplete_message() => return Err(Reuse::Closed),
            Err(e) => return Err(Reuse::Failed(http(e))),
        };
        let status = answer.status().as_u16();
        let body = Limited::new(answer.into_body(), call.max_answer)
            .collect()
            .await
            .map_err(|e| Reuse::Failed(AttemptError::Http(Cause::boxed(e))))?
            .to_bytes();
        Ok((status, body, sender))
    }
}

/// A name answered with an address (`--resolve NAME=ADDR`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pinned {
    pub name: String,
    pub addr: IpAddr,
}

impl std::str::FromStr for Pinned {
    type Err = String;

    fn from_str(s: &str) -> Result<Pinned, String> {
        let (name, addr) = s
            .split_once('=')
            .ok_or_else(|| format!("{s:?} is not NAME=ADDRESS"))?;
        let name = name.trim();
        if name.is_empty() || name.parse::<IpAddr>().is_ok() {
            return Err(format!("{name:?} is not a host name"));
        }
        let addr = addr
            .trim()
            .parse()
            .map_err(|_| format!("{addr:?} is not an IP address"))?;
        Ok(Pinned {
            name: name.to_string(),
            addr,
        })
    }
}

/// Why a request on a connection did not answer.
enum Reuse {
    /// The connection was closed before the request was answered: a new one may be tried.
    Closed,
    Failed(AttemptError),
}

/// The HTTP/1.1 handshake on a new connection; its driver runs until the connection closes (the
/// receiver closes it, or the pool drops its sender).
async fn handshake<S>(io: S) -> Result<Sender, AttemptError>
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let (sender, conn) = http1::handshake(TokioIo::new(io))
        .await
        .map_err(|e| AttemptError::Http(Cause::of(e)))?;
    tokio::spawn(async move {
        let _ = conn.await;
    });
    Ok(sender)
}

async fn connect(addrs: &[SocketAddr]) -> Result<TcpStream, AttemptError> {
    let mut last = None;
    for addr in addrs {
        match TcpStream::connect(addr).await {
            Ok(tcp) => return Ok(tcp),
            Err(e) => last = Some(e),
        }
    }
    Err(AttemptError::Connect(last.map(Cause::of)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpListener;

    #[test]
    fn an_attempt_error_keeps_its_causes_and_shows_them_all() {
        let refused = std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "refused by peer");
        let e = AttemptError::Connect(Some(Cause::of(refused)));
        let source = std::error::Error::source(&e).expect("a source");
        assert_eq!(source.to_string(), "refused by peer");
        assert_eq!(e.whole(), "could not connect: refused by peer");
        assert_eq!(AttemptError::Connect(None).whole(), "could not connect");
        assert_eq!(AttemptError::Timeout.whole(), "timed out");
    }

    fn target(url: &str, policy: UrlPolicy) -> Target {
        url_policy::check_url(policy, url).unwrap()
    }

    /// One attempt of an empty body to `url` (the default policy) through a new `Outbound`.
    async fn post_empty(url: &str, timeout: Duration) -> Attempt {
        Outbound::new(UrlPolicy::default())
            .post(
                &target(url, UrlPolicy::default()),
                &[],
                Bytes::new(),
                timeout,
            )
            .await
    }

    /// A one-shot receiver on loopback: reads one request, answers `answer`, returns what it read.
    async fn receiver(answer: &'static str) -> (u16, tokio::task::JoinHandle<String>) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let task = tokio::spawn(async move {
            let (mut sock, _) = listener.accept().await.unwrap();
            let mut seen = Vec::new();
            let mut buf = [0u8; 4096];
            // Read until the headers and the whole body are in.
            loop {
                let n = sock.read(&mut buf).await.unwrap();
                seen.extend_from_slice(&buf[..n]);
                let text = String::from_utf8_lossy(&seen).to_string();
                if let Some(end) = text.find("\r\n\r\n") {
                    let len = text
                        .lines()
                        .find_map(|l| l.strip_prefix("content-length: "))
                        .and_then(|v| v.trim().parse::<usize>().ok())
                        .unwrap_or(0);
                    if seen.len() >= end + 4 + len {
                        break;
                    }
                }
                if n == 0 {
                    break;
                }
            }
            sock.write_all(answer.as_bytes()).await.unwrap();
            String::from_utf8(seen).unwrap()
        });
        (port, task)
    }

    #[tokio::test]
    async fn posts_signed_json_to_a_loopback_receiver_and_reads_the_answer() {
        let (port, seen) =
            receiver("HTTP/1.1 200 OK\r\ncontent-length: 17\r\n\r\n{\"approved\":true}").await;
        let out = Outbound::new(UrlPolicy::default());
        let url = format!("http://127.0.0.1:{port}/hook?a=1");
        let attempt = out
            .post(
                &target(&url, UrlPolicy::default()),
                &[("webhook-id", "evt_1")],
                Bytes::from_static(b"{\"x\":1}"),
                Duration::from_secs(5),
            )
            .await;
        assert!(attempt.succeeded(), "{attempt:?}");
        assert_eq!(attempt.status, Some(200));
        assert_eq!(&attempt.body[..], b"{\"approved\":true}");
        let request = seen.await.unwrap();
        assert!(
            request.starts_with("POST /hook?a=1 HTTP/1.1\r\n"),
            "{request}"
        );
        assert!(request.contains("webhook-id: evt_1\r\n"));
        assert!(request.contains("content-type: application/json\r\n"));
        assert!(request.ends_with("{\"x\":1}"));
    }

    #[tokio::test]
    async fn a_non_2xx_answer_is_a_failed_attempt_with_its_status() {
        let (port, _seen) =
            receiver("HTTP/1.1 500 Internal Server Error\r\ncontent-length: 0\r\n\r\n").await;
        let attempt =
            post_empty(&format!("http://127.0.0.1:{port}/"), Duration::from_secs(5)).await;
        assert_eq!(attempt.status, Some(500));
        assert!(!attempt.succeeded());
    }

    #[tokio::test]
    async fn a_silent_receiver_times_out() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let _hold = tokio::spawn(async move {
            let (_sock, _) = listener.accept().await.unwrap();
            tokio::time::sleep(Duration::from_secs(30)).await;
        });
        let attempt = post_empty(
            &format!("http://127.0.0.1:{port}/"),
            Duration::from_millis(200),
        )
        .await;
        assert!(
            matches!(attempt.error, Some(AttemptError::Timeout)),
            "{:?}",
            attempt.error
        );
        assert!(attempt.duration < Duration::from_secs(5));
    }

    #[tokio::test]
    async fn a_refused_address_is_never_connected() {
        // Allowed when configured (private ranges on), refused by the policy at send time (private off):
        // the check happens before any connection, so the error is a refusal, not a connect failure.
        let allowed = UrlPolicy {
            allow_private: true,
        };
        let t = target("http://10.255.255.1:9/", allowed);
        let attempt = Outbound::new(UrlPolicy::default())
            .post(&t, &[], Bytes::new(), Duration::from_secs(5))
            .await;
        assert!(
            matches!(attempt.error, Some(AttemptError::Refused(_))),
            "{attempt:?}"
        );
        assert!(attempt.duration < Duration::from_millis(500));
    }

    #[tokio::test]
    async fn localhost_resolves_and_is_checked_per_address() {
        let (port, _seen) = receiver("HTTP/1.1 204 No Content\r\n\r\n").await;
        let attempt =
            post_empty(&format!("http://localhost:{port}/"), Duration::from_secs(5)).await;
        // localhost may resolve to ::1 first, where nothing listens; the IPv4 address then answers.
        assert_eq!(attempt.status, Some(204), "{attempt:?}");
    }

    /// A keep-alive receiver: answers every request of each connection it accepts with 200, and
    /// closes a connection after `per_connection` answers. Counts connections and requests.
    async fn keep_alive_receiver(
        per_connection: usize,
    ) -> (
        u16,
        Arc<std::sync::atomic::AtomicUsize>,
        Arc<std::sync::atomic::AtomicUsize>,
    ) {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let (conns, reqs) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let (c, r) = (conns.clone(), reqs.clone());
        tokio::spawn(async move {
            loop {
                let (mut sock, _) = listener.accept().await.unwrap();
                c.fetch_add(1, Ordering::SeqCst);
                let r = r.clone();
                tokio::spawn(async move {
                    let mut seen = Vec::new();
                    let mut buf = [0u8; 4096];
                    let mut answered = 0;
                    while answered < per_connection {
                        let n = sock.read(&mut buf).await.unwrap_or(0);
                        if n == 0 {
                            return;
                        }
                        seen.extend_from_slice(&buf[..n]);
                        // The test's requests carry no body: one request per blank line.
                        while let Some(end) = seen.windows(4).position(|w| w == b"\r\n\r\n") {
                            seen.drain(..end + 4);
                            r.fetch_add(1, Ordering::SeqCst);
                            sock.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n")
                                .await
                                .unwrap();
                            answered += 1;
                        }
                    }
                    // Closed without saying so (no `connection: close`), as idle timeouts do.
                });
            }
        });
        (port, conns, reqs)
    }

    #[tokio::test]
    async fn a_connection_is_kept_alive_and_reused_for_the_same_target() {
        use std::sync::atomic::Ordering;
        let (port, conns, reqs) = keep_alive_receiver(usize::MAX).await;
        let out = Outbound::new(UrlPolicy::default());
        let t = target(&format!("http://127.0.0.1:{port}/h"), UrlPolicy::default());
        for _ in 0..5 {
            let a = out
                .post(&t, &[], Bytes::new(), Duration::from_secs(5))
                .await;
            assert!(a.succeeded(), "{a:?}");
        }
        assert_eq!(reqs.load(Ordering::SeqCst), 5);
        assert_eq!(conns.load(Ordering::SeqCst), 1);
        // Another target (here: the same address by name) gets its own connection.
        let by_name = target(&format!("http://localhost:{port}/h"), UrlPolicy::default());
        let a = out
            .post(&by_name, &[], Bytes::new(), Duration::from_secs(5))
            .await;
        assert!(a.succeeded(), "{a:?}");
        assert_eq!(conns.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn a_pooled_connection_the_receiver_closed_is_replaced_not_failed() {
        use std::sync::atomic::Ordering;
        let (port, conns, reqs) = keep_alive_receiver(1).await;
        let out = Outbound::new(UrlPolicy::default());
        let t = target(&format!("http://127.0.0.1:{port}/h"), UrlPolicy::default());
        for _ in 0..3 {
            let a = out
                .post(&t, &[], Bytes::new(), Duration::from_secs(5))
                .await;
            assert!(a.succeeded(), "{a:?}");
        }
        assert_eq!(reqs.load(Ordering::SeqCst), 3);
        assert_eq!(conns.load(Ordering::SeqCst), 3);
    }

    #[test]
    fn pinned_names_parse_as_name_equals_address() {
        let p: Pinned = "Hooks.Example=10.0.0.7".parse().unwrap();
        assert_eq!(
            (p.name.as_str(), p.addr.to_string()),
            ("Hooks.Example", "10.0.0.7".into())
        );
        assert!("::1".parse::<Pinned>().is_err());
        assert!(
            "10.0.0.1=10.0.0.2".parse::<Pinned>().is_err(),
            "an address is no name"
        );
        assert!("name=host".parse::<Pinned>().is_err());
        assert!("=10.0.0.1".parse::<Pinned>().is_err());
    }
}
