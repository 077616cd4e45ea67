//! The connections, kept off the frame: the engine (iroh, on tokio) runs on
//! a thread of its own, so handshakes, hole punching, keep-alives, resends
//! and timeouts go on while the window sleeps. It hands the table only what
//! the table must see, in order ([`NetEvent`]: a connection opened, a
//! message, a connection closed and why), and wakes it for that, at most
//! once every [`TICK`].
//!
//! Each connection is one QUIC bidirectional stream of messages, each a
//! little-endian `u32` length and that many bytes. A message over the
//! receiver's limit is skipped unread and reported, never buffered.
//!
//! The host ([`HostLink`]) accepts connections; a connection is handed to
//! the table only once it sends its first message within
//! [`crate::transport::JOIN_WITHIN`], so one that never speaks costs the table
//! nothing (not a frame). A player ([`PlayerLink`]) dials one host.

use std::{
    collections::{HashMap, HashSet},
    sync::{
        Arc, Mutex, PoisonError,
        atomic::{AtomicUsize, Ordering},
    },
    time::Duration,
};

use bevy::prelude::*;
use iroh::{
    Endpoint, EndpointAddr, PublicKey,
    endpoint::{
        Builder, Connection, ConnectionError, Incoming, IncomingAddr, ReadError, ReadExactError, RecvStream, SendStream,
    },
};
use tokio::{
    sync::{Notify, mpsc},
    task::JoinSet,
    time::timeout,
};

use crate::{
    protocol::{MAX_FROM_HOST, MAX_FROM_PLAYER},
    transport::{ALPN, CLOSED, JOIN_WITHIN, NetError},
};

/// What wakes the table's window from another thread (the desktop client's
/// event loop); headless apps have none and update on their own.
pub type Wake = Arc<dyn Fn() + Send + Sync>;

/// The table's wake-up, set by the client at start; read when a
/// connection opens.
#[derive(Resource, Clone, Default)]
pub struct NetWake(pub Option<Wake>);

/// The shortest time between two wake-ups: a flood of messages costs at
/// most 20 frames a second.
pub const TICK: Duration = Duration::from_millis(50);

/// How many events wait for the table at most; past this the engine waits
/// too, and QUIC's flow control slows the sender down. Nothing is dropped.
const QUEUED: usize = 1024;

/// The most handshakes in progress at once on the host, and from any one
/// source (an address, or a key on a relay): beyond these a new one is
/// refused at the door, before any cryptography. A seat's key arriving by
/// a relay (which proves its key) is never refused.
const HANDSHAKING: usize = 64;
const HANDSHAKING_PER_SOURCE: usize = 4;

/// The most connections of keys without a seat waiting to say their first
/// word: beyond this a new one is closed at once. A seat's key never waits
/// in this line, so strangers holding it keep no player out.
const WAITING_TO_SPEAK: usize = 16;

/// How long a player waits for the host to answer.
pub const DIAL_WITHIN: Duration = Duration::from_secs(20);

/// How long a goodbye has to reach its player before the connection closes.
const GOODBYE_WITHIN: Duration = Duration::from_secs(1);

/// The longest close reason kept from a peer (it is the peer's words).
const MAX_REASON: usize = 300;

/// One connection, numbered by the host (a player's one connection is 0).
pub type ConnId = u64;

/// What the engine hands the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetEvent {
    /// A connection from (or to) the peer with this key spoke for the first time.
    Opened {
        conn: ConnId,
        key: PublicKey,
    },
    Message {
        conn: ConnId,
        bytes: Vec<u8>,
    },
    /// A message of `len` bytes, over the limit, was skipped.
    TooLarge {
        conn: ConnId,
        len: usize,
    },
    Closed {
        conn: ConnId,
        why: Closed,
    },
    /// Nothing, not even the engine's keep-alive, came on the connection
    /// for `secs` seconds (from [`QUIET_AFTER`], then each second until it
    /// speaks again or times out): the table says so long before the timeout.
    Quiet {
        conn: ConnId,
        secs: u64,
    },
    /// A quiet connection spoke again.
    Heard {
        conn: ConnId,
    },
}

/// Seconds without a packet before a connection is called quiet: the
/// engine's keep-alive comes each second both ways, so a live one never is.
pub const QUIET_AFTER: u64 = 3;

