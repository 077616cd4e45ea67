//! The workspace's house rules for files, checked on every crate's sources:
//! no circle of imports among a crate's files (strongly connected groups, not
//! only pairs), and in the client, folders import only folders below them.
//!
//! An edge runs from a file to every file whose item it names: `crate::`,
//! `super::`, `self::` and child-module paths, brace groups flattened, `pub use`
//! re-exports followed to the file that defines the item, and a parent's `mod`
//! declarations (so a `mod.rs` that a child imports from is in a circle).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A module's path inside its crate: `game/session.rs` → [game, session].
type Module = Vec<String>;

/// The client's folders, bottom to top: each may import only itself and those before it.
const CLIENT_LAYERS: [&str; 6] = ["game", "theme", "board", "table", "ui", "dev"];

/// One crate's files as parsed: code without comments, strings or test modules.
struct Crate {
    files: BTreeMap<Module, String>,
    /// `pub use` names per module: name → absolute path; globs as module paths.
    reexports: BTreeMap<Module, BTreeMap<String, Vec<String>>>,
    globs: BTreeMap<Module, Vec<Vec<String>>>,
    defines: BTreeMap<Module, BTreeSet<String>>,
}

/// What a crate's files import from each other, with one path as evidence per edge.
struct Graph {
    edges: BTreeMap<Module, BTreeMap<Module, String>>,
}

