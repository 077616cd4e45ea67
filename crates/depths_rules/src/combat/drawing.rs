//! "1. Draw Cards": a Hand of 3, Power Cards Stored as they are drawn, and
//! the Discard shuffled in when a Hero still has cards to play.

use super::CombatStep;
use crate::event::Event;
use crate::game::Game;

impl Game {
    /// Steps 1–2 for one Monster Card per Hero.
    pub(crate) fn begin_group(&mut self, group: u8, events: &mut Vec<Event>) {
        let c = self.cbt();
        c.group = group;
        c.step = CombatStep::PlayCards;
        let heroes: Vec<u8> = c.engagements.iter().filter(|e| e.group == group).map(|e| e.hero).collect();
        for h in heroes {
            self.draw_hand(h, 3, events);
        }
        self.advance_play(events);
    }

    /// Draws up to a Hand of `size` ("Power Cards do not count toward a
    /// Hero's Hand"), reporting the cards drawn.
    pub(crate) fn draw_hand(&mut self, h: u8, size: usize, events: &mut Vec<Event>) {
        let before = self.heroes[h as usize].hand.len();
        while self.heroes[h as usize].hand.len() < size {
            let Some(card) = self.draw_action_card(h, false, events) else { break };
            self.heroes[h as usize].hand.push(card);
        }
        let drawn = self.heroes[h as usize].hand.len() - before;
        if drawn > 0 {
            events.push(Event::CardsDrawn { hero: h, count: drawn as u8 });
        }
    }

    /// Refills the hand of every Hero who must still play but holds nothing,
    /// then, once no Hero has a card left to play, lets the Monsters play.
    pub(crate) fn advance_play(&mut self, events: &mut Vec<Event>) {
        if self.is_over() {
            return;
        }
        for h in 0..self.heroes.len() as u8 {
            let Some(e) = self.cbt().playing_engagement(h) else { continue };
            if !self.heroes[h as usize].hand.is_empty() {
                continue; // waiting for PlayCard
            }
            let played = self.cbt().engagements[e].played();
            // "If, after that, they still need to Play Cards, they shuffle their
            // Discard to form a new Draw Pile and Draw up to a total of 3 minus
            // the Card(s) just played."
            if self.heroes[h as usize].draw.is_empty() && !self.heroes[h as usize].discard.is_empty() {
                let rng = &mut self.rng;
                self.heroes[h as usize].reshuffle_discard(rng);
                events.push(Event::DiscardReshuffled { hero: h });
            }
            self.draw_hand(h, 3usize.saturating_sub(played.into()).max(1), events);
            if self.heroes[h as usize].hand.is_empty() {
                // No card left anywhere: the Hero plays what they could.
                self.cbt().engagements[e].hero_cards = played;
                events.push(Event::CannotPlay { hero: h });
            }
        }
        if self.cbt().acting_hero().is_none() {
            self.monsters_play(events);
        }
    }
}
