//! A relay of our own (iroh's relay server), for the tests and the
//! namespace script: its relay over plain HTTP, on a network we trust (what
//! it carries is still encrypted end to end between the two endpoints; the
//! relay sees only their keys), and, where asked, the QUIC address
//! discovery that tells each endpoint its public address (what hole
//! punching starts from), with a certificate made on the spot.

use std::{net::SocketAddr, path::Path};

use iroh::RelayUrl;
use iroh_relay::server::{QuicConfig, RelayConfig, Server, ServerConfig};

/// The port endpoints ask for their public address on (iroh's default).
pub const DISCOVERY_PORT: u16 = 7842;

/// Starts a relay on `bind` (port 0: any free one) on a thread of its own,
/// for the rest of the process; returns its URL. With `certificate`, it
/// also answers address discovery on [`DISCOVERY_PORT`] of the same
/// address, with a certificate for that address written (DER) to that file
/// for the endpoints to trust.
pub fn spawn_relay(bind: SocketAddr, certificate: Option<&Path>) -> Result<RelayUrl, String> {
    let quic = match certificate {
        Some(path) => Some(discovery(bind, path)?),
        None => None,
    };
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("relay".into())
        .spawn(move || {
            let runtime = match tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build() {
                Ok(runtime) => runtime,
                Err(e) => return drop(tx.send(Err(e.to_string()))),
            };
            runtime.block_on(async move {
                let mut config = ServerConfig::default();
                config.relay = Some(RelayConfig::new(bind));
                config.quic = quic;
                let server = match Server::spawn(config).await {
                    Ok(server) => server,
                    Err(e) => return drop(tx.send(Err(e.to_string()))),
                };
                let url = server.http_addr().map(|addr| format!("http://{addr}"));
                let _ = tx.send(url.ok_or_else(|| "the relay has no address".to_owned()));
                std::future::pending::<()>().await;
            });
        })
        .map_err(|e| e.to_string())?;
    let url = rx.recv().map_err(|_| "the relay's thread stopped".to_owned())??;
    url.parse().map_err(|e| format!("{url}: {e}"))
}

/// Address discovery's QUIC server on `bind`'s address, with a new
/// certificate for that address, written to `path`.
fn discovery(bind: SocketAddr, path: &Path) -> Result<QuicConfig, String> {
    let cert = rcgen::generate_simple_self_signed(vec![bind.ip().to_string()]).map_err(|e| e.to_string())?;
    std::fs::write(path, cert.cert.der()).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let key = rustls::pki_types::PrivateKeyDer::from(rustls::pki_types::PrivatePkcs8KeyDer::from(
        cert.signing_key.serialize_der(),
    ));
    let tls = rustls::ServerConfig::builder_with_provider(iroh::tls::default_provider())
        .with_protocol_versions(&[&rustls::version::TLS13])
        .map_err(|e| e.to_string())?
        .with_no_client_auth()
        .with_single_cert(vec![cert.cert.der().clone()], key)
        .map_err(|e| e.to_string())?;
    let mut quic = QuicConfig::new(SocketAddr::new(bind.ip(), DISCOVERY_PORT));
    quic.server_config = Some(tls);
    Ok(quic)
}
