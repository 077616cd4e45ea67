//! Where each face lies on screen (logical pixels, y down), fitted to the
//! free area between the panels: the Monster cards along the top (or down
//! the left side on a wide table), the pairs in the middle, the hands along
//! the bottom; and how words are set to fit a card. Plain geometry, tested
//! headless.

use bevy::math::{Rect, Vec2};

use super::faces::{CardKey, Face, Kind, Print, Spot};

/// A card's size at full scale.
pub const CARD: Vec2 = Vec2::new(66.0, 94.0);
const MARGIN: f32 = 10.0;
pub(super) const GAP: f32 = 14.0;
/// Between two Heroes' hands.
pub const HAND_GAP: f32 = 30.0;
/// A label line (a Hero's name over a hand, an engagement's title).
pub const LABEL: f32 = 18.0;
/// Between a pair's two cards: its outcome and damage.
pub const PAIR_TEXT: f32 = 42.0;
/// A row of a Monster card (one individual).
pub const FOE_ROW: f32 = 20.0;
/// A line of a Monster card's small print.
pub const PRINT_LINE: f32 = 14.0;
pub const PRINT_PX: f32 = 11.0;
/// The head of a Monster card: icon, name, facts.
pub const FOE_HEAD: f32 = 52.0;
const FOE_MAX_WIDTH: f32 = 300.0;

/// Where one face lies: its centre and size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placed {
    pub center: Vec2,
    pub size: Vec2,
}

impl Placed {
    pub fn rect(&self) -> Rect {
        Rect::from_center_size(self.center, self.size)
    }
}

/// The table's geometry for one set of faces.
#[derive(Clone, Debug, PartialEq)]
pub struct TableLayout {
    pub area: Rect,
    /// The size of the cards in the pairs.
    pub card: Vec2,
    /// The size of the cards in hand: as large as the pairs', or larger
    /// where the pairs' width holds theirs small.
    pub hand: Vec2,
    /// A card dropped above this line is played.
    pub play_line: f32,
    /// The Monster cards lie down the left side rather than along the top.
    pub aside: bool,
    /// Nothing lies over anything else (a trial arrangement may not), and
    /// every Monster card shows its head and rows whole (its individuals
    /// are clicked: rows drawn past a card's foot lay over the hands).
    fits: bool,
    /// How much larger than at 100 % the cards are drawn (`table_scale`):
    /// the faces are laid out in a room this much smaller, then grown.
    pub scale: f32,
    placed: Vec<(CardKey, Placed)>,
}

impl TableLayout {
    pub fn get(&self, key: &CardKey) -> Option<Placed> {
        self.placed.iter().find(|(k, _)| k == key).map(|(_, p)| *p)
    }

    /// Puts `key` at `at` instead (a card kept where it lay).
    pub fn set(&mut self, key: &CardKey, at: Placed) {
        if let Some((_, p)) = self.placed.iter_mut().find(|(k, _)| k == key) {
            *p = at;
        }
    }

    /// Where every card lies (screen px).
    pub fn rects(&self) -> impl Iterator<Item = Rect> + '_ {
        self.placed.iter().map(|(_, p)| p.rect())
    }

    /// The same table grown `scale` times about the screen's origin.
    fn scaled(mut self, scale: f32) -> TableLayout {
        self.area = Rect::from_corners(self.area.min * scale, self.area.max * scale);
        self.card *= scale;
        self.hand *= scale;
        self.play_line *= scale;
        self.scale *= scale;
        for (_, p) in &mut self.placed {
            p.center *= scale;
            p.size *= scale;
        }
        self
    }

    /// Every face lies inside the table, at a size it was laid out for
    /// rather than squeezed to the smallest, and none covers another (a
    /// hand's own cards may fan like a hand of cards).
    pub fn roomy(&self, faces: &[Face]) -> bool {
        let inside = |r: Rect| {
            r.min.x >= self.area.min.x - 0.5
                && r.max.x <= self.area.max.x + 0.5
                && r.min.y >= self.area.min.y - 0.5
                && r.max.y <= self.area.max.y + 0.5
        };
        let blocks: Vec<(&Face, Rect)> = faces
            .iter()
            .filter(|f| matches!(f.kind, Kind::Foe | Kind::Pair | Kind::Hand | Kind::Ecology | Kind::Pile))
            .filter_map(|f| Some((f, self.get(&f.key)?.rect())))
            .collect();
        let apart = blocks.iter().enumerate().all(|(i, (a, ra))| {
            blocks[i + 1..].iter().all(|(b, rb)| {
                let same_hand =
                    matches!((a.spot, b.spot), (Spot::Hand { row: x, .. }, Spot::Hand { row: y, .. }) if x == y);
                same_hand || ra.intersect(*rb).is_empty()
            })
        });
        self.fits && self.card.y > (MIN_CARD_H + 0.5) * self.scale && apart && self.rects().all(inside)
    }

    /// How large the cards read, to choose between arrangements: the height
    /// of a card in hand and of a card in a pair together.
    fn reading(&self) -> f32 {
        self.hand.y + self.card.y
    }

    /// What the hand cards cover together (screen px), if any.
    pub fn hands(&self, faces: &[Face]) -> Option<Rect> {
        faces
            .iter()
            .filter(|f| f.kind == Kind::Hand)
            .filter_map(|f| self.get(&f.key))
            .map(|p| p.rect())
            .reduce(|a, b| a.union(b))
    }
}

