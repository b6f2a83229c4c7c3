package natsrelay

import (
	"context"
	"encoding/base64"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"sshuffle/arcade/hub"
)

// Presence across nodes is a KV bucket (sshuffle_presence), in memory and
// with a TTL, rather than plain subjects: a node that starts (or
// reconnects) reads everyone's presence at once from the bucket, and a
// node that dies has its records age out without anyone having to say so.
// Each node writes one key per account online on it, "<account>.<node>",
// when the account's presence there changes and again every PresenceEvery;
// every node watches the bucket into a map, and a record not rewritten
// within PresenceTTL (a dead node's) is left out of Presences.
//
// Invitations go on sshuffle.inv.<account> (the account's ID in base64url,
// as a subject token must be plain), request and reply: every node listens
// to sshuffle.inv.*, and only a node where the account has a session
// answers.

const (
	DefaultPresenceEvery = 30 * time.Second
	DefaultPresenceTTL   = 90 * time.Second
	presenceBucket       = "sshuffle_presence"
)

type presence struct {
	r *Relay

	mu     sync.Mutex
	mine   map[string][]byte            // account -> this node's record; nil: delete it
	dirty  map[string]bool              // accounts whose record is still to write
	others map[string]map[string]record // account -> node -> record
	kick   chan struct{}
}

type record struct {
	b  []byte
	at time.Time
}

// tok is an account ID as one token of a key or a subject.
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

func (r *Relay) startPresence(ctx context.Context) error {
	kv, err := r.js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket: presenceBucket, History: 1, TTL: r.cfg.PresenceTTL, Replicas: r.cfg.Replicas,
		Storage: jetstream.MemoryStorage,
	})
	if err != nil {
		return err
	}
	p := &presence{r: r, mine: map[string][]byte{}, dirty: map[string]bool{},
		others: map[string]map[string]record{}, kick: make(chan struct{}, 1)}
	r.pres = p
	w, err := kv.WatchAll(context.Background())
	if err != nil {
		return err
	}
	r.wg.Add(2)
	go p.watch(w)
	go p.write(kv)
	return nil
}

// SetPresence records account id's presence on this node.
func (r *Relay) SetPresence(id string, b []byte) {
	p := r.pres
	p.mu.Lock()
	p.mine[id] = b
	p.dirty[id] = true
	p.mu.Unlock()
	select {
	case p.kick <- struct{}{}:
	default:
	}
}

// Presences is the other nodes' fresh records of account id.
func (r *Relay) Presences(id string) [][]byte {
	p := r.pres
	p.mu.Lock()
	defer p.mu.Unlock()
	var out [][]byte
	for node, rec := range p.others[id] {
		if node != r.cfg.Node && time.Since(rec.at) < r.cfg.PresenceTTL {
			out = append(out, rec.b)
		}
	}
	return out
}

func (p *presence) watch(w jetstream.KeyWatcher) {
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
			acct, node, found := strings.Cut(e.Key(), ".")
			id, okID := untok(acct)
			if !found || !okID {
				p.r.log.Warn("bad presence key dropped", "key", e.Key())
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
		}
	}
}

// write puts this node's records as they change, and all of them again
// every PresenceEvery so that they outlive the bucket's TTL.
func (p *presence) write(kv jetstream.KeyValue) {
	defer p.r.wg.Done()
	t := time.NewTicker(p.r.cfg.PresenceEvery)
	defer t.Stop()
	for {
		all := false
		select {
		case <-p.r.stop:
			return
		case <-p.kick:
		case <-t.C:
			all = true
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
				p.r.log.Warn("presence not written", "err", err)
			}
		}
	}
}

func invSubject(id string) string { return "sshuffle.inv." + tok(id) }

// Invite asks the nodes where account id is online.
func (r *Relay) Invite(id string, msg []byte) ([]byte, error) {
	m, err := r.nc.Request(invSubject(id), msg, r.cfg.Timeout)
	if errors.Is(err, nats.ErrNoResponders) || errors.Is(err, nats.ErrTimeout) {
		return nil, hub.ErrUnreachable
	}
	if err != nil {
		return nil, err
	}
	return m.Data, nil
}

// Notify tells the nodes where account id is online.
func (r *Relay) Notify(id string, msg []byte) error {
	return r.nc.Publish(invSubject(id), msg)
}

// ListenInvitations subscribes handle to every account's invitations.
func (r *Relay) ListenInvitations(handle func(id string, msg []byte) ([]byte, bool)) error {
	sub, err := r.nc.Subscribe("sshuffle.inv.*", func(m *nats.Msg) {
		id, ok := untok(strings.TrimPrefix(m.Subject, "sshuffle.inv."))
		if !ok {
			r.log.Warn("invitation to a bad subject dropped", "subject", m.Subject)
			return
		}
		reply, answer := handle(id, m.Data)
		if answer && m.Reply != "" {
			if err := m.Respond(reply); err != nil {
				r.log.Warn("invitation answer not sent", "err", err)
			}
		}
	})
	if err != nil {
		return err
	}
	r.mu.Lock()
	r.subs = append(r.subs, sub)
	r.mu.Unlock()
	return r.nc.Flush()
}
