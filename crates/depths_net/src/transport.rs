//! The peer-to-peer engine's settings: this game's protocol name, which
//! relays to use, how long a silent connection lasts, and a machine's own
//! key pair (its identity at every table).

use std::{path::Path, sync::OnceLock, time::Duration};

use iroh::{
    Endpoint, RelayMode, RelayUrl,
    endpoint::{Builder, QuicTransportConfig, presets},
    tls::CaTlsConfig,
};
pub use iroh::{EndpointAddr, PublicKey, SecretKey};
use rustls_pki_types::CertificateDer;

/// The QUIC protocol name this game speaks, the same in every version: a
/// player of another version reaches the host and is told in words (its
/// [`crate::protocol::ToHost::Join`] carries its version) instead of
/// hearing nothing.
pub const ALPN: &[u8] = b"forgotten-depths/online";

/// The host's seats besides its own: two or three people play.
pub const MAX_PLAYERS: usize = 2;

/// A connection must say something within this, or the engine drops it
/// before the table ever hears of it; and its first message must be a
/// [`crate::protocol::ToHost::Join`] the host takes, or it is sent away.
/// So no connection sits at the table without a seat, and one that never
/// speaks costs the table nothing.
pub const JOIN_WITHIN: Duration = Duration::from_secs(5);

/// What the players hear when the host closes the table.
pub const CLOSED: &str = "the host closed the table: ask them for a new invite to play again";

/// How long a connection lasts without a packet: a crashed player is seen
/// gone after this (one rejoining sooner takes the seat back at once).
pub const TIMEOUT_SECONDS: u64 = 15;

/// How often a quiet connection proves it is alive (on the engine's own
/// thread: the table does not wake for it). Each second: a connection with
/// nothing for `link::QUIET_AFTER` seconds is told on screen as quiet.
const KEEP_ALIVE: Duration = Duration::from_secs(1);

/// Which relays carry the first packets, and every packet where no direct
/// path can be punched through the NATs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Relays {
    /// The engine's public relays, and its lookup service that finds a host
    /// by its key alone.
    #[default]
    Public,
    /// A relay the players run themselves (`docs/online.md` says how).
    Own(RelayUrl),
    /// None: direct addresses only (a LAN party with no internet).
    Off,
}

impl Relays {
    /// The setting as a player writes it: `public`, `off`, or a relay's URL.
    pub fn parse(text: &str) -> Result<Relays, String> {
        match text.trim() {
            "" | "public" => Ok(Relays::Public),
            "off" => Ok(Relays::Off),
            url => url.parse::<RelayUrl>().map(Relays::Own).map_err(|e| {
                format!("{url:?} is not a relay: write public, off, or a URL such as https://relay.example.org ({e})")
            }),
        }
    }

    /// The setting as written back.
    pub fn text(&self) -> String {
        match self {
            Relays::Public => "public".into(),
            Relays::Off => "off".into(),
            Relays::Own(url) => url.to_string(),
        }
    }

    /// The relays a player uses to reach a host whose invite names `named`:
    /// the host's own relay where it names one (it can be reached there),
    /// else the player's setting. Off stays off.
    pub fn toward(&self, named: Option<&RelayUrl>) -> Relays {
        match (self, named) {
            (Relays::Off, _) => Relays::Off,
            (_, Some(url)) => Relays::Own(url.clone()),
            (relays, None) => relays.clone(),
        }
    }
}

/// Why a connection could not be opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetError {
    /// The engine could not start (no network, no port), and why.
    Start(String),
    /// There is nothing to do it with (no table, a bad name).
    Refused(String),
}