/// Watches `connection`'s received packets: [`NetEvent::Quiet`] while none
/// came for [`QUIET_AFTER`] seconds or more (once a second), then
/// [`NetEvent::Heard`] when one comes. Never returns.
async fn watch_quiet(conn: ConnId, connection: &Connection, events: &Events) {
    let mut last = (connection.stats().udp_rx.datagrams, tokio::time::Instant::now());
    let mut told = 0;
    loop {
        tokio::time::sleep(Duration::from_millis(500)).await;
        let heard = connection.stats().udp_rx.datagrams;
        if heard != last.0 {
            last = (heard, tokio::time::Instant::now());
            if told > 0 {
                told = 0;
                events.send(NetEvent::Heard { conn }).await;
            }
            continue;
        }
        let secs = last.1.elapsed().as_secs();
        if secs >= QUIET_AFTER && secs > told {
            told = secs;
            events.send(NetEvent::Quiet { conn, secs }).await;
        }
    }
}

/// Why a connection ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Closed {
    /// The other side closed it, with these words (maybe none).
    ByPeer(String),
    /// Nothing came for [`crate::transport::TIMEOUT_SECONDS`].
    TimedOut,
    /// The host never answered (a wrong invite, a closed table, no route).
    NotAnswered(String),
    /// This side closed it.
    Here,
    /// Anything else, in the engine's words.
    Lost(String),
}

/// What the table asks of the engine.
#[derive(Debug)]
enum Command {
    Send(ConnId, Vec<u8>),
    /// Send what is queued, then close with these words.
    Close(ConnId, String),
}

/// What a connection's writer does next.
#[derive(Debug)]
enum Out {
    Frame(Vec<u8>),
    Close(String),
}

/// The most bytes waiting to go to one peer: one that lets more pile up is
/// not reading (a few whole tables fit), and is closed rather than let the
/// host's memory grow.
pub const MAX_WAITING: usize = 16 * 1024 * 1024;

/// What a peer that stopped reading is told.
const BEHIND: &str = "you stopped reading the table's messages";

/// The table's end of one connection's writer: messages and the close in
/// order, the bytes still waiting, and a way to cut it off at once.
#[derive(Clone)]
struct Outbox {
    tx: mpsc::UnboundedSender<Out>,
    waiting: Arc<AtomicUsize>,
    abort: Arc<Notify>,
}

/// The writer's end.
struct Inbox {
    rx: mpsc::UnboundedReceiver<Out>,
    waiting: Arc<AtomicUsize>,
    abort: Arc<Notify>,
}

fn outbox() -> (Outbox, Inbox) {
    let (tx, rx) = mpsc::unbounded_channel();
    let (waiting, abort) = (Arc::new(AtomicUsize::new(0)), Arc::new(Notify::new()));
    (Outbox { tx, waiting: waiting.clone(), abort: abort.clone() }, Inbox { rx, waiting, abort })
}

impl Outbox {
    /// Queues a message; false (and the connection is cut) when the peer
    /// has let [`MAX_WAITING`] bytes pile up.
    fn frame(&self, bytes: Vec<u8>) -> bool {
        if self.waiting.fetch_add(bytes.len(), Ordering::Relaxed) + bytes.len() > MAX_WAITING {
            self.abort.notify_one();
            return false;
        }
        let _ = self.tx.send(Out::Frame(bytes));
        true
    }

    fn close(&self, reason: String) {
        let _ = self.tx.send(Out::Close(reason));
    }
}

/// The engine's thread; dropping it closes every connection and ends the
/// thread on its own (the frame never waits for a goodbye to go out).
struct EngineThread {
    commands: mpsc::UnboundedSender<Command>,
    events: Mutex<mpsc::Receiver<NetEvent>>,
    shutdown: Arc<Notify>,
}

