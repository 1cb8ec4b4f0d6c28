//! docs/architecture.md stays true: its crate graph is the one `cargo
//! metadata` reads from the manifests, and no source file outgrows the
//! 800-lines-of-code rule it states.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Crate → its normal dependencies (`name?` when optional), as written.
type Graph = BTreeMap<String, Vec<String>>;

/// The ```crate-graph block of docs/architecture.md.
fn stated_graph() -> Graph {
    let text = std::fs::read_to_string(root().join("docs/architecture.md")).expect("read doc");
    let start = text
        .find("```crate-graph\n")
        .expect("docs/architecture.md has a ```crate-graph block");
    let body = &text[start + "```crate-graph\n".len()..];
    let end = body.find("```").expect("the block ends");
    body[..end]
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let (name, deps) = line
                .split_once(':')
                .unwrap_or_else(|| panic!("'{line}' is not 'crate: deps'"));
            let mut deps: Vec<String> = deps
                .split(',')
                .map(str::trim)
                .filter(|d| !d.is_empty())
                .map(str::to_string)
                .collect();
            deps.sort();
            (name.trim().to_string(), deps)
        })
        .collect()
}

/// The workspace's graph as `cargo metadata --no-deps` reports it.
fn metadata_graph() -> Graph {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--no-deps",
            "--format-version",
            "1",
            "--offline",
        ])
        .current_dir(root())
        .output()
        .expect("run cargo metadata");
    assert!(
        out.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: Value = serde_json::from_slice(&out.stdout).expect("metadata is JSON");
    let packages = meta["packages"].as_array().expect("packages");
    packages
        .iter()
        .map(|p| {
            let name = p["name"].as_str().expect("name").to_string();
            let mut deps: Vec<String> = p["dependencies"]
                .as_array()
                .expect("dependencies")
                .iter()
                .filter(|d| d["kind"].is_null())
                .map(|d| {
                    let n = d["name"].as_str().expect("dependency name");
                    if d["optional"].as_bool() == Some(true) {
                        format!("{n}?")
                    } else {
                        n.to_string()
                    }
                })
                .collect();
            deps.sort();
            deps.dedup();
            (name, deps)
        })
        .collect()
}

#[test]
fn the_documented_crate_graph_is_the_manifests_graph() {
    let stated = stated_graph();
    let actual = metadata_graph();
    for (name, deps) in &actual {
        match stated.get(name) {
            None => panic!("docs/architecture.md's crate graph lacks {name}: {deps:?}"),
            Some(s) => assert_eq!(
                s, deps,
                "docs/architecture.md states {name}'s dependencies as {s:?}; the manifest has {deps:?}"
            ),
        }
    }
    for name in stated.keys() {
        assert!(
            actual.contains_key(name),
            "docs/architecture.md names {name}, which is no workspace crate"
        );
    }
}

#[test]
fn the_engine_library_and_the_tools_link_no_front_end() {
    let actual = metadata_graph();
    let search = &actual["janggi-search"];
    assert!(
        search
            .iter()
            .all(|d| !d.starts_with("janggi-") || d == "janggi-core"),
        "janggi-search depends on janggi-core alone among the workspace: {search:?}"
    );
    let tools = &actual["janggi-tools"];
    for front_end in [
        "janggi-engine",
        "janggi-gui",
        "janggi-analysis",
        "janggi-records",
    ] {
        assert!(
            !tools.iter().any(|d| d == front_end),
            "janggi-tools links {front_end}: {tools:?}"
        );
    }
}

/// Every `.rs` file of the repository (not `target/`, not hidden folders).
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if path.is_dir() {
            if name != "target" && !name.starts_with('.') {
                rust_files(&path, out);
            }
        } else if name.ends_with(".rs") {
            out.push(path);
        }
    }
}

/// Lines of code before the file's `#[cfg(test)]` module: not blank, not
/// a comment.
fn code_lines(text: &str) -> usize {
    text.lines()
        .take_while(|l| !l.starts_with("#[cfg(test)]"))
        .filter(|l| {
            let t = l.trim();
            !t.is_empty() && !t.starts_with("//")
        })
        .count()
}

#[test]
fn no_source_file_has_more_than_800_lines_of_code() {
    assert_eq!(code_lines("// a\n\nfn f() {}\n#[cfg(test)]\nmod t {}\n"), 1);
    let mut files = Vec::new();
    rust_files(&root(), &mut files);
    assert!(files.len() > 100, "found only {} files", files.len());
    let mut over = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        let header: String = text.lines().take(20).collect();
        if header.contains("Generated:") {
            continue;
        }
        let n = code_lines(&text);
        if n > 800 {
            over.push(format!("{} ({n})", f.display()));
        }
    }
    assert!(over.is_empty(), "over 800 lines of code: {over:?}");
}
