//! The host answers 500 itself when the guest traps or returns without a response. The guests here
//! are tiny components written in WAT that export `wasi:http/incoming-handler@0.2.0`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

/// A component whose handler runs `body` (a core wasm instruction sequence) and never answers.
fn component(body: &str) -> String {
    format!(
        r#"(component
  (import "wasi:http/types@0.2.0" (instance $types
    (export "incoming-request" (type (sub resource)))
    (export "response-outparam" (type (sub resource)))
  ))
  (alias export $types "incoming-request" (type $req))
  (alias export $types "response-outparam" (type $out))
  (core module $m (func (export "handle") (param i32 i32) {body}))
  (core instance $i (instantiate $m))
  (func $handle (param "request" (own $req)) (param "response-out" (own $out))
    (canon lift (core func $i "handle")))
  (instance $h (export "handle" (func $handle)))
  (export "wasi:http/incoming-handler@0.2.0" (instance $h))
)"#
    )
}

struct Host {
    child: Child,
    addr: String,
    dir: PathBuf,
}

impl Drop for Host {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn start(name: &str, wat: &str) -> Host {
    let dir = std::env::temp_dir().join(format!("spin-test-host-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let component = dir.join("guest.wat");
    std::fs::write(&component, wat).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_spin-test-host"))
        .arg("--component")
        .arg(&component)
        .arg("--listen")
        .arg("127.0.0.1:0")
        .arg("--sqlite")
        .arg(dir.join("db.sqlite"))
        .env("SPIN_TEST_HOST_CACHE", dir.join("cache"))
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix("listening on http://")
        .unwrap_or_else(|| panic!("unexpected first line: {line:?}"))
        .to_string();
    Host { child, addr, dir }
}

fn get(addr: &str) -> String {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .write_all(b"GET /health HTTP/1.1\r\nhost: test\r\nconnection: close\r\n\r\n")
        .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response
}

fn assert_internal_error(response: &str) {
    assert!(response.starts_with("HTTP/1.1 500 "), "{response}");
    assert!(
        response.ends_with(
            r#"{"statusCode":500,"message":"Internal server error","error":"internal_error"}"#
        ),
        "{response}"
    );
}

#[test]
fn a_trapping_guest_gets_500_and_the_host_keeps_serving() {
    let host = start("trap", &component("unreachable"));
    assert_internal_error(&get(&host.addr));
    assert_internal_error(&get(&host.addr));
}

#[test]
fn a_guest_that_never_answers_gets_500() {
    let host = start("silent", &component("nop"));
    assert_internal_error(&get(&host.addr));
}
