//! Through a relay: a player who can reach the host only by a relay (no
//! direct path at all: its own IP transport is off) sits down and plays.
//! The relay is our own, in this process (never the internet's).

mod common;

use depths_net::{
    Relays,
    link::{NetEvent, PlayerLink},
    protocol::{PROTOCOL_VERSION, ToHost, ToPlayer, decode_to_player, encode},
    transport::{SecretKey, endpoint},
};

use common::{Net, host_app_with, play_one, relay::spawn_relay};

#[test]
fn a_player_reaches_the_host_only_through_the_relay() {
    let url = spawn_relay("127.0.0.1:0".parse().unwrap(), None).expect("a relay on this machine");
    let relays = Relays::Own(url.clone());
    let (host, invite) = host_app_with("Ann", &relays);
    assert!(invite.host.relay_urls().any(|u| *u == url), "the invite names the host's relay: {}", invite.text());
    let mut net = Net { host, invite: invite.clone(), players: Vec::new(), keys: Vec::new(), pace: None };
    // Bo's machine has no direct path: the relay carries everything.
    let builder = endpoint(SecretKey::generate(), &relays, false).clear_ip_transports();
    let bo = PlayerLink::dial(builder, invite.host.clone(), None).unwrap();
    bo.send(encode(&ToHost::Join {
        name: "Bo".into(),
        version: PROTOCOL_VERSION,
        admission: Some(invite.admission()),
    }));
    let mut welcomed = false;
    assert!(
        net.pump_for(std::time::Duration::from_secs(30), |_| {
            while let Some(event) = bo.next() {
                if let NetEvent::Message { bytes, .. } = event {
                    welcomed |= matches!(decode_to_player(&bytes), Ok(ToPlayer::Welcome { seat: 1 }));
                }
            }
            welcomed
        }),
        "Bo sits down through the relay"
    );
    let wire = bo.wire().expect("open");
    assert!(wire.relayed, "the relay carries it: {wire:?}");
    assert_eq!(net.hosted().lobby.names, vec!["Ann".to_owned(), "Bo".to_owned()]);
    // Bo goes; a whole player's app through the same relay plays moves.
    drop(bo);
    assert!(net.pump_for(std::time::Duration::from_secs(10), |n| n.hosted().lobby.names.len() == 1));
    let cy = SecretKey::generate();
    net.players.push(common::player_app_relayed(&invite, "Cy", cy.clone(), &relays));
    net.keys.push(cy);
    assert!(net.pump_for(std::time::Duration::from_secs(30), |n| n.remote(0).seat == Some(1)));
    net.start(&["bren", "sil"], &[0, 1], 4);
    for round in 0..6 {
        play_one(&mut net, round);
    }
}
