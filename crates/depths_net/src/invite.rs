//! The invite: the one string a host passes to its players, carrying where
//! to dial and a secret only invited players know.
//!
//! Netcode runs in its secure mode, keyed by the secret: a connect token is
//! sealed with a key derived from it, so only holders of the invite can make
//! one, and the session keys inside each token (random per connection) never
//! cross the network in the clear. Someone who knows the host's address and
//! the protocol id but not the invite cannot complete the handshake.
//!
//! Written in Crockford's base 32, so it can be read out as well as pasted:
//! for an IPv4 host, six groups of five (`ABCDE-FGHJK-MNPQR-STVWX-YZ012-34567`:
//! the address and port, then the secret's 100 bits); otherwise the address
//! as text, a space, and the secret's four groups. Letters that look alike
//! (I/L/1, O/0) read the same, and case is ignored.

use std::net::{Ipv4Addr, SocketAddr, SocketAddrV4};

use bevy_renet::netcode::{NETCODE_KEY_BYTES, generate_random_bytes};

const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// The secret's length in base-32 digits: 100 bits, out of reach of guessing
/// even offline from a captured handshake, and still short enough to read out.
pub const SECRET_DIGITS: usize = 20;

/// What a host passes to its players.
#[derive(Clone, PartialEq, Eq)]
pub struct Invite {
    pub addr: SocketAddr,
    /// The secret's digits (values 0..32), canonical: the key derives from these.
    secret: [u8; SECRET_DIGITS],
}

// The secret stays out of logs and panics.
impl std::fmt::Debug for Invite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Invite {{ addr: {}, secret: .. }}", self.addr)
    }
}

impl Invite {
    /// A new invite to `addr`, its secret from the operating system's random source.
    pub fn new(addr: SocketAddr) -> Invite {
        let bytes: [u8; SECRET_DIGITS] = generate_random_bytes();
        Invite { addr, secret: bytes.map(|b| b & 31) }
    }

    /// The same secret, another address (the host's public address is known
    /// only once its socket is bound).
    pub fn at(&self, addr: SocketAddr) -> Invite {
        Invite { addr, secret: self.secret }
    }

    /// Netcode's private key: derived from the secret alone (BLAKE3's key
    /// derivation, with a context naming this use), so the address can be
    /// written either way and the key is the same.
    pub fn key(&self) -> [u8; NETCODE_KEY_BYTES] {
        blake3::derive_key("forgotten-depths 2026 online invite key", &self.secret)
    }

    /// The invite as one string to paste or read out.
    pub fn text(&self) -> String {
        let secret = groups(&self.secret);
        match addr_digits(self.addr) {
            Some(addr) => format!("{}-{secret}", groups(&addr)),
            None => format!("{} {secret}", self.addr),
        }
    }

    /// What a player pasted or typed, or why it is not an invite.
    pub fn parse(text: &str) -> Result<Invite, String> {
        let text = text.trim();
        if text.is_empty() {
            return Err("paste the invite the host gave you".into());
        }
        // An address written as text: the secret follows the last space or slash.
        if text.contains(':') || text.contains('.') {
            let Some(split) = text.rfind([' ', '/']) else {
                return Err("this invite has an address but no secret: paste all of it".into());
            };
            let (addr, secret) = (text[..split].trim(), &text[split + 1..]);
            let addr = addr
                .parse::<SocketAddr>()
                .map_err(|_| format!("{addr:?} is not an address:port such as 192.168.1.20:5000"))?;
            let secret = digits(secret)?;
            return Ok(Invite { addr, secret: exact(&secret, "secret")? });
        }
        let all = digits(text)?;
        if all.len() != 10 + SECRET_DIGITS {
            return Err(format!(
                "an invite has {} letters and digits, this one {}: check that all of it was pasted",
                10 + SECRET_DIGITS,
                all.len()
            ));
        }
        let addr = addr_of_digits(&all[..10])?;
        Ok(Invite { addr, secret: exact(&all[10..], "secret")? })
    }
}

/// Groups of five digits, joined with dashes.
fn groups(digits: &[u8]) -> String {
    let chars: Vec<String> =
        digits.chunks(5).map(|group| group.iter().map(|&d| char::from(ALPHABET[usize::from(d)])).collect()).collect();
    chars.join("-")
}

/// The base-32 digits of `text` (dashes and spaces ignored), or the first
/// character that is not one.
fn digits(text: &str) -> Result<Vec<u8>, String> {
    text.chars()
        .filter(|c| !matches!(c, '-' | ' '))
        .map(|c| {
            let c = match c.to_ascii_uppercase() {
                'O' => '0',
                'I' | 'L' => '1',
                c => c,
            };
            ALPHABET
                .iter()
                .position(|&a| char::from(a) == c)
                .map(|v| v as u8)
                .ok_or_else(|| format!("{c:?} is not in an invite"))
        })
        .collect()
}

fn exact<const N: usize>(digits: &[u8], what: &str) -> Result<[u8; N], String> {
    digits.try_into().map_err(|_| format!("an invite's {what} has {N} letters and digits, this one {}", digits.len()))
}

/// An IPv4 address and port (48 bits) as ten digits; `None` for IPv6.
fn addr_digits(addr: SocketAddr) -> Option<[u8; 10]> {
    let SocketAddr::V4(v4) = addr else { return None };
    let n = (u64::from(u32::from(*v4.ip())) << 16) | u64::from(v4.port());
    Some(std::array::from_fn(|i| ((n >> (5 * (9 - i))) & 31) as u8))
}

fn addr_of_digits(digits: &[u8]) -> Result<SocketAddr, String> {
    let n = digits.iter().fold(0u64, |n, &d| (n << 5) | u64::from(d));
    let port = (n & 0xffff) as u16;
    if port == 0 || n >> 48 != 0 {
        return Err("not an invite: check it letter by letter".into());
    }
    let ip = Ipv4Addr::from(((n >> 16) & 0xffff_ffff) as u32);
    Ok(SocketAddr::V4(SocketAddrV4::new(ip, port)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_invite_reads_back_and_a_typo_is_an_error() {
        let invite = Invite::new("192.168.1.20:5000".parse().unwrap());
        let text = invite.text();
        assert_eq!(text.len(), 35, "six groups of five: {text}");
        assert_eq!(Invite::parse(&text), Ok(invite.clone()));
        assert_eq!(Invite::parse(&text.to_lowercase().replace('0', "o")), Ok(invite.clone()), "case, look-alikes");
        assert_eq!(Invite::parse(&format!("  {}  ", text.replace('-', " "))), Ok(invite.clone()), "spaces");
        assert!(Invite::parse(&text[..29]).unwrap_err().contains("all of it"));
        assert!(Invite::parse(&text.replace(&text[..1], "U")).unwrap_err().contains("'U'"));
        assert!(Invite::parse("10.0.0.7:5000").unwrap_err().contains("no secret"));
        let v6 = invite.at("[::1]:5000".parse().unwrap());
        assert_eq!(Invite::parse(&v6.text()), Ok(v6.clone()));
        assert_eq!(v6.key(), invite.key(), "the key is the secret's, whatever the address");
    }

    #[test]
    fn each_invite_has_its_own_secret_and_key() {
        let addr = "127.0.0.1:5000".parse().unwrap();
        let (a, b) = (Invite::new(addr), Invite::new(addr));
        assert_ne!(a, b);
        assert_ne!(a.key(), b.key());
        assert!(!format!("{a:?}").contains(&a.text()[12..]), "Debug does not show the secret");
    }
}
