//! What copies of a game share: the cards, a placed tile as printed. A
//! forecast or a search copies the game for every playout, and copying every
//! card (names, texts, effects) was most of a copy's time; a shared card is
//! copied as a pointer. Saves hold the things themselves. (serde's own `rc`
//! feature would do the same, but switching a feature of serde rebuilds every
//! crate that uses it, the client's engine included.)

use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// `#[serde(with = "crate::shared")]` for an `Arc` field.
pub fn serialize<T: Serialize, S: Serializer>(shared: &Arc<T>, s: S) -> Result<S::Ok, S::Error> {
    shared.as_ref().serialize(s)
}

pub fn deserialize<'de, T: Deserialize<'de>, D: Deserializer<'de>>(d: D) -> Result<Arc<T>, D::Error> {
    T::deserialize(d).map(Arc::new)
}

/// A card in a pile, shared by the copies of the game; read through it as
/// the card itself. Equal when the cards are, shown and saved as the card.
pub struct Shared<T>(Arc<T>);

impl<T> Shared<T> {
    pub fn new(card: T) -> Shared<T> {
        Shared(Arc::new(card))
    }
}

impl<T: Clone> Shared<T> {
    /// The card itself, to own (a card leaving the pile for a Hero or a
    /// choice): copied only if another copy of the game still holds it.
    pub fn into_inner(self) -> T {
        Arc::unwrap_or_clone(self.0)
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Shared<T> {
        Shared(Arc::clone(&self.0))
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> From<T> for Shared<T> {
    fn from(card: T) -> Shared<T> {
        Shared::new(card)
    }
}

impl<T: PartialEq> PartialEq for Shared<T> {
    fn eq(&self, other: &Shared<T>) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || *self.0 == *other.0
    }
}

impl<T: Eq> Eq for Shared<T> {}

impl<T: fmt::Debug> fmt::Debug for Shared<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<T: Serialize> Serialize for Shared<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Shared<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Shared<T>, D::Error> {
        T::deserialize(d).map(Shared::new)
    }
}