impl EngineThread {
    /// Starts `main` on a new thread's tokio runtime; `ready` is what it
    /// reports once it is up, or why it could not start.
    /// Binds the endpoint `builder` makes, then runs `main` with it; a bind
    /// that fails is the caller's error.
    fn spawn<F, Fut, R>(
        name: &str,
        wake: Option<Wake>,
        builder: Builder,
        main: F,
    ) -> Result<(EngineThread, R), NetError>
    where
        F: FnOnce(
                Endpoint,
                Events,
                mpsc::UnboundedReceiver<Command>,
                Arc<Notify>,
                std::sync::mpsc::Sender<Result<R, String>>,
            ) -> Fut
            + Send
            + 'static,
        Fut: Future<Output = ()>,
        R: Send + 'static,
    {
        let (commands, command_rx) = mpsc::unbounded_channel();
        let (event_tx, events) = mpsc::channel(QUEUED);
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        let shutdown = Arc::new(Notify::new());
        let stop = shutdown.clone();
        std::thread::Builder::new()
            .name(name.into())
            .spawn(move || {
                let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
                    Ok(runtime) => runtime,
                    Err(e) => {
                        let _ = ready_tx.send(Err(format!("no runtime: {e}")));
                        return;
                    }
                };
                runtime.block_on(async move {
                    let endpoint = match builder.bind().await {
                        Ok(endpoint) => endpoint,
                        Err(e) => {
                            let _ = ready_tx.send(Err(e.to_string()));
                            return;
                        }
                    };
                    let notify = Arc::new(Notify::new());
                    tokio::spawn(waker(notify.clone(), wake));
                    main(endpoint, Events { tx: event_tx, notify }, command_rx, stop, ready_tx).await;
                });
            })
            .map_err(|e| NetError::Start(format!("no thread: {e}")))?;
        let ready = ready_rx
            .recv()
            .map_err(|_| NetError::Start("the network thread stopped".into()))?
            .map_err(NetError::Start)?;
        let thread = EngineThread { commands, events: Mutex::new(events), shutdown };
        Ok((thread, ready))
    }

    fn next(&self) -> Option<NetEvent> {
        lock(&self.events).try_recv().ok()
    }
}

impl Drop for EngineThread {
    fn drop(&mut self) {
        self.shutdown.notify_one();
    }
}

/// Wakes the table when told, at most once a [`TICK`] (a notice during the
/// pause is kept for after it: nothing is missed).
async fn waker(notify: Arc<Notify>, wake: Option<Wake>) {
    loop {
        notify.notified().await;
        if let Some(wake) = &wake {
            wake();
        }
        tokio::time::sleep(TICK).await;
    }
}

/// The engine's end of the queue to the table.
#[derive(Clone)]
struct Events {
    tx: mpsc::Sender<NetEvent>,
    notify: Arc<Notify>,
}

impl Events {
    async fn send(&self, event: NetEvent) {
        if self.tx.send(event).await.is_ok() {
            self.notify.notify_one();
        }
    }
}

/// The host's connections: whoever dials its key with this game's protocol.
#[derive(Resource)]
pub struct HostLink {
    thread: EngineThread,
    /// The host's key and the addresses it is reachable at, as of its start.
    pub addr: EndpointAddr,
    /// The seats' keys, which the door always lets through.
    seats: SeatKeys,
}

/// The keys that have a seat, shared with the engine's door.
type SeatKeys = Arc<Mutex<HashSet<PublicKey>>>;

/// Where an incoming connection comes from, for the door's count.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Source {
    Ip(std::net::IpAddr),
    Key(PublicKey),
    Other,
}

/// What the door counts: handshakes in progress (in all and per source) and
/// strangers' connections waiting to speak.
#[derive(Default)]
struct Door {
    handshaking: usize,
    per_source: HashMap<Source, usize>,
    waiting: usize,
}

type SharedDoor = Arc<Mutex<Door>>;

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl std::fmt::Debug for HostLink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HostLink({})", self.addr.id.fmt_short())
    }
}

impl HostLink {
    /// Starts accepting on an endpoint made by `builder` (see
    /// [`crate::transport::endpoint`]).
    pub fn open(builder: Builder, wake: Option<Wake>) -> Result<HostLink, NetError> {
        let seats = SeatKeys::default();
        let door_seats = seats.clone();
        let (thread, addr) =
            EngineThread::spawn("net-host", wake, builder, |endpoint, events, commands, stop, ready| async move {
                let _ = ready.send(Ok(addresses(&endpoint).await));
                host_main(endpoint, events, commands, stop, door_seats).await;
            })?;
        Ok(HostLink { thread, addr, seats })
    }

    /// The keys that have a seat now (the door lets them through always).
    pub fn set_seats(&self, keys: impl IntoIterator<Item = PublicKey>) {
        *lock(&self.seats) = keys.into_iter().collect();
    }

    pub fn send(&self, conn: ConnId, bytes: Vec<u8>) {
        let _ = self.thread.commands.send(Command::Send(conn, bytes));
    }

    /// Closes `conn` once what was sent to it has gone, with `reason`.
    pub fn close(&self, conn: ConnId, reason: &str) {
        let _ = self.thread.commands.send(Command::Close(conn, reason.to_owned()));
    }

    pub fn next(&self) -> Option<NetEvent> {
        self.thread.next()
    }
}

