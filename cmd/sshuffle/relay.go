package main

import (
	"context"
	"log/slog"
	"time"

	"sshuffle/arcade/hub/natsrelay"
)

// openRelay starts the relay of rooms across nodes on the NATS store's
// connection: every node of a cluster shares its rooms' directory, so a
// person on one node joins a race or a table another node runs, and a
// node that dies has its tables taken over by another. nil on Badger,
// where every room stays in the process.
func openRelay(st opened, node string, lease time.Duration, log *slog.Logger) (*natsrelay.Relay, error) {
	if st.nats == nil {
		return nil, nil
	}
	nc := st.nats.Conn()
	// The directory lives as long as the store's buckets: replicated on
	// three servers of a cluster, on the one server otherwise.
	replicas := 1
	if nc.ConnectedClusterName() != "" {
		replicas = 3
	}
	cfg := natsrelay.Config{Conn: nc, Node: node, Replicas: replicas, Log: log}
	if lease > 0 {
		// A renewal every quarter of the lease rides out a NATS leader
		// election's write stall, as the defaults' 5 s in 20 s do.
		cfg.Lease, cfg.Renew = lease, lease/4
	}
	// Nodes started with their servers make the rooms' buckets together,
	// while the cluster settles, and a request then may go unanswered: ask
	// again, a few seconds each, for a minute, as the store does.
	deadline := time.Now().Add(time.Minute)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		r, err := natsrelay.New(ctx, cfg)
		cancel()
		if err == nil || time.Now().After(deadline) {
			return r, err
		}
		log.Info("rooms across nodes: waiting for JetStream", "error", err.Error())
		time.Sleep(500 * time.Millisecond)
	}
}
