//! The rules core's shape: no import cycle between its modules (each file of
//! rules imports the data it works on and `game`, and no data module imports
//! a rules file), so a reader can follow any rule downwards.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable source folder") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Module path of a source file: `combat/mod.rs` → `combat`, `combat/damage.rs` → `combat::damage`.
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    let parts: Vec<String> = parts.into_iter().filter(|p| p != "mod").collect();
    parts.join("::")
}

/// The code without comments and without the unit tests at the bottom.
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or("");
    text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// Every `crate::a::b` / `super::x` path named in the code, as the longest known module.
fn imports(module: &str, code: &str, known: &BTreeSet<String>) -> BTreeSet<String> {
    let resolve = |path: &str| -> Option<String> {
        let parts: Vec<&str> = path.split("::").collect();
        (1..=parts.len()).rev().map(|i| parts[..i].join("::")).find(|c| known.contains(c))
    };
    let parent = module.rsplit_once("::").map(|(p, _)| p.to_string());
    let mut out = BTreeSet::new();
    for (prefix, base) in [("crate::", String::new()), ("super::", parent.clone().unwrap_or_default())] {
        for (i, _) in code.match_indices(prefix) {
            let rest = &code[i + prefix.len()..];
            let path: String = rest.chars().take_while(|c| c.is_ascii_lowercase() || *c == '_' || *c == ':').collect();
            let path = path.trim_end_matches(':');
            let full = if base.is_empty() { path.to_string() } else { format!("{base}::{path}") };
            if let Some(m) = resolve(&full).or_else(|| (prefix == "super::").then(|| base.clone()))
                && m != module
                && !m.is_empty()
            {
                out.insert(m);
            }
        }
    }
    // A parent that re-exports its children depends on them.
    for (i, _) in code.match_indices("pub use ") {
        let name: String = code[i + 8..].chars().take_while(|c| c.is_ascii_lowercase() || *c == '_').collect();
        let child = format!("{module}::{name}");
        if known.contains(&child) {
            out.insert(child);
        }
    }
    out
}

fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        v: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(v.to_string(), 1);
        stack.push(v.to_string());
        for w in graph.get(v).into_iter().flatten() {
            match state.get(w.as_str()).copied().unwrap_or(0) {
                1 => {
                    let start = stack.iter().position(|s| s == w).unwrap();
                    let mut cycle = stack[start..].to_vec();
                    cycle.push(w.clone());
                    return Some(cycle);
                }
                0 => {
                    if let Some(c) = visit(w, graph, state, stack) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(v.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for v in graph.keys() {
        if state.get(v.as_str()).copied().unwrap_or(0) == 0
            && let Some(c) = visit(v, graph, &mut state, &mut Vec::new())
        {
            return Some(c);
        }
    }
    None
}

#[test]
fn the_rules_core_has_no_import_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates/depths_rules/src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let modules: BTreeMap<String, String> = files
        .iter()
        .map(|f| (module_of(&src, f), code(&std::fs::read_to_string(f).unwrap())))
        .filter(|(m, _)| m != "lib")
        .collect();
    assert!(modules.len() > 30, "only {} modules found in {}", modules.len(), src.display());
    let known: BTreeSet<String> = modules.keys().cloned().collect();
    let graph: BTreeMap<String, BTreeSet<String>> =
        modules.iter().map(|(m, code)| (m.clone(), imports(m, code, &known))).collect();
    assert!(graph["combat::damage"].contains("game"), "the scan sees imports");
    assert!(graph["combat::damage"].contains("combat"), "and `super::` ones");
    assert_eq!(find_cycle(&graph), None, "an import cycle between the core's modules");
}

#[test]
fn the_cycle_finder_finds_a_cycle() {
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("a".to_string(), BTreeSet::from(["b".to_string()])),
        ("b".to_string(), BTreeSet::from(["c".to_string()])),
        ("c".to_string(), BTreeSet::from(["a".to_string()])),
    ]
    .into_iter()
    .collect();
    assert_eq!(find_cycle(&graph), Some(vec!["a".into(), "b".into(), "c".into(), "a".into()]));
}
