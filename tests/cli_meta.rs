//! The command line's own conventions: shell completions, the man pages and
//! `--version`, from the real `algoku` binary.

mod common;

use std::process::Command;

/// The subcommands every completion script and the man page must name.
const SUBCOMMANDS: [&str; 14] = [
    "check",
    "solve",
    "rate",
    "generate",
    "curta",
    "ua",
    "clues",
    "fixtures",
    "deploy",
    "verify",
    "demo",
    "completions",
    "man",
    "game",
];

fn algoku(args: &[&str]) -> (i32, String, String) {
    let r = common::run(args);
    (r.code, r.stdout, r.stderr)
}

#[test]
fn completions_for_each_shell_name_every_subcommand() {
    for (shell, marker) in [
        ("bash", "complete -F _algoku"),
        ("zsh", "#compdef algoku"),
        ("fish", "complete -c algoku"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let (code, stdout, stderr) = algoku(&["completions", shell]);
        assert_eq!(code, 0, "{shell}: {stderr}");
        assert!(stdout.contains(marker), "{shell} script lacks `{marker}`");
        for sub in SUBCOMMANDS {
            assert!(stdout.contains(sub), "{shell} script lacks `{sub}`");
        }
    }
}

#[test]
fn completions_refuse_an_unknown_shell() {
    let (code, stdout, stderr) = algoku(&["completions", "tcsh"]);
    assert_eq!(code, 2);
    assert!(stdout.is_empty());
    assert!(stderr.contains("tcsh"), "{stderr}");
    let (code, stdout, _) = algoku(&["--json", "completions", "tcsh"]);
    assert_eq!(code, 2);
    let v: serde_json::Value = serde_json::from_str(stdout.trim()).expect("JSON error");
    assert!(
        v["error"].as_str().is_some_and(|e| e.contains("tcsh")),
        "{v}"
    );
}

#[test]
fn completions_as_json_carry_the_script() {
    let (code, stdout, _) = algoku(&["--json", "completions", "fish"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(stdout.trim()).expect("one JSON value");
    assert_eq!(v["shell"], "fish");
    let (_, plain, _) = algoku(&["completions", "fish"]);
    assert_eq!(
        v["script"].as_str().map(str::trim_end),
        Some(plain.trim_end())
    );
}

#[test]
fn man_prints_a_roff_page_naming_every_subcommand() {
    let (code, page, stderr) = algoku(&["man"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(page.contains(".TH algoku 1"), "no title header");
    assert!(page.contains(".SH NAME") && page.contains(".SH SYNOPSIS"));
    assert!(page.contains(env!("CARGO_PKG_VERSION")));
    for sub in SUBCOMMANDS {
        assert!(
            page.contains(&format!("algoku\\-{sub}")),
            "man page lacks {sub}"
        );
    }
}

#[test]
fn man_out_writes_a_page_per_subcommand() {
    let dir = std::env::temp_dir().join(format!("algoku-man-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let dir_text = dir.to_str().unwrap();
    let (code, stdout, stderr) = algoku(&["--json", "man", "--out", dir_text]);
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(stdout.trim()).expect("one JSON value");
    let pages: Vec<&str> = v["pages"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p.as_str())
        .collect();
    assert!(pages.contains(&"algoku.1"), "{v}");
    for sub in SUBCOMMANDS {
        let name = format!("algoku-{sub}.1");
        assert!(pages.contains(&name.as_str()), "no {name}: {v}");
    }
    // groff takes the pages as they are: no raw "…" (U+2026) in any of them.
    for page in &pages {
        let text = std::fs::read_to_string(dir.join(page)).unwrap();
        assert!(!text.contains('\u{2026}'), "{page} holds a raw ellipsis");
    }
    let (_, printed, _) = algoku(&["man"]);
    let written = std::fs::read_to_string(dir.join("algoku.1")).unwrap();
    assert_eq!(written.trim_end(), printed.trim_end());
    std::fs::remove_dir_all(&dir).unwrap();
    // A file where the directory should be: one error line, exit 2.
    let file = std::env::temp_dir().join(format!("algoku-man-file-{}", std::process::id()));
    std::fs::write(&file, "x").unwrap();
    let (code, stdout, stderr) = algoku(&["man", "--out", file.to_str().unwrap()]);
    std::fs::remove_file(&file).unwrap();
    assert_eq!(code, 2);
    assert!(stdout.is_empty());
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("error: "), "{stderr}");
}

#[test]
fn version_names_the_release_and_the_commit() {
    let (code, stdout, _) = algoku(&["--version"]);
    assert_eq!(code, 0);
    let line = stdout.trim_end();
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    let prefix = format!("algoku {} (commit ", env!("CARGO_PKG_VERSION"));
    let commit = line
        .strip_prefix(&prefix)
        .and_then(|rest| rest.strip_suffix(')'))
        .unwrap_or_else(|| panic!("unexpected version line: {line}"));
    let hash = commit.strip_suffix("-dirty").unwrap_or(commit);
    assert!(
        hash == "unknown" || (hash.len() == 12 && hash.bytes().all(|b| b.is_ascii_hexdigit())),
        "{line}"
    );
    // Built inside this project's git checkout, the hash is the real HEAD's prefix.
    let head = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    if let Some(head) = head {
        // The binary may be older than HEAD only if built before the last commit;
        // cargo reruns the build script when HEAD moves, so they agree.
        assert!(head.starts_with(hash), "{line} vs HEAD {head}");
    }
    // Subcommands say the same.
    let (code, sub, _) = algoku(&["check", "--version"]);
    assert_eq!(code, 0);
    assert!(sub.contains(commit), "{sub}");
}

#[test]
fn usage_errors_are_one_line_with_exit_2() {
    for args in [
        &["completions", "nosh"][..],
        &["--bogus"][..],
        &["verify", "--method", "foo", "x"][..],
        &["generate", "--count"][..],
    ] {
        let (code, stdout, stderr) = algoku(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
    }
    let (_, _, stderr) = algoku(&["completions", "nosh"]);
    assert!(stderr.contains("[possible values: bash"), "{stderr}");
}
