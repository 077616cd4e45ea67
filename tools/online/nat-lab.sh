#!/usr/bin/env bash
# A small simulated internet on this machine (Linux network namespaces), and a
# headless online game of Forgotten Depths played through it by three bots:
#
#   punch  three homes, each behind its own NAT router (no port forwarding);
#          the players must reach the host directly (hole punching)
#   relay  the same homes, but UDP between the homes is dropped: the game
#          must go through the relay
#   lan    the three machines on one LAN, no router, no relay, no internet
#   restart  the punch homes; a few seconds into the game the host's process
#          is killed and started again from its save, with a new invite: the
#          players' Reconnect (the old invite) must bring them back to their
#          seats and the game to its end
#   all    the four in turn (the default)
#
# usage: tools/online/nat-lab.sh [punch|relay|lan|restart|all] [BINARY]
#   BINARY: online_table (default: $CARGO_TARGET_DIR, else
#           ~/.cache/forgotten-depths/target, then /debug/examples/online_table);
#           build it with `cargo build -p depths_net --example online_table`.
# Needs root, iproute2 and iptables. Nothing leaves this machine: the
# namespaces are joined only to each other, never to the machine's own network.
#
# Settings (environment): NAT_LAB_TIMEOUT (seconds a game may take, 240),
# NAT_LAB_LOGS (where the processes' output goes, /tmp/nat-lab-logs),
# NAT_LAB_HZ (updates a second of each process, 60), RUST_LOG (info).
#
# Exits non-zero if any mode fails.

set -euo pipefail

MODE=${1:-all}
TARGET=${CARGO_TARGET_DIR:-$HOME/.cache/forgotten-depths/target}
BINARY=${2:-$TARGET/debug/examples/online_table}
TIMEOUT=${NAT_LAB_TIMEOUT:-240}
LOGS=${NAT_LAB_LOGS:-/tmp/nat-lab-logs}
HZ=${NAT_LAB_HZ:-60}
export RUST_LOG=${RUST_LOG:-info}

case $MODE in
punch | relay | lan | restart) MODES=$MODE ;;
all) MODES="punch relay lan restart" ;;
*)
    echo "usage: $0 [punch|relay|lan|restart|all] [BINARY]" >&2
    exit 2
    ;;
esac
if [ "$(id -u)" -ne 0 ]; then
    echo "nat-lab: needs root (network namespaces)" >&2
    exit 2
fi
if [ ! -x "$BINARY" ]; then
    echo "nat-lab: no online_table at $BINARY (cargo build -p depths_net --example online_table)" >&2
    exit 2
fi
for tool in ip iptables; do
    command -v "$tool" >/dev/null || {
        echo "nat-lab: needs $tool (apt-get install -y iproute2 iptables)" >&2
        exit 2
    }
done

# The lab's addresses.
RELAY_IP=100.64.0.1
RELAY_PORT=3340
RELAY_URL=http://$RELAY_IP:$RELAY_PORT
# The homes' public addresses are .11, .12, .13: all within this /29.
HOMES_NET=100.64.0.8/29
NAMESPACES="fd-inet fd-rtr-a fd-rtr-b fd-rtr-c fd-lan fd-host fd-p1 fd-p2"

# A private copy of the binary: a rebuild during the run must not change it.
WORK=$(mktemp -d /tmp/nat-lab.XXXXXX)
cp "$BINARY" "$WORK/online_table"
BIN=$WORK/online_table
mkdir -p "$LOGS"

PIDS=()
# The child running the current mode (run_mode below).
CHILD=""

# Stops what this script started in the lab.
stop_processes() {
    local pid ns
    for pid in "${PIDS[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${PIDS[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    PIDS=()
    # Anything still inside the lab's namespaces was started by this lab.
    for ns in $NAMESPACES; do
        if [ -e "/run/netns/$ns" ]; then
            for pid in $(ip netns pids "$ns" 2>/dev/null); do
                kill -9 "$pid" 2>/dev/null || true
            done
        fi
    done
}

