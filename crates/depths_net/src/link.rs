//! A player's end of the connection: netcode's client between renet and the
//! socket, where `bevy_renet`'s `NetcodeClientTransport` would stand, doing
//! the same work, with the socket read off the frame ([`Inbox`]) and
//! acknowledgements sent only when owed ([`Acks`]), so a waiting player's
//! table sleeps.

use std::{
    io,
    net::{SocketAddr, UdpSocket},
    time::Duration,
};

use bevy::{log::warn, prelude::*};
use bevy_renet::{RenetClient, RenetClientPlugin, RenetReceive, RenetSend};
use renetcode::{ClientAuthentication, DisconnectReason, NetcodeClient};

use crate::socket::{Acks, Inbox, Wake};

#[derive(Resource, Debug)]
pub struct PlayerLink {
    socket: UdpSocket,
    inbox: Inbox,
    netcode: NetcodeClient,
    acks: Acks,
}

impl PlayerLink {
    pub fn new(
        current_time: Duration,
        authentication: ClientAuthentication,
        socket: UdpSocket,
        wake: Option<Wake>,
    ) -> Result<PlayerLink, String> {
        let netcode = NetcodeClient::new(current_time, authentication).map_err(|e| e.to_string())?;
        let inbox = Inbox::open(&socket, wake).map_err(|e| e.to_string())?;
        Ok(PlayerLink { socket, inbox, netcode, acks: Acks::default() })
    }

    /// If the connection ended, why (netcode's words).
    pub fn disconnect_reason(&self) -> Option<DisconnectReason> {
        self.netcode.disconnect_reason()
    }

    /// Says goodbye to the host now (closing, leaving the program).
    pub fn disconnect(&mut self) {
        if self.netcode.is_disconnected() {
            return;
        }
        match self.netcode.disconnect() {
            Ok((addr, packet)) => send_to(&self.socket, packet, addr),
            Err(e) => warn!("could not say goodbye to the host: {e}"),
        }
    }

    /// Receives what came, keeps the connection (keep-alives, timeouts).
    fn update(&mut self, duration: Duration, client: &mut RenetClient) {
        if self.netcode.is_disconnected() {
            client.disconnect_due_to_transport();
            return;
        }
        if client.disconnect_reason().is_some() {
            self.disconnect();
            return;
        }
        if self.netcode.is_connected() {
            client.set_connected();
        } else if self.netcode.is_connecting() {
            client.set_connecting();
        }
        let host = self.netcode.server_addr();
        while let Some((from, mut datagram)) = self.inbox.next() {
            // Only the host speaks to a player.
            if from != host {
                continue;
            }
            if let Some(payload) = self.netcode.process_packet(&mut datagram) {
                self.acks.received(payload);
                client.process_packet(payload);
            }
        }
        if let Some((packet, addr)) = self.netcode.update(duration) {
            send_to(&self.socket, packet, addr);
        }
    }

    /// Sends renet's packets (an acknowledgement only when owed).
    fn send_packets(&mut self, client: &mut RenetClient) {
        if self.netcode.is_disconnected() {
            return;
        }
        for packet in client.get_packets_to_send().iter().filter(|p| self.acks.send(p)) {
            match self.netcode.generate_payload_packet(packet) {
                Ok((addr, payload)) => send_to(&self.socket, payload, addr),
                Err(e) => {
                    warn!("could not seal a packet for the host: {e}");
                    break;
                }
            }
        }
        self.acks.sent();
    }

    /// This end's address.
    pub fn addr(&self) -> io::Result<SocketAddr> {
        self.socket.local_addr()
    }
}

fn send_to(socket: &UdpSocket, packet: &[u8], addr: SocketAddr) {
    if let Err(e) = socket.send_to(packet, addr) {
        warn!("could not send to the host ({addr}): {e}");
    }
}

/// The link's systems, where `bevy_renet`'s netcode client plugin would run
/// its own (with `RenetClientPlugin`; `ClientPlugin` adds both).
pub fn plugin(app: &mut App) {
    app.add_systems(
        PreUpdate,
        receive
            .in_set(RenetReceive)
            .run_if(resource_exists::<PlayerLink>)
            .run_if(resource_exists::<RenetClient>)
            .after(RenetClientPlugin::update_system),
    );
    app.add_systems(
        PostUpdate,
        send.in_set(RenetSend).run_if(resource_exists::<PlayerLink>).run_if(resource_exists::<RenetClient>),
    );
    app.add_systems(Last, goodbye_on_exit.run_if(resource_exists::<PlayerLink>));
}

fn receive(mut link: ResMut<PlayerLink>, mut client: ResMut<RenetClient>, time: Res<Time<Real>>) {
    link.update(time.delta(), &mut client);
}

fn send(mut link: ResMut<PlayerLink>, mut client: ResMut<RenetClient>) {
    link.send_packets(&mut client);
}

fn goodbye_on_exit(exit: MessageReader<AppExit>, mut link: ResMut<PlayerLink>) {
    if !exit.is_empty() {
        link.disconnect();
    }
}
