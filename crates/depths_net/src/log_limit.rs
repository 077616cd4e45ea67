//! Hostile input costs little and says little: at most one log line a
//! second from any one source (a seat's player, or all strangers together),
//! and the next line says how many were held back.

use std::{
    collections::HashMap,
    time::{Duration, Instant},
};

/// The shortest time between two lines from one source.
pub const EVERY: Duration = Duration::from_secs(1);

/// The most sources remembered; past this the quietest is forgotten (a
/// stranger minting keys cannot grow the map).
const SOURCES: usize = 64;

/// When each source last had a line, and how many it had held back since.
#[derive(Debug, Default)]
pub struct LogLimit {
    sources: HashMap<String, (Instant, u64)>,
}

impl LogLimit {
    /// Whether `source` may have a line at `now`: `Some` with the words to
    /// end it (how many were held back, maybe none), or `None` to hold it.
    pub fn line(&mut self, source: &str, now: Instant) -> Option<String> {
        if let Some((last, held)) = self.sources.get_mut(source) {
            if now.duration_since(*last) < EVERY {
                *held += 1;
                return None;
            }
            let more = std::mem::take(held);
            *last = now;
            return Some(if more == 0 { String::new() } else { format!(" ({more} more like it held back)") });
        }
        if self.sources.len() >= SOURCES
            && let Some(oldest) = self.sources.iter().min_by_key(|(_, (at, _))| *at).map(|(k, _)| k.clone())
        {
            self.sources.remove(&oldest);
        }
        self.sources.insert(source.to_owned(), (now, 0));
        Some(String::new())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_a_second_per_source_with_a_count_of_the_rest() {
        let mut limit = LogLimit::default();
        let start = Instant::now();
        assert_eq!(limit.line("Bo", start), Some(String::new()));
        let held = (1..1000).filter(|i| limit.line("Bo", start + Duration::from_micros(*i)).is_some()).count();
        assert_eq!(held, 0, "a flood within the second writes nothing more");
        assert_eq!(limit.line("Ann", start), Some(String::new()), "another source has its own line");
        let next = limit.line("Bo", start + EVERY).unwrap();
        assert!(next.contains("999 more"), "{next}");
        assert_eq!(limit.line("Bo", start + EVERY * 2), Some(String::new()), "the count starts again");
        for i in 0..10 * SOURCES {
            limit.line(&format!("stranger {i}"), start + EVERY * 3);
        }
        assert!(limit.sources.len() <= SOURCES, "{} sources remembered", limit.sources.len());
    }
}