/// A pile's width, in hand cards: two piles, one above the other, beside a hand.
const PILE_WIDTH: f32 = 0.5;

/// The smallest a pair or hand card is laid out (at 100 %).
const MIN_CARD_H: f32 = 56.0;

/// The table grows with the UI scale, as far as its room allows: laid out
/// at the largest of `ui_scale`, a step of 1/8 less, … down to 1, at which
/// the faces in `area` are [`TableLayout::roomy`] (its `scale` says which).
/// The panels grow with the UI scale and leave the table less room, so at
/// 150 % on a small window the cards may stay as they are at 100 %.
///
/// A scale `kept` from earlier in the Combat is kept while it is still good
/// (the cards do not change size with every card played).
pub fn lay_out_grown(faces: &[Face], area: Rect, ui_scale: f32, aside: Option<bool>, kept: Option<f32>) -> TableLayout {
    let steps = ((ui_scale - 1.0) * 8.0).round().max(0.0) as usize;
    let unscaled = lay_out_keeping(faces, area, aside);
    // Growing the words and gaps with the cards takes height and width from
    // a small table: a scale that leaves the cards in hand smaller than not
    // growing at all is no growth.
    if kept.is_some_and(|t| t <= 1.0) {
        return unscaled;
    }
    // Nor is one that leaves the pairs' cards under a card's size at 100 %
    // where not growing would not (at 1366×768 and 150 % the hands took the
    // height and the pairs came out 57 px wide, their names cut to
    // "Decrep… Skelet…").
    let good = |layout: &TableLayout| {
        layout.roomy(faces)
            && layout.hand.y + 0.5 >= unscaled.hand.y
            && layout.card.y + 0.5 >= unscaled.card.y.min(CARD.y)
    };
    let scales = kept.into_iter().chain((0..steps).map(|i| ui_scale - i as f32 / 8.0));
    scales.filter(|t| *t > 1.0).map(|t| lay_out_scaled(faces, area, t, aside)).find(good).unwrap_or(unscaled)
}

/// [`lay_out_keeping`] with every face `scale` times larger: laid out in a
/// room `scale` times smaller, then grown to fill `area`.
pub fn lay_out_scaled(faces: &[Face], area: Rect, scale: f32, aside: Option<bool>) -> TableLayout {
    if (scale - 1.0).abs() < 1e-3 {
        return lay_out_keeping(faces, area, aside);
    }
    let small = Rect::from_corners(area.min / scale, area.max / scale);
    lay_out_keeping(faces, small, aside).scaled(scale)
}

/// About how many lines `text` takes at `px` in `width`.
pub fn lines_for(text: &str, width: f32, px: f32) -> usize {
    let per_line = ((width / (px * 0.52)).floor() as usize).max(8);
    text.split('\n').map(|l| l.chars().count().div_ceil(per_line).max(1)).sum()
}

/// About how wide `text` is at `px` (its longest line): the body face runs
/// about half an em a letter.
pub fn text_width(text: &str, px: f32) -> f32 {
    text.split('\n').map(|l| l.chars().count()).max().unwrap_or(0) as f32 * px * 0.5
}

/// `text` set to fit `width`: at `px` if it fits, else wrapped at its words
/// over up to `lines` lines, a size smaller each try down to `min_px`; past
/// that cut short with "…". Returns the text and its size.
pub fn fit_text(text: &str, width: f32, px: f32, min_px: f32, lines: usize) -> (String, f32) {
    let mut size = px;
    loop {
        let per_line = ((width / (size * 0.5)).floor() as usize).max(1);
        let wrapped = wrap_words(text, per_line);
        let last = size - 1.0 < min_px;
        if wrapped.len() <= lines && wrapped.iter().all(|l| l.chars().count() <= per_line) {
            return (wrapped.join("\n"), size);
        }
        if last {
            let mut kept: Vec<String> = wrapped.into_iter().take(lines.max(1)).collect();
            for l in &mut kept {
                if l.chars().count() > per_line {
                    *l = l.chars().take(per_line.saturating_sub(1)).collect();
                    l.push('…');
                }
            }
            // Words left off: the last line says so.
            let shown: usize = kept.iter().map(|l| l.split_whitespace().count()).sum();
            let dropped = shown < text.split_whitespace().count();
            if let Some(l) = kept.last_mut().filter(|l| dropped && !l.ends_with('…')) {
                if l.chars().count() >= per_line {
                    l.pop();
                }
                l.push('…');
            }
            return (kept.join("\n"), size);
        }
        size -= 1.0;
    }
}

