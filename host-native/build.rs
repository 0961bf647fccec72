//! `cards --version` names the commit it was built from: `CARDS_GIT_COMMIT` is the short hash, or
//! `unknown` outside a git checkout (a source tarball, a vendored crate), so a build never fails for
//! want of git. (Uncommitted changes are not marked: tracking them would rebuild on every edit.)

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
        .filter(|s| !s.is_empty())
}

fn main() {
    let commit = git(&["rev-parse", "--short=12", "HEAD"]);
    println!(
        "cargo:rustc-env=CARDS_GIT_COMMIT={}",
        commit.as_deref().unwrap_or("unknown")
    );
    // Rebuild when HEAD moves: a checkout (HEAD) or a commit on the branch (its ref).
    if let Some(p) = git(&["rev-parse", "--git-path", "HEAD"]) {
        println!("cargo:rerun-if-changed={p}");
    }
    if let Some(head_ref) = git(&["symbolic-ref", "-q", "HEAD"])
        && let Some(p) = git(&["rev-parse", "--git-path", &head_ref])
    {
        println!("cargo:rerun-if-changed={p}");
    }
}
