// Package natsrelay is the hub's Relay over NATS: the rooms of several
// sshuffle nodes sharing one NATS JetStream cluster.
//
//   - The directory of room codes is a KV bucket (sshuffle_rooms), one key a
//     code, its value a RoomEntry in JSON with a format number. A code is
//     claimed with Create, so two nodes never open rooms under one code; the
//     owner rewrites its entry every Renew at the revision it last wrote
//     (its lease), and a reader counts a room live while the entry was
//     written within Lease. Taking over a lapsed room is an Update at the
//     revision read, so of two nodes trying one wins. The bucket forgets
//     entries a day after their last write, as the hub forgets ended codes.
//   - sshuffle.room.<CODE>.cmd: a member's commands to a room, request and
//     reply, answered by the owner alone.
//   - sshuffle.node.<NODE>.deliver: the owner's pushes of member states to
//     the node where each member is connected.
//
// The bytes of requests, replies and pushes are the hub's (hub/wire.go);
// this package moves them and never reads them.
package natsrelay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"sshuffle/arcade/hub"
)

// Defaults of the lease on a room. A NATS cluster whose stream leader dies
// stalls writes for 4 to 6 seconds, so a lease must outlast several of
// those: a renewal every 5 s and a lease of 20 s ride out two stalls in a
// row before another node may take a table over.
const (
	DefaultRenew   = 5 * time.Second
	DefaultLease   = 20 * time.Second
	DefaultTimeout = 5 * time.Second
	DefaultBucket  = "sshuffle_rooms"
	// entryFormat is the version of a directory entry's form.
	entryFormat = 1
)

// Config is a relay's settings; zero fields take the defaults.
type Config struct {
	Conn *nats.Conn
	Node string // this node's name: letters, digits, '-' and '_'
	// Renew is how often an owner rewrites its rooms' entries; Lease is how
	// long after the last rewrite a room counts as live.
	Renew, Lease time.Duration
	// Timeout bounds a request to a room on another node.
	Timeout time.Duration
	// Replicas of the directory's bucket: 3 on a cluster, 1 on one server.
	Replicas int
	Bucket   string
	// PresenceEvery is how often this node rewrites its accounts'
	// presence; PresenceTTL how long a record lasts unless rewritten.
	PresenceEvery, PresenceTTL time.Duration
	// ListingEvery is how often this node rewrites its tables' listings
	// for the other nodes' lobbies; ListingTTL how long one lasts unless
	// rewritten (a dead node's tables leave the lists after it).
	ListingEvery, ListingTTL time.Duration
	Log                      *slog.Logger
}

// Relay is a hub.Relay over one NATS connection.
type Relay struct {
	nc  *nats.Conn
	js  jetstream.JetStream
	kv  jetstream.KeyValue
	cfg Config
	log *slog.Logger

	mu     sync.Mutex
	leases map[string]*lease
	subs   []*nats.Subscription
	closed bool
	wg     sync.WaitGroup
	stop   chan struct{}
	pres   *records // accounts' presence
	lists  *records // tables' listings
}

// lease is a room this node owns: the revision of its entry it wrote last.
type lease struct {
	code  string
	entry hub.RoomEntry
	rev   uint64
	lost  func()
	done  bool
	// renewed is when the entry was last written; renewing is held by
	// the one renewal under way.
	renewed  time.Time
	renewing sync.Mutex
}

// stored is a directory entry as the bucket holds it.
type stored struct {
	Format int           `json:"format"`
	Entry  hub.RoomEntry `json:"entry"`
}

var _ hub.Relay = (*Relay)(nil)

