//! Where the online systems run in a frame, so a game's own systems can order
//! themselves after what arrived.

use bevy::ecs::schedule::SystemSet;

/// The host's and the client's systems in `Update` (receiving, checking,
/// applying, sending): a game's systems that react to `Applied` or
/// `RemoteApplied` in the same frame run after this.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NetSystems;