fn module_of(rel: &str) -> Module {
    let rel = rel.strip_suffix(".rs").unwrap_or(rel);
    let mut parts: Module = rel.split('/').map(str::to_owned).collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

/// The code without comments, string and char literals, and `#[cfg(test)]` items
/// (a file's tests may reach anywhere; the structure is the shipped code's).
fn code(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied().unwrap_or('\0');
        if c == '/' && next == '/' {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == '*' {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c == 'r'
            && (next == '"' || next == '#')
            && !b.get(i.wrapping_sub(1)).is_some_and(|p| p.is_alphanumeric() || *p == '_')
        {
            // A raw string: r"…", r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= b.len() {
                    break;
                }
                if b[j] == '"' && (0..hashes).all(|k| b.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c == '"' {
            i += 1;
            while i < b.len() && b[i] != '"' {
                i += if b[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' {
            // A char literal ('x', '\n', '\u{..}') or a lifetime ('a).
            if next == '\\' {
                let mut j = i + 2;
                while j < b.len() && b[j] != '\'' {
                    j += 1;
                }
                i = j + 1;
                out.push_str("' '");
            } else if b.get(i + 2) == Some(&'\'') {
                i += 3;
                out.push_str("' '");
            } else {
                out.push(c);
                i += 1;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    strip_test_items(&out)
}

fn strip_test_items(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        // The item ends at its first `;` before any brace, or at its braces' close.
        let semi = after.find(';');
        let open = after.find('{');
        let end = match (semi, open) {
            (Some(s), Some(o)) if s < o => s + 1,
            (_, Some(o)) => o + matching_close(&after[o..]).map_or(after.len() - o, |c| c + 1),
            (Some(s), None) => s + 1,
            (None, None) => after.len(),
        };
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// The offset of the brace that closes the one `s` starts with.
fn matching_close(s: &str) -> Option<usize> {
    let mut depth = 0;
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// A path read from `s` at its start, groups expanded; the length read.
fn read_paths(s: &[char]) -> (Vec<Vec<String>>, usize) {
    let mut i = 0;
    let mut prefix: Vec<String> = Vec::new();
    let skip_ws = |i: &mut usize| {
        while *i < s.len() && s[*i].is_whitespace() {
            *i += 1;
        }
    };
    loop {
        skip_ws(&mut i);
        if i < s.len() && s[i] == '{' {
            let mut out = Vec::new();
            i += 1;
            loop {
                skip_ws(&mut i);
                if i >= s.len() {
                    break;
                }
                if s[i] == '}' {
                    i += 1;
                    break;
                }
                if s[i] == ',' {
                    i += 1;
                    continue;
                }
                let (inner, n) = read_paths(&s[i..]);
                if n == 0 {
                    i += 1;
                    continue;
                }
                i += n;
                out.extend(inner.into_iter().map(|p| prefix.iter().cloned().chain(p).collect()));
                skip_alias(s, &mut i);
            }
            return (out, i);
        }
        if i < s.len() && s[i] == '*' {
            prefix.push("*".into());
            return (vec![prefix], i + 1);
        }
        let start = i;
        while i < s.len() && is_ident(s[i]) {
            i += 1;
        }
        if i == start {
            return (if prefix.is_empty() { vec![] } else { vec![prefix] }, start);
        }
        prefix.push(s[start..i].iter().collect());
        let before_sep = i;
        skip_ws(&mut i);
        if s.get(i) == Some(&':') && s.get(i + 1) == Some(&':') && s.get(i + 2) != Some(&'<') {
            i += 2;
        } else {
            return (vec![prefix], before_sep);
        }
    }
}

fn skip_alias(s: &[char], i: &mut usize) {
    let mut j = *i;
    while j < s.len() && s[j].is_whitespace() {
        j += 1;
    }
    if s.get(j) == Some(&'a') && s.get(j + 1) == Some(&'s') && s.get(j + 2).is_some_and(|c| c.is_whitespace()) {
        j += 3;
        while j < s.len() && (s[j].is_whitespace() || is_ident(s[j])) && !(s[j] == ',' || s[j] == '}') {
            if s[j].is_whitespace() && j > *i + 3 && is_ident(s[j - 1]) {
                break;
            }
            j += 1;
        }
        *i = j;
    }
}

/// Every path in `code` that starts at an identifier, with where it starts.
fn all_paths(code: &str) -> Vec<(usize, Vec<String>)> {
    let s: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let boundary = i == 0 || !(is_ident(s[i - 1]) || s[i - 1] == ':' || s[i - 1] == '.' || s[i - 1] == '\'');
        if boundary && is_ident(s[i]) && !s[i].is_numeric() {
            let (paths, n) = read_paths(&s[i..]);
            for p in paths {
                out.push((i, p));
            }
            i += n.max(1);
        } else {
            i += 1;
        }
    }
    out
}

/// The character ranges of inline `mod name { … }` blocks.
fn inline_modules(code: &str) -> Vec<(usize, usize)> {
    let s: Vec<char> = code.chars().collect();
    let text: String = s.iter().collect();
    let mut out = Vec::new();
    for (at, _) in text.match_indices("mod ") {
        let ci = text[..at].chars().count();
        if ci > 0 && is_ident(s[ci - 1]) {
            continue;
        }
        let mut j = ci + 4;
        while j < s.len() && is_ident(s[j]) {
            j += 1;
        }
        while j < s.len() && s[j].is_whitespace() {
            j += 1;
        }
        if s.get(j) == Some(&'{') {
            let rest: String = s[j..].iter().collect();
            if let Some(close) = matching_close(&rest) {
                out.push((j, j + rest[..close].chars().count()));
            }
        }
    }
    out
}

/// `mod x;` declarations at a file's top: its children.
fn declared_children(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for stmt in code.split(';') {
        let words: Vec<&str> = stmt.split_whitespace().collect();
        if let Some(k) = words.iter().rposition(|w| *w == "mod")
            && k + 1 == words.len() - 1
            && words[k + 1].chars().all(is_ident)
        {
            out.push(words[k + 1].to_owned());
        }
    }
    out
}

/// The names a module defines itself.
fn definitions(code: &str) -> BTreeSet<String> {
    // `'static` stays one word: a lifetime, not a static item.
    let words: Vec<&str> =
        code.split(|c: char| !is_ident(c) && c != '!' && c != '\'').filter(|w| !w.is_empty()).collect();
    let kinds = ["struct", "enum", "fn", "type", "trait", "const", "static", "union", "macro_rules!", "mod"];
    words.windows(2).filter(|w| kinds.contains(&w[0])).map(|w| w[1].to_owned()).collect()
}

/// The `use` statements in `code` that are public (any `pub` visibility).
fn pub_uses(code: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (at, _) in code.match_indices("use ") {
        if at > 0 && code[..at].chars().last().is_some_and(is_ident) {
            continue;
        }
        let before = code[..at].trim_end();
        let public = before.ends_with("pub")
            || (before.ends_with(')') && before.rfind("pub(").is_some_and(|p| !before[p..].contains(';')));
        if public && let Some(end) = code[at..].find(';') {
            out.push((at + 4, code[at + 4..at + end].to_owned()));
        }
    }
    out
}

impl Crate {
    fn new(sources: &BTreeMap<String, String>) -> Self {
        let files: BTreeMap<Module, String> =
            sources.iter().filter(|(p, _)| !p.ends_with("main.rs")).map(|(p, t)| (module_of(p), code(t))).collect();
        let mut krate = Crate { files, reexports: BTreeMap::new(), globs: BTreeMap::new(), defines: BTreeMap::new() };
        let mut reexports = BTreeMap::new();
        let mut globs = BTreeMap::new();
        for (m, text) in &krate.files {
            krate.defines.insert(m.clone(), definitions(text));
            let inline = inline_modules(text);
            for (at, stmt) in pub_uses(text) {
                let chars: Vec<char> = stmt.chars().collect();
                let (paths, _) = read_paths(&chars);
                for p in paths {
                    let depth = inline.iter().filter(|(a, b)| *a < at && at < *b).count();
                    let Some(abs) = krate.absolute(m, depth, &p) else { continue };
                    let alias = stmt.split(" as ").nth(1).filter(|_| !stmt.contains('{')).map(|a| a.trim().to_owned());
                    match p.last().map(String::as_str) {
                        Some("*") => {
                            globs.entry(m.clone()).or_insert_with(Vec::new).push(abs[..abs.len() - 1].to_vec())
                        }
                        Some(name) => {
                            let name = alias.unwrap_or_else(|| name.to_owned());
                            reexports.entry(m.clone()).or_insert_with(BTreeMap::new).insert(name, abs);
                        }
                        None => {}
                    }
                }
            }
        }
        krate.reexports = reexports;
        krate.globs = globs;
        krate
    }

    fn is_module(&self, m: &[String]) -> bool {
        self.files.contains_key(m)
    }

    /// A path as seen from module `from` (inside `depth` inline modules) made
    /// absolute, or None if it does not start inside this crate.
    fn absolute(&self, from: &Module, depth: usize, path: &[String]) -> Option<Vec<String>> {
        let mut base = from.clone();
        let mut depth = depth;
        let mut rest = path;
        match path.first().map(String::as_str)? {
            "crate" => {
                base.clear();
                rest = &path[1..];
            }
            "self" => rest = &path[1..],
            "super" => {
                while rest.first().is_some_and(|s| s == "super") {
                    if depth > 0 {
                        depth -= 1;
                    } else {
                        base.pop()?;
                    }
                    rest = &rest[1..];
                }
            }
            first => {
                let mut child = from.clone();
                child.push(first.to_owned());
                if depth > 0 || !self.is_module(&child) {
                    return None;
                }
            }
        }
        Some(base.into_iter().chain(rest.iter().cloned()).collect())
    }

    /// The file that holds what an absolute path names.
    fn file_of(&self, abs: &[String], hops: usize) -> Module {
        let mut cur: Module = Vec::new();
        for (k, seg) in abs.iter().enumerate() {
            let mut next = cur.clone();
            next.push(seg.clone());
            if self.is_module(&next) {
                cur = next;
                continue;
            }
            if hops > 8 || seg == "*" || seg == "self" || self.defines.get(&cur).is_some_and(|d| d.contains(seg)) {
                return cur;
            }
            if let Some(target) = self.reexports.get(&cur).and_then(|r| r.get(seg)) {
                let target: Vec<String> = target.iter().cloned().chain(abs[k + 1..].iter().cloned()).collect();
                return self.file_of(&target, hops + 1);
            }
            for g in self.globs.get(&cur).into_iter().flatten() {
                let via: Vec<String> = g.iter().cloned().chain(abs[k..].iter().cloned()).collect();
                let found = self.file_of(&via, hops + 1);
                if found != *g || self.defines.get(g).is_some_and(|d| d.contains(seg)) {
                    return found;
                }
            }
            return cur;
        }
        cur
    }

    fn graph(&self) -> Graph {
        let mut edges: BTreeMap<Module, BTreeMap<Module, String>> = BTreeMap::new();
        for (m, text) in &self.files {
            let mine = edges.entry(m.clone()).or_default();
            for child in declared_children(text) {
                let mut c = m.clone();
                c.push(child.clone());
                if self.is_module(&c) {
                    mine.entry(c).or_insert(format!("mod {child}"));
                }
            }
            let inline = inline_modules(text);
            for (at, path) in all_paths(text) {
                let depth = inline.iter().filter(|(a, b)| *a < at && at < *b).count();
                // `pub(crate)`, `pub(super)`: a visibility, not a path.
                if path.len() < 2 {
                    continue;
                }
                let Some(abs) = self.absolute(m, depth, &path) else { continue };
                let target = self.file_of(&abs, 0);
                if target != *m {
                    mine.entry(target).or_insert_with(|| path.join("::"));
                }
            }
        }
        Graph { edges }
    }
}

impl Graph {
    /// Groups of two or more files that reach each other (Tarjan's algorithm).
    fn circles(&self) -> Vec<Vec<Module>> {
        struct Walk<'a> {
            g: &'a Graph,
            index: BTreeMap<&'a Module, usize>,
            low: BTreeMap<&'a Module, usize>,
            stack: Vec<&'a Module>,
            on: BTreeSet<&'a Module>,
            out: Vec<Vec<Module>>,
        }
        fn visit<'a>(w: &mut Walk<'a>, v: &'a Module) {
            let n = w.index.len();
            w.index.insert(v, n);
            w.low.insert(v, n);
            w.stack.push(v);
            w.on.insert(v);
            for u in w.g.edges.get(v).into_iter().flat_map(|e| e.keys()) {
                if !w.index.contains_key(u) {
                    visit(w, u);
                    let l = w.low[u].min(w.low[v]);
                    w.low.insert(v, l);
                } else if w.on.contains(u) {
                    let l = w.index[u].min(w.low[v]);
                    w.low.insert(v, l);
                }
            }
            if w.low[v] == w.index[v] {
                let mut group = Vec::new();
                while let Some(u) = w.stack.pop() {
                    w.on.remove(u);
                    group.push(u.clone());
                    if u == v {
                        break;
                    }
                }
                if group.len() > 1 {
                    group.sort();
                    w.out.push(group);
                }
            }
        }
        let mut w = Walk {
            g: self,
            index: BTreeMap::new(),
            low: BTreeMap::new(),
            stack: Vec::new(),
            on: BTreeSet::new(),
            out: Vec::new(),
        };
        for v in self.edges.keys() {
            if !w.index.contains_key(v) {
                visit(&mut w, v);
            }
        }
        w.out.sort_by_key(|g| std::cmp::Reverse(g.len()));
        w.out
    }

    /// Imports from a folder into one above it in `layers`, as "from -> to (path)".
    fn upward(&self, layers: &[&str]) -> Vec<String> {
        let rank = |m: &Module| m.first().and_then(|f| layers.iter().position(|l| l == f));
        let mut out = Vec::new();
        for (from, targets) in &self.edges {
            for (to, evidence) in targets {
                match (rank(from), rank(to)) {
                    (Some(a), Some(b)) if b > a => out.push(format!("{} -> {} ({evidence})", show(from), show(to))),
                    // The crate root sits above every folder.
                    (Some(_), None) if to.is_empty() => out.push(format!("{} -> lib ({evidence})", show(from))),
                    _ => {}
                }
            }
        }
        out
    }
}

fn show(m: &Module) -> String {
    if m.is_empty() { "lib".into() } else { m.join("/") }
}

fn read_crate(src: &Path) -> BTreeMap<String, String> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, String>) {
        for entry in std::fs::read_dir(dir).expect("src is readable") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                walk(root, &path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(root).expect("under src").to_string_lossy().replace('\\', "/");
                out.insert(rel, std::fs::read_to_string(&path).expect("readable"));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(src, src, &mut out);
    out
}

fn workspace_crates() -> Vec<(String, BTreeMap<String, String>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut out = vec![("depths_tests".to_owned(), read_crate(&root.join("tests/src")))];
    for entry in std::fs::read_dir(root.join("crates")).expect("crates/ is readable") {
        let dir = entry.expect("an entry").path();
        if dir.join("src").is_dir() {
            out.push((dir.file_name().expect("a name").to_string_lossy().into_owned(), read_crate(&dir.join("src"))));
        }
    }
    out.sort();
    out
}

fn describe(circle: &[Module], g: &Graph) -> String {
    let members: BTreeSet<&Module> = circle.iter().collect();
    let mut lines = vec![format!("{} files: {}", circle.len(), circle.iter().map(show).collect::<Vec<_>>().join(", "))];
    for m in circle {
        for (to, evidence) in g.edges.get(m).into_iter().flatten() {
            if members.contains(to) {
                lines.push(format!("    {} -> {} ({evidence})", show(m), show(to)));
            }
        }
    }
    lines.join("\n")
}

#[test]
fn no_circle_of_imports_among_the_files_of_any_crate() {
    let mut faults = Vec::new();
    let mut edge_count = 0;
    for (name, sources) in workspace_crates() {
        let g = Crate::new(&sources).graph();
        edge_count += g.edges.values().map(BTreeMap::len).sum::<usize>();
        for circle in g.circles() {
            faults.push(format!("{name}: {}", describe(&circle, &g)));
        }
    }
    assert!(edge_count > 300, "the imports were read: {edge_count} edges");
    assert!(faults.is_empty(), "import circles:\n{}", faults.join("\n"));
}

#[test]
fn the_clients_folders_import_only_folders_below_them() {
    let (_, sources) = workspace_crates().into_iter().find(|(n, _)| n == "depths_app").expect("the client crate");
    for rel in sources.keys() {
        let top = rel.split('/').next().unwrap_or_default();
        assert!(
            !rel.contains('/') && (top == "lib.rs" || top == "main.rs") || CLIENT_LAYERS.contains(&top),
            "{rel} is in no folder of the client's layers {CLIENT_LAYERS:?}"
        );
    }
    let upward = Crate::new(&sources).graph().upward(&CLIENT_LAYERS);
    assert!(upward.is_empty(), "imports into a folder above ({} of them):\n{}", upward.len(), upward.join("\n"));
}

/// A module's own file defines no shared item: a `mod.rs` (or `lib.rs`) only
/// declares, wires and re-exports its children, so the only file that may
/// name what it holds is its own parent, wiring it in.
#[test]
fn parent_modules_only_declare_and_wire_their_children() {
    let mut faults = Vec::new();
    for (name, sources) in workspace_crates() {
        let krate = Crate::new(&sources);
        let parents: BTreeSet<Module> =
            krate.files.keys().filter_map(|m| m.split_last().map(|(_, p)| p.to_vec())).collect();
        for (from, targets) in &krate.graph().edges {
            for (to, evidence) in targets {
                let wiring = to.split_last().is_some_and(|(_, up)| up == from.as_slice());
                if parents.contains(to) && !wiring {
                    faults.push(format!("{name}: {} -> {} ({evidence})", show(from), show(to)));
                }
            }
        }
    }
    assert!(faults.is_empty(), "files that import from a parent module:\n{}", faults.join("\n"));
}

/// The files of `sources` whose code (comments and strings left out) names `word`.
fn files_naming(sources: &BTreeMap<String, String>, word: &str) -> Vec<String> {
    sources.iter().filter(|(_, text)| code(text).contains(word)).map(|(rel, _)| rel.clone()).collect()
}

/// One redraw policy: only `ui/redraw.rs` asks the window for frames; every
/// other system changes state, or marks what moves `Animating`.
#[test]
fn only_the_redraw_policy_asks_for_frames() {
    let (_, sources) = workspace_crates().into_iter().find(|(n, _)| n == "depths_app").expect("the client crate");
    assert_eq!(files_naming(&sources, "RequestRedraw"), vec!["ui/redraw.rs".to_owned()]);
}

#[test]
fn a_planted_redraw_request_is_found() {
    let sources: BTreeMap<String, String> = [
        ("ui/redraw.rs", "fn a(mut r: MessageWriter<RequestRedraw>) { r.write(RequestRedraw); }"),
        ("board/art.rs", "// no RequestRedraw here\nfn b() { let s = \"RequestRedraw\"; }"),
        ("table/cards.rs", "fn c(mut r: MessageWriter<bevy::window::RequestRedraw>) {}"),
    ]
    .into_iter()
    .map(|(a, b)| (a.to_owned(), b.to_owned()))
    .collect();
    assert_eq!(files_naming(&sources, "RequestRedraw"), vec!["table/cards.rs".to_owned(), "ui/redraw.rs".to_owned()]);
}

/// Where the code of `text` (comments and strings left out) sets a text size
/// with a number rather than a step of the type scale: `.size(12.0)`, a
/// title face's size (`title(name, 22.0)`), `FontId::proportional(14.0)`.
fn literal_text_sizes(text: &str) -> Vec<String> {
    let code = code(text);
    let mut out = Vec::new();
    for opening in [".size(", "FontId::proportional(", "FontId::monospace(", "FontId::new("] {
        for (at, _) in code.match_indices(opening) {
            let rest = &code[at + opening.len()..];
            if rest.trim_start().starts_with(|c: char| c.is_ascii_digit()) {
                out.push(format!("{opening}{}", rest.chars().take(6).collect::<String>()));
            }
        }
    }
    for (at, _) in code.match_indices("title(") {
        let call = &code[at + "title(".len()..];
        // The call's last argument, to its closing parenthesis.
        let mut depth = 0;
        let end = call.char_indices().find_map(|(i, c)| match c {
            '(' => {
                depth += 1;
                None
            }
            ')' if depth == 0 => Some(i),
            ')' => {
                depth -= 1;
                None
            }
            _ => None,
        });
        let args = &call[..end.unwrap_or(call.len())];
        if let Some((_, last)) = args.rsplit_once(',')
            && last.trim_start().starts_with(|c: char| c.is_ascii_digit())
        {
            out.push(format!("title({args})"));
        }
    }
    out
}

/// One type scale: every text size of the panels (egui) is a step of
/// `theme::style::type_scale`, never a number of its own.
#[test]
fn the_panels_set_text_in_steps_of_the_type_scale() {
    let (_, sources) = workspace_crates().into_iter().find(|(n, _)| n == "depths_app").expect("the client crate");
    let faults: Vec<String> = sources
        .iter()
        .filter(|(rel, _)| rel.starts_with("ui/") || *rel == "theme/style.rs")
        .flat_map(|(rel, text)| literal_text_sizes(text).into_iter().map(move |f| format!("{rel}: {f}")))
        .collect();
    assert!(faults.is_empty(), "text sizes outside the type scale:\n{}", faults.join("\n"));
}

#[test]
fn a_planted_text_size_is_found() {
    let planted = "fn a(ui: &mut Ui) {\n    ui.label(RichText::new(\"x\").size(12.0));\n    \
                   ui.label(title(&format!(\"{a}, {b}\"), 22.0));\n    \
                   // .size(9.0) in a comment\n    ui.label(RichText::new(\".size(3.0)\").size(type_scale::BODY));\n    \
                   let f = FontId::proportional(14.0);\n}";
    let found = literal_text_sizes(planted);
    assert_eq!(found.len(), 3, "{found:?}");
}

// The guard itself, on planted sources: it must see what it is meant to see.

fn planted(files: &[(&str, &str)]) -> Graph {
    Crate::new(&files.iter().map(|(p, t)| ((*p).to_owned(), (*t).to_owned())).collect()).graph()
}

#[test]
fn a_planted_two_file_circle_is_found() {
    let g = planted(&[
        ("lib.rs", "pub mod game; pub mod ui;"),
        ("game/mod.rs", "pub mod a; pub mod b;"),
        ("game/a.rs", "use crate::game::b::B; pub struct A;"),
        ("game/b.rs", "use super::a::A; pub struct B;"),
    ]);
    let circles: Vec<Vec<String>> = g.circles().iter().map(|c| c.iter().map(show).collect()).collect();
    assert_eq!(circles, [vec!["game/a".to_owned(), "game/b".to_owned()]]);
}

#[test]
fn a_circle_through_a_reexport_and_a_parents_wiring_is_found() {
    let g = planted(&[
        ("lib.rs", "pub mod game; pub use game::flow::Flow;"),
        (
            "game/mod.rs",
            "pub mod flow; pub mod words; pub fn plugin(app: &mut App) { app.add_plugins(words::plugin); }",
        ),
        // `crate::Flow` is flow.rs's, through lib.rs's re-export.
        ("game/words.rs", "pub fn plugin() { let _ = crate::Flow; }"),
        ("game/flow.rs", "pub struct Flow; fn f() { super::plugin(); }"),
    ]);
    let circles: Vec<Vec<String>> = g.circles().iter().map(|c| c.iter().map(show).collect()).collect();
    assert_eq!(circles, [vec!["game".to_owned(), "game/flow".to_owned(), "game/words".to_owned()]]);
}

#[test]
fn a_type_shared_from_a_parent_module_is_found() {
    let files = [
        ("lib.rs", "pub mod board; pub mod game; pub fn plugin(app: &mut App) { app.add_plugins(board::plugin); }"),
        (
            "board/mod.rs",
            "pub mod view; pub struct Board; pub fn plugin(app: &mut App) { app.add_plugins(view::plugin); }",
        ),
        ("board/view.rs", "pub fn plugin(app: &mut App) {}"),
        ("game/mod.rs", "pub mod session;"),
        ("game/session.rs", "use crate::board::Board;"),
    ];
    let krate = Crate::new(&files.iter().map(|(p, t)| ((*p).to_owned(), (*t).to_owned())).collect());
    let g = krate.graph();
    // lib.rs wiring board/mod.rs is allowed; game/session.rs naming Board is not.
    assert_eq!(g.edges[&module_of("game/session.rs")].keys().map(show).collect::<Vec<_>>(), ["board"]);
    assert!(g.edges[&module_of("lib.rs")].contains_key(&module_of("board/mod.rs")));
}

#[test]
fn a_planted_upward_import_is_found_and_comments_and_strings_are_not_imports() {
    let g = planted(&[
        ("lib.rs", "pub mod game; pub mod ui;"),
        ("game/mod.rs", "pub mod state;"),
        (
            "game/state.rs",
            "// use crate::ui::Panel;\nconst S: &str = \"crate::ui::panel\"; use crate::{ui::{panel::Panel as P}};",
        ),
        ("ui/mod.rs", "pub mod panel;"),
        ("ui/panel.rs", "use crate::game::state; pub struct Panel;"),
    ]);
    assert_eq!(g.upward(&CLIENT_LAYERS), ["game/state -> ui/panel (crate::ui::panel::Panel)"]);
    let g = planted(&[
        ("lib.rs", "pub mod game; pub mod ui;"),
        ("game/mod.rs", "pub mod state;"),
        ("game/state.rs", "// use crate::ui::Panel;\nconst S: &str = \"crate::ui::panel\";"),
        ("ui/mod.rs", "pub mod panel;"),
        ("ui/panel.rs", "use crate::game::state; pub struct Panel;"),
    ]);
    assert!(g.upward(&CLIENT_LAYERS).is_empty());
}

/// Where `unsafe` is written in a source's code (comments and strings left out).
fn unsafe_uses(text: &str) -> usize {
    let code = code(text);
    code.match_indices("unsafe").filter(|(i, _)| !code[..*i].ends_with(|c: char| is_ident(c))).count()
}

/// `unsafe` is denied in the workspace and allowed in one file: the
/// client's few Win32 calls (`game/console.rs`).
#[test]
fn unsafe_code_is_written_only_in_the_windows_console() {
    let allowed = [("depths_app", "game/console.rs")];
    let mut found = Vec::new();
    for (krate, sources) in workspace_crates() {
        for (rel, text) in &sources {
            if unsafe_uses(text) > 0 && !allowed.contains(&(krate.as_str(), rel.as_str())) {
                found.push(format!("{krate}: {rel}"));
            }
        }
    }
    assert!(found.is_empty(), "unsafe outside game/console.rs: {found:?}");
    let (_, app) = workspace_crates().into_iter().find(|(n, _)| n == "depths_app").expect("the client crate");
    assert!(unsafe_uses(&app["game/console.rs"]) > 0, "the allowed file is the one that has it");
}

#[test]
fn a_planted_unsafe_block_is_found() {
    assert_eq!(unsafe_uses("fn f() { let x = unsafe { g() }; }"), 1);
    assert_eq!(unsafe_uses("// unsafe in a comment\nfn f() { let s = \"unsafe\"; not_unsafe(); }"), 0);
}