# Deleting a namespace deletes its bridges and veth pairs with it.
teardown() {
    local ns
    if [ -n "$CHILD" ]; then
        kill "$CHILD" 2>/dev/null || true
        wait "$CHILD" 2>/dev/null || true
        CHILD=""
    fi
    stop_processes
    for ns in $NAMESPACES; do
        if [ -e "/run/netns/$ns" ]; then
            ip netns del "$ns" 2>/dev/null || true
        fi
    done
}
trap 'teardown; rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM

in_ns() {
    local ns=$1
    shift
    ip netns exec "$ns" "$@"
}

# A namespace with loopback up; IPv4 only (the lab's NATs are IPv4 ones).
make_ns() {
    ip netns add "$1"
    ip -n "$1" link set lo up
    in_ns "$1" sh -c 'echo 1 > /proc/sys/net/ipv6/conf/all/disable_ipv6;
                      echo 1 > /proc/sys/net/ipv6/conf/default/disable_ipv6'
}

# A cable: NAME1 in NS1, NAME2 in NS2 (made inside them, never in this machine's own namespace).
cable() {
    ip -n "$1" link add "$2" type veth peer name "$4" netns "$3"
    ip -n "$1" link set "$2" up
    ip -n "$3" link set "$4" up
}

# punch and relay: the internet (a bridge, the relay on it), three homes
# each behind a NAT router, one machine in each home.
build_internet() {
    local mode=$1 letter n home
    make_ns fd-inet
    ip -n fd-inet link add inet0 type bridge
    ip -n fd-inet link set inet0 up
    ip -n fd-inet addr add "$RELAY_IP/24" dev inet0
    n=0
    for home in fd-host fd-p1 fd-p2; do
        n=$((n + 1))
        letter=$(echo abc | cut -c"$n")
        make_ns "fd-rtr-$letter"
        make_ns "$home"
        # The router's public side, on the internet bridge.
        cable fd-inet "to-$letter" "fd-rtr-$letter" wan
        ip -n fd-inet link set "to-$letter" master inet0
        ip -n "fd-rtr-$letter" addr add "100.64.0.1$n/24" dev wan
        # The home's LAN: one machine, its default route through the router.
        cable "fd-rtr-$letter" lan "$home" eth0
        ip -n "fd-rtr-$letter" addr add "192.168.$n.1/24" dev lan
        ip -n "$home" addr add "192.168.$n.2/24" dev eth0
        ip -n "$home" route add default via "192.168.$n.1"
        nat_router "fd-rtr-$letter" "$mode"
    done
}

# A home router: forwards, masquerades what leaves (Linux conntrack: the same
# public port whoever the LAN machine talks to, so punching can work), lets
# nothing in unasked and answers nothing unasked (like most home routers).
# Its counters show which way the game went: UDP with the other homes is the
# direct path (dropped in relay mode), TCP with the relay the relayed one.
nat_router() {
    local ns=$1 mode=$2 direct=ACCEPT
    [ "$mode" = relay ] && direct=DROP
    in_ns "$ns" sh -c 'echo 1 > /proc/sys/net/ipv4/ip_forward'
    in_ns "$ns" iptables -t nat -A POSTROUTING -o wan -j MASQUERADE
    in_ns "$ns" iptables -P FORWARD DROP
    # Named chains: their counters are read back at the end (counter()).
    in_ns "$ns" iptables -N direct-out
    in_ns "$ns" iptables -A direct-out -j "$direct"
    in_ns "$ns" iptables -N direct-in
    in_ns "$ns" iptables -A direct-in -j "$direct"
    in_ns "$ns" iptables -N relayed
    in_ns "$ns" iptables -A relayed -j ACCEPT
    in_ns "$ns" iptables -N unasked
    in_ns "$ns" iptables -A unasked -j DROP
    in_ns "$ns" iptables -A FORWARD -o wan -p udp -d "$HOMES_NET" -j direct-out
    in_ns "$ns" iptables -A FORWARD -i wan -p udp -s "$HOMES_NET" -j direct-in
    in_ns "$ns" iptables -A FORWARD -o wan -p tcp -d "$RELAY_IP" --dport "$RELAY_PORT" -j relayed
    in_ns "$ns" iptables -A FORWARD -i wan -p tcp -s "$RELAY_IP" --sport "$RELAY_PORT" -j relayed
    in_ns "$ns" iptables -A FORWARD -i lan -o wan -j ACCEPT
    in_ns "$ns" iptables -A FORWARD -i wan -o lan -m conntrack --ctstate ESTABLISHED,RELATED -j ACCEPT
    # Inbound packets that match no mapping end here, at the router itself.
    in_ns "$ns" iptables -A INPUT -i wan -m conntrack --ctstate ESTABLISHED,RELATED -j ACCEPT
    in_ns "$ns" iptables -A INPUT -i wan -p udp -s "$HOMES_NET" -j unasked
    in_ns "$ns" iptables -A INPUT -i wan -j DROP
}

