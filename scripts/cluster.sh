#!/usr/bin/env bash
# make cluster: three NATS JetStream servers clustered on loopback and three
# sshuffle nodes on them, sharing one store and one host key, everything
# under ./cluster (logs in ./cluster/logs). Ctrl-C stops them all; the data
# stays for the next run (rm -rf cluster to start afresh).
#
#   ssh -p 2222 localhost    node1        NATS clients 127.0.0.1:4222-4224
#   ssh -p 2223 localhost    node2        NATS routes  127.0.0.1:6222-6224
#   ssh -p 2224 localhost    node3
#
# Ports move with SSHUFFLE_PORT (first sshuffle port), NATS_PORT and
# ROUTE_PORT (first NATS client and route ports); NODE_ARGS are more flags
# of every node's serve (scripts/cluster-bench.sh lifts the per-address
# limits for its load generator).
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
DIR=${CLUSTER_DIR:-./cluster}
SSH_PORT=${SSHUFFLE_PORT:-2222}
NATS_PORT=${NATS_PORT:-4222}
ROUTE_PORT=${ROUTE_PORT:-6222}

mkdir -p "$DIR/bin" "$DIR/logs"
echo "building sshuffle and nats-server into $DIR/bin"
$GO build -o "$DIR/bin/sshuffle" ./cmd/sshuffle
$GO build -o "$DIR/bin/nats-server" github.com/nats-io/nats-server/v2

pids=()
stop() {
	trap - INT TERM EXIT
	echo
	echo "stopping"
	# The nodes first (they save their players' games to the store), then
	# the servers.
	for pid in "${pids[@]:3}"; do kill -TERM "$pid" 2>/dev/null || true; done
	for pid in "${pids[@]:3}"; do wait "$pid" 2>/dev/null || true; done
	for pid in "${pids[@]:0:3}"; do kill -TERM "$pid" 2>/dev/null || true; done
	wait 2>/dev/null || true
}
trap 'stop; exit 0' INT TERM
trap stop EXIT

routes=""
for i in 1 2 3; do
	routes+="nats-route://127.0.0.1:$((ROUTE_PORT + i - 1)),"
done
routes=${routes%,}
urls=""
for i in 1 2 3; do
	mkdir -p "$DIR/nats$i"
	cat >"$DIR/nats$i/nats.conf" <<CONF
server_name: nats$i
listen: 127.0.0.1:$((NATS_PORT + i - 1))
# A save or a table's record may be 1 MB, past NATS's default message size.
max_payload: 8MB
jetstream {
  store_dir: "$DIR/nats$i/jetstream"
  max_memory_store: 64MB
  max_file_store: 1GB
}
cluster {
  name: sshuffle
  listen: 127.0.0.1:$((ROUTE_PORT + i - 1))
  routes: [ ${routes//,/, } ]
}
CONF
	"$DIR/bin/nats-server" -c "$DIR/nats$i/nats.conf" >"$DIR/logs/nats$i.log" 2>&1 &
	pids+=($!)
	urls+="nats://127.0.0.1:$((NATS_PORT + i - 1)),"
done
urls=${urls%,}

# Wait until each server takes connections; the nodes then wait for the
# cluster's JetStream themselves.
for i in 1 2 3; do
	for _ in $(seq 100); do
		if (exec 3<>/dev/tcp/127.0.0.1/$((NATS_PORT + i - 1))) 2>/dev/null; then break; fi
		sleep 0.1
	done
done

for i in 1 2 3; do
	"$DIR/bin/sshuffle" serve --addr "127.0.0.1:$((SSH_PORT + i - 1))" --data "$DIR/node$i" \
		--store "$urls" --node "node$i" --host-key "$DIR/host_ed25519" ${NODE_ARGS:-} \
		>"$DIR/logs/node$i.log" 2>&1 &
	pids+=($!)
done

for i in 1 2 3; do
	for _ in $(seq 600); do
		if grep -q "msg=listening" "$DIR/logs/node$i.log" 2>/dev/null; then break; fi
		if ! kill -0 "${pids[$((i + 2))]}" 2>/dev/null; then
			echo "node$i stopped; its log:" >&2
			cat "$DIR/logs/node$i.log" >&2
			exit 1
		fi
		sleep 0.1
	done
done

echo "three NATS servers ($urls) and three nodes:"
for i in 1 2 3; do echo "  ssh -p $((SSH_PORT + i - 1)) localhost    (node$i, log $DIR/logs/node$i.log)"; done
echo "Ctrl-C stops them all."
wait -n "${pids[@]}" || true
echo "a process stopped; see $DIR/logs" >&2
exit 1
