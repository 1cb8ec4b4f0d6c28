//! Issue 32: no `Result<_, String>` anywhere (docs: STYLE.md §7, typed
//! errors with hand-written `Display` and `std::error::Error`).
//!
//! Scans every `.rs` file of the repository (the workspace root and all
//! its crates, tools, tests, benches and examples; `target/` and hidden
//! directories skipped) and fails on a `Result` whose error parameter is
//! `String`, in code: comments, string and character literals are blanked
//! out first, so prose and test data may still name the pattern. The
//! generic arguments are read with their nesting, so
//! `Result<Option<Arc<T>>, String>` and a signature split over lines are
//! caught as well as `Result<T, String>`.

use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, except in `target` and hidden directories.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let entry = entry.unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let kind = entry
            .file_type()
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if kind.is_dir() {
            if name != "target" && !name.starts_with('.') {
                rust_files(&path, out);
            }
        } else if kind.is_file() && name.ends_with(".rs") {
            out.push(path);
        }
    }
}

/// `src` with comments and the contents of string and character literals
/// replaced by spaces (newlines kept, so line numbers still match).
fn code_only(src: &str) -> String {
    let c: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let blank = |out: &mut String, ch: char| out.push(if ch == '\n' { '\n' } else { ' ' });
    let mut i = 0;
    while i < c.len() {
        let next = c.get(i + 1).copied();
        if c[i] == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c[i] == '/' && next == Some('*') {
            // Block comments nest in Rust.
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, c[i]);
                    i += 1;
                }
            }
        } else if c[i] == 'r'
            && matches!(next, Some('"' | '#'))
            && starts_token(&c, i)
            && raw_string_end(&c, i + 1).is_some()
        {
            // r"…", r#"…"#, br"…": no escapes, ends at `"` plus the hashes.
            let end = raw_string_end(&c, i + 1).unwrap_or(c.len());
            while i < end {
                blank(&mut out, c[i]);
                i += 1;
            }
        } else if c[i] == '"' {
            out.push(' ');
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    blank(&mut out, c[i]);
                    i += 1;
                }
                if i < c.len() {
                    blank(&mut out, c[i]);
                    i += 1;
                }
            }
            out.push(' ');
            i += 1;
        } else if c[i] == '\'' {
            // A character literal ('x', '\n', '\u{..}'), else a lifetime or
            // label, which stays.
            let end = if next == Some('\\') {
                (i + 2..c.len()).find(|&j| c[j] == '\'').map(|j| j + 1)
            } else if c.get(i + 2) == Some(&'\'') {
                Some(i + 3)
            } else {
                None
            };
            match end {
                Some(end) => {
                    while i < end {
                        blank(&mut out, c[i]);
                        i += 1;
                    }
                }
                None => {
                    out.push('\'');
                    i += 1;
                }
            }
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// Whether `c[i]` (the `r` of a raw string) begins a token: nothing of an
/// identifier before it, or only the `b` of `br"…"`.
fn starts_token(c: &[char], i: usize) -> bool {
    let ident = |k: usize| c[k].is_alphanumeric() || c[k] == '_';
    match i {
        0 => true,
        _ if !ident(i - 1) => true,
        1 => c[0] == 'b',
        _ => c[i - 1] == 'b' && !ident(i - 2),
    }
}

/// The index after a raw string whose hashes start at `start` (just after
/// the `r`), or `None` when `start` does not begin `#…#"`.
fn raw_string_end(c: &[char], start: usize) -> Option<usize> {
    let hashes = c[start..].iter().take_while(|&&ch| ch == '#').count();
    let open = start + hashes;
    if c.get(open) != Some(&'"') {
        return None;
    }
    let mut j = open + 1;
    while j < c.len() {
        if c[j] == '"'
            && c[j + 1..]
                .iter()
                .take(hashes)
                .filter(|&&h| h == '#')
                .count()
                == hashes
        {
            return Some(j + 1 + hashes);
        }
        j += 1;
    }
    Some(c.len())
}

/// The 1-based lines of `code` (already [`code_only`]) where a `Result<…>`
/// has `String` as its last generic argument.
fn string_results(code: &str) -> Vec<usize> {
    let c: Vec<char> = code.chars().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while let Some(at) = find_from(&c, i, "Result") {
        i = at + "Result".len();
        // A whole word: not `FooResult` nor `Results`.
        let before_ok = at == 0 || !(c[at - 1].is_alphanumeric() || c[at - 1] == '_');
        let mut j = i;
        while j < c.len() && c[j].is_whitespace() {
            j += 1;
        }
        // `Result::<T, String>` in turbofish form too.
        if c[j..].starts_with(&[':', ':']) {
            j += 2;
            while j < c.len() && c[j].is_whitespace() {
                j += 1;
            }
        }
        if !before_ok || c.get(j) != Some(&'<') {
            continue;
        }
        // Split the arguments at depth-1 commas until the closing `>`.
        let (mut depth, mut args, mut arg) = (0i32, Vec::new(), String::new());
        let mut k = j;
        while k < c.len() {
            match c[k] {
                '-' if c.get(k + 1) == Some(&'>') => {
                    // `->` in `Fn() -> T` is no bracket.
                    arg.push_str("->");
                    k += 1;
                }
                '<' | '(' | '[' => {
                    depth += 1;
                    if depth > 1 {
                        arg.push(c[k]);
                    }
                }
                '>' | ')' | ']' => {
                    depth -= 1;
                    if depth == 0 {
                        args.push(std::mem::take(&mut arg));
                        break;
                    }
                    arg.push(c[k]);
                }
                ',' if depth == 1 => args.push(std::mem::take(&mut arg)),
                ch => arg.push(ch),
            }
            k += 1;
        }
        let last = args
            .iter()
            .rev()
            .map(|a| a.split_whitespace().collect::<String>())
            .find(|a| !a.is_empty());
        if args.len() >= 2
            && matches!(
                last.as_deref(),
                Some("String" | "std::string::String" | "alloc::string::String")
            )
        {
            found.push(1 + c[..at].iter().filter(|&&ch| ch == '\n').count());
        }
    }
    found
}

fn find_from(c: &[char], from: usize, word: &str) -> Option<usize> {
    let w: Vec<char> = word.chars().collect();
    (from..c.len().saturating_sub(w.len() - 1)).find(|&i| c[i..].starts_with(&w))
}

#[test]
fn no_result_with_a_string_error_anywhere_in_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(root, &mut files);
    files.sort();
    assert!(
        files.len() > 50,
        "only {} .rs files under {}",
        files.len(),
        root.display()
    );
    let mut hits = Vec::new();
    for path in &files {
        let src =
            std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let lines: Vec<&str> = src.lines().collect();
        for n in string_results(&code_only(&src)) {
            let rel = path.strip_prefix(root).unwrap_or(path);
            let text = lines.get(n - 1).map_or("", |l| l.trim());
            hits.push(format!("{}:{n}: {text}", rel.display()));
        }
    }
    assert!(
        hits.is_empty(),
        "Result<_, String> is back (STYLE.md §7: give it a typed error with Display and \
         std::error::Error):\n{}",
        hits.join("\n")
    );
}

