//! A connection's UDP socket read off the frame, so a waiting table can
//! sleep: a thread takes every datagram off the socket into an [`Inbox`]
//! (the host's door and a player's link read it at their next update) and
//! wakes the table ([`NetWake`]) for those worth a frame. Netcode's
//! keep-alives are not (its packet type is sent in the clear and
//! authenticated): they only keep the connection, and are read at the
//! table's next update anyway, which comes every few seconds while online.
//!
//! Renet acknowledges every packet it receives, acknowledgements included,
//! so two connected copies would trade one acknowledgement per update for
//! ever, each waking the other. [`Acks`] sends an acknowledgement only
//! when something besides acknowledgements arrived since the last one:
//! what a message's sender needs to stop resending it.

use std::{
    io,
    net::{SocketAddr, UdpSocket},
    sync::{
        Arc, Mutex, PoisonError,
        atomic::{AtomicBool, Ordering},
        mpsc::{Receiver, SyncSender, TryRecvError, sync_channel},
    },
    thread::JoinHandle,
    time::{Duration, Instant},
};

use bevy::prelude::*;
use renetcode::NETCODE_MAX_PACKET_BYTES;

/// What wakes the table's window from another thread (the desktop client's
/// event loop); headless apps have none and update on their own.
pub type Wake = Arc<dyn Fn() + Send + Sync>;

/// The table's wake-up, set by the client at start; read when a
/// connection opens.
#[derive(Resource, Clone, Default)]
pub struct NetWake(pub Option<Wake>);

/// Netcode's packet type in a datagram's first byte (its low four bits).
const KEEP_ALIVE: u8 = 4;

/// Renet's packet type (the first byte of netcode's payload) of an acknowledgement.
const RENET_ACK: u8 = 4;

/// The shortest time between two wake-ups: a flood of datagrams costs at
/// most this many frames a second, the rate an awake online table had.
const WAKE_GAP: Duration = Duration::from_millis(50);

/// How many datagrams wait for the next update at most; past this they are
/// dropped, as a full socket buffer would drop them.
const QUEUED: usize = 1024;

/// Whether a datagram is worth waking the table for: anything but a
/// netcode keep-alive (a message, an acknowledgement of one, a handshake,
/// a goodbye; a stranger's garbage too, which the door then counts).
pub fn wakes(datagram: &[u8]) -> bool {
    datagram.first().is_some_and(|b| b & 0x0f != KEEP_ALIVE)
}

/// The datagrams a socket received, read off the frame by a thread of its own.
pub struct Inbox {
    /// Behind a lock only so the inbox may be a resource (a receiver is not `Sync`).
    queue: Mutex<Receiver<(SocketAddr, Vec<u8>)>>,
    stop: Arc<AtomicBool>,
    reader: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for Inbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Inbox")
    }
}

impl Inbox {
    /// Starts reading `socket` (a clone of it: the caller keeps sending
    /// through its own). The socket becomes blocking with a short read
    /// timeout, so the thread notices when the inbox is dropped.
    pub fn open(socket: &UdpSocket, wake: Option<Wake>) -> io::Result<Inbox> {
        let reader = socket.try_clone()?;
        reader.set_nonblocking(false)?;
        reader.set_read_timeout(Some(WAKE_GAP))?;
        let (tx, queue) = sync_channel(QUEUED);
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        let reader = std::thread::Builder::new()
            .name("net-inbox".into())
            .spawn(move || read(&reader, &tx, &stopped, wake.as_deref()))?;
        Ok(Inbox { queue: Mutex::new(queue), stop, reader: Some(reader) })
    }

    /// The next datagram received, if any.
    pub fn next(&self) -> Option<(SocketAddr, Vec<u8>)> {
        let queue = self.queue.lock().unwrap_or_else(PoisonError::into_inner);
        match queue.try_recv() {
            Ok(got) => Some(got),
            Err(TryRecvError::Empty | TryRecvError::Disconnected) => None,
        }
    }
}

impl Drop for Inbox {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        // Within one read timeout: the port is free again when this returns.
        if let Some(reader) = self.reader.take() {
            let _ = reader.join();
        }
    }
}

