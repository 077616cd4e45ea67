//! The invite: the one string a host passes to its players, carrying whom
//! to dial and a secret only invited players know.
//!
//! The host is named by its public key (iroh dials a peer by its key, and
//! the connection proves the host holds it, so nobody can stand in for it),
//! followed by how to reach it where no lookup service can say: its relay,
//! if it is not one of the public ones, and its direct addresses (a LAN
//! party with no internet). The secret is the admission: a player new to
//! the table gives it in its first message, inside the encrypted
//! connection. A player who already has a seat needs it no more: the seat
//! belongs to their key ([`crate::host`]).
//!
//! Written as `KEY.SECRET` then the hints, space-separated: the key in
//! z-base-32 (52 characters), the secret in Crockford's base 32, four
//! groups of five (100 bits). In the secret, letters that look alike
//! (I/L/1, O/0) read the same, and case is ignored.

use iroh::{EndpointAddr, PublicKey, RelayUrl, TransportAddr};
use serde::{Deserialize, Serialize};

const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// The secret's length in base-32 digits: 100 bits, out of reach of guessing.
pub const SECRET_DIGITS: usize = 20;

/// The most hints an invite may carry, and the longest one: a pasted
/// invite is input from outside.
const MAX_HINTS: usize = 12;
const MAX_HINT: usize = 200;

/// What a host passes to its players.
#[derive(Clone, PartialEq, Eq)]
pub struct Invite {
    /// The host's key and the addresses it can be reached at.
    pub host: EndpointAddr,
    secret: Admission,
}

/// An invite's secret, as a newcomer gives it to the host. Compared in
/// constant time, so its digits cannot be guessed one by one from timing.
#[derive(Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Admission([u8; SECRET_DIGITS]);

impl Admission {
    fn new() -> Admission {
        let mut bytes = [0u8; SECRET_DIGITS];
        // The OS's random source; without it there is no safe table to host.
        getrandom::fill(&mut bytes).expect("the system's random source");
        Admission(bytes.map(|b| b & 31))
    }

    /// Whether `given` is this secret.
    pub fn admits(&self, given: &Admission) -> bool {
        self.0.iter().zip(&given.0).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
    }
}

// The secret stays out of logs and panics.
impl std::fmt::Debug for Admission {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Admission(..)")
    }
}

impl std::fmt::Debug for Invite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Invite {{ host: {}, secret: .. }}", self.host.id.fmt_short())
    }
}

impl Invite {
    /// A new invite to `host`, with a new secret from the OS's random source.
    pub fn new(host: EndpointAddr) -> Invite {
        Invite { host, secret: Admission::new() }
    }

    /// The same secret, other addresses (they change as the network does).
    pub fn at(&self, host: EndpointAddr) -> Invite {
        Invite { host, secret: self.secret }
    }

    /// The host's key.
    pub fn key(&self) -> PublicKey {
        self.host.id
    }

    /// The secret a newcomer gives.
    pub fn admission(&self) -> Admission {
        self.secret
    }

    /// The same table: the same host and secret, whatever its addresses.
    pub fn same_table(&self, other: &Invite) -> bool {
        self.host.id == other.host.id && self.secret.admits(&other.secret)
    }

    /// A short check of this invite (four letters from a hash of its
    /// secret, which they do not give away): the host sees it beside the
    /// invite, a player beside what they pasted; the same check, the same
    /// invite. A new invite has another (the key stays the same).
    pub fn check(&self) -> String {
        // FNV-1a: the same on every machine and release.
        let hash = self
            .secret
            .0
            .iter()
            .fold(0xcbf2_9ce4_8422_2325u64, |h, &d| (h ^ u64::from(d)).wrapping_mul(0x0000_0100_0000_01b3));
        (0..4).map(|i| char::from(ALPHABET[((hash >> (5 * i)) & 31) as usize])).collect()
    }

    /// Whether the invite says where the host is (a relay or an address),
    /// not only its key: without one only the public relays' lookup finds it.
    pub fn has_addresses(&self) -> bool {
        !self.host.addrs.is_empty()
    }

    /// The invite in a line a player can check: whose table, its check,
    /// how it is reached ("table i9ggomdb… · check 7KQ2 · a relay and 1 address").
    pub fn summary(&self) -> String {
        let key = self.host.id.to_z32();
        let relays = self.host.relay_urls().count();
        let ips = self.host.ip_addrs().count();
        let plural = |n: usize, one: &str| if n == 1 { format!("1 {one}") } else { format!("{n} {one}es") };
        let reach = match (relays, ips) {
            (0, 0) => "no address: found by its key".to_owned(),
            (0, n) => plural(n, "address"),
            (r, 0) => {
                if r == 1 {
                    "a relay".to_owned()
                } else {
                    format!("{r} relays")
                }
            }
            (r, n) => format!(
                "{} and {}",
                if r == 1 { "a relay".to_owned() } else { format!("{r} relays") },
                plural(n, "address")
            ),
        };
        format!("table {}… · check {} · {reach}", &key[..8], self.check())
    }