/// The addresses the endpoint can be reached at: the ones it knows within a
/// moment of starting (its interfaces at once; a relay or a mapped port once
/// found, which the lookup service tells players later).
async fn addresses(endpoint: &Endpoint) -> EndpointAddr {
    use iroh::Watcher;
    let mut watch = endpoint.watch_addr();
    let _ = timeout(Duration::from_millis(500), async {
        loop {
            if watch.get().ip_addrs().next().is_some() {
                return;
            }
            if watch.updated().await.is_err() {
                return;
            }
        }
    })
    .await;
    endpoint.addr()
}

async fn host_main(
    endpoint: Endpoint,
    events: Events,
    mut commands: mpsc::UnboundedReceiver<Command>,
    stop: Arc<Notify>,
    seats: SeatKeys,
) {
    let mut conns: HashMap<ConnId, Outbox> = HashMap::new();
    let mut tasks = JoinSet::new();
    let door = SharedDoor::default();
    let mut next: ConnId = 1;
    loop {
        tokio::select! {
            biased;
            // The table's commands first: a goodbye queued before the close goes out.
            command = commands.recv() => match command {
                Some(Command::Send(conn, bytes)) => {
                    if conns.get(&conn).is_some_and(|out| !out.frame(bytes)) {
                        conns.remove(&conn);
                    }
                }
                Some(Command::Close(conn, reason)) => {
                    if let Some(out) = conns.remove(&conn) {
                        out.close(reason);
                    }
                }
                None => break,
            },
            incoming = endpoint.accept() => {
                let Some(incoming) = incoming else { break };
                let source = match incoming.remote_addr() {
                    IncomingAddr::Ip(addr) => Source::Ip(addr.ip()),
                    IncomingAddr::Relay { endpoint_id, .. } => Source::Key(endpoint_id),
                    _ => Source::Other,
                };
                let seated = matches!(&source, Source::Key(key) if lock(&seats).contains(key));
                {
                    let mut door = lock(&door);
                    let from_source = door.per_source.get(&source).copied().unwrap_or(0);
                    if !seated && (door.handshaking >= HANDSHAKING || from_source >= HANDSHAKING_PER_SOURCE) {
                        drop(door);
                        incoming.refuse();
                        continue;
                    }
                    door.handshaking += 1;
                    *door.per_source.entry(source.clone()).or_default() += 1;
                }
                let (tx, rx) = outbox();
                let conn = next;
                next += 1;
                conns.insert(conn, tx);
                let gate = Gate { door: door.clone(), seats: seats.clone(), source };
                tasks.spawn(accept(conn, incoming, rx, events.clone(), gate));
            }
            Some(done) = tasks.join_next() => {
                if let Ok(conn) = done {
                    conns.remove(&conn);
                }
            }
            () = stop.notified() => break,
        }
    }
    for out in conns.values() {
        out.close(CLOSED.into());
    }
    let _ = timeout(GOODBYE_WITHIN, async { while tasks.join_next().await.is_some() {} }).await;
    let _ = timeout(GOODBYE_WITHIN, endpoint.close()).await;
}

/// The door's part in one connection: its counts, and who has a seat.
struct Gate {
    door: SharedDoor,
    seats: SeatKeys,
    source: Source,
}

impl Gate {
    fn handshake_done(&self) {
        let mut door = lock(&self.door);
        door.handshaking = door.handshaking.saturating_sub(1);
        if let Some(n) = door.per_source.get_mut(&self.source) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                door.per_source.remove(&self.source);
            }
        }
    }
}

/// What a stranger is told when the line of connections waiting to speak is full.
const LINE_FULL: &str = "too many connections are waiting to sit down: try again in a moment";

/// One connection to the host: handed to the table once it says something
/// within [`JOIN_WITHIN`], else dropped quietly.
async fn accept(conn: ConnId, incoming: Incoming, out: Inbox, events: Events, gate: Gate) -> ConnId {
    let connection = timeout(JOIN_WITHIN, incoming).await;
    gate.handshake_done();
    let Ok(Ok(connection)) = connection else { return conn };
    let stranger = !lock(&gate.seats).contains(&connection.remote_id());
    if stranger {
        let mut door = lock(&gate.door);
        if door.waiting >= WAITING_TO_SPEAK {
            drop(door);
            connection.close(0u32.into(), LINE_FULL.as_bytes());
            return conn;
        }
        door.waiting += 1;
    }
    let opened = timeout(JOIN_WITHIN, async {
        let (send, mut recv) = connection.accept_bi().await.ok()?;
        let first = read_frame(&mut recv, MAX_FROM_PLAYER).await.ok()?;
        Some((send, recv, first))
    })
    .await;
    if stranger {
        let mut door = lock(&gate.door);
        door.waiting = door.waiting.saturating_sub(1);
    }
    let Ok(Some((send, recv, first))) = opened else {
        connection.close(0u32.into(), b"nothing was said in time: join again");
        return conn;
    };
    events.send(NetEvent::Opened { conn, key: connection.remote_id() }).await;
    events.send(frame_event(conn, first)).await;
    serve(conn, connection, send, recv, out, events, MAX_FROM_PLAYER).await;
    conn
}

