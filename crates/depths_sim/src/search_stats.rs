//! What searching costs: the figures a searching bot reports through
//! [`Bot::search_stats`](crate::bot::Bot::search_stats) and the simulator sums
//! per game. Kept apart from `search` so that the [`Bot`](crate::bot::Bot)
//! trait, below every bot, can name them.

/// What the search cost so far: searched decisions, playouts and time.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchStats {
    /// Decisions searched (Combat, more than one legal action).
    pub searched: u64,
    /// Decisions whose search changed the careful bot's choice.
    pub changed: u64,
    pub playouts: u64,
    /// Time spent searching, in all.
    pub seconds: f64,
    /// The slowest searched decision, in seconds.
    pub max_seconds: f64,
    /// Exploring decisions searched (the planning bot), and the same
    /// figures for them; the ones above are then the Combat decisions'.
    pub explored: u64,
    pub explore_changed: u64,
    pub explore_playouts: u64,
    pub explore_seconds: f64,
    pub explore_max_seconds: f64,
}

impl SearchStats {
    /// Counts one searched Combat decision: whether it changed the careful
    /// bot's choice, its playouts and its time.
    pub fn count(&mut self, changed: bool, playouts: u64, seconds: f64) {
        self.searched += 1;
        self.changed += u64::from(changed);
        self.playouts += playouts;
        self.seconds += seconds;
        self.max_seconds = self.max_seconds.max(seconds);
    }

    /// Counts one searched Exploring decision, as [`SearchStats::count`].
    pub fn count_explore(&mut self, changed: bool, playouts: u64, seconds: f64) {
        self.explored += 1;
        self.explore_changed += u64::from(changed);
        self.explore_playouts += playouts;
        self.explore_seconds += seconds;
        self.explore_max_seconds = self.explore_max_seconds.max(seconds);
    }

    /// Adds another game's figures.
    pub fn add(&mut self, o: &SearchStats) {
        self.searched += o.searched;
        self.changed += o.changed;
        self.playouts += o.playouts;
        self.seconds += o.seconds;
        self.max_seconds = self.max_seconds.max(o.max_seconds);
        self.explored += o.explored;
        self.explore_changed += o.explore_changed;
        self.explore_playouts += o.explore_playouts;
        self.explore_seconds += o.explore_seconds;
        self.explore_max_seconds = self.explore_max_seconds.max(o.explore_max_seconds);
    }
}