# lan: one bridge, the three machines on it; no router, no default route, no relay.
build_lan() {
    local n=1 home
    make_ns fd-lan
    ip -n fd-lan link add lan0 type bridge
    ip -n fd-lan link set lan0 up
    for home in fd-host fd-p1 fd-p2; do
        n=$((n + 1))
        make_ns "$home"
        cable fd-lan "port$n" "$home" eth0
        ip -n fd-lan link set "port$n" master lan0
        ip -n "$home" addr add "192.168.50.$n/24" dev eth0
    done
}

# Starts NAME in namespace NS: the output to $LOGS/NAME.out, the log to $LOGS/NAME.err.
start() {
    local ns=$1 name=$2
    shift 2
    # The files exist before the process does: the watchers read them at once.
    : >"$LOGS/$name.out"
    # `ip netns exec` execs the binary: $! is the game's own process.
    ip netns exec "$ns" "$BIN" "$@" >"$LOGS/$name.out" 2>"$LOGS/$name.err" &
    PIDS+=("$!")
}

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# The first line of FILE starting with PREFIX, without it ("" if none yet).
line_of() { sed -n "s/^$2//p" "$1" | head -n 1; }

# Waits up to SECONDS for PREFIX in FILE; fails if the process is gone.
await() {
    local file=$1 prefix=$2 seconds=$3 pid=$4 until
    until=$(($(now_ms) + seconds * 1000))
    while [ "$(now_ms)" -lt "$until" ]; do
        grep -q "^$prefix" "$file" && return 0
        kill -0 "$pid" 2>/dev/null || return 1
        sleep 0.1
    done
    return 1
}

# Packets and bytes that went through CHAIN of router NS: "PACKETS BYTES".
counter() {
    in_ns "$1" iptables -L "$2" -v -n -x | awk 'NR == 3 { print $1, $2 }'
}