/// A message read, or one skipped for its size.
enum Frame {
    Message(Vec<u8>),
    TooLarge(usize),
}

fn frame_event(conn: ConnId, frame: Frame) -> NetEvent {
    match frame {
        Frame::Message(bytes) => NetEvent::Message { conn, bytes },
        Frame::TooLarge(len) => NetEvent::TooLarge { conn, len },
    }
}

/// The next message on `recv`; one over `max` is read past, not kept.
async fn read_frame(recv: &mut RecvStream, max: usize) -> Result<Frame, Closed> {
    let mut len = [0u8; 4];
    recv.read_exact(&mut len).await.map_err(closed_by)?;
    let len = u32::from_le_bytes(len) as usize;
    if len > max {
        let mut left = len;
        let mut skip = vec![0u8; 64 * 1024];
        while left > 0 {
            let chunk = left.min(skip.len());
            recv.read_exact(&mut skip[..chunk]).await.map_err(closed_by)?;
            left -= chunk;
        }
        return Ok(Frame::TooLarge(len));
    }
    let mut bytes = vec![0u8; len];
    recv.read_exact(&mut bytes).await.map_err(closed_by)?;
    Ok(Frame::Message(bytes))
}

/// Why reading stopped, in the table's terms.
fn closed_by(error: ReadExactError) -> Closed {
    match error {
        ReadExactError::FinishedEarly(_) => Closed::ByPeer(String::new()),
        ReadExactError::ReadError(ReadError::ConnectionLost(lost)) => lost_by(&lost),
        ReadExactError::ReadError(other) => Closed::Lost(other.to_string()),
    }
}

fn lost_by(error: &ConnectionError) -> Closed {
    match error {
        ConnectionError::ApplicationClosed(close) => Closed::ByPeer(peer_words(&close.reason)),
        ConnectionError::TimedOut => Closed::TimedOut,
        ConnectionError::LocallyClosed => Closed::Here,
        other => Closed::Lost(other.to_string()),
    }
}

/// A peer's close reason as text we may show: printable, and short.
fn peer_words(reason: &[u8]) -> String {
    String::from_utf8_lossy(reason).chars().filter(|c| !c.is_control()).take(MAX_REASON).collect()
}

/// Carries one open connection until it ends: messages in to the table,
/// the table's messages out, then tells the table why it ended.
async fn serve(
    conn: ConnId,
    connection: Connection,
    mut send: SendStream,
    mut recv: RecvStream,
    mut out: Inbox,
    events: Events,
    max: usize,
) {
    let reading = async {
        loop {
            match read_frame(&mut recv, max).await {
                Ok(frame) => events.send(frame_event(conn, frame)).await,
                Err(why) => return why,
            }
        }
    };
    let writing = async {
        while let Some(next) = out.rx.recv().await {
            match next {
                Out::Frame(bytes) => {
                    out.waiting.fetch_sub(bytes.len(), Ordering::Relaxed);
                    let mut frame = Vec::with_capacity(4 + bytes.len());
                    frame.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
                    frame.extend_from_slice(&bytes);
                    if send.write_all(&frame).await.is_err() {
                        // The reader sees why.
                        std::future::pending::<()>().await;
                    }
                }
                Out::Close(reason) => {
                    // What was written reaches the peer before the close.
                    let _ = send.finish();
                    let _ = timeout(GOODBYE_WITHIN, send.stopped()).await;
                    connection.close(0u32.into(), reason.as_bytes());
                    return Closed::Here;
                }
            }
        }
        connection.close(0u32.into(), b"");
        Closed::Here
    };
    let abort = out.abort.clone();
    let why = tokio::select! {
        why = reading => why,
        why = writing => why,
        () = watch_quiet(conn, &connection, &events) => Closed::Here,
        () = abort.notified() => {
            connection.close(0u32.into(), BEHIND.as_bytes());
            Closed::Here
        }
    };
    // The engine's own reason, where reading ended first on a closed connection.
    let why = match (why, connection.close_reason()) {
        (Closed::ByPeer(words), Some(error)) if words.is_empty() => lost_by(&error),
        (why, _) => why,
    };
    events.send(NetEvent::Closed { conn, why }).await;
}