// New opens the directory (making its bucket if it is not there) and
// starts renewing this node's leases.
func New(ctx context.Context, cfg Config) (*Relay, error) {
	if cfg.Conn == nil {
		return nil, errors.New("natsrelay: no NATS connection")
	}
	if !validName(cfg.Node) {
		return nil, fmt.Errorf("natsrelay: a node's name is letters, digits, '-' and '_', not %q", cfg.Node)
	}
	if cfg.Renew <= 0 {
		cfg.Renew = DefaultRenew
	}
	if cfg.Lease <= 0 {
		cfg.Lease = DefaultLease
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.Replicas <= 0 {
		cfg.Replicas = 1
	}
	if cfg.Bucket == "" {
		cfg.Bucket = DefaultBucket
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.PresenceEvery <= 0 {
		cfg.PresenceEvery = DefaultPresenceEvery
	}
	if cfg.PresenceTTL <= 0 {
		cfg.PresenceTTL = DefaultPresenceTTL
	}
	if cfg.ListingEvery <= 0 {
		cfg.ListingEvery = DefaultListingEvery
	}
	if cfg.ListingTTL <= 0 {
		cfg.ListingTTL = DefaultListingTTL
	}
	js, err := jetstream.New(cfg.Conn)
	if err != nil {
		return nil, fmt.Errorf("natsrelay: %w", err)
	}
	kv, err := openBucket(ctx, js, cfg)
	if err != nil {
		return nil, err
	}
	r := &Relay{nc: cfg.Conn, js: js, kv: kv, cfg: cfg, log: cfg.Log, leases: map[string]*lease{}, stop: make(chan struct{})}
	if r.pres, err = r.startRecords(ctx, presenceBucket, "presence", cfg.PresenceEvery, cfg.PresenceTTL); err != nil {
		close(r.stop)
		r.wg.Wait()
		return nil, fmt.Errorf("natsrelay: the presence bucket: %w", err)
	}
	if r.lists, err = r.startRecords(ctx, listingBucket, "listings", cfg.ListingEvery, cfg.ListingTTL); err != nil {
		close(r.stop)
		r.wg.Wait()
		return nil, fmt.Errorf("natsrelay: the listings bucket: %w", err)
	}
	r.wg.Add(1)
	go r.renewLoop()
	return r, nil
}

// openBucket makes the directory's bucket, or opens the one there, with
// reads answered by the stream's leader: a replica's answer may miss a
// claim made a moment ago, and a member would then be told a live room
// has no such code.
func openBucket(ctx context.Context, js jetstream.JetStream, cfg Config) (jetstream.KeyValue, error) {
	// Create, not create-or-update: an update would put direct reads back
	// on for a moment, and a node binding the bucket then would keep them.
	_, err := js.CreateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket: cfg.Bucket, History: 1, TTL: 24 * time.Hour, Replicas: cfg.Replicas, Storage: jetstream.FileStorage,
	})
	if err != nil && !errors.Is(err, jetstream.ErrBucketExists) && !errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
		return nil, fmt.Errorf("natsrelay: the rooms bucket: %w", err)
	}
	st, err := js.Stream(ctx, "KV_"+cfg.Bucket)
	if err != nil {
		return nil, fmt.Errorf("natsrelay: the rooms bucket: %w", err)
	}
	if c := st.CachedInfo().Config; c.AllowDirect {
		c.AllowDirect = false
		if _, err := js.UpdateStream(ctx, c); err != nil {
			return nil, fmt.Errorf("natsrelay: the rooms bucket: %w", err)
		}
	}
	kv, err := js.KeyValue(ctx, cfg.Bucket)
	if err != nil {
		return nil, fmt.Errorf("natsrelay: the rooms bucket: %w", err)
	}
	return kv, nil
}

func validName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// Node is this node's name.
func (r *Relay) Node() string { return r.cfg.Node }

// Close stops renewing leases and unsubscribes; the rooms' entries lapse
// after the lease, so another node may take the tables over.
func (r *Relay) Close() {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return
	}
	r.closed = true
	subs := r.subs
	r.subs = nil
	close(r.stop)
	r.mu.Unlock()
	for _, s := range subs {
		_ = s.Unsubscribe()
	}
	r.wg.Wait()
}

func (r *Relay) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), r.cfg.Timeout)
}

func (r *Relay) encode(e hub.RoomEntry) []byte {
	b, err := json.Marshal(stored{Format: entryFormat, Entry: e})
	if err != nil {
		panic(err) // not reached: a plain value
	}
	return b
}

func decodeEntry(b []byte) (hub.RoomEntry, error) {
	var s stored
	if err := json.Unmarshal(b, &s); err != nil {
		return hub.RoomEntry{}, fmt.Errorf("undecodable room entry: %w", err)
	}
	if s.Format != entryFormat {
		return hub.RoomEntry{}, fmt.Errorf("room entry of format %d, not %d", s.Format, entryFormat)
	}
	return s.Entry, nil
}

// Claim creates code's entry for this node.
func (r *Relay) Claim(code string, e hub.RoomEntry, lost func()) error {
	ctx, cancel := r.ctx()
	defer cancel()
	rev, err := r.kv.Create(ctx, code, r.encode(e))
	if errors.Is(err, jetstream.ErrKeyExists) {
		return hub.ErrCodeTaken
	}
	if err != nil {
		return err
	}
	r.hold(code, e, rev, lost)
	return nil
}