/// A pair's words between its cards (its outcome, then the damage both
/// ways) set to `width`: the damage split in two ("Monster −7" / "Bren −4"),
/// each line as large as the width allows. On one line at the width of a
/// pair it came out at 8 px, unread at 150 % on a small window. Each with
/// its size.
pub fn pair_words(value: &str, note: &str, width: f32) -> ((String, f32), (String, f32)) {
    if !note.contains(", ") {
        return (fit_text(value, width, 12.0, 8.0, 1), fit_text(note, width, 11.0, 8.0, 1));
    }
    // Three lines in the gap: the outcome a size smaller to make room.
    let value = fit_text(value, width, 10.0, 8.0, 1);
    let split = note.replacen(", ", "\n", 1);
    let px = (8..=10).rev().map(|px| px as f32).find(|px| text_width(&split, *px) <= width).unwrap_or(8.0);
    (value, (split, px))
}

/// Words in lines of at most `per_line` letters (a longer word has a line of its own).
fn wrap_words(text: &str, per_line: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in text.split_whitespace() {
        match out.last_mut() {
            Some(last) if last.chars().count() + 1 + w.chars().count() <= per_line => {
                last.push(' ');
                last.push_str(w);
            }
            _ => out.push(w.to_owned()),
        }
    }
    if out.is_empty() {
        out.push(String::new());
    }
    out
}

/// The width of a Monster card's small print.
pub fn print_width(foe_width: f32) -> f32 {
    foe_width - 16.0
}

/// The lines a line of a Monster card's small print takes on a card `foe_width`
/// wide: its Power icons come first, and its words wrap beside them.
pub fn print_lines(print: &Print, foe_width: f32) -> usize {
    if print.strip.is_some() {
        return STRIP_LINES;
    }
    lines_for(&print.text, print_width(foe_width) - print_indent(print), PRINT_PX)
}

/// The Health States' strip takes the height of this many lines of print.
pub const STRIP_LINES: usize = 2;

/// How many of a Monster card's lines of small print show in `room` (the
/// height under its rows), and whether "… (hover for all)" follows them: a
/// line is kept for it whenever any is left off, so a card never ends cut
/// without saying so (where not even that line fits, the card's note says
/// "more on hover").
pub fn print_shown(print: &[Print], foe_width: f32, room: f32) -> (usize, bool) {
    let heights: Vec<f32> = print.iter().map(|p| print_lines(p, foe_width) as f32 * PRINT_LINE).collect();
    if heights.iter().sum::<f32>() <= room {
        return (print.len(), false);
    }
    let mut used = 0.0;
    let shown = heights.iter().take_while(|h| {
        used += **h;
        used + PRINT_LINE <= room
    });
    (shown.count(), room >= PRINT_LINE)
}

/// How far a line of small print is pushed right by its Power icons.
pub fn print_indent(print: &Print) -> f32 {
    f32::from(print.power) * POWER_ICON
}

/// A Power icon in a Monster card's small print, and its gap.
pub const POWER_ICON: f32 = 13.0;

/// The least height of a Monster card with `rows` individuals' rows, at
/// 100 %: its head and every row, whole (its rows are clicked).
pub fn foe_least_height(rows: usize) -> f32 {
    FOE_HEAD + rows as f32 * FOE_ROW + 12.0
}

/// A Monster card's least height as laid out: [`foe_least_height`], or all
/// of it where that is less.
fn foe_least(face: &Face, width: f32) -> f32 {
    foe_least_height(face.rows.len()).min(foe_height(face, width))
}

fn foe_height(face: &Face, width: f32) -> f32 {
    let print: usize = face.print.iter().map(|p| print_lines(p, width)).sum();
    FOE_HEAD + face.rows.len() as f32 * FOE_ROW + print as f32 * PRINT_LINE + 12.0
}

/// Lays out `faces` in `area`: in Combat the Monster cards go along the top
/// or, where that leaves the other cards larger (a wide table), down the
/// left side.
pub fn lay_out(faces: &[Face], area: Rect) -> TableLayout {
    let on_top = lay_out_as(faces, area, false);
    if !faces.iter().any(|f| f.kind == Kind::Foe) {
        return on_top;
    }
    let aside = lay_out_as(faces, area, true);
    if aside.fits && aside.reading() > on_top.reading() + 4.0 { aside } else { on_top }
}

/// Lays out `faces` in `area` keeping the Monster cards `aside` or on top
/// as they were (so the table does not turn over as cards are played),
/// unless the other way gives cards a good deal larger.
pub fn lay_out_keeping(faces: &[Face], area: Rect, aside: Option<bool>) -> TableLayout {
    let best = lay_out(faces, area);
    match aside {
        Some(a) if a != best.aside => {
            let kept = lay_out_as(faces, area, a);
            if kept.fits && kept.reading() >= best.reading() * 0.8 { kept } else { best }
        }
        _ => best,
    }
}

