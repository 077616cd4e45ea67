//! Saves what copies of a game share (the cards, a placed tile as printed)
//! as the things themselves. (serde's own `rc` feature would do the same,
//! but switching a feature of serde rebuilds every crate that uses it, the
//! client's engine included.)

use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

pub fn serialize<T: Serialize, S: Serializer>(shared: &Arc<T>, s: S) -> Result<S::Ok, S::Error> {
    shared.as_ref().serialize(s)
}

pub fn deserialize<'de, T: Deserialize<'de>, D: Deserializer<'de>>(d: D) -> Result<Arc<T>, D::Error> {
    T::deserialize(d).map(Arc::new)
}
