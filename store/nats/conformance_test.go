package nats

import (
	"context"
	"fmt"
	"strings"
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

// opener opens stores on cluster c, each under buckets of its own (a
// fresh, empty store), at server i (i < 0: any), deleted when the test
// ends so the servers do not keep a stream per test.
func opener(c *natstest.Cluster, i int) storetest.Opener {
	return func(t *testing.T, now func() time.Time) store.Store {
		t.Helper()
		prefix := fmt.Sprintf("t%d", prefixes.Add(1))
		return openAt(t, c, i, prefix, now)
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
	t.Cleanup(func() {
		_ = s.Close()
		dropBuckets(t, c, prefix)
	})
	return s
}

// dropBuckets deletes the streams under prefix (once per prefix: the
// second handle's cleanup finds them gone).
func dropBuckets(t *testing.T, c *natstest.Cluster, prefix string) {
	nc, err := nats.Connect(c.URL())
	if err != nil {
		t.Logf("dropping buckets %s: %v", prefix, err)
		return
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, name := range []string{"accounts", "records", "saves", "dailies"} {
		err := js.DeleteStream(ctx, "KV_"+prefix+"_"+name)
		if err != nil && !strings.Contains(err.Error(), "not found") {
			t.Logf("dropping bucket %s_%s: %v", prefix, name, err)
		}
	}
}

// The suite every backend passes, on one server (one replica).
func TestConformanceSingle(t *testing.T) {
	c := natstest.Single(t)
	storetest.Run(t, opener(c, -1))
}

// And on a cluster of three (three replicas), where a handle's server is
// not always its streams' leader; then two handles on two servers sharing
// one store.
func TestThree(t *testing.T) {
	c := natstest.Three(t)
	t.Run("Conformance", func(t *testing.T) { storetest.Run(t, opener(c, 0)) })
	t.Run("TwoHandles", func(t *testing.T) {
		storetest.RunShared(t, func(t *testing.T) (store.Store, store.Store) {
			prefix := fmt.Sprintf("t%d", prefixes.Add(1))
			a := openAt(t, c, 0, prefix, nil)
			b := openAt(t, c, 2, prefix, nil)
			return a, b
		})
	})
}
