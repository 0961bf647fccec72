//! The Spin component's call-outs (`card_core::callout`): one POST through `wasi:http/outgoing-handler`,
//! which Spin allows only to the hosts `allowed_outbound_hosts` lists (spin.toml). The URL is checked
//! against the operator's policy here; Spin resolves the name, so the component cannot check the
//! resolved addresses as the native server does: `allowed_outbound_hosts` is the second fence.
//!
//! The instance handles one request, so it simply blocks on the answer: a poll over the response and
//! a timer bounds the wait by the call-out's timeout.

use card_core::callout::{Asked, CallOut, Reply};
use card_core::domain::push::url_policy::{self, Scheme, Target, UrlPolicy};
use card_core::domain::webhooks::deliveries::{Due, Outcome};
use wasi::clocks::monotonic_clock;
use wasi::http::outgoing_handler;
use wasi::http::types::{
    ErrorCode, Fields, FutureIncomingResponse, Method, OutgoingBody, OutgoingRequest,
    RequestOptions, Scheme as WasiScheme,
};
use wasi::io::poll::Pollable;
use wasi::io::streams::StreamError;

/// How much of an answer's body is read.
const MAX_ANSWER_BYTES: usize = 64 * 1024;
/// `blocking-write-and-flush` takes at most 4096 bytes a call.
const WRITE_CHUNK: usize = 4096;

/// Performs `call`, within its timeout; what came of it, for the write.
pub fn call_out(policy: UrlPolicy, call: CallOut) -> Asked {
    let target = match url_policy::check_url(policy, &call.url) {
        Ok(target) => target,
        Err(refusal) => return call.failed(refusal.to_string()),
    };
    let started = monotonic_clock::now();
    let reply = send(&target, &call).unwrap_or_else(|reply| reply);
    let latency_ms = monotonic_clock::now().saturating_sub(started) / 1_000_000;
    Asked {
        context: call.context,
        latency_ms,
        reply,
    }
}

/// How long a webhook attempt may take: any 2xx within it succeeds (README, "Webhooks").
pub const DELIVERY_TIMEOUT_MS: u64 = 10_000;

/// Sends webhook deliveries taken from the queue (their URLs were checked against the policy when
/// they were taken) all at once: wasi:http runs outgoing requests side by side, so a batch takes
/// about as long as its slowest attempt, at most [`DELIVERY_TIMEOUT_MS`], not the sum of them. The
/// answers' bodies are not read (only the status counts). How each went, in order, for
/// `Service::record_attempts`.
pub fn deliver_all(dues: &[Due]) -> Vec<Outcome> {
    let started = monotonic_clock::now();
    let elapsed_ms = || monotonic_clock::now().saturating_sub(started) / 1_000_000;
    let deadline =
        monotonic_clock::subscribe_duration(DELIVERY_TIMEOUT_MS.saturating_mul(1_000_000));
    let mut replies: Vec<Option<(Reply, u64)>> = Vec::with_capacity(dues.len());
    let mut flights = Vec::with_capacity(dues.len());
    for due in dues {
        match start(&due.target, &delivery_call(due)) {
            Ok(pending) => {
                // The pollable first: a child resource must go before its parent.
                let ready = pending.subscribe();
                flights.push(Some((ready, pending)));
                replies.push(None);
            }
            Err(reply) => {
                flights.push(None);
                replies.push(Some((reply, elapsed_ms())));
            }
        }
    }
    loop {
        let waiting: Vec<usize> = (0..flights.len())
            .filter(|i| flights[*i].is_some())
            .collect();
        if waiting.is_empty() {
            break;
        }
        let mut polls: Vec<&Pollable> = waiting
            .iter()
            .filter_map(|i| flights[*i].as_ref().map(|(ready, _)| ready))
            .collect();
        polls.push(&deadline);
        let woke = wasi::io::poll::poll(&polls);
        let timed_out = woke.iter().any(|w| *w as usize == waiting.len());
        for w in woke {
            let Some(i) = waiting.get(w as usize).copied() else {
                continue;
            };
            let Some((_, pending)) = &flights[i] else {
                continue;
            };
            let Some(result) = pending.get() else {
                continue;
            };
            let reply = match result {
                Ok(Ok(response)) => Reply::Answer {
                    status: response.status(),
                    body: Vec::new(),
                },
                Ok(Err(code)) => from_code(&code),
                Err(()) => error("the response was already taken"),
            };
            replies[i] = Some((reply, elapsed_ms()));
            flights[i] = None;
        }
        if timed_out {
            break;
        }
    }
    // Still waiting at the deadline: timed out (dropping the request cancels it).
    drop(flights);
    dues.iter()
        .zip(replies)
        .map(|(due, reply)| {
            let (reply, duration_ms) = reply.unwrap_or((Reply::Timeout, DELIVERY_TIMEOUT_MS));
            let (status, error) = match reply {
                Reply::Answer { status, .. } => (Some(status), None),
                Reply::Timeout => (None, Some("timed out".to_string())),
                Reply::Error(why) => (None, Some(why)),
            };
            due.outcome(status, duration_ms, error)
        })
        .collect()
}

