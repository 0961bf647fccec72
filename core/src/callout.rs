//! A request that asks an outside endpoint before its write (ARCHITECTURE.md, "Call-outs").
//! Neither `http` nor `domain`: both use it (a route asks, a rule applies the answer).
//!
//! The core has no I/O, and no host may hold a write transaction (or the writer) while an endpoint
//! thinks. So a route that needs an answer from outside runs in three stages:
//!
//! 1. **ask**: the route's ask (`Route::ask`) runs on a read-only snapshot (through an overlay,
//!    so it writes nothing) and returns the [`CallOut`] to perform, or `None` (nothing to ask: the
//!    request is refused or decided anyway, or no endpoint is set);
//! 2. **call**: the host performs the call with no transaction open, within the timeout;
//! 3. **write**: the host puts what happened, an [`Asked`], on the core [`Request`](crate::Request)
//!    it hands to the write; the handler re-checks everything in the write transaction and applies
//!    the answer. A request with no `Asked` was not asked (the host skipped it, or the snapshot
//!    said there was nothing to ask): the handler decides what that means for its route.
//!
//! `Asked` never comes from the client: hosts set it, the HTTP parsing never does.

/// What a host must send before the write. Built by the core, performed by the host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallOut {
    /// Where to POST: checked against the URL policy when it was stored; the host checks it again
    /// with its policy, and every resolved address before connecting.
    pub url: String,
    /// The request headers, signatures included.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// How long the host waits for the whole answer.
    pub timeout_ms: u64,
    /// What the ask fixed that the write must reuse (for an authorization: the id the endpoint was
    /// shown); handed back unchanged in [`Asked::context`].
    pub context: String,
}

/// What came of a [`CallOut`], for the write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Asked {
    /// [`CallOut::context`], unchanged.
    pub context: String,
    /// From just before connecting to the end of the answer (or the failure), as the host
    /// measured it.
    pub latency_ms: u64,
    pub reply: Reply,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// An HTTP answer (any status), with its body (hosts bound its size).
    Answer { status: u16, body: Vec<u8> },
    /// No whole answer within the timeout.
    Timeout,
    /// No answer: refused by the URL policy after DNS, refused connection, broken TLS or HTTP. The
    /// text is for logs; it may name the host but never carries secrets.
    Error(String),
}

impl CallOut {
    /// The outcome of a call that could not be made at all (a host without outbound HTTP, a URL the
    /// host refuses): what the write learns instead of an answer.
    pub fn failed(&self, why: impl Into<String>) -> Asked {
        Asked {
            context: self.context.clone(),
            latency_ms: 0,
            reply: Reply::Error(why.into()),
        }
    }
}
