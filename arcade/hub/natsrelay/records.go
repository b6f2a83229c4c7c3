package natsrelay

import (
	"context"
	"encoding/base64"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// records is what each node publishes for the others to read: one KV
// bucket in memory with a TTL, one key per thing and node,
// "<thing>.<node>", each node's value the hub's bytes. A node writes its
// own when they change and all of them again every `every`, and watches
// the bucket into a map; a record not rewritten within ttl (a dead
// node's) is left out of what is read, so a node that dies has its
// records age out without anyone having to say so, and a node that
// starts reads everyone's at once. Presence (one key per account online)
// and the tables' listings (one key per table) are two of them.
type records struct {
	r          *Relay
	what       string // for log lines
	every, ttl time.Duration

	mu     sync.Mutex
	mine   map[string][]byte            // thing -> this node's record; nil: delete it
	dirty  map[string]bool              // things whose record is still to write
	others map[string]map[string]record // thing -> node -> record
	kick   chan struct{}
	// changed, when set, is called (off every lock) after another node's
	// record changed, and each `every`, when records may have aged out.
	changed func()
}

type record struct {
	b  []byte
	at time.Time
}

// tok is an account ID (or a room's code) as one token of a key or a
// subject.
func tok(id string) string {
	if id == "" {
		return "="
	}
	return base64.RawURLEncoding.EncodeToString([]byte(id))
}

func untok(t string) (string, bool) {
	if t == "=" {
		return "", true
	}
	b, err := base64.RawURLEncoding.DecodeString(t)
	return string(b), err == nil
}

// startRecords opens (or makes) bucket and starts watching and writing it.
func (r *Relay) startRecords(ctx context.Context, bucket, what string, every, ttl time.Duration) (*records, error) {
	kv, err := r.js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket: bucket, History: 1, TTL: ttl, Replicas: r.cfg.Replicas, Storage: jetstream.MemoryStorage,
	})
	if err != nil {
		return nil, err
	}
	p := &records{r: r, what: what, every: every, ttl: ttl, mine: map[string][]byte{}, dirty: map[string]bool{},
		others: map[string]map[string]record{}, kick: make(chan struct{}, 1)}
	w, err := kv.WatchAll(context.Background())
	if err != nil {
		return nil, err
	}
	r.wg.Add(2)
	go p.watch(w)
	go p.write(kv)
	return p, nil
}

// set records this node's value of thing (nil: it has none any more). It
// never blocks.
func (p *records) set(thing string, b []byte) {
	p.mu.Lock()
	p.mine[thing] = b
	p.dirty[thing] = true
	p.mu.Unlock()
	select {
	case p.kick <- struct{}{}:
	default:
	}
}

// of is the other nodes' fresh records of thing.
func (p *records) of(thing string) [][]byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out [][]byte
	for node, rec := range p.others[thing] {
		if node != p.r.cfg.Node && time.Since(rec.at) < p.ttl {
			out = append(out, rec.b)
		}
	}
	return out
}

// all is the other nodes' fresh records of every thing.
func (p *records) all() [][]byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out [][]byte
	for _, nodes := range p.others {
		for node, rec := range nodes {
			if node != p.r.cfg.Node && time.Since(rec.at) < p.ttl {
				out = append(out, rec.b)
			}
		}
	}
	return out
}

func (p *records) listen(changed func()) {
	p.mu.Lock()
	p.changed = changed
	p.mu.Unlock()
}

func (p *records) tell() {
	p.mu.Lock()
	changed := p.changed
	p.mu.Unlock()
	if changed != nil {
		changed()
	}
}

func (p *records) watch(w jetstream.KeyWatcher) {
	defer p.r.wg.Done()
	defer func() { _ = w.Stop() }()
	for {
		select {
		case <-p.r.stop:
			return
		case e, ok := <-w.Updates():
			if !ok {
				return
			}
			if e == nil {
				continue // the end of the values there at the start
			}
			thing, node, found := strings.Cut(e.Key(), ".")
			id, okID := untok(thing)
			if !found || !okID {
				p.r.log.Warn("bad record key dropped", "records", p.what, "key", e.Key())
				continue
			}
			p.mu.Lock()
			if e.Operation() == jetstream.KeyValuePut {
				if p.others[id] == nil {
					p.others[id] = map[string]record{}
				}
				p.others[id][node] = record{b: e.Value(), at: e.Created()}
			} else if m := p.others[id]; m != nil {
				delete(m, node)
				if len(m) == 0 {
					delete(p.others, id)
				}
			}
			p.mu.Unlock()
			if node != p.r.cfg.Node {
				p.tell()
			}
		}
	}
}

// write puts this node's records as they change, and all of them again
// every `every` so that they outlive the bucket's TTL.
func (p *records) write(kv jetstream.KeyValue) {
	defer p.r.wg.Done()
	t := time.NewTicker(p.every)
	defer t.Stop()
	for {
		all := false
		select {
		case <-p.r.stop:
			return
		case <-p.kick:
		case <-t.C:
			all = true
			p.tell() // records of others may have aged out since
		}
		p.mu.Lock()
		todo := map[string][]byte{}
		for id, b := range p.mine {
			if all || p.dirty[id] {
				todo[id] = b
			}
			if b == nil {
				delete(p.mine, id)
			}
		}
		clear(p.dirty)
		p.mu.Unlock()
		for id, b := range todo {
			key := tok(id) + "." + p.r.cfg.Node
			ctx, cancel := p.r.ctx()
			var err error
			if b == nil {
				err = kv.Delete(ctx, key)
			} else {
				_, err = kv.Put(ctx, key, b)
			}
			cancel()
			if err != nil && !errors.Is(err, jetstream.ErrKeyNotFound) {
				p.r.log.Warn("record not written", "records", p.what, "err", err)
			}
		}
	}
}
