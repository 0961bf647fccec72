//! The native host's command line: stored keys (`cards keys create|revoke`), hashed at rest, and the first
//! start without any key. Native host only; skipped for other hosts.

use std::path::Path;
use std::process::Command;

use acceptance::fixtures::{account_body, id};
use acceptance::host::{HostKind, Process, cards_bin, free_addr};
use acceptance::*;
use serde_json::json;

fn native() -> bool {
    HostKind::from_env() == HostKind::Native
}

/// `cards` with a clean configuration environment (nothing inherited from the caller's shell).
fn cards() -> Command {
    let mut cmd = Command::new(cards_bin());
    for var in [
        "CARDS_API_KEYS",
        "CARDS_DATA",
        "CARDS_STORE",
        "CARDS_LISTEN",
        "CARDS_VAULT_KEY",
    ] {
        cmd.env_remove(var);
    }
    cmd
}

fn serve(data: &Path, log_name: &str) -> Process {
    let addr = free_addr();
    let mut cmd = cards();
    cmd.arg("serve")
        .arg("--listen")
        .arg(addr.to_string())
        .arg("--data")
        .arg(data);
    let log = data.with_file_name(log_name);
    Process::spawn(cmd, addr, &log).unwrap_or_else(|e| panic!("cards serve: {e}"))
}

fn keys(args: &[&str], data: &Path) -> (bool, String) {
    let out = cards()
        .arg("keys")
        .args(args)
        .arg("--data")
        .arg(data)
        .output()
        .expect("run cards keys");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).trim().to_string(),
    )
}

#[test]
fn stored_keys_work_are_hashed_and_can_be_revoked() {
    if !native() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("cards.redb");
    let (ok, key) = keys(&["create", "--client", "acme"], &data);
    assert!(ok, "cards keys create failed: {key}");
    assert!(
        key.len() >= 16 && !key.contains(char::is_whitespace),
        "printed key {key:?}"
    );

    let server = serve(&data, "serve-1.log");
    let t = Tenant::at(&server.base_url, &key, "acme");
    let account = t
        .post("/accounts", &account_body(json!({})))
        .data(201)
        .clone();
    assert_eq!(account["client"], json!("acme"));
    raw_to(&server, &key, "x-api-key").expect(200);
    drop(server);

    // Only a hash is stored: the key's text is nowhere in the data directory.
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "log") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        assert!(
            !bytes.windows(key.len()).any(|w| w == key.as_bytes()),
            "{} holds the API key in clear",
            path.display()
        );
    }

    let (ok, out) = keys(&["revoke", "--key", &key], &data);
    assert!(ok, "cards keys revoke failed: {out}");
    let server = serve(&data, "serve-2.log");
    raw_to(&server, &key, "x-api-key").expect_error(401, "unauthorized");
    drop(server);
    // The data is still there for another key of the same client.
    let (ok, key2) = keys(&["create", "--client", "acme"], &data);
    assert!(ok, "cards keys create failed: {key2}");
    let server = serve(&data, "serve-3.log");
    let t2 = Tenant::at(&server.base_url, &key2, "acme");
    t2.get(&format!("/accounts/{}", id(&account))).expect(200);
    let (ok, _) = keys(&["revoke", "--key", "no-such-key-0000000000"], &data);
    assert!(!ok, "revoking an unknown key fails");
}

