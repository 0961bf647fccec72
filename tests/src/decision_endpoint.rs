//! A decision endpoint the tests start on 127.0.0.1: the loopback server (`crate::loopback`) with
//! keep-alive, answering each request as the test's closure says: a JSON answer after a delay, a
//! status, or nothing until the client gives up. Signatures are checked by `crate::standard_webhooks`.

use std::time::Duration;

use serde_json::Value;

pub use crate::loopback::Received;
use crate::loopback::{Reply, Server};
pub use crate::standard_webhooks::signed_by;

/// How to answer one request.
pub type Behaviour = Reply;

impl Reply {
    /// 200 with `body`, at once.
    pub fn json(body: Value) -> Reply {
        Reply::Answer {
            status: 200,
            body: body.to_string(),
            delay: Duration::ZERO,
        }
    }

    /// The same answer after `delay` (a hang stays a hang).
    pub fn after(self, delay: Duration) -> Reply {
        match self {
            Reply::Answer { status, body, .. } => Reply::Answer {
                status,
                body,
                delay,
            },
            hang => hang,
        }
    }
}

pub struct DecisionEndpoint {
    pub url: String,
    server: Server,
}

impl DecisionEndpoint {
    /// Starts the endpoint; `decide` answers each request (it may call the service first).
    pub fn start(decide: impl Fn(&Received) -> Behaviour + Send + Sync + 'static) -> Self {
        let server = Server::start_on("127.0.0.1:0".parse().unwrap(), true, decide);
        DecisionEndpoint {
            url: format!("http://{}/decide", server.addr),
            server,
        }
    }

    /// Every request so far, in arrival order.
    pub fn received(&self) -> Vec<Received> {
        self.server.received()
    }
}