/// The reader thread: queue each datagram, wake the table for those that
/// matter, at most once per [`WAKE_GAP`] (a wake held back is paid when
/// the gap has passed).
fn read(
    socket: &UdpSocket,
    queue: &SyncSender<(SocketAddr, Vec<u8>)>,
    stop: &AtomicBool,
    wake: Option<&(dyn Fn() + Send + Sync)>,
) {
    let mut buffer = [0u8; NETCODE_MAX_PACKET_BYTES];
    let mut last_wake: Option<Instant> = None;
    let mut owed = false;
    while !stop.load(Ordering::Relaxed) {
        match socket.recv_from(&mut buffer) {
            Ok((len, from)) => {
                let datagram = &buffer[..len];
                owed |= wakes(datagram);
                // Full: dropped, as the socket's own buffer would.
                let _ = queue.try_send((from, datagram.to_vec()));
            }
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock
                        | io::ErrorKind::TimedOut
                        | io::ErrorKind::Interrupted
                        | io::ErrorKind::ConnectionReset
                ) => {}
            Err(e) => {
                warn!("the connection's socket failed: {e}");
                break;
            }
        }
        let now = Instant::now();
        if owed && last_wake.is_none_or(|at| now - at >= WAKE_GAP) {
            owed = false;
            last_wake = Some(now);
            if let Some(wake) = wake {
                wake();
            }
        }
    }
}

/// Renet's acknowledgements on one connection, sent only when owed.
#[derive(Debug, Default)]
pub struct Acks {
    owed: bool,
}

impl Acks {
    /// A renet packet arrived on this connection.
    pub fn received(&mut self, packet: &[u8]) {
        self.owed |= packet.first() != Some(&RENET_ACK);
    }

    /// Whether to send this outgoing renet packet: all but an
    /// acknowledgement that only acknowledges acknowledgements.
    pub fn send(&self, packet: &[u8]) -> bool {
        self.owed || packet.first() != Some(&RENET_ACK)
    }

    /// The packets of one update went out.
    pub fn sent(&mut self) {
        self.owed = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keep_alives_do_not_wake_the_table_and_everything_else_does() {
        // Netcode's prefix byte: the type in the low bits, the sequence's length above.
        assert!(!wakes(&[0x04, 0, 0]), "a keep-alive");
        assert!(wakes(&[0x15, 1, 2, 3]), "a payload");
        assert!(wakes(&[0x06]), "a disconnect");
        assert!(wakes(&[0x00]), "a connection request");
        assert!(!wakes(&[]));
    }

    #[test]
    fn an_acknowledgement_goes_out_only_when_something_else_came() {
        let (ack, message) = ([RENET_ACK, 1, 2], [0u8, 7, 0]);
        let mut acks = Acks::default();
        assert!(!acks.send(&ack), "nothing to acknowledge yet");
        assert!(acks.send(&message), "messages always go");
        acks.received(&ack);
        assert!(!acks.send(&ack), "acknowledgements are not acknowledged");
        acks.received(&message);
        assert!(acks.send(&ack), "a message is");
        acks.sent();
        assert!(!acks.send(&ack), "once");
    }

    #[test]
    fn the_inbox_queues_datagrams_and_wakes_for_all_but_keep_alives() {
        let socket = UdpSocket::bind("127.0.0.1:0").unwrap();
        let woken = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let count = woken.clone();
        let wake: Wake = Arc::new(move || {
            count.fetch_add(1, Ordering::SeqCst);
        });
        let inbox = Inbox::open(&socket, Some(wake)).unwrap();
        let peer = UdpSocket::bind("127.0.0.1:0").unwrap();
        let to = socket.local_addr().unwrap();
        peer.send_to(&[KEEP_ALIVE, 9], to).unwrap();
        let waited = |want: usize| {
            let start = Instant::now();
            while woken.load(Ordering::SeqCst) < want && start.elapsed() < Duration::from_secs(5) {
                std::thread::sleep(Duration::from_millis(10));
            }
        };
        std::thread::sleep(WAKE_GAP * 4);
        assert_eq!(woken.load(Ordering::SeqCst), 0, "a keep-alive wakes nobody");
        peer.send_to(&[0x15, 1, 2], to).unwrap();
        waited(1);
        assert_eq!(woken.load(Ordering::SeqCst), 1, "a payload wakes the table");
        let got: Vec<Vec<u8>> = std::iter::from_fn(|| inbox.next()).map(|(_, d)| d).collect();
        assert_eq!(got, vec![vec![KEEP_ALIVE, 9], vec![0x15, 1, 2]], "both wait for the update");
        assert_eq!(inbox.next().map(|(from, _)| from), None);
        // A burst wakes the table a bounded number of times, the last one included.
        for _ in 0..200 {
            peer.send_to(&[0x15, 1], to).unwrap();
        }
        std::thread::sleep(WAKE_GAP * 4);
        let after = woken.load(Ordering::SeqCst);
        assert!((2..=6).contains(&after), "{after} wake-ups for a burst of 200");
        drop(inbox);
        // The reader let the socket go: a new one can read it again.
        assert!(Inbox::open(&socket, None).is_ok());
    }
}
