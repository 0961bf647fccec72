//! A webhook receiver for the tests: the loopback server (`crate::loopback`), answering each
//! delivery as the test last said (a status, or a sleep first) and closing the connection after it.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub use crate::loopback::Received;
use crate::loopback::{Reply, Server};
pub use crate::standard_webhooks::signed_by;

/// How the receiver answers.
#[derive(Debug, Clone, Copy)]
pub enum Answer {
    Status(u16),
    /// Sleep, then answer 200 (longer than the sender's timeout: a timeout).
    Sleep(Duration),
}

pub struct Receiver {
    pub addr: SocketAddr,
    server: Server,
    answer: Arc<Mutex<Answer>>,
}

impl Receiver {
    /// A receiver on a free loopback port, answering 200.
    pub fn start() -> Receiver {
        Receiver::start_on("127.0.0.1:0".parse().unwrap())
    }

    /// A receiver on `addr` (to come back on the port of one that stopped).
    pub fn start_on(addr: SocketAddr) -> Receiver {
        let answer = Arc::new(Mutex::new(Answer::Status(200)));
        let current = answer.clone();
        let server = Server::start_on(addr, false, move |_| {
            let (status, delay) = match *current.lock().unwrap_or_else(|e| e.into_inner()) {
                Answer::Status(status) => (status, Duration::ZERO),
                Answer::Sleep(d) => (200, d),
            };
            Reply::Answer {
                status,
                body: "ok".into(),
                delay,
            }
        });
        Receiver {
            addr: server.addr,
            server,
            answer,
        }
    }

    /// `http://127.0.0.1:PORT/path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    pub fn answer(&self, a: Answer) {
        *self.answer.lock().unwrap_or_else(|e| e.into_inner()) = a;
    }

    pub fn received(&self) -> Vec<Received> {
        self.server.received()
    }

    /// Waits until `pred` holds (at most `timeout`): `Ok` with what was received, or `Err` with
    /// what came by the deadline.
    pub fn poll_for(
        &self,
        timeout: Duration,
        pred: impl Fn(&[Received]) -> bool,
    ) -> Result<Vec<Received>, Vec<Received>> {
        self.server.poll_for(timeout, pred)
    }

    /// Waits until `pred` holds for what was received (at most `timeout`), then returns it.
    pub fn wait_for(&self, timeout: Duration, pred: impl Fn(&[Received]) -> bool) -> Vec<Received> {
        self.server.wait_for(timeout, pred)
    }

    /// Stops listening: later connections are refused.
    pub fn stop(self) -> SocketAddr {
        self.server.stop()
    }
}