// Takeover makes code this node's when nobody holds it live.
func (r *Relay) Takeover(code string, e hub.RoomEntry, lost func()) error {
	ctx, cancel := r.ctx()
	defer cancel()
	cur, err := r.kv.Get(ctx, code)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		rev, err := r.kv.Create(ctx, code, r.encode(e))
		if err != nil {
			return err
		}
		r.hold(code, e, rev, lost)
		return nil
	}
	if err != nil {
		return err
	}
	old, derr := decodeEntry(cur.Value())
	if derr != nil {
		r.log.Warn("bad room entry", "code", code, "err", derr)
	}
	switch {
	case derr == nil && old.Ended:
		return fmt.Errorf("natsrelay: the room %s has ended", code)
	case derr == nil && old.Node != r.cfg.Node && r.live(cur):
		return fmt.Errorf("natsrelay: the room %s is held by %s", code, old.Node)
	}
	rev, err := r.kv.Update(ctx, code, r.encode(e), cur.Revision())
	if err != nil {
		return fmt.Errorf("natsrelay: the room %s was taken over by another node: %w", code, err)
	}
	r.hold(code, e, rev, lost)
	return nil
}

func (r *Relay) live(cur jetstream.KeyValueEntry) bool {
	return time.Since(cur.Created()) < r.cfg.Lease
}

func (r *Relay) hold(code string, e hub.RoomEntry, rev uint64, lost func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.leases[code] = &lease{code: code, entry: e, rev: rev, lost: lost, renewed: time.Now()}
}

// Lookup reads code's entry.
func (r *Relay) Lookup(code string) (hub.RoomEntry, bool, error) {
	ctx, cancel := r.ctx()
	defer cancel()
	cur, err := r.kv.Get(ctx, code)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return hub.RoomEntry{}, false, nil
	}
	if err != nil {
		return hub.RoomEntry{}, false, err
	}
	e, err := decodeEntry(cur.Value())
	if err != nil {
		r.log.Warn("bad room entry", "code", code, "err", err)
		return hub.RoomEntry{}, false, nil
	}
	e.Live = !e.Ended && r.live(cur)
	return e, true, nil
}

// Release marks code ended, at the revision this node wrote last.
func (r *Relay) Release(code string) error {
	r.mu.Lock()
	l := r.leases[code]
	r.mu.Unlock()
	if l == nil {
		return nil
	}
	// After any renewal under way, whose revision the end is written at.
	l.renewing.Lock()
	defer l.renewing.Unlock()
	r.mu.Lock()
	if l.done {
		r.mu.Unlock()
		return nil // lost meanwhile: the room's end is its new owner's
	}
	l.done = true
	delete(r.leases, code)
	rev := l.rev
	r.mu.Unlock()
	e := l.entry
	e.Ended = true
	ctx, cancel := r.ctx()
	defer cancel()
	_, err := r.kv.Update(ctx, code, r.encode(e), rev)
	return err
}

// renewLoop rewrites every lease this node holds each Renew.
func (r *Relay) renewLoop() {
	defer r.wg.Done()
	t := time.NewTicker(r.cfg.Renew)
	defer t.Stop()
	for {
		select {
		case <-r.stop:
			return
		case <-t.C:
		}
		r.mu.Lock()
		ls := make([]*lease, 0, len(r.leases))
		for _, l := range r.leases {
			ls = append(ls, l)
		}
		r.mu.Unlock()
		for _, l := range ls {
			_ = r.renew(l)
		}
	}
}

// renew rewrites l's entry at the revision this node wrote last. One
// renewal of a lease runs at a time (the loop's and a Hold's), or the
// second would find the revision moved by the first and take it for a
// takeover.
func (r *Relay) renew(l *lease) error {
	l.renewing.Lock()
	defer l.renewing.Unlock()
	r.mu.Lock()
	if l.done {
		r.mu.Unlock()
		return errLost
	}
	rev := l.rev
	r.mu.Unlock()
	ctx, cancel := r.ctx()
	defer cancel()
	next, err := r.kv.Update(ctx, l.code, r.encode(l.entry), rev)
	var lateRev uint64
	var lateAt time.Time
	late := false
	if errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
		lateRev, lateAt, late = r.ownLate(l.code)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if l.done {
		return errLost
	}
	switch {
	case err == nil:
		l.rev, l.renewed = next, time.Now()
		return nil
	case errors.Is(err, jetstream.ErrKeyRevisionMismatch):
		if late {
			// A renewal whose answer was lost in a stall (a leader
			// killed) was written after all: the entry is still this
			// node's, at that revision.
			l.rev, l.renewed = lateRev, lateAt
			return nil
		}
		// Another node wrote the entry: it took the room over while this
		// one was cut off. The copy here is no longer the room.
		r.lose(l, "room lease lost to another node")
		return errLost
	case time.Since(l.renewed) > r.cfg.Lease:
		// Cut off for longer than the lease: another node may have the
		// room by now, and this one cannot tell.
		r.lose(l, "room lease lapsed while NATS could not be reached")
		return errLost
	}
	// NATS does not take writes now (a leader election): the lease
	// outlasts several such stalls.
	r.log.Warn("room lease not renewed", "code", l.code, "err", err)
	return err
}

