package natsrelay

import (
	"errors"
	"strings"
	"time"

	"github.com/nats-io/nats.go"

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

// SetPresence records account id's presence on this node.
func (r *Relay) SetPresence(id string, b []byte) { r.pres.set(id, b) }

// Presences is the other nodes' fresh records of account id.
func (r *Relay) Presences(id string) [][]byte { return r.pres.of(id) }

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