/// Lays out `faces` in `area` with the Monster cards `aside` or on top.
pub fn lay_out_as(faces: &[Face], whole: Rect, aside: bool) -> TableLayout {
    let beside = lay_out_in(faces, whole, aside, false);
    if !aside {
        return beside;
    }
    // The hands may run the whole width, under the Monster cards, when these
    // end above them.
    match lay_out_in(faces, whole, true, true) {
        under if under.reading() > beside.reading() && under.fits => under,
        _ => beside,
    }
}

fn lay_out_in(faces: &[Face], whole: Rect, aside: bool, hands_under: bool) -> TableLayout {
    let mut area = whole;
    let mut foe_bottom = whole.min.y;
    let mut rows_whole = true;
    let h = area.height();
    let mut placed = Vec::new();
    let combat = faces.iter().any(|f| f.kind == Kind::Foe);

    let cols = super::faces::columns(faces);
    let mut rows: Vec<usize> = Vec::new();
    // The rows with their Hero's piles beside them.
    let mut piled: Vec<usize> = Vec::new();
    for f in faces {
        let (row, n) = match f.spot {
            Spot::Hand { row, index } => (row, index + 1),
            Spot::Pile { row, .. } => {
                piled.push(row);
                (row, f.room)
            }
            _ => continue,
        };
        if rows.len() <= row {
            rows.resize(row + 1, 0);
        }
        rows[row] = rows[row].max(n);
    }
    let groups_gap = 26.0;
    let hand_gap = HAND_GAP;
    // Cards shrink to fit three of them (a pair and a hand) in the height
    // below `top`, and the hands and pairs side by side in their widths,
    // down to a size still read at a glance; past that the hands overlap
    // like a fan. Returns the cards' heights in hand and in a pair.
    let fixed = LABEL + PAIR_TEXT + GAP + LABEL + MARGIN + 16.0;
    let across = |w: f32, n: f32, gaps: usize, gap: f32, extra: f32| {
        let n = n.max(1.0);
        ((w - 2.0 * MARGIN - gaps as f32 * gap) / n - extra) * CARD.y / CARD.x
    };
    // A row's piles take a column half a card wide at its left.
    let pile_rows = (0..rows.len()).filter(|r| piled.contains(r)).count() as f32;
    // A hand may fan a little before its cards shrink: each card but the
    // last may lie under the next by a quarter, its corner value still shown.
    let fanned: f32 = rows.iter().map(|n| n.saturating_sub(1) as f32 / 4.0).sum();
    let hand_cards = rows.iter().sum::<usize>() as f32 - fanned + pile_rows * PILE_WIDTH;
    let sizes = |top: f32, pairs_width: f32, hands_width: f32, hand_max: f32| {
        let hands_fit = across(hands_width - pile_rows * 6.0, hand_cards, rows.len().saturating_sub(1), hand_gap, 6.0);
        let pairs_fit =
            across(pairs_width, cols.iter().sum::<usize>() as f32, cols.len().saturating_sub(1), groups_gap, 16.0);
        // The hands take their height first, as far as their width allows:
        // cards in hand are what a player reads and clicks, and on a short
        // table (a large UI scale) they would else come out smaller than at
        // 100 %. The pairs keep at least four fifths of an even share, and
        // take what the hands leave, never larger than the hands' cards.
        let height = whole.max.y - top - fixed;
        let pair_floor = (height / 3.0 * 0.8).max(MIN_CARD_H);
        let hand_h = (height - 2.0 * pair_floor).min(hands_fit).min(hand_max).clamp(MIN_CARD_H, CARD.y * 1.5);
        let card_h = ((height - hand_h) / 2.0).min(pairs_fit).min(hand_h).clamp(MIN_CARD_H, CARD.y * 1.5);
        (hand_h, card_h)
    };

    let foes: Vec<&Face> = faces.iter().filter(|f| f.kind == Kind::Foe).collect();
    let n = foes.len().max(1) as f32;
    let (top, (hand_h, card_h)) = if aside {
        // The Monster cards one under another down the left; the rest of
        // the table to their right, the hands under them too if they end
        // above the hands.
        let foe_w = (whole.width() * 0.34).min(FOE_MAX_WIDTH);
        area.min.x += MARGIN + foe_w;
        let hands_width = if hands_under { whole.width() } else { area.width() };
        // Hands under the Monster cards are no taller than leaves those
        // their heads and rows: the tallest hands the width allowed left
        // the rows no room, and at 150 % the hands went beside the Monster
        // cards, smaller than at 100 %.
        let least_all: f32 = foes.iter().map(|f| foe_least(f, foe_w)).sum();
        let hand_max = if hands_under {
            area.max.y - MARGIN - LABEL - GAP - (area.min.y + MARGIN + (n - 1.0) * GAP + least_all) - 0.5
        } else {
            f32::INFINITY
        };
        let sized = sizes(area.min.y, area.width(), hands_width, hand_max);
        let mut bottom = area.max.y - MARGIN;
        if hands_under {
            // The Monster cards give up their small print (it is in the
            // hover box) to end above the hands: their head and rows stay.
            bottom -= sized.0 + LABEL + GAP;
        }
        // Each card keeps its head and rows (its individuals are clicked),
        // and the room left is shared for their small print; where even
        // the rows do not fit, each has an even share.
        let room = bottom - area.min.y - MARGIN - (n - 1.0) * GAP;
        let least = |f: &Face| foe_least(f, foe_w);
        let spare = room - foes.iter().map(|f| least(f)).sum::<f32>();
        rows_whole = spare >= 0.0;
        let mut y = area.min.y + MARGIN;
        for f in &foes {
            let share = if spare >= 0.0 { least(f) + spare / n } else { room / n };
            let height = foe_height(f, foe_w).min(share);
            let center = Vec2::new(whole.min.x + MARGIN + foe_w / 2.0, y + height / 2.0);
            placed.push((f.key.clone(), Placed { center, size: Vec2::new(foe_w, height) }));
            foe_bottom = y + height;
            y += height + GAP;
        }
        (area.min.y, sized)
    } else {
        // Side by side along the top, at most two fifths of the height.
        let w = area.width();
        let foe_w = ((w - 2.0 * MARGIN - (n - 1.0) * GAP) / n).min(FOE_MAX_WIDTH);
        // On a short table (a large UI scale) the Monster cards give up their
        // small print first (it is in the hover box): the pairs and hands need the room.
        let foe_cap = if h < 560.0 { 0.30 } else { 0.42 };
        // Never shorter than a card's head and rows.
        let least = |f: &Face| foe_least(f, foe_w);
        let foe_h = foes.iter().map(|f| foe_height(f, foe_w)).fold(0.0, f32::max).min(h * foe_cap);
        let foe_h = foes.iter().map(|f| least(f)).fold(foe_h, f32::max);
        let row_w = n * foe_w + (n - 1.0) * GAP;
        for (i, f) in foes.iter().enumerate() {
            let height = foe_height(f, foe_w).min(foe_h);
            let x = area.min.x + (w - row_w) / 2.0 + i as f32 * (foe_w + GAP) + foe_w / 2.0;
            let y = area.min.y + MARGIN + height / 2.0;
            placed.push((f.key.clone(), Placed { center: Vec2::new(x, y), size: Vec2::new(foe_w, height) }));
        }
        let top = if combat { area.min.y + MARGIN + foe_h + GAP } else { area.min.y };
        (top, sizes(top, w, w, f32::INFINITY))
    };
    let w = area.width();
    // Where the hands lie across.
    let (hands_left, hands_width) = if hands_under { (whole.min.x, whole.width()) } else { (area.min.x, w) };
    let card = Vec2::new(card_h * CARD.x / CARD.y, card_h);
    let pair = Vec2::new(card.x + 10.0, 2.0 * card.y + PAIR_TEXT + 10.0);
    let hand = Vec2::new(hand_h * CARD.x / CARD.y, hand_h);

    // The pairs: engagement by engagement, left to right, centred.
    let natural: f32 =
        cols.iter().map(|c| *c as f32 * (pair.x + 6.0)).sum::<f32>() + groups_gap * cols.len().saturating_sub(1) as f32;
    let squeeze = ((w - 2.0 * MARGIN) / natural.max(1.0)).min(1.0);
    let step = (pair.x + 6.0) * squeeze;
    let total = natural * squeeze;
    // The pairs sit in the middle of the room between the Monster cards and the hands.
    let hand_y = area.max.y - MARGIN - hand.y / 2.0;
    let play_line = hand_y - hand.y / 2.0 - LABEL;
    let room = play_line - GAP - top - LABEL - pair.y;
    let top = top + (room / 2.0).max(0.0);
    let pairs_top = top + LABEL;
    let group_x = |g: usize| {
        let before: f32 = cols.iter().take(g).map(|c| *c as f32 * step + groups_gap * squeeze).sum();
        area.min.x + (w - total) / 2.0 + before
    };
    for f in faces {
        let at = match f.spot {
            Spot::Combat { group, col } => {
                let x = group_x(group) + col as f32 * step + step / 2.0;
                let frame_y = pairs_top + pair.y / 2.0;
                match f.kind {
                    Kind::Pair => Some(Placed { center: Vec2::new(x, frame_y), size: pair }),
                    Kind::Monster => Some(Placed { center: Vec2::new(x, pairs_top + 5.0 + card.y / 2.0), size: card }),
                    _ => Some(Placed { center: Vec2::new(x, pairs_top + pair.y - 5.0 - card.y / 2.0), size: card }),
                }
            }
            Spot::Label { group } => {
                let width = cols.get(group).map_or(step, |c| *c as f32 * step).max(step);
                let x = group_x(group) + width / 2.0;
                Some(Placed { center: Vec2::new(x, top + LABEL / 2.0), size: Vec2::new(width, LABEL) })
            }
            _ => None,
        };
        if let Some(p) = at {
            placed.push((f.key.clone(), p));
        }
    }

    // The hands along the bottom: each Hero's row side by side, its piles
    // at its left (draw above, discard below), its cards overlapping like a
    // fan when they do not fit (the piles never do).
    let pile = Vec2::new(hand.x * PILE_WIDTH, (hand.y - 4.0) / 2.0);
    let pile_col = |r: usize| if piled.contains(&r) { pile.x + 6.0 } else { 0.0 };
    let piles_w: f32 = (0..rows.len()).map(pile_col).sum();
    // The step from one card to the next that fills the width: the last
    // card of each row shows whole, the others as far as the room allows.
    let gaps = hand_gap * rows.len().saturating_sub(1) as f32;
    let steps: f32 = rows.iter().map(|n| n.saturating_sub(1) as f32).sum();
    let room = hands_width - 2.0 * MARGIN - piles_w - gaps - rows.len() as f32 * hand.x;
    let hand_step = (room / steps.max(1.0)).clamp(hand.x * 0.4, hand.x + 6.0);
    let row_w = |r: usize, n: usize| pile_col(r) + (n as f32 - 1.0).max(0.0) * hand_step + hand.x;
    let hands_w: f32 = rows.iter().enumerate().map(|(r, n)| row_w(r, *n)).sum::<f32>() + gaps;
    let row_x = |r: usize| {
        let before: f32 = rows.iter().take(r).enumerate().map(|(k, n)| row_w(k, *n) + hand_gap).sum();
        hands_left + (hands_width - hands_w).max(0.0) / 2.0 + before
    };
    for f in faces {
        let at = match f.spot {
            Spot::Hand { row, index } => {
                let x = row_x(row) + pile_col(row) + hand.x / 2.0 + index as f32 * hand_step;
                Placed { center: Vec2::new(x, hand_y), size: hand }
            }
            Spot::Pile { row, discard } => {
                let dy = (hand.y - pile.y) / 2.0;
                let y = if discard { hand_y + dy } else { hand_y - dy };
                Placed { center: Vec2::new(row_x(row) + pile.x / 2.0, y), size: pile }
            }
            _ => continue,
        };
        placed.push((f.key.clone(), at));
    }

    // Drawn Feature and Legendary Location cards, from the right.
    for f in faces {
        if let Spot::Ecology { index } = f.spot {
            let size = CARD * 1.5;
            let area = whole;
            let x = area.max.x - MARGIN - size.x / 2.0 - index as f32 * (size.x + GAP);
            let y = area.max.y - MARGIN - size.y / 2.0;
            placed.push((f.key.clone(), Placed { center: Vec2::new(x, y), size }));
        }
    }
    let fits = rows_whole && (!hands_under || foe_bottom + 4.0 <= play_line);
    TableLayout { area: whole, card, hand, play_line, aside: aside && combat, fits, scale: 1.0, placed }
}