impl std::fmt::Display for NetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NetError::Start(why) => write!(f, "cannot start the connection: {why}"),
            NetError::Refused(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for NetError {}

/// An endpoint with this machine's `key`, using `relays`; `accept`: it
/// takes connections (the host's).
pub fn endpoint(key: SecretKey, relays: &Relays, accept: bool) -> Builder {
    let builder = match relays {
        Relays::Public => Endpoint::builder(presets::N0),
        Relays::Own(url) => Endpoint::builder(presets::Minimal).relay_mode(RelayMode::custom([url.clone()])),
        Relays::Off => Endpoint::builder(presets::Minimal).relay_mode(RelayMode::Disabled),
    };
    let quic = QuicTransportConfig::builder()
        .keep_alive_interval(KEEP_ALIVE)
        .max_idle_timeout(Some(Duration::from_secs(TIMEOUT_SECONDS).try_into().expect("15 s is a valid idle timeout")))
        .build();
    let mut builder = builder.secret_key(key).transport_config(quic);
    if let Some(roots) = RELAY_ROOTS.get() {
        builder = builder.ca_tls_config(CaTlsConfig::embedded().with_extra_roots(roots.iter().cloned()));
    }
    if accept { builder.alpns(vec![ALPN.to_vec()]) } else { builder }
}

/// Certificates trusted for relays besides the public roots: a relay of
/// one's own with a certificate of its own making (as the namespace script
/// runs). Set once, before the first connection.
static RELAY_ROOTS: OnceLock<Vec<CertificateDer<'static>>> = OnceLock::new();

/// The largest certificate file read (a DER certificate is a few hundred bytes).
const MAX_CERTIFICATE: u64 = 64 * 1024;

/// Trusts the relay certificate (DER) in `path` from now on, besides the
/// public roots. A file that is not one is named; a second call is refused.
pub fn trust_relay_certificate(path: &Path) -> Result<(), String> {
    let size = std::fs::metadata(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?.len();
    if size > MAX_CERTIFICATE {
        return Err(format!("{} is not a certificate ({size} bytes)", path.display()));
    }
    let der = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    // A DER certificate is an ASN.1 SEQUENCE: the TLS library checks the rest when it is used.
    if der.first() != Some(&0x30) {
        return Err(format!("{} is not a DER certificate", path.display()));
    }
    RELAY_ROOTS.set(vec![CertificateDer::from(der)]).map_err(|_| "a relay certificate is already trusted".to_owned())
}

/// This machine's key pair, kept in `path` (made there the first time). A
/// seat belongs to the key that first sat in it: losing the file loses the
/// seats of games in progress, nothing else. A file that is not a key is
/// named and left alone (never overwritten: it may be the player's).
pub fn machine_key(path: &Path) -> Result<SecretKey, String> {
    match std::fs::read(path) {
        Ok(bytes) => {
            let bytes: [u8; 32] = bytes.as_slice().try_into().map_err(|_| {
                format!(
                    "{} is not this game's key ({} bytes, not 32): move it away to make a new one",
                    path.display(),
                    bytes.len()
                )
            })?;
            Ok(SecretKey::from_bytes(&bytes))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let key = SecretKey::generate();
            write_private(path, &key.to_bytes())
                .map_err(|e| format!("cannot keep the key in {}: {e}", path.display()))?;
            Ok(key)
        }
        Err(e) => Err(format!("cannot read the key in {}: {e}", path.display())),
    }
}

/// Writes `bytes` readable by this user only, whole or not at all.
fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let part = path.with_extension("part");
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(&part)?;
    file.write_all(bytes)?;
    file.sync_all()?;
    std::fs::rename(&part, path)
}

/// This machine's address on its local network (the address the system
/// would send from; nothing is sent). `None` offline.
pub fn lan_address() -> Option<std::net::IpAddr> {
    let probe = std::net::UdpSocket::bind("0.0.0.0:0").ok()?;
    // A documentation-only address (TEST-NET-1): routing is looked up, no packet leaves.
    probe.connect("192.0.2.1:9").ok()?;
    probe.local_addr().ok().map(|a| a.ip()).filter(|ip| !ip.is_unspecified())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_relay_setting_reads_back_and_a_bad_one_is_named() {
        for text in ["public", "off", "https://relay.example.org./"] {
            assert_eq!(Relays::parse(text).unwrap().text(), text);
        }
        assert_eq!(Relays::parse(""), Ok(Relays::Public));
        assert!(Relays::parse("relay example").unwrap_err().contains("\"relay example\""));
        let url: RelayUrl = "http://10.0.0.1:3340".parse().unwrap();
        assert_eq!(Relays::Public.toward(Some(&url)), Relays::Own(url.clone()), "the host's own relay");
        assert_eq!(Relays::Off.toward(Some(&url)), Relays::Off, "a LAN-only player stays off the internet");
        assert_eq!(Relays::Public.toward(None), Relays::Public);
    }

    #[test]
    fn a_machine_keeps_its_key_and_a_foreign_file_is_left_alone() {
        let dir = std::env::temp_dir().join(format!("fd-key-{}", std::process::id()));
        let path = dir.join("player.key");
        let _ = std::fs::remove_dir_all(&dir);
        let first = machine_key(&path).unwrap();
        assert_eq!(machine_key(&path).unwrap().public(), first.public(), "the same key every start");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
        }
        std::fs::write(&path, b"not a key").unwrap();
        let error = machine_key(&path).unwrap_err();
        assert!(error.contains("player.key") && error.contains("9 bytes"), "{error}");
        assert_eq!(std::fs::read(&path).unwrap(), b"not a key", "never overwritten");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