/// A player's one connection, to the host it dials.
#[derive(Resource)]
pub struct PlayerLink {
    thread: EngineThread,
    /// The connection once open, for its figures.
    open: Arc<Mutex<Option<Connection>>>,
}

/// What crossed the network on a connection, every header, resend and
/// keep-alive included (QUIC's own count), and the path it takes now.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wire {
    pub sent: u64,
    pub received: u64,
    /// Through a relay (not punched through, or not yet).
    pub relayed: bool,
}

impl std::fmt::Debug for PlayerLink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PlayerLink")
    }
}

impl PlayerLink {
    /// Dials `host` from an endpoint made by `builder`; what happens comes
    /// as [`NetEvent`]s on connection 0.
    pub fn dial(builder: Builder, host: EndpointAddr, wake: Option<Wake>) -> Result<PlayerLink, NetError> {
        let open = Arc::new(Mutex::new(None));
        let opened = open.clone();
        let (thread, ()) =
            EngineThread::spawn("net-player", wake, builder, |endpoint, events, commands, stop, ready| async move {
                let _ = ready.send(Ok(()));
                player_main(endpoint, host, events, commands, stop, opened).await;
            })?;
        Ok(PlayerLink { thread, open })
    }

    /// What crossed the network so far, once the connection is open.
    pub fn wire(&self) -> Option<Wire> {
        let open = lock(&self.open);
        let connection = open.as_ref()?;
        let stats = connection.stats();
        let relayed = connection.paths().iter().find(|p| p.is_selected()).is_some_and(|p| p.is_relay());
        Some(Wire { sent: stats.udp_tx.bytes, received: stats.udp_rx.bytes, relayed })
    }

    pub fn send(&self, bytes: Vec<u8>) {
        let _ = self.thread.commands.send(Command::Send(0, bytes));
    }

    /// Closes the connection once what was sent has gone.
    pub fn close(&self) {
        let _ = self.thread.commands.send(Command::Close(0, String::new()));
    }

    pub fn next(&self) -> Option<NetEvent> {
        self.thread.next()
    }
}

async fn player_main(
    endpoint: Endpoint,
    host: EndpointAddr,
    events: Events,
    mut commands: mpsc::UnboundedReceiver<Command>,
    stop: Arc<Notify>,
    opened: Arc<Mutex<Option<Connection>>>,
) {
    let dialing = async {
        let connection = endpoint.connect(host, ALPN).await.map_err(|e| e.to_string())?;
        let (send, recv) = connection.open_bi().await.map_err(|e| e.to_string())?;
        Ok::<_, String>((connection, send, recv))
    };
    let dialed = tokio::select! {
        dialed = timeout(DIAL_WITHIN, dialing) => dialed,
        () = stop.notified() => return endpoint.close().await,
    };
    let (connection, send, recv) = match dialed {
        Ok(Ok(open)) => open,
        Ok(Err(why)) => {
            events.send(NetEvent::Closed { conn: 0, why: Closed::NotAnswered(why) }).await;
            return endpoint.close().await;
        }
        Err(_) => {
            let why = format!("nothing for {} s", DIAL_WITHIN.as_secs());
            events.send(NetEvent::Closed { conn: 0, why: Closed::NotAnswered(why) }).await;
            return endpoint.close().await;
        }
    };
    *lock(&opened) = Some(connection.clone());
    events.send(NetEvent::Opened { conn: 0, key: connection.remote_id() }).await;
    let (out, rx) = outbox();
    let serving = serve(0, connection, send, recv, rx, events, MAX_FROM_HOST);
    tokio::pin!(serving);
    loop {
        let done = tokio::select! {
            biased;
            command = commands.recv() => match command {
                Some(Command::Send(_, bytes)) => {
                    out.frame(bytes);
                    continue;
                }
                Some(Command::Close(_, reason)) => {
                    out.close(reason);
                    continue;
                }
                None => false,
            },
            () = &mut serving => true,
            () = stop.notified() => false,
        };
        if !done {
            // Leaving: what was sent goes out, then the close.
            out.close(String::new());
            let _ = timeout(GOODBYE_WITHIN * 2, &mut serving).await;
        }
        break;
    }
    let _ = timeout(GOODBYE_WITHIN, endpoint.close()).await;
}