/// Where a Hero's hand row lay when the hands were last laid out: what
/// it spans (piles and cards, screen px), where its first card's left
/// edge is and the size of its cards.
#[derive(Clone, Debug, PartialEq)]
pub struct RowSpan {
    pub hero: u8,
    pub span: Rect,
    pub cards_left: f32,
    pub hand: Vec2,
}

impl RowSpan {
    /// The width of its piles' column (none: 0).
    fn piles(&self) -> f32 {
        if self.cards_left.is_finite() { self.cards_left - self.span.min.x } else { 0.0 }
    }
}

fn row_hero(f: &Face) -> Option<(usize, u8)> {
    match (&f.spot, &f.key) {
        (Spot::Hand { row, .. }, CardKey::Hero { hero, .. }) | (Spot::Pile { row, .. }, CardKey::Pile { hero, .. }) => {
            Some((*row, *hero))
        }
        _ => None,
    }
}

/// Each hand row's span in `layout`, in row order.
pub fn row_spans(faces: &[Face], layout: &TableLayout) -> Vec<RowSpan> {
    let mut spans: Vec<(usize, RowSpan)> = Vec::new();
    for f in faces {
        let (Some((row, hero)), Some(p)) = (row_hero(f), layout.get(&f.key)) else { continue };
        let r = p.rect();
        let cards_left = if f.kind == Kind::Hand { r.min.x } else { f32::INFINITY };
        match spans.iter_mut().find(|(k, _)| *k == row) {
            Some((_, s)) => {
                s.span = s.span.union(r);
                s.cards_left = s.cards_left.min(cards_left);
            }
            None => spans.push((row, RowSpan { hero, span: r, cards_left, hand: layout.hand })),
        }
    }
    spans.sort_by_key(|(row, _)| *row);
    spans.into_iter().map(|(_, s)| s).collect()
}

