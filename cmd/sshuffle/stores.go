package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"sshuffle/arcade/hub/natsrelay"
	"sshuffle/store"
	badgerstore "sshuffle/store/badger"
	natsstore "sshuffle/store/nats"
)

// storeChoice is --store read: Badger in a directory (the default, under
// --data) or NATS JetStream at a list of servers.
type storeChoice struct {
	dir  string // Badger's directory, when url is ""
	url  string // nats://h1:4222,h2:4222,...
	node string // this node's name on NATS
}

// parseStore reads --store: "" (Badger under data), badger:DIR, or
// nats://... (any URL nats.go takes, comma-separated).
func parseStore(flag, data, node string) (storeChoice, error) {
	switch {
	case flag == "":
		return storeChoice{dir: storeDir(data)}, nil
	case strings.HasPrefix(flag, "badger:"):
		dir := strings.TrimPrefix(flag, "badger:")
		if dir == "" {
			return storeChoice{}, fmt.Errorf("--store badger:DIR needs a directory")
		}
		return storeChoice{dir: dir}, nil
	case strings.HasPrefix(flag, "nats://"), strings.HasPrefix(flag, "tls://"):
		if node == "" {
			node, _ = os.Hostname()
		}
		if node == "" {
			return storeChoice{}, fmt.Errorf("--store %s needs --node NAME", flag)
		}
		return storeChoice{url: flag, node: node}, nil
	}
	return storeChoice{}, fmt.Errorf("--store %q: want badger:DIR or nats://HOST:PORT,...", flag)
}

func (c storeChoice) String() string {
	if c.url != "" {
		return "nats " + c.url
	}
	return "badger " + c.dir
}

// opened is the store serve runs on; badger is set when it is Badger (it
// answers the admin socket's backups), nats when it is NATS (its
// connection carries the relay of rooms across nodes).
type opened struct {
	store.Store
	badger *badgerstore.Store
	nats   *natsstore.Store
	relay  *natsrelay.Relay // on NATS: the rooms across nodes
}

// Close stops the relay, then closes the store: the relay's last words
// (its leases, its presence) go out on the store's connection.
func (o opened) Close() error {
	if o.relay != nil {
		o.relay.Close()
	}
	return o.Store.Close()
}

func openStore(c storeChoice, f serveFlags, log *slog.Logger) (opened, error) {
	if c.url != "" {
		// A node may start with its NATS servers: it waits a minute for
		// their cluster to be ready.
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		s, err := natsstore.Open(ctx, c.url, natsstore.Options{
			Prefix: *f.natsPrefix, Node: c.node, Logger: log, Name: "sshuffle " + c.node,
		})
		if err != nil {
			return opened{}, err
		}
		return opened{Store: s, nats: s}, nil
	}
	s, err := badgerstore.OpenWith(c.dir, badgerstore.Options{Logger: log, MinFree: *f.minFree << 20, Accept: *f.acceptStore})
	if err != nil {
		return opened{}, err
	}
	return opened{Store: s, badger: s}, nil
}
