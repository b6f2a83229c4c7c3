package nats

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"sshuffle/internal/natstest"
	"sshuffle/store"
	"sshuffle/store/storetest"
)

var prefixes atomic.Int64

// pool keeps the prefixes of stores whose test ended, their buckets
// emptied, for the next test: making four streams is a round of the
// cluster's meta leader each, emptying them is not.
type pool struct {
	c    *natstest.Cluster
	free chan string
}

func newPool(c *natstest.Cluster) *pool { return &pool{c: c, free: make(chan string, 64)} }

// take gives a prefix whose buckets are empty or not made yet, given
// back when the test ends.
func (p *pool) take(t *testing.T) string {
	var prefix string
	select {
	case prefix = <-p.free:
	default:
		prefix = fmt.Sprintf("t%d", prefixes.Add(1))
	}
	t.Cleanup(func() {
		if empty(t, p.c, prefix) {
			p.free <- prefix
		}
	})
	return prefix
}

// opener opens stores on the pool's cluster, each a fresh, empty store,
// at server i (i < 0: any).
func (p *pool) opener(i int) storetest.Opener {
	return func(t *testing.T, now func() time.Time) store.Store {
		t.Helper()
		return openAt(t, p.c, i, p.take(t), now)
	}
}

func openAt(t *testing.T, c *natstest.Cluster, i int, prefix string, now func() time.Time) *Store {
	t.Helper()
	url := c.URL()
	if i >= 0 {
		url = c.Servers[i].ClientURL()
	}
	s, err := Open(context.Background(), url, Options{Prefix: prefix, Node: fmt.Sprintf("n%d", i)})
	require.NoError(t, err)
	if now != nil {
		s.now = now
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// empty purges the streams under prefix; false if one would not.
func empty(t *testing.T, c *natstest.Cluster, prefix string) bool {
	nc, err := nats.Connect(c.URL())
	if err != nil {
		t.Logf("emptying buckets %s: %v", prefix, err)
		return false
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, name := range []string{"accounts", "records", "saves", "dailies"} {
		st, err := js.Stream(ctx, "KV_"+prefix+"_"+name)
		if err == nil {
			err = st.Purge(ctx)
		}
		if err != nil {
			t.Logf("emptying bucket %s_%s: %v", prefix, name, err)
			return false
		}
	}
	return true
}

// The suite every backend passes, on one server (one replica).
func TestConformanceSingle(t *testing.T) {
	storetest.Run(t, newPool(natstest.Single(t)).opener(-1))
}

// And on a cluster of three (three replicas), where a handle's server is
// not always its streams' leader; then two handles on two servers sharing
// one store.
func TestThree(t *testing.T) {
	c := natstest.Three(t)
	p := newPool(c)
	t.Run("Conformance", func(t *testing.T) { storetest.Run(t, p.opener(0)) })
	t.Run("TwoHandles", func(t *testing.T) {
		storetest.RunShared(t, func(t *testing.T) (store.Store, store.Store) {
			prefix := p.take(t)
			a := openAt(t, c, 0, prefix, nil)
			b := openAt(t, c, 2, prefix, nil)
			return a, b
		})
	})
	// Last: they stop servers.
	t.Run("LeaderLost", func(t *testing.T) { leaderLost(t, c) })
	t.Run("HealthWithoutQuorum", func(t *testing.T) { healthWithoutQuorum(t, c) })
}