/// Where a row of `n` cards goes between `lo` and `hi` (screen x): its
/// left edge and the step from card to card. It stays where it began while
/// its cards fit there at two thirds of a card apart; else it takes the
/// room between its neighbours, fanned no tighter than the table fans a
/// hand (its corner values shown). None where even that does not fit.
pub fn fit_row(row: &RowSpan, n: usize, lo: f32, hi: f32) -> Option<(f32, f32)> {
    let (piles, card) = (row.piles(), row.hand.x);
    let steps = n.saturating_sub(1) as f32;
    let step_in = |from: f32| ((hi - from - piles - card) / steps.max(1.0)).min(card + 6.0);
    let start = row.span.min.x;
    if n > 1 && step_in(start) >= card * 0.66 {
        return Some((start, step_in(start)));
    }
    let step = if n > 1 { step_in(lo) } else { 0.0 };
    let width = piles + steps * step + card;
    if step < card * 0.4 - 0.01 && n > 1 || width > hi - lo + 0.5 {
        return None;
    }
    Some(((hi - width).min(start).max(lo), step))
}

/// The hands kept through a Round. A row whose every card already lies in
/// a hand stays where it lies; a row that gained a card mid-Round (a
/// reshuffle dealt Bren two cards for the one played, Undo took one back)
/// is laid again in its room between the rows beside it, which stay under
/// the pointer. `lying`: the cards on the table, with their kind and place;
/// `spans`: where the rows were laid; `area`: the table; `gap`: between two
/// hands; `clear`: what no card may cover (the Monster cards). None where
/// a row has no span or does not fit its room: the hands are laid anew.
pub fn keep_rows(
    faces: &[Face],
    spans: &[RowSpan],
    lying: &[(CardKey, Kind, Placed)],
    (area, gap): (Rect, f32),
    clear: &[Rect],
) -> Option<Vec<(CardKey, Placed)>> {
    let lies = |key: &CardKey, kind: Kind| lying.iter().find(|(k, w, _)| k == key && *w == kind).map(|(_, _, p)| *p);
    let mut rows: Vec<(usize, u8)> = faces.iter().filter_map(row_hero).collect();
    rows.sort();
    rows.dedup();
    let of_row = |row: usize, kind: Kind| -> Vec<&Face> {
        let mut v: Vec<&Face> =
            faces.iter().filter(|f| f.kind == kind && row_hero(f).is_some_and(|(r, _)| r == row)).collect();
        v.sort_by_key(|f| match f.spot {
            Spot::Hand { index, .. } => index,
            _ => 0,
        });
        v
    };
    // Each row kept whole where it lies (its extent), or waiting to be laid again.
    let mut laid: Vec<Option<(Rect, Vec<(CardKey, Placed)>)>> = Vec::new();
    for &(row, _) in &rows {
        let all: Vec<&Face> = of_row(row, Kind::Pile).into_iter().chain(of_row(row, Kind::Hand)).collect();
        let whole: Option<Vec<(CardKey, Placed)>> =
            all.iter().map(|f| Some((f.key.clone(), lies(&f.key, f.kind)?))).collect();
        laid.push(whole.map(|w| {
            let extent = w.iter().map(|(_, p)| p.rect()).reduce(|a, b| a.union(b)).unwrap_or_default();
            (extent, w)
        }));
    }
    for i in 0..rows.len() {
        if laid[i].is_some() {
            continue;
        }
        let (row, hero) = rows[i];
        let span = spans.iter().find(|s| s.hero == hero)?;
        let extent = |j: usize| {
            laid[j]
                .as_ref()
                .map_or_else(|| spans.iter().find(|s| s.hero == rows[j].1).map(|s| s.span), |(e, _)| Some(*e))
        };
        let lo = match i.checked_sub(1) {
            Some(j) => extent(j)?.max.x + gap,
            None => area.min.x + MARGIN,
        };
        let hi = match rows.get(i + 1) {
            Some(_) => extent(i + 1)?.min.x - gap,
            None => area.max.x - MARGIN,
        };
        let hand = of_row(row, Kind::Hand);
        let y = span.span.center().y;
        let card = span.hand;
        let mut placed: Vec<(CardKey, Placed)> = Vec::new();
        // Cards drawn mid-Round (none of them lying anywhere) join the row
        // at its right, past every place its cards lay, so none lands where
        // the pointer just played one; its other cards stay.
        let drawn: Vec<&&Face> = hand.iter().filter(|f| !lying.iter().any(|(k, _, _)| *k == f.key)).collect();
        let right = hand
            .iter()
            .filter_map(|f| lies(&f.key, Kind::Hand))
            .map(|p| p.rect().max.x)
            .fold(span.span.max.x, f32::max);
        // Or, where the next hand leaves no room there, at its left, its
        // piles moved over.
        let k = drawn.len() as f32;
        let steps = (k - 1.0).max(1.0);
        let fits = |room: f32| {
            let step = ((room - card.x) / steps).min(card.x + 6.0);
            (room >= card.x - 0.5 && (k <= 1.0 || step >= card.x * 0.4)).then_some(step.max(0.0))
        };
        let first_left = span.cards_left.min(span.span.max.x);
        let at_right = fits(hi - right - 6.0).map(|step| (right + 6.0, step, 0.0));
        // Or between the piles and where its cards lay, the piles staying:
        // a row dealt far from its piles was laid anew for a reshuffle
        // (Sil's row slid right, her number changed).
        let piles_right = of_row(row, Kind::Pile)
            .iter()
            .filter_map(|f| lies(&f.key, Kind::Pile))
            .map(|p| p.rect().max.x)
            .fold(span.span.min.x - 6.0, f32::max);
        let in_gap = || {
            let step = fits(first_left - 6.0 - (piles_right + 6.0))?;
            Some((piles_right + 6.0, step, 0.0))
        };
        let at_left = || {
            let step = fits(first_left - 6.0 - span.piles() - lo)?;
            let width = (k - 1.0) * step + card.x;
            let left = first_left - 6.0 - width;
            Some((left, step, left - span.piles() - span.span.min.x))
        };
        let whole_kept =
            hand.iter().all(|f| lies(&f.key, Kind::Hand).is_some() || drawn.iter().any(|d| d.key == f.key));
        // How far the row's piles move over.
        let shift = if let Some((left, step, shift)) =
            at_right.or_else(in_gap).or_else(at_left).filter(|_| whole_kept && !drawn.is_empty())
        {
            for f in &hand {
                let at = match lies(&f.key, Kind::Hand) {
                    Some(p) => p,
                    None => {
                        let i = drawn.iter().position(|d| d.key == f.key).unwrap_or(0) as f32;
                        Placed { center: Vec2::new(left + card.x / 2.0 + i * step, y), size: card }
                    }
                };
                placed.push((f.key.clone(), at));
            }
            shift
        } else {
            // A card taken back (it lies in its pair) or no room at the
            // right: the row is laid again in its room.
            let (start, step) = fit_row(span, hand.len(), lo, hi)?;
            let first = start + span.piles() + card.x / 2.0;
            for (k, f) in hand.iter().enumerate() {
                let center = Vec2::new(first + k as f32 * step, y);
                placed.push((f.key.clone(), Placed { center, size: card }));
            }
            start - span.span.min.x
        };
        for f in of_row(row, Kind::Pile) {
            let p = lies(&f.key, Kind::Pile)?;
            placed.push((f.key.clone(), Placed { center: p.center + Vec2::new(shift, 0.0), size: p.size }));
        }
        if placed.iter().any(|(_, p)| clear.iter().any(|c| !c.intersect(p.rect().inflate(-0.5)).is_empty())) {
            return None;
        }
        let extent = placed.iter().map(|(_, p)| p.rect()).reduce(|a, b| a.union(b)).unwrap_or(span.span);
        laid[i] = Some((extent, placed));
    }
    Some(laid.into_iter().flat_map(|l| l.map(|(_, p)| p).unwrap_or_default()).collect())
}

