#!/usr/bin/env bash
# Several Dvorak MUSH nodes on this machine, for trials: one PostgreSQL database, one
# Mosquitto broker, N nodes on 127.0.0.1:6260.. (their web ports, where HAProxy asks
# /healthz, on 6280..), and HAProxy on 127.0.0.1:6250 in front of them (when haproxy is
# installed; otherwise connect to the nodes' own ports).
#
#   deploy/local-cluster.sh start [NODES]   start NODES nodes (default 2, at most 3)
#   deploy/local-cluster.sh status          what is running
#   deploy/local-cluster.sh kill NODE       SIGKILL node NODE (1, 2, ...), as a crash would
#   deploy/local-cluster.sh stop            stop everything this script started
#
# Settings (environment): DVORAK_CLUSTER_DIR (logs, pid files and the trial's secrets,
# default /tmp/dvorak-cluster), DVORAK_DATABASE_URL (default: database dvorak_cluster
# on the PostgreSQL at 127.0.0.1:5432, created if missing), DVORAK_MQTT_URL (default
# mqtt://127.0.0.1:1883; a broker configured as deploy/mosquitto.conf and
# deploy/mosquitto.acl is started there if none answers, with a password file made for
# the nodes' user). The nodes get the broker's credentials and a cluster secret made
# for the trial (in DVORAK_CLUSTER_DIR, readable by you alone).
set -euo pipefail
cd "$(dirname "$0")/.."