    /// The invite as one string to paste.
    pub fn text(&self) -> String {
        let mut text = format!("{}.{}", self.host.id.to_z32(), groups(&self.secret.0));
        for url in self.host.relay_urls() {
            text.push(' ');
            text.push_str(url.as_str());
        }
        for addr in self.host.ip_addrs() {
            text.push(' ');
            text.push_str(&addr.to_string());
        }
        text
    }

    /// What a player pasted or typed, or why it is not an invite.
    pub fn parse(text: &str) -> Result<Invite, String> {
        let mut words = text.split_whitespace();
        let Some(first) = words.next() else { return Err("paste the invite the host gave you".into()) };
        let Some((key, secret)) = first.split_once('.') else {
            return Err(
                "this is not an invite (it starts with the host's key, a dot and the secret): paste all of it".into()
            );
        };
        let key = PublicKey::from_z32(key)
            .map_err(|_| "the host's key at the start of the invite is cut or mistyped: paste all of it".to_owned())?;
        let secret = digits(secret)?;
        let secret = Admission(secret.as_slice().try_into().map_err(|_| {
            format!("an invite's secret has {SECRET_DIGITS} letters and digits, this one {}", secret.len())
        })?);
        let mut addrs = Vec::new();
        for (i, hint) in words.enumerate() {
            if i >= MAX_HINTS || hint.len() > MAX_HINT {
                return Err(format!("an invite has at most {MAX_HINTS} addresses of {MAX_HINT} characters"));
            }
            addrs.push(if hint.contains("://") {
                TransportAddr::Relay(hint.parse::<RelayUrl>().map_err(|e| format!("{hint:?} is not a relay: {e}"))?)
            } else {
                TransportAddr::Ip(
                    hint.parse().map_err(|_| format!("{hint:?} is not an address:port such as 192.168.1.20:5000"))?,
                )
            });
        }
        Ok(Invite { host: EndpointAddr::from_parts(key, addrs), secret })
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

#[cfg(test)]
mod tests {
    use super::*;

    fn host() -> EndpointAddr {
        let key = iroh::SecretKey::from_bytes(&[7; 32]).public();
        EndpointAddr::new(key)
            .with_ip_addr("192.168.1.20:5000".parse().unwrap())
            .with_ip_addr("[fe80::1]:5000".parse().unwrap())
            .with_relay_url("http://10.9.0.1:3340".parse().unwrap())
    }

    #[test]
    fn an_invite_reads_back_and_a_typo_is_an_error() {
        let invite = Invite::new(host());
        let text = invite.text();
        assert_eq!(Invite::parse(&text), Ok(invite.clone()));
        let (first, hints) = text.split_once(' ').unwrap();
        let (key, secret) = first.split_once('.').unwrap();
        assert_eq!((key.len(), secret.len()), (52, 23), "{text}");
        let sloppy = format!("  {key}.{}  {hints} ", secret.to_lowercase().replace('0', "o").replace('-', ""));
        assert_eq!(Invite::parse(&sloppy), Ok(invite.clone()), "case, look-alikes, no dashes");
        assert!(Invite::parse(&text[..60]).unwrap_err().contains("letters and digits"), "cut");
        assert!(Invite::parse(&text[1..]).unwrap_err().contains("key"));
        assert!(Invite::parse("192.168.1.20:5000").unwrap_err().contains("key"));
        assert!(Invite::parse(&format!("{first} 10.0.0.7")).unwrap_err().contains("address:port"));
        assert!(Invite::parse(&format!("{first} http://")).unwrap_err().contains("relay"));
        let many = format!("{first}{}", " 10.0.0.7:1".repeat(MAX_HINTS + 1));
        assert!(Invite::parse(&many).unwrap_err().contains("at most"), "a pasted wall of addresses");
        let bare = Invite::parse(first).unwrap();
        assert!(bare.same_table(&invite) && bare != invite, "the key and secret alone name the table");
    }

    #[test]
    fn an_invites_check_tells_invites_apart_and_its_summary_says_how_it_is_reached() {
        let (a, b) = (Invite::new(host()), Invite::new(host()));
        assert_eq!(a.check().len(), 4);
        assert_eq!(a.check(), Invite::parse(&a.text()).unwrap().check(), "the pasted invite, the same check");
        assert_eq!(a.check(), a.at(EndpointAddr::new(a.key())).check(), "addresses change, the check does not");
        // 20 bits of check: two new invites share one once in a million.
        assert_ne!(a.check(), b.check());
        let summary = a.summary();
        assert!(summary.contains(&a.check()) && summary.ends_with("a relay and 2 addresses"), "{summary}");
        let bare = Invite::parse(a.text().split_whitespace().next().unwrap()).unwrap();
        assert!(!bare.has_addresses() && a.has_addresses());
        assert!(bare.summary().ends_with("no address: found by its key"));
    }

    #[test]
    fn each_invite_has_its_own_secret() {
        let (a, b) = (Invite::new(host()), Invite::new(host()));
        assert_ne!(a, b);
        assert!(!a.admission().admits(&b.admission()));
        assert!(a.admission().admits(&a.at(EndpointAddr::new(a.key())).admission()));
        let secret = a.text().split_once('.').unwrap().1[..5].to_owned();
        assert!(!format!("{a:?}").contains(&secret), "Debug does not show the secret");
    }
}