# Runs one mode; prints its figures; returns non-zero if it failed.
run_mode() {
    local mode=$1 relays host_pid p1_pid p2_pid invite began deadline
    local name seated_ms ok=1 verdict why="" letter panic host=host killed="" saving=() rejoin=()
    local -A at=() back=() quiet=()
    echo "== $mode =="
    rm -f "$LOGS/$mode".*
    if [ "$mode" = lan ]; then
        build_lan
        relays=(--no-relay)
    else
        build_internet "$([ "$mode" = restart ] && echo punch || echo "$mode")"
        # The relay's address discovery (how each machine learns its public
        # address, which punching starts from) has a certificate of its own.
        relays=(--relay "$RELAY_URL" --relay-ca "$WORK/relay.der")
        start fd-inet "$mode.relay" relay "$RELAY_IP:$RELAY_PORT" --certificate "$WORK/relay.der"
        if ! await "$LOGS/$mode.relay.out" "relay: " 20 "${PIDS[-1]}"; then
            echo "$mode: FAIL (the relay did not start; see $LOGS/$mode.relay.err)"
            teardown
            return 1
        fi
    fi

    if [ "$mode" = restart ]; then
        # The host saves as it plays; its machine key outlives the process.
        saving=(--save "$WORK/table.json" --key "$WORK/host.key")
        rejoin=(--reconnect)
    fi
    start fd-host "$mode.host" host Host "${relays[@]}" --players 2 --play --hz "$HZ" "${saving[@]}"
    host_pid=${PIDS[-1]}
    if ! await "$LOGS/$mode.host.out" "invite: " 30 "$host_pid"; then
        echo "$mode: FAIL (no invite from the host; see $LOGS/$mode.host.err)"
        teardown
        return 1
    fi
    invite=$(line_of "$LOGS/$mode.host.out" "invite: ")
    echo "invite: $invite"

    began=$(now_ms)
    start fd-p1 "$mode.p1" join "$invite" P1 "${relays[@]}" --play --hz "$HZ" "${rejoin[@]}"
    p1_pid=${PIDS[-1]}
    start fd-p2 "$mode.p2" join "$invite" P2 "${relays[@]}" --play --hz "$HZ" "${rejoin[@]}"
    p2_pid=${PIDS[-1]}

    # Watches the three until each has printed `game over:`, one is lost, or time is up.
    deadline=$((began + TIMEOUT * 1000))
    while :; do
        for name in p1 p2; do
            if [ -z "${at[$name]:-}" ] && grep -q '^seated:' "$LOGS/$mode.$name.out"; then
                at[$name]=$(($(now_ms) - began))
            fi
        done
        if [ -n "$killed" ]; then
            for name in p1 p2 host2; do
                if [ -z "${back[$name]:-}" ] && grep -q '^\(back\|resumed\):' "$LOGS/$mode.$name.out"; then
                    back[$name]=$(($(now_ms) - killed))
                fi
            done
            for name in p1 p2; do
                if [ -z "${quiet[$name]:-}" ] && grep -q '^quiet:' "$LOGS/$mode.$name.out"; then
                    quiet[$name]=$(($(now_ms) - killed))
                fi
            done
        fi
        # restart: 5 s after both sat down, with a save on disk, the host's
        # process dies without a word and starts again from its save.
        if [ "$mode" = restart ] && [ -z "$killed" ] && [ -n "${at[p2]:-}" ] && [ -n "${at[p1]:-}" ] &&
            [ -f "$WORK/table.json" ] && [ $(($(now_ms) - began)) -gt $((${at[p2]} + 5000)) ]; then
            kill -9 "$host_pid"
            wait "$host_pid" 2>/dev/null || true
            killed=$(now_ms)
            echo "host killed $((killed - began)) ms after the players were invited"
            host=host2
            start fd-host "$mode.host2" host Host "${relays[@]}" --players 2 --play --hz "$HZ" "${saving[@]}" \
                --resume "$WORK/table.json"
            host_pid=${PIDS[-1]}
        fi
        if grep -q '^game over:' "$LOGS/$mode.$host.out" && grep -q '^game over:' "$LOGS/$mode.p1.out" &&
            grep -q '^game over:' "$LOGS/$mode.p2.out"; then
            # The figures line follows the game over line.
            sleep 0.5
            break
        fi
        if [ "$mode" != restart ] && grep -q '^lost:' "$LOGS/$mode.p1.out" "$LOGS/$mode.p2.out"; then
            ok=0 why="a player lost the connection"
            break
        fi
        for name in host_pid p1_pid p2_pid; do
            if ! kill -0 "${!name}" 2>/dev/null; then
                ok=0 why="${name%_pid} stopped"
            fi
        done
        [ "$ok" = 1 ] || break
        if [ "$(now_ms)" -ge "$deadline" ]; then
            ok=0 why="no game over within $TIMEOUT s"
            break
        fi
        sleep 0.2
    done

    for name in p1 p2; do
        seated_ms=${at[$name]:-}
        echo "$name seated after ${seated_ms:-(never)}${seated_ms:+ ms} ($(line_of "$LOGS/$mode.$name.out" "seated: "))"
    done
    if [ "$mode" = restart ]; then
        if [ -z "$killed" ]; then
            [ "$ok" = 0 ] || ok=0 why="the host was never killed"
        else
            echo "host2 $(grep -E '^resumed:' "$LOGS/$mode.host2.out" || echo 'never resumed')," \
                "${back[host2]:-(never)} ms after the kill"
            for name in p1 p2; do
                echo "$name $(grep -m1 -E '^quiet:' "$LOGS/$mode.$name.out" || echo 'never quiet')," \
                    "${quiet[$name]:-(never)} ms after the kill"
                echo "$name $(grep -E '^back:' "$LOGS/$mode.$name.out" || echo 'never back')," \
                    "${back[$name]:-(never)} ms after the kill"
                [ -n "${back[$name]:-}" ] || [ "$ok" = 0 ] || ok=0 why="$name never came back"
                # The table says the host went quiet within seconds, long before the timeout.
                [ "${quiet[$name]:-99999}" -le 6000 ] || [ "$ok" = 0 ] || ok=0 why="$name not told of the quiet within 6 s"
            done
        fi
    fi
    for name in $host p1 p2; do
        echo "$name $(grep -E '^(game over|figures):' "$LOGS/$mode.$name.out" | tr '\n' ' ' || true)"
    done
    for name in $host p1 p2; do
        grep '^lost:' "$LOGS/$mode.$name.out" | sed "s/^/$name /" || true
        # A process that panicked: where and why.
        panic=$(grep -A1 -m1 'panicked at' "$LOGS/$mode.$name.err" | tr '\n' ' ' || true)
        [ -z "$panic" ] || echo "$name $panic"
    done

    # Which way the game went: by the routers' counters.
    if [ "$mode" != lan ]; then
        local punched=0 relayed=0 out_p out_b in_p in_b rel_p rel_b un_p un_b
        for letter in a b c; do
            read -r out_p out_b <<<"$(counter "fd-rtr-$letter" direct-out)"
            read -r in_p in_b <<<"$(counter "fd-rtr-$letter" direct-in)"
            read -r un_p un_b <<<"$(counter "fd-rtr-$letter" unasked)"
            read -r rel_p rel_b <<<"$(counter "fd-rtr-$letter" relayed)"
            echo "router $letter: UDP with the other homes out $out_p pkts $out_b B, in $in_p pkts $in_b B" \
                "($([ "$mode" = relay ] && echo dropped || echo passed)); unasked UDP dropped $un_p pkts;" \
                "TCP with the relay $rel_p pkts $rel_b B"
            [ "$in_p" -gt 0 ] && punched=$((punched + 1))
            relayed=$((relayed + rel_b))
        done
        if [ "$mode" != relay ]; then
            # Direct: packets from another home came in through each router's NAT mapping.
            if [ "$punched" = 3 ]; then
                echo "path: direct (UDP from the other homes came in through all three NATs)"
            else
                echo "path: not direct (UDP from the other homes came in through $punched of the 3 NATs)"
                [ "$ok" = 0 ] || ok=0 why="not direct: the game did not go peer to peer"
            fi
        else
            echo "path: relay ($relayed B with the relay)"
            [ "$relayed" -gt 0 ] || [ "$ok" = 0 ] || ok=0 why="no traffic with the relay"
        fi
    fi

    stop_processes
    teardown
    if [ "$ok" = 1 ]; then
        verdict=PASS
    else
        verdict="FAIL ($why; logs in $LOGS/$mode.*)"
    fi
    echo "$mode: $verdict"
    [ "$ok" = 1 ]
}

# A lab left over from an interrupted run would be in the way.
teardown
started=$(now_ms)
failed=""
for mode in $MODES; do
    # A child of its own: `set -e` holds in it (it would not under `run_mode || ...`).
    run_mode "$mode" &
    CHILD=$!
    if ! wait "$CHILD"; then
        failed="$failed $mode"
    fi
    CHILD=""
    teardown
    echo
done
echo "took $((($(now_ms) - started) / 1000)) s"
if [ -n "$failed" ]; then
    echo "FAILED:$failed"
    exit 1
fi
echo "all PASS"