/// A delivery as a call: its signed headers and the event's JSON.
fn delivery_call(due: &Due) -> CallOut {
    let mut headers = vec![("content-type".to_string(), "application/json".to_string())];
    headers.extend(due.headers.iter().cloned());
    CallOut {
        url: due.target.url.clone(),
        headers,
        body: due.body.clone(),
        timeout_ms: DELIVERY_TIMEOUT_MS,
        context: String::new(),
    }
}

fn error(what: &str) -> Reply {
    Reply::Error(what.to_string())
}

fn from_code(code: &ErrorCode) -> Reply {
    match code {
        ErrorCode::ConnectionTimeout
        | ErrorCode::ConnectionReadTimeout
        | ErrorCode::ConnectionWriteTimeout => Reply::Timeout,
        other => Reply::Error(format!("{other:?}")),
    }
}

fn send(target: &Target, call: &CallOut) -> Result<Reply, Reply> {
    let timeout_ns = call.timeout_ms.saturating_mul(1_000_000);
    let pending = start(target, call)?;
    let deadline = monotonic_clock::subscribe_duration(timeout_ns);
    let ready = pending.subscribe();
    let response = loop {
        if let Some(result) = pending.get() {
            break result;
        }
        let woke = wasi::io::poll::poll(&[&ready, &deadline]);
        if !woke.contains(&0) && woke.contains(&1) {
            return Ok(Reply::Timeout);
        }
    };
    let response = match response {
        Ok(Ok(response)) => response,
        Ok(Err(code)) => return Ok(from_code(&code)),
        Err(()) => return Err(error("the response was already taken")),
    };
    let status = response.status();
    let incoming = response.consume().map_err(|()| error("response body"))?;
    let mut answer = Vec::new();
    {
        let stream = incoming
            .stream()
            .map_err(|()| error("response body stream"))?;
        loop {
            match stream.blocking_read(WRITE_CHUNK as u64) {
                Ok(bytes) => {
                    answer.extend_from_slice(&bytes);
                    if answer.len() > MAX_ANSWER_BYTES {
                        return Ok(error("the answer is too large"));
                    }
                }
                Err(StreamError::Closed) => break,
                Err(e) => return Ok(error(&format!("reading the answer: {e:?}"))),
            }
        }
    }
    Ok(Reply::Answer {
        status,
        body: answer,
    })
}

/// Starts the request of `call` (head and body sent): its answer to come.
fn start(target: &Target, call: &CallOut) -> Result<FutureIncomingResponse, Reply> {
    let timeout_ns = call.timeout_ms.saturating_mul(1_000_000);
    let mut entries: Vec<(String, Vec<u8>)> = call
        .headers
        .iter()
        .map(|(k, v)| (k.to_ascii_lowercase(), v.as_bytes().to_vec()))
        .collect();
    // Without it the body goes chunked, which some receivers (and signature checks behind proxies)
    // handle badly; the length is known.
    entries.push((
        "content-length".into(),
        call.body.len().to_string().into_bytes(),
    ));
    let headers = Fields::from_list(&entries).map_err(|e| error(&format!("headers: {e:?}")))?;
    let request = OutgoingRequest::new(headers);
    let scheme = match target.scheme {
        Scheme::Http => WasiScheme::Http,
        Scheme::Https => WasiScheme::Https,
    };
    let set = request.set_method(&Method::Post).is_ok()
        && request.set_scheme(Some(&scheme)).is_ok()
        && request.set_authority(Some(&target.authority())).is_ok()
        && request
            .set_path_with_query(Some(&target.path_and_query))
            .is_ok();
    if !set {
        return Err(error("cannot build the request"));
    }
    let options = RequestOptions::new();
    // Refused by a host that does not support them: the poll below still bounds the wait.
    let _ = options.set_connect_timeout(Some(timeout_ns));
    let _ = options.set_first_byte_timeout(Some(timeout_ns));
    let _ = options.set_between_bytes_timeout(Some(timeout_ns));
    let body = request.body().map_err(|()| error("request body"))?;
    let pending = outgoing_handler::handle(request, Some(options)).map_err(|e| from_code(&e))?;
    {
        let stream = body.write().map_err(|()| error("request body stream"))?;
        for chunk in call.body.chunks(WRITE_CHUNK) {
            stream
                .blocking_write_and_flush(chunk)
                .map_err(|e| error(&format!("writing the request: {e:?}")))?;
        }
    }
    OutgoingBody::finish(body, None).map_err(|e| from_code(&e))?;
    Ok(pending)
}
