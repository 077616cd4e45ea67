//! A short code for the host's address, to read out to a friend: the IPv4
//! address and port (6 bytes) in Crockford's base 32, as `XXXXX-XXXXX`.
//! Letters that look alike (I/L/1, O/0) read the same, and case is ignored.

use std::net::{Ipv4Addr, SocketAddr, SocketAddrV4};

const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// The code for `addr`; `None` for an IPv6 address (players type those).
pub fn code_of(addr: SocketAddr) -> Option<String> {
    let SocketAddr::V4(v4) = addr else { return None };
    let mut n: u64 = 0;
    for b in v4.ip().octets() {
        n = (n << 8) | u64::from(b);
    }
    n = (n << 16) | u64::from(v4.port());
    let mut chars: Vec<u8> = (0..10).rev().map(|i| ALPHABET[((n >> (5 * i)) & 31) as usize]).collect();
    chars.insert(5, b'-');
    Some(String::from_utf8(chars).expect("ASCII"))
}

/// The address a code stands for, or why it is not a code.
pub fn addr_of_code(code: &str) -> Result<SocketAddr, String> {
    let mut n: u64 = 0;
    let mut count = 0;
    for c in code.chars().filter(|c| !matches!(c, '-' | ' ')) {
        let c = match c.to_ascii_uppercase() {
            'O' => '0',
            'I' | 'L' => '1',
            c => c,
        };
        let Some(v) = ALPHABET.iter().position(|&a| char::from(a) == c) else {
            return Err(format!("{c:?} is not in a join code"));
        };
        n = (n << 5) | v as u64;
        count += 1;
    }
    if count != 10 {
        return Err(format!("a join code has 10 letters and digits, this one {count}"));
    }
    let port = (n & 0xffff) as u16;
    let ip = Ipv4Addr::from(((n >> 16) & 0xffff_ffff) as u32);
    if port == 0 || n >> 48 != 0 {
        return Err("not a join code: check it letter by letter".into());
    }
    Ok(SocketAddr::V4(SocketAddrV4::new(ip, port)))
}

/// What a player typed to join: `address:port`, or a join code.
pub fn parse_join(text: &str) -> Result<SocketAddr, String> {
    let text = text.trim();
    if let Ok(addr) = text.parse::<SocketAddr>() {
        return Ok(addr);
    }
    if text.contains(':') || text.contains('.') {
        return Err(format!("{text:?} is not an address:port such as 192.168.1.20:5000"));
    }
    addr_of_code(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_reads_back_to_its_address_and_a_typo_is_an_error() {
        let addr: SocketAddr = "192.168.1.20:5000".parse().unwrap();
        let code = code_of(addr).unwrap();
        assert_eq!(code.len(), 11);
        assert_eq!(addr_of_code(&code), Ok(addr));
        assert_eq!(parse_join(&code.to_lowercase().replace('0', "o")), Ok(addr), "case and look-alikes");
        assert_eq!(parse_join(" 10.0.0.7:5000 "), Ok("10.0.0.7:5000".parse().unwrap()));
        assert!(parse_join("ABCDE-FGHJ").unwrap_err().contains("10 letters"));
        assert!(parse_join("ABCDE-FGHJU").unwrap_err().contains("'U'"));
        assert!(parse_join("10.0.0.7").is_err(), "an address needs its port");
        assert_eq!(code_of("[::1]:5000".parse().unwrap()), None);
    }
}
