//! Records the git commit the `algoku` binary is built from, for
//! `algoku --version`: `ALGOKU_GIT_COMMIT` is the 12-digit short hash, with
//! `-dirty` when tracked files have changes, or `unknown` when the sources
//! are not a git checkout of this project (a crate tarball, no git).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The trimmed stdout of `git ARGS` in `dir`, if git runs and succeeds.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        // Reading the status must not rewrite the index (that would rerun this script).
        .env("GIT_OPTIONAL_LOCKS", "0")
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    // Only this project's own checkout counts, not a repository around it.
    let top = git(&root, &["rev-parse", "--show-toplevel"]).map(PathBuf::from);
    let ours = match (top.and_then(|t| t.canonicalize().ok()), root.canonicalize()) {
        (Some(top), Ok(root)) => top == root,
        _ => false,
    };
    let commit = ours
        .then(|| git(&root, &["rev-parse", "--short=12", "HEAD"]))
        .flatten();
    let version = match commit {
        Some(hash) => {
            let dirty = git(&root, &["status", "--porcelain", "--untracked-files=no"])
                .is_some_and(|s| !s.is_empty());
            if dirty {
                format!("{hash}-dirty")
            } else {
                hash
            }
        }
        None => "unknown".to_string(),
    };
    println!("cargo:rustc-env=ALGOKU_GIT_COMMIT={version}");
    println!("cargo:rerun-if-changed=rust/cli/build.rs");
    if ours {
        // A new commit moves HEAD or the branch it names; staging changes the index.
        let mut watched = vec![
            "HEAD".to_string(),
            "index".to_string(),
            "packed-refs".to_string(),
        ];
        if let Some(branch) = git(&root, &["symbolic-ref", "-q", "HEAD"]) {
            watched.push(branch);
        }
        for name in watched {
            if let Some(path) = git(&root, &["rev-parse", "--git-path", &name]) {
                let path = root.join(path);
                if path.exists() {
                    println!("cargo:rerun-if-changed={}", path.display());
                }
            }
        }
    }
}
