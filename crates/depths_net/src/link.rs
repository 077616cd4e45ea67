//! A player's end of the connection: netcode's client between renet and the
//! socket, where `bevy_renet`'s `NetcodeClientTransport` would stand, doing
//! the same work, but with netcode kept by a reader thread
//! ([`crate::socket`]): the handshake, keep-alives and timeouts go on while
//! the table sleeps, and only renet's packets wait for its next update.

use std::{
    io,
    net::{SocketAddr, UdpSocket},
    sync::{Arc, Mutex, mpsc::SyncSender},
    time::Duration,
};

use bevy::{log::warn, prelude::*};
use bevy_renet::{RenetClient, RenetClientPlugin, RenetReceive, RenetSend};
use renetcode::{ClientAuthentication, DisconnectReason, NetcodeClient};

use crate::socket::{Acks, Queue, Reader, Reading, Shared, Wake, lock, spawn_reader, worth_a_frame};

#[derive(Resource, Debug)]
pub struct PlayerLink {
    socket: UdpSocket,
    netcode: Shared<NetcodeClient>,
    /// Renet's packets from the host, decrypted by the reader.
    packets: Queue<Vec<u8>>,
    acks: Acks,
    _reading: Reading,
}

/// The reader's part: every datagram from the host through netcode, and
/// netcode's clock.
struct LinkReader {
    netcode: Shared<NetcodeClient>,
    packets: SyncSender<Vec<u8>>,
    /// Whether netcode was connected, and disconnected, at the last look.
    state: (bool, bool),
}

/// Whether the connection opened or closed since the last look (`state`).
fn changed(state: &mut (bool, bool), netcode: &NetcodeClient) -> bool {
    let now = (netcode.is_connected(), netcode.is_disconnected());
    std::mem::replace(state, now) != now
}

impl Reader for LinkReader {
    fn datagram(&mut self, from: SocketAddr, datagram: &mut [u8], _: &UdpSocket) -> bool {
        let mut netcode = lock(&self.netcode);
        // Only the host speaks to a player.
        if from != netcode.server_addr() {
            return false;
        }
        let wake = match netcode.process_packet(datagram) {
            Some(packet) => {
                // Full: dropped, as a full socket buffer would drop it.
                let _ = self.packets.try_send(packet.to_vec());
                worth_a_frame(packet)
            }
            None => false,
        };
        wake | changed(&mut self.state, &netcode)
    }

    fn tick(&mut self, elapsed: Duration, socket: &UdpSocket) -> bool {
        let mut netcode = lock(&self.netcode);
        if let Some((packet, addr)) = netcode.update(elapsed) {
            send_to(socket, packet, addr);
        }
        changed(&mut self.state, &netcode)
    }
}

impl PlayerLink {
    pub fn new(
        current_time: Duration,
        authentication: ClientAuthentication,
        socket: UdpSocket,
        wake: Option<Wake>,
    ) -> Result<PlayerLink, String> {
        let netcode = NetcodeClient::new(current_time, authentication).map_err(|e| e.to_string())?;
        let netcode = Arc::new(Mutex::new(netcode));
        let (packets, tx) = Queue::new();
        let reader = LinkReader { netcode: netcode.clone(), packets: tx, state: (false, false) };
        let reading = spawn_reader(&socket, wake, reader).map_err(|e| e.to_string())?;
        Ok(PlayerLink { socket, netcode, packets, acks: Acks::default(), _reading: reading })
    }

    /// If the connection ended, why (netcode's words).
    pub fn disconnect_reason(&self) -> Option<DisconnectReason> {
        lock(&self.netcode).disconnect_reason()
    }

    /// Says goodbye to the host now (closing, leaving the program).
    pub fn disconnect(&mut self) {
        let mut netcode = lock(&self.netcode);
        if netcode.is_disconnected() {
            return;
        }
        match netcode.disconnect() {
            Ok((addr, packet)) => send_to(&self.socket, packet, addr),
            Err(e) => warn!("could not say goodbye to the host: {e}"),
        }
    }

    /// Hands renet what the reader received; follows the connection's state.
    fn update(&mut self, client: &mut RenetClient) {
        if lock(&self.netcode).is_disconnected() {
            client.disconnect_due_to_transport();
            return;
        }
        if client.disconnect_reason().is_some() {
            self.disconnect();
            return;
        }
        {
            let netcode = lock(&self.netcode);
            if netcode.is_connected() {
                client.set_connected();
            } else if netcode.is_connecting() {
                client.set_connecting();
            }
        }
        while let Some(packet) = self.packets.next() {
            self.acks.received(&packet);
            client.process_packet(&packet);
        }
    }

    /// Sends renet's packets (an acknowledgement only when owed).
    fn send_packets(&mut self, client: &mut RenetClient) {
        let mut netcode = lock(&self.netcode);
        if netcode.is_disconnected() {
            return;
        }
        for packet in client.get_packets_to_send().iter().filter(|p| self.acks.send(p)) {
            match netcode.generate_payload_packet(packet) {
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

fn receive(mut link: ResMut<PlayerLink>, mut client: ResMut<RenetClient>) {
    link.update(&mut client);
}

fn send(mut link: ResMut<PlayerLink>, mut client: ResMut<RenetClient>) {
    link.send_packets(&mut client);
}

fn goodbye_on_exit(exit: MessageReader<AppExit>, mut link: ResMut<PlayerLink>) {
    if !exit.is_empty() {
        link.disconnect();
    }
}
