//! A connection's UDP socket kept off the frame, so a waiting table can
//! sleep: a thread of its own ([`spawn_reader`]) reads every datagram and
//! keeps the connection (netcode's handshake, keep-alives and timeouts),
//! queueing for the table only what renet must see, and wakes the table
//! ([`NetWake`]) for what is worth a frame: a message, a connection opened
//! or lost. A table with nothing to show draws nothing, however long.
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
        Arc, Mutex, MutexGuard, PoisonError,
        atomic::{AtomicBool, Ordering},
        mpsc::{Receiver, SyncSender, sync_channel},
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

/// Renet's packet type (the first byte of netcode's payload) of an acknowledgement.
const RENET_ACK: u8 = 4;

/// How often the reader keeps the connection (netcode's send rate is 250 ms),
/// and the shortest time between two wake-ups: a flood of datagrams costs at
/// most 20 frames a second, the rate an awake online table had.
const TICK: Duration = Duration::from_millis(50);

/// How many packets wait for the next update at most; past this they are
/// dropped, as a full socket buffer would drop them.
pub(crate) const QUEUED: usize = 1024;

/// Whether a renet packet is worth a frame: anything but an acknowledgement.
pub fn worth_a_frame(renet_packet: &[u8]) -> bool {
    renet_packet.first() != Some(&RENET_ACK)
}

/// What a connection's reader thread does: with each datagram, and as time
/// passes. Each returns whether the table should wake.
pub trait Reader: Send + 'static {
    fn datagram(&mut self, from: SocketAddr, datagram: &mut [u8], socket: &UdpSocket) -> bool;
    fn tick(&mut self, elapsed: Duration, socket: &UdpSocket) -> bool;
}

/// A reader thread at work; dropping it stops the thread and frees the socket.
pub struct Reading {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for Reading {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Reading")
    }
}

impl Drop for Reading {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        // Within one tick: the port is free again when this returns.
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Starts `reader` on `socket` (a clone of it: the caller keeps sending
/// through its own). The socket becomes blocking with a short read timeout,
/// the reader's tick.
pub fn spawn_reader(socket: &UdpSocket, wake: Option<Wake>, mut reader: impl Reader) -> io::Result<Reading> {
    let socket = socket.try_clone()?;
    socket.set_nonblocking(false)?;
    socket.set_read_timeout(Some(TICK))?;
    let stop = Arc::new(AtomicBool::new(false));
    let stopped = stop.clone();
    let thread = std::thread::Builder::new().name("net-reader".into()).spawn(move || {
        let mut buffer = [0u8; NETCODE_MAX_PACKET_BYTES];
        let (mut last_tick, mut last_wake) = (Instant::now(), None::<Instant>);
        let mut owed = false;
        while !stopped.load(Ordering::Relaxed) {
            match socket.recv_from(&mut buffer) {
                Ok((len, from)) => owed |= reader.datagram(from, &mut buffer[..len], &socket),
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
            if now - last_tick >= TICK {
                owed |= reader.tick(now - last_tick, &socket);
                last_tick = now;
            }
            if owed && last_wake.is_none_or(|at| now - at >= TICK) {
                owed = false;
                last_wake = Some(now);
                if let Some(wake) = &wake {
                    wake();
                }
            }
        }
    })?;
    Ok(Reading { stop, thread: Some(thread) })
}

/// What a reader hands the table, in order, for its next update.
pub struct Queue<T>(Mutex<Receiver<T>>);

impl<T> Queue<T> {
    /// A queue and the reader's end of it.
    pub fn new() -> (Queue<T>, SyncSender<T>) {
        let (tx, rx) = sync_channel(QUEUED);
        (Queue(Mutex::new(rx)), tx)
    }

    /// The next item, if any.
    pub fn next(&self) -> Option<T> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).try_recv().ok()
    }
}

impl<T> std::fmt::Debug for Queue<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Queue")
    }
}

/// Netcode's state, shared by the reader thread and the table.
pub type Shared<T> = Arc<Mutex<T>>;

/// The shared state, locked (a panic elsewhere does not poison the table).
pub fn lock<T>(shared: &Shared<T>) -> MutexGuard<'_, T> {
    shared.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Renet's acknowledgements on one connection, sent only when owed.
#[derive(Debug, Default)]
pub struct Acks {
    owed: bool,
}

impl Acks {
    /// A renet packet arrived on this connection.
    pub fn received(&mut self, packet: &[u8]) {
        self.owed |= worth_a_frame(packet);
    }

    /// Whether to send this outgoing renet packet: all but an
    /// acknowledgement that only acknowledges acknowledgements.
    pub fn send(&self, packet: &[u8]) -> bool {
        self.owed || worth_a_frame(packet)
    }

    /// The packets of one update went out.
    pub fn sent(&mut self) {
        self.owed = false;
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicUsize;

    use super::*;

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

    /// Wakes for datagrams starting with 1, counts ticks.
    struct Counting(Arc<AtomicUsize>);

    impl Reader for Counting {
        fn datagram(&mut self, _: SocketAddr, datagram: &mut [u8], _: &UdpSocket) -> bool {
            datagram.first() == Some(&1)
        }
        fn tick(&mut self, _: Duration, _: &UdpSocket) -> bool {
            self.0.fetch_add(1, Ordering::SeqCst);
            false
        }
    }

    #[test]
    fn the_reader_keeps_time_and_wakes_the_table_only_when_asked() {
        let socket = UdpSocket::bind("127.0.0.1:0").unwrap();
        let (woken, ticks) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let count = woken.clone();
        let wake: Wake = Arc::new(move || {
            count.fetch_add(1, Ordering::SeqCst);
        });
        let reading = spawn_reader(&socket, Some(wake), Counting(ticks.clone())).unwrap();
        let peer = UdpSocket::bind("127.0.0.1:0").unwrap();
        let to = socket.local_addr().unwrap();
        peer.send_to(&[0, 9], to).unwrap();
        std::thread::sleep(TICK * 6);
        assert_eq!(woken.load(Ordering::SeqCst), 0, "a datagram the reader keeps to itself wakes nobody");
        assert!(ticks.load(Ordering::SeqCst) >= 3, "time passes for the reader with no datagram");
        peer.send_to(&[1, 2], to).unwrap();
        let start = Instant::now();
        while woken.load(Ordering::SeqCst) == 0 && start.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(woken.load(Ordering::SeqCst), 1, "one that matters wakes the table");
        // A burst wakes the table a bounded number of times.
        for _ in 0..200 {
            peer.send_to(&[1], to).unwrap();
        }
        std::thread::sleep(TICK * 10);
        let after = woken.load(Ordering::SeqCst);
        // At most one a tick, however busy the machine: not one per datagram.
        assert!((2..=12).contains(&after), "{after} wake-ups for a burst of 200");
        drop(reading);
        // The reader let the socket go.
        assert!(spawn_reader(&socket, None, Counting(ticks)).is_ok());
    }
}