#[test]
fn keys_made_on_the_command_line_carry_permissions_and_are_audited() {
    if !native() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("cards.redb");
    let (ok, reader) = keys(
        &[
            "create",
            "--client",
            "acme",
            "--permissions",
            "*:read,audit:read",
        ],
        &data,
    );
    assert!(ok, "{reader}");
    let (ok, admin) = keys(&["create", "--client", "acme"], &data);
    assert!(ok, "{admin}");
    let (ok, _) = keys(
        &["create", "--client", "acme", "--permissions", "cards:root"],
        &data,
    );
    assert!(!ok, "an unknown level is refused");
    let (ok, listed) = keys(&["list", "--client", "acme"], &data);
    assert!(ok, "{listed}");
    let lines: Vec<&str> = listed.lines().collect();
    assert_eq!(lines.len(), 2, "{listed}");
    assert!(!listed.contains(&reader) && !listed.contains(&admin));
    let reader_line = lines
        .iter()
        .find(|l| l.contains("cards:read"))
        .expect("the reader key is listed");
    assert!(!reader_line.contains("reveal"), "{reader_line}");
    let admin_line = lines.iter().find(|l| l.contains("cards:write")).unwrap();
    // The default: everything but reveal.
    assert!(
        admin_line.contains("api_keys:write") && !admin_line.contains("reveal"),
        "{admin_line}"
    );
    let reader_id = reader_line.split('\t').next().unwrap().to_string();

    let server = serve(&data, "serve.log");
    let r = Tenant::at(&server.base_url, &reader, "acme");
    let a = Tenant::at(&server.base_url, &admin, "acme");
    r.get("/cards").expect(200);
    r.post("/accounts", &account_body(json!({})))
        .expect_error(403, "permission_denied");
    a.post("/accounts", &account_body(json!({}))).expect(201);
    a.send("POST", "/cards/0123456789abcdef01234567/token", &[], None)
        .expect_error(403, "permission_denied");
    // Both creations are in the trail, made by the operator.
    let trail = r
        .get("/audit-events?action=api_key.created")
        .expect(200)
        .body["data"]
        .clone();
    let trail = trail.as_array().unwrap();
    assert_eq!(trail.len(), 2, "{trail:?}");
    assert!(trail.iter().all(|e| e["keyId"] == "operator"));
    drop(server);

    let (ok, out) = keys(&["revoke", "--id", &reader_id], &data);
    assert!(ok, "{out}");
    let server = serve(&data, "serve-2.log");
    Tenant::at(&server.base_url, &reader, "acme")
        .get("/cards")
        .expect_error(401, "unauthorized");
    let a = Tenant::at(&server.base_url, &admin, "acme");
    let revoked = a
        .get("/audit-events?action=api_key.revoked")
        .expect(200)
        .body["data"]
        .clone();
    assert_eq!(revoked[0]["subjectKeyId"], json!(reader_id));
}