RUN=${DVORAK_CLUSTER_DIR:-/tmp/dvorak-cluster}
DATABASE_URL=${DVORAK_DATABASE_URL:-postgresql+asyncpg://postgres@127.0.0.1:5432/dvorak_cluster}
MQTT_URL=${DVORAK_MQTT_URL:-mqtt://127.0.0.1:1883}
FIRST_NODE_PORT=6260
FIRST_WEB_PORT=6280
BALANCER_PORT=6250

listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

wait_for_port() {
    for _ in $(seq 100); do listening "$1" && return 0; sleep 0.1; done
    echo "nothing listens on port $1; see $2" >&2
    return 1
}

# The process in pid file $1 is alive (not gone, nor a zombie waiting for its parent).
running() {
    [ -f "$1" ] || return 1
    local state
    state=$(ps -o stat= -p "$(cat "$1")" 2>/dev/null) || return 1
    [[ $state != Z* ]]
}

start() {
    local nodes=${1:-2}
    if ! [[ $nodes =~ ^[1-3]$ ]]; then
        echo "NODES is 1, 2 or 3 (deploy/haproxy.cfg lists three)" >&2
        exit 2
    fi
    mkdir -p "$RUN"
    chmod 700 "$RUN"
    python3 run.py --help >/dev/null # makes .venv on first use
    # The trial's secrets, made once: the nodes' broker password and the cluster secret.
    [ -s "$RUN/mqtt.password" ] || (umask 077 && openssl rand -hex 16 >"$RUN/mqtt.password")
    [ -s "$RUN/cluster.secret" ] || (umask 077 && openssl rand -hex 32 >"$RUN/cluster.secret")

    if [[ $DATABASE_URL == *"/dvorak_cluster" ]]; then
        createdb -h 127.0.0.1 -U postgres dvorak_cluster 2>/dev/null || true
    fi

    local broker_port=${MQTT_URL##*:}
    if ! [[ $MQTT_URL =~ ^mqtt://127\.0\.0\.1:[0-9]+$ ]]; then
        echo "DVORAK_MQTT_URL is mqtt://127.0.0.1:<port> for local trials" >&2
        exit 2
    fi
    if ! listening "$broker_port"; then
        mosquitto_passwd -b -c "$RUN/mosquitto.passwd" dvorak "$(cat "$RUN/mqtt.password")"
        cp deploy/mosquitto.acl "$RUN/mosquitto.acl"
        # As deploy/mosquitto.conf, on this port, with this trial's files, run as you.
        sed -e "s|^listener 1883 |listener $broker_port |" \
            -e "s|^password_file .*|password_file $RUN/mosquitto.passwd|" \
            -e "s|^acl_file .*|acl_file $RUN/mosquitto.acl|" \
            deploy/mosquitto.conf >"$RUN/mosquitto.conf"
        echo "user $(id -un)" >>"$RUN/mosquitto.conf"
        mosquitto -c "$RUN/mosquitto.conf" >"$RUN/mosquitto.log" 2>&1 &
        echo $! >"$RUN/mosquitto.pid"
        wait_for_port "$broker_port" "$RUN/mosquitto.log"
        echo "broker:   $MQTT_URL (started, log $RUN/mosquitto.log)"
    else
        echo "broker:   $MQTT_URL (already running)"
    fi

    # Behind HAProxy the nodes read the player's address from its PROXY header.
    local proxy_protocol=off
    command -v haproxy >/dev/null 2>&1 && proxy_protocol=on
    for node in $(seq "$nodes"); do
        local port=$((FIRST_NODE_PORT + node - 1))
        if running "$RUN/node$node.pid"; then
            echo "node$node:    already running on port $port"
            continue
        fi
        # The broker's password goes in the environment, the secret in a file: neither
        # on a command line, where every user of the host could read it.
        DVORAK_WORKERS=1 DVORAK_PORT=$port DVORAK_WEB_PORT=$((FIRST_WEB_PORT + node - 1)) DVORAK_NODE_NAME=node$node \
            DVORAK_DATABASE_URL=$DATABASE_URL \
            DVORAK_MQTT_URL="mqtt://dvorak:$(cat "$RUN/mqtt.password")@${MQTT_URL#mqtt://}" \
            DVORAK_CLUSTER_SECRET_FILE="$RUN/cluster.secret" \
            DVORAK_DATA_DIR="$RUN/node$node" DVORAK_PROXY_PROTOCOL=$proxy_protocol \
            .venv/bin/dvorak-mush serve >"$RUN/node$node.log" 2>&1 &
        echo $! >"$RUN/node$node.pid"
    done
    for node in $(seq "$nodes"); do
        local port=$((FIRST_NODE_PORT + node - 1))
        wait_for_port "$port" "$RUN/node$node.log"
        if [ "$proxy_protocol" = on ]; then
            echo "node$node:    127.0.0.1:$port, for HAProxy only (log $RUN/node$node.log)"
        else
            echo "node$node:    telnet 127.0.0.1 $port (log $RUN/node$node.log)"
        fi
    done

    if command -v haproxy >/dev/null 2>&1; then
        if ! running "$RUN/haproxy.pid"; then
            haproxy -f deploy/haproxy.cfg >"$RUN/haproxy.log" 2>&1 &
            echo $! >"$RUN/haproxy.pid"
            wait_for_port "$BALANCER_PORT" "$RUN/haproxy.log"
        fi
        echo "players:  telnet 127.0.0.1 $BALANCER_PORT (HAProxy, log $RUN/haproxy.log)"
    else
        echo "players:  haproxy is not installed; connect to the nodes' ports above"
    fi
}

status() {
    for pidfile in "$RUN"/*.pid; do
        [ -e "$pidfile" ] || { echo "nothing started"; return; }
        local name
        name=$(basename "$pidfile" .pid)
        if running "$pidfile"; then echo "$name: running (pid $(cat "$pidfile"))"; else echo "$name: stopped"; fi
    done
}

kill_node() {
    local pidfile="$RUN/node${1:?which node?}.pid"
    running "$pidfile" || { echo "node$1 is not running" >&2; exit 1; }
    kill -KILL "$(cat "$pidfile")"
    echo "node$1 killed; its players reconnect through the balancer to the others"
}

stop() {
    for pidfile in "$RUN"/haproxy.pid "$RUN"/node*.pid "$RUN"/mosquitto.pid; do
        [ -e "$pidfile" ] || continue
        if running "$pidfile"; then
            local pid
            pid=$(cat "$pidfile")
            kill -TERM "$pid"
            for _ in $(seq 100); do running "$pidfile" || break; sleep 0.1; done
            if running "$pidfile"; then
                echo "$(basename "$pidfile" .pid) did not stop in 10 s; killing it" >&2
                kill -KILL "$pid"
            fi
        fi
        rm -f "$pidfile"
    done
    echo "stopped"
}

case ${1:-} in
    start) start "${2:-2}" ;;
    status) status ;;
    kill) kill_node "${2:-}" ;;
    stop) stop ;;
    *) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