#[test]
fn the_scan_sees_code_and_skips_comments_and_literals() {
    let lines = |src: &str| string_results(&code_only(src));
    // Caught: plain, nested, split over lines, qualified, turbofish.
    assert_eq!(lines("fn f() -> Result<u8, String> {}"), [1]);
    assert_eq!(
        lines("fn f() -> Result<Option<Arc<Network>>, String> {}"),
        [1]
    );
    assert_eq!(
        lines("fn f()\n -> Result<\n  (u8, u8),\n  String,\n> {}"),
        [2]
    );
    assert_eq!(
        lines("type R = std::result::Result<Vec<u8>, std::string::String>;"),
        [1]
    );
    assert_eq!(
        lines("let x = 1;\nlet y = Result::<u8, String>::Ok(x);"),
        [2]
    );
    assert_eq!(lines("collect::<Result<Vec<_>, String>>()"), [1]);
    assert_eq!(
        lines("fn f() -> Result<Box<dyn Fn() -> u8>, String> {}"),
        [1]
    );
    // Not caught: other error types, String as the value, other names.
    assert!(lines("fn f() -> Result<String, FenError> {}").is_empty());
    assert!(lines("fn f() -> Result<(Duration, String), LongGamesError> {}").is_empty());
    assert!(lines("fn f() -> io::Result<String> {}").is_empty());
    assert!(lines("fn f() -> MyResult<u8, String> {}").is_empty());
    assert!(lines("fn f() -> Result<u8, StringError> {}").is_empty());
    assert!(lines("fn f<'a>(s: &'a str) -> Result<&'a str, Error> {}").is_empty());
    // Comments and literals are prose and data.
    assert!(lines("// fn f() -> Result<u8, String>\n/// Result<u8, String>").is_empty());
    assert!(lines("/* Result<u8, String> /* nested */ Result<u8, String> */").is_empty());
    assert!(
        lines(r#"let s = "Result<u8, String>"; let c = '"'; let t = "\"Result<u8, String>";"#)
            .is_empty()
    );
    assert!(lines("let s = r#\"Result<u8, String> \" still\"#;").is_empty());
    assert!(lines("let s = br\"\\\"; let t: Result<u8, E> = f();").is_empty());
    assert_eq!(
        lines("let s = br\"\\\"; let t: Result<u8, String> = f();"),
        [1]
    );
    // And code after them still counts.
    assert_eq!(
        lines("let c = '\"'; // x\nfn f() -> Result<u8, String> {}"),
        [2]
    );
}
