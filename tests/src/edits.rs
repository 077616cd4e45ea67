//! Values from outside changed one at a time: the edits the tests of saves
//! and snapshots try on a file's JSON.

/// Every changed value of `v`'s leaves under `at` (a JSON pointer): numbers
/// to 0, 1, n+1, 9, 255 and huge, booleans flipped, absent numbers present
/// (0, 1, 9), lists one shorter and one longer; with the leaf's pointer.
pub fn changed_leaves(v: &serde_json::Value, at: &str, out: &mut Vec<(String, serde_json::Value)>) {
    use serde_json::{Value, json};
    match v {
        Value::Object(fields) => fields.iter().for_each(|(k, x)| changed_leaves(x, &format!("{at}/{k}"), out)),
        Value::Array(items) => {
            if let Some(last) = items.last() {
                out.push((format!("{at} one shorter"), Value::Array(items[..items.len() - 1].to_vec())));
                let longer = items.iter().chain([last, last, last]).cloned().collect();
                out.push((format!("{at} longer"), Value::Array(longer)));
            }
            // Each item of a short list (names, owners, the round's lines), a long one's first.
            items.iter().take(if items.len() <= 4 { 4 } else { 1 }).enumerate().for_each(|(i, x)| {
                changed_leaves(x, &format!("{at}/{i}"), out);
            });
        }
        Value::Number(n) => {
            let n = n.as_u64().unwrap_or(0);
            for to in [json!(0), json!(1), json!(n.saturating_add(1)), json!(9), json!(255), json!(u64::MAX)] {
                out.push((at.to_owned(), to));
            }
        }
        Value::Bool(b) => out.push((at.to_owned(), json!(!b))),
        Value::Null => [json!(0), json!(1), json!(9)].into_iter().for_each(|to| out.push((at.to_owned(), to))),
        Value::String(s) => out.push((at.to_owned(), json!(s.repeat(40)))),
    }
}