/// Where a box of `size` covers least of the table (its top-left corner,
/// screen px): covering a card costs, covering one of `targets` (what a
/// guide points at, what a click answers now) costs most, so it is never
/// covered while any place is free of it. Among equals, the place nearest
/// the table's left middle; but `was` (where the box lay before) while it
/// costs no more than the best: a box with buttons kept moving under the
/// pointer as cards came and went (the replay's ▶, clicked twice, landed on
/// a card).
pub fn clear_spot(layout: &TableLayout, targets: &[Rect], size: Vec2, was: Option<Vec2>) -> Vec2 {
    let area = layout.area;
    let taken: Vec<(Rect, f32)> =
        layout.rects().map(|r| (r, 1.0)).chain(targets.iter().map(|r| (*r, 1000.0))).collect();
    let cost = |at: Vec2| -> f32 {
        let r = Rect::from_corners(at, at + size);
        taken
            .iter()
            .map(|(t, w)| {
                let i = r.intersect(*t);
                if i.is_empty() { 0.0 } else { i.width() * i.height() * w }
            })
            .sum()
    };
    let anchor = Vec2::new(area.min.x, area.center().y - size.y / 2.0);
    let (x0, x1) = (area.min.x + 8.0, (area.max.x - size.x - 8.0).max(area.min.x + 8.0));
    let (y0, y1) = (area.min.y + 8.0, (area.max.y - size.y - 8.0).max(area.min.y + 8.0));
    let mut best = (f32::INFINITY, f32::INFINITY, Vec2::new(x0, y0));
    let mut y = y0;
    while y <= y1 {
        let mut x = x0;
        while x <= x1 {
            let at = Vec2::new(x, y);
            let c = (cost(at), at.distance(anchor));
            if c.0 < best.0 || (c.0 == best.0 && c.1 < best.1) {
                best = (c.0, c.1, at);
            }
            x += 12.0;
        }
        y += 12.0;
    }
    let inside = |at: &Vec2| at.x >= x0 && at.x <= x1 && at.y >= y0 && at.y <= y1;
    match was.filter(inside) {
        Some(at) if cost(at) <= best.0 => at,
        _ => best.2,
    }
}