#[test]
fn key_files_must_be_private() {
    if !native() {
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("cards.redb");
    let keys_file = dir.path().join("api-keys");
    let vault_file = dir.path().join("vault-keys");
    std::fs::write(
        &keys_file,
        "# mounted secret\nfile_key_0123456789abcdef=acme\n",
    )
    .unwrap();
    std::fs::write(&vault_file, format!("{}\n", "ab".repeat(32))).unwrap();
    let start = |log: &str| {
        let addr = free_addr();
        let mut cmd = cards();
        cmd.arg("serve")
            .arg("--listen")
            .arg(addr.to_string())
            .arg("--data")
            .arg(&data)
            .arg("--api-keys-file")
            .arg(&keys_file)
            .arg("--vault-key-file")
            .arg(&vault_file);
        Process::spawn(cmd, addr, &dir.path().join(log))
    };
    for (path, mode) in [(&keys_file, 0o644), (&vault_file, 0o640)] {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    }
    let err = start("refused.log")
        .err()
        .expect("started with readable secret files");
    assert!(err.contains("readable by others"), "{err}");
    std::fs::set_permissions(&keys_file, std::fs::Permissions::from_mode(0o600)).unwrap();
    let err = start("refused-2.log")
        .err()
        .expect("started with a readable vault key file");
    assert!(err.contains("vault-keys") && err.contains("640"), "{err}");
    std::fs::set_permissions(&vault_file, std::fs::Permissions::from_mode(0o400)).unwrap();
    let server = start("serve.log").unwrap();
    raw_to(&server, "file_key_0123456789abcdef", "x-api-key").expect(200);
    // The key file's keys have full access, reveal included.
    let t = Tenant::at(&server.base_url, "file_key_0123456789abcdef", "acme");
    t.get("/audit-events").expect(200);
    assert!(!server.output().contains("file_key_0123456789abcdef"));
}

fn raw_to(server: &Process, key: &str, header: &str) -> Resp {
    try_send_to(&server.base_url, "GET", "/accounts", &[(header, key)], None).expect("request")
}

#[test]
fn a_fresh_start_without_keys_says_how_to_make_one() {
    if !native() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("cards.redb");
    let server = serve(&data, "serve.log");
    // Give the process a moment to flush what it printed at start.
    std::thread::sleep(std::time::Duration::from_millis(200));
    let out = server.output();
    assert!(
        out.contains("cards keys create"),
        "startup output does not say how to make a key:\n{out}"
    );
    // Configured keys from the environment are accepted alongside stored ones.
    drop(server);
    let addr = free_addr();
    let mut cmd = cards();
    cmd.env("CARDS_API_KEYS", "dev_key_0123456789abcdef=dev")
        .arg("serve")
        .arg("--listen")
        .arg(addr.to_string())
        .arg("--data")
        .arg(&data);
    let server = Process::spawn(cmd, addr, &dir.path().join("serve-env.log")).unwrap();
    raw_to(&server, "dev_key_0123456789abcdef", "x-api-key").expect(200);
}

#[test]
fn seed_fills_a_data_file_through_the_api_rules() {
    if !native() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("cards.redb");
    let out = cards()
        .args([
            "seed",
            "--client",
            "acme",
            "--cards",
            "30",
            "--accounts",
            "2",
        ])
        .args(["--holders", "3", "--batch", "7", "--data"])
        .arg(&data)
        .output()
        .expect("run cards seed");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "cards seed failed: {said} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains("30 cards"), "{said}");
    let (ok, key) = keys(&["create", "--client", "acme"], &data);
    assert!(ok, "{key}");
    let server = serve(&data, "serve.log");
    let t = Tenant::at(&server.base_url, &key, "acme");
    let total = |path: &str| t.get(path).expect(200).body["meta"]["total"].clone();
    assert_eq!(total("/cards"), json!(30));
    assert_eq!(total("/cards?status=inactive"), json!(3));
    assert_eq!(total("/card-holders"), json!(3));
    assert_eq!(total("/events?type=card.created"), json!(30));
    let accounts = t.get("/accounts?sort=createdAt").expect(200).body["data"].clone();
    let mut funded = rust_decimal::Decimal::ZERO;
    for a in accounts.as_array().unwrap() {
        // Its opening adjustment and one funding per card it pays for.
        assert_eq!(
            total(&format!("/accounts/{}/transactions", id(a))),
            json!(16)
        );
        funded += rust_decimal::Decimal::from(100_000_000_000_000i64) - dec(&a["balance"]);
    }
    let cards = t.get("/cards?limit=200").expect(200).body["data"].clone();
    let on_cards: rust_decimal::Decimal = cards
        .as_array()
        .unwrap()
        .iter()
        .map(|c| dec(&c["balance"]))
        .sum();
    assert_eq!(
        funded, on_cards,
        "money moved from the accounts is on the cards"
    );
}

#[test]
fn version_completions_and_man_page() {
    if !native() {
        return;
    }
    let run = |args: &[&str]| {
        let out = cards().args(args).output().expect("cards runs");
        assert!(out.status.success(), "cards {args:?}: {out:?}");
        String::from_utf8(out.stdout).expect("UTF-8 output")
    };
    // `cards 0.1.0 (0123456789ab)`, or `(unknown)` when built outside git.
    let version = run(&["--version"]);
    let re = regex::Regex::new(r"^cards \d+\.\d+\.\d+ \(([0-9a-f]{12}|unknown)\)\n$").unwrap();
    assert!(re.is_match(&version), "{version:?}");
    let bash = run(&["completions", "bash"]);
    assert!(bash.contains("complete -F _cards") && bash.contains("--metrics-listen"));
    let zsh = run(&["completions", "zsh"]);
    assert!(zsh.starts_with("#compdef cards"), "{zsh:.40}");
    let man = run(&["man"]);
    assert!(
        man.contains(".TH cards 1") && man.contains("serve"),
        "{man:.200}"
    );
}
