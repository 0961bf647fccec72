//! The whole service on MemStore with a fixed clock and two clients, for the core's request-level
//! tests. Test modules add their own helpers in `impl TestApp` blocks.

use serde_json::Value;

use crate::domain::api_keys::ConfiguredKeys;
use crate::env::DeterministicEnv;
use crate::http::{Method, Request, Response};
use crate::storage::MemStore;
use crate::{Config, Service};

/// Alice's key.
pub const KEY_A: &str = "test-key-aaaaaaaaaaaa";
/// Bob's key.
pub const KEY_B: &str = "test-key-bbbbbbbbbbbb";

pub struct TestApp {
    pub service: Service,
    pub store: MemStore,
    pub env: DeterministicEnv,
}

impl TestApp {
    pub fn new() -> TestApp {
        let env = DeterministicEnv::default();
        let mut api_keys = ConfiguredKeys::default();
        api_keys.add(KEY_A, "alice").unwrap();
        api_keys.add(KEY_B, "bob").unwrap();
        let config = Config {
            api_keys,
            vault_key: Some([42u8; 32]),
            ..Config::default()
        };
        TestApp {
            service: Service::new(config, &env),
            store: MemStore::new(),
            env,
        }
    }

    /// Status, body as JSON (`Null` when it is not), and the whole response.
    pub fn send(&mut self, req: Request) -> (u16, Value, Response) {
        let resp = self.service.serve(&req, &mut self.store, &self.env);
        let body = serde_json::from_slice(&resp.body).unwrap_or(Value::Null);
        (resp.status, body, resp)
    }

    /// A request with `key`, and a JSON body when one is given.
    pub fn json_as(
        &mut self,
        key: &str,
        method: Method,
        path: &str,
        body: Option<Value>,
    ) -> (u16, Value) {
        let mut req = Request::new(method, path).header("x-api-key", key);
        if let Some(b) = body {
            req = req
                .header("content-type", "application/json")
                .body(serde_json::to_vec(&b).unwrap());
        }
        let (s, v, _) = self.send(req);
        (s, v)
    }

    pub fn get_as(&mut self, key: &str, path: &str) -> (u16, Value, Response) {
        self.send(Request::new(Method::Get, path).header("x-api-key", key))
    }
}
