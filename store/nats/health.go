package nats

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"

	"sshuffle/store"
)

// probeEvery is how often the health probe writes; a probe that has not
// been answered after stallAfter makes Health say so. Tests shorten them.
var (
	probeEvery = 5 * time.Second
	stallAfter = 5 * time.Second
)

// probeLoop writes this node's health key every probeEvery: a write is
// what a stream without a leader, or a cluster without a quorum, stops
// taking while reads still work.
func (s *Store) probeLoop() {
	defer close(s.done)
	t := time.NewTicker(probeEvery)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			s.probe()
		}
	}
}

func (s *Store) probe() {
	s.healthMu.Lock()
	s.probing = time.Now()
	s.healthMu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 3*s.opts.Timeout)
	defer cancel()
	go func() {
		select {
		case <-s.stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	_, err := s.saves.writeQuiet(ctx, []op{put(key("health", tok(s.opts.Node)), []byte(strconv.FormatInt(time.Now().Unix(), 10)))})
	s.healthMu.Lock()
	defer s.healthMu.Unlock()
	s.probing = time.Time{}
	s.healthErr = err
	if err == nil {
		s.healthAt = time.Now()
	}
}

// Health is nil while JetStream takes writes: the connection is up and
// the last health probe was written, with none waiting for longer than a
// few seconds.
func (s *Store) Health() error {
	s.mu.RLock()
	closed := s.closed
	s.mu.RUnlock()
	if closed {
		return store.ErrClosed
	}
	if st := s.nc.Status(); st != nats.CONNECTED {
		return fmt.Errorf("store: not connected to NATS (%s)", st)
	}
	s.healthMu.Lock()
	defer s.healthMu.Unlock()
	if !s.probing.IsZero() && time.Since(s.probing) > stallAfter {
		return fmt.Errorf("store: JetStream has not taken a write for %s", time.Since(s.healthAt).Round(time.Second))
	}
	if s.healthErr != nil {
		return fmt.Errorf("store: JetStream refused the last health probe: %w", s.healthErr)
	}
	return nil
}