// ownLate reads code's entry after a renewal found its revision moved:
// ok when the entry is still this node's own, live (a write of its own
// that timed out and landed later), with its revision and time.
func (r *Relay) ownLate(code string) (rev uint64, at time.Time, ok bool) {
	ctx, cancel := r.ctx()
	defer cancel()
	cur, err := r.kv.Get(ctx, code)
	if err != nil {
		return 0, time.Time{}, false
	}
	e, err := decodeEntry(cur.Value())
	if err != nil || e.Node != r.cfg.Node || e.Ended {
		return 0, time.Time{}, false
	}
	return cur.Revision(), cur.Created(), true
}

// lose gives up a lease; under r.mu.
func (r *Relay) lose(l *lease, why string) {
	l.done = true
	delete(r.leases, l.code)
	r.log.Warn(why, "code", l.code)
	if l.lost != nil {
		go l.lost()
	}
}

var errLost = fmt.Errorf("natsrelay: %w", hub.ErrLeaseLost)

// Hold renews code's lease now.
func (r *Relay) Hold(code string) error {
	r.mu.Lock()
	l := r.leases[code]
	r.mu.Unlock()
	if l == nil {
		return errLost
	}
	return r.renew(l)
}

func roomSubject(code string) string { return "sshuffle.room." + code + ".cmd" }

func deliverSubject(node string) string { return "sshuffle.node." + node + ".deliver" }

// Serve answers code's requests.
func (r *Relay) Serve(code string, handle func([]byte) []byte) (func(), error) {
	sub, err := r.nc.Subscribe(roomSubject(code), func(m *nats.Msg) {
		if err := m.Respond(handle(m.Data)); err != nil {
			r.log.Warn("room reply not sent", "code", code, "err", err)
		}
	})
	if err != nil {
		return nil, err
	}
	// The subscription must be known to the server before the room's code
	// is handed to anyone, or a first request could find no responder.
	if err := r.nc.Flush(); err != nil {
		r.log.Warn("room subscription not flushed", "code", code, "err", err)
	}
	return func() { _ = sub.Unsubscribe() }, nil
}

// Request sends a command to code's room.
func (r *Relay) Request(code string, req []byte) ([]byte, error) {
	m, err := r.nc.Request(roomSubject(code), req, r.cfg.Timeout)
	if errors.Is(err, nats.ErrNoResponders) || errors.Is(err, nats.ErrTimeout) {
		return nil, hub.ErrUnreachable
	}
	if err != nil {
		return nil, err
	}
	return m.Data, nil
}

// Deliver publishes msg to node.
func (r *Relay) Deliver(node string, msg []byte) error {
	if !validName(node) {
		return fmt.Errorf("natsrelay: no node %q", node)
	}
	return r.nc.Publish(deliverSubject(node), msg)
}

// Listen subscribes handle to this node's deliveries.
func (r *Relay) Listen(handle func([]byte)) error {
	sub, err := r.nc.Subscribe(deliverSubject(r.cfg.Node), func(m *nats.Msg) { handle(m.Data) })
	if err != nil {
		return err
	}
	// A member's pushes can be many: a slow reader here costs memory, not
	// lost states, up to this much; past it the hub resyncs after a gap.
	_ = sub.SetPendingLimits(1<<16, 64<<20)
	ping, err := r.nc.Subscribe(pingSubject(r.cfg.Node), func(m *nats.Msg) { _ = m.Respond(nil) })
	if err != nil {
		_ = sub.Unsubscribe()
		return err
	}
	r.mu.Lock()
	r.subs = append(r.subs, sub, ping)
	r.mu.Unlock()
	return r.nc.Flush()
}

// ListenReconnects calls handle after each reconnection of the node's
// NATS connection, after any handler set on it before.
func (r *Relay) ListenReconnects(handle func()) error {
	prev := r.nc.Opts.ReconnectedCB
	r.nc.SetReconnectHandler(func(c *nats.Conn) {
		if prev != nil {
			prev(c)
		}
		r.log.Info("NATS connection back", "server", c.ConnectedServerName())
		handle()
	})
	return nil
}

func pingSubject(node string) string { return "sshuffle.node." + node + ".ping" }

// Alive asks node whether it is there. A node whose connection is gone has
// no subscription left, and the server says so at once.
func (r *Relay) Alive(node string) bool {
	if !validName(node) {
		return false
	}
	_, err := r.nc.Request(pingSubject(node), nil, r.cfg.Timeout)
	return err == nil
}
