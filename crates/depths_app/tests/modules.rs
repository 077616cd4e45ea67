//! The client's house rule: no module imports a module that imports it back.
//! Reads the crate's own sources (outside their test modules and comments),
//! resolves every `crate::…` path, grouped `use crate::{…}` ones included, to
//! the module that holds it, and fails on any pair that use each other.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Module = Vec<String>;

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src is readable") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `game/session.rs` → [game, session]; `board/mod.rs` → [board]; `lib.rs` → [].
fn module_of(root: &Path, file: &Path) -> Module {
    let rel = file.strip_prefix(root).expect("under src").with_extension("");
    let mut parts: Module = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

/// The code a reader's imports live in: no test module, no comment lines.
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]\nmod tests").next().unwrap_or(text);
    text.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
}

/// Every path named after `crate::` in `code`, brace groups flattened.
fn crate_paths(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':' || c == '{')).unwrap_or(rest.len());
        if rest[..end].contains('{') {
            // A group: take it whole, braces balanced.
            let open = rest.find('{').expect("a brace");
            let mut depth = 0;
            let mut close = open;
            for (i, c) in rest[open..].char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            close = open + i;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            let prefix: Vec<String> = rest[..open].split("::").filter(|s| !s.is_empty()).map(str::to_owned).collect();
            flatten(&prefix, &rest[open + 1..close], &mut out);
            rest = &rest[close..];
        } else {
            out.push(rest[..end].split("::").filter(|s| !s.is_empty()).map(str::to_owned).collect());
        }
    }
    out
}

fn flatten(prefix: &[String], group: &str, out: &mut Vec<Vec<String>>) {
    let mut depth = 0;
    let mut start = 0;
    let mut entries = Vec::new();
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                entries.push(&group[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    entries.push(&group[start..]);
    for e in entries {
        let e = e.trim();
        if e.is_empty() {
            continue;
        }
        match e.find('{') {
            Some(open) => {
                let mut p = prefix.to_vec();
                p.extend(e[..open].split("::").filter(|s| !s.is_empty()).map(str::to_owned));
                flatten(&p, &e[open + 1..e.len() - 1], out);
            }
            None => {
                let mut p = prefix.to_vec();
                p.extend(e.split(" as ").next().unwrap_or(e).split("::").map(|s| s.trim().to_owned()));
                out.push(p);
            }
        }
    }
}

#[test]
fn no_module_imports_a_module_that_imports_it_back() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, &mut files);
    let modules: BTreeSet<Module> = files.iter().map(|f| module_of(&root, f)).collect();
    let mut uses: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for f in files.iter().filter(|f| !f.ends_with("main.rs")) {
        let me = module_of(&root, f);
        let text = std::fs::read_to_string(f).expect("readable");
        for path in crate_paths(&code(&text)) {
            // The longest prefix that is a module of the crate.
            let target = (1..=path.len()).rev().map(|k| path[..k].to_vec()).find(|p| modules.contains(p));
            if let Some(t) = target.filter(|t| *t != me) {
                uses.entry(me.clone()).or_default().insert(t);
            }
        }
    }
    assert!(uses.values().map(BTreeSet::len).sum::<usize>() > 100, "the imports were read: {uses:?}");
    let mut both_ways = Vec::new();
    for (a, targets) in &uses {
        for b in targets {
            if a < b && uses.get(b).is_some_and(|t| t.contains(a)) {
                both_ways.push(format!("{} <-> {}", a.join("::"), b.join("::")));
            }
        }
    }
    assert!(both_ways.is_empty(), "modules that import each other: {both_ways:#?}");
}

#[test]
fn grouped_imports_are_read_whole() {
    let paths = crate_paths("use crate::{PlaySystems, game::{session::Session, hotseat}, ui::screens::Screen};");
    let names: Vec<String> = paths.iter().map(|p| p.join("::")).collect();
    assert_eq!(names, ["PlaySystems", "game::session::Session", "game::hotseat", "ui::screens::Screen"]);
}
