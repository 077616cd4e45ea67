//! Online co-op: two or three people play one game from their own machines.
//!
//! The host's rules core is the only one that applies actions. A player
//! sends the `Action`s their seat may make ([`client::SendAction`]); the host
//! checks the seat (`depths_seats::seats::player_may_take`) and the rules
//! (`Game::check`), applies the action, and sends every player the action
//! and a checksum of the table after it ([`protocol::ToPlayer::Applied`]).
//! Each player applies the same action to its own copy and compares; a copy
//! that differs asks for the host's table and carries on from it. Whatever is
//! refused comes back with a reason the player's client can show.
//! Companions are the host's alone: it seats them and runs them, and a seat
//! change reaches every copy numbered among the actions (see
//! [`protocol::PROTOCOL_VERSION`]).
//!
//! The connections are iroh's: a peer is dialled by its public key, through
//! NATs, by a relay where no direct path can be made; every connection is
//! encrypted and proves both keys. A seat belongs to the key that first sat
//! in it.
//!
//! Headless: the plugins need only `MinimalPlugins` (time) — the tests run a
//! host and two players in one process.
//!
//! - [`protocol`]: the messages and their encoding, with size limits.
//! - [`shared_game`]: the state each copy keeps and its checksum.
//! - [`transport`]: the engine's settings: protocol name, relays, keys.
//! - [`link`]: the connections, on the engine's own thread, waking the table.
//! - [`log_limit`]: at most a line a second from any one source.
//! - [`host`]: [`host::HostPlugin`], seats, checking and relaying.
//! - [`client`]: [`client::ClientPlugin`], a player's copy of the table.
//! - [`invite`]: the invite a host passes on: its key and a secret.
//! - [`schedule`]: [`NetSystems`], where the host's and players' systems run.

pub mod client;
pub mod host;
pub mod invite;
pub mod link;
pub mod log_limit;
pub mod protocol;
pub mod schedule;
pub mod shared_game;
pub mod transport;

pub use client::{ClientPlugin, JoinedGame, SendAction};
pub use host::{HostPlugin, HostedGame};
pub use invite::Invite;
pub use link::NetWake;
pub use protocol::Lobby;
pub use schedule::NetSystems;
pub use shared_game::SharedGame;
pub use transport::{NetError, Relays};
