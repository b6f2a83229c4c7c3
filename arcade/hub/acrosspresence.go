package hub

import (
	"errors"
	"time"
)

// Presence and invitations on a node of several. Each node tells the
// relay how each account stands on it (its sessions here, what the latest
// does, whether it takes invitations); a friends screen on any node sees
// the account as the sum of the nodes. An invitation to an account with
// no session here goes through the relay to the nodes where it has one.

// wirePresence is an account's presence on one node.
type wirePresence struct {
	V           int      `json:"v"`
	Person      Person   `json:"person"`
	Sessions    int      `json:"sessions"`
	Activity    Activity `json:"activity"`
	Invitations bool     `json:"invitations"`
	// Changed orders the nodes' activities: the account's latest change
	// anywhere is what its friends see it doing.
	Changed time.Time `json:"changed"`
}

// The kinds of wireNotice.
const (
	inviteNotice   = "invite"
	acceptedNotice = "accepted"
	declinedNotice = "declined"
)

// wireNotice is an invitation to an account on another node, or the
// answer to one for its inviter.
type wireNotice struct {
	V          int        `json:"v"`
	Kind       string     `json:"kind"`
	Invitation Invitation `json:"invitation"`
	Text       string     `json:"text"`
}

func decodePresence(b []byte) (wirePresence, error) {
	var p wirePresence
	err := decode(b, &p, func(p *wirePresence) int { return p.V })
	return p, err
}

func decodeNotice(b []byte) (wireNotice, error) {
	var n wireNotice
	err := decode(b, &n, func(n *wireNotice) int { return n.V })
	if err == nil && n.Kind != inviteNotice && n.Kind != acceptedNotice && n.Kind != declinedNotice {
		err = errors.New("a notice of no known kind")
	}
	return n, err
}

// tellPresence hands the relay the account's presence here, as publish
// stores it; under h.mu (the relay's SetPresence never blocks).
func (h *Hub) tellPresence(id string, p *Presence) {
	if h.relay == nil {
		return
	}
	if p == nil {
		h.changedAt.Delete(id)
		h.relay.SetPresence(id, nil)
		return
	}
	now := h.clock.Now()
	h.changedAt.Store(id, now)
	h.relay.SetPresence(id, encode(wirePresence{V: WireFormat, Person: p.Person, Sessions: p.Sessions,
		Activity: p.Activity, Invitations: p.Invitations, Changed: now}))
}

// withElsewhere is the account's presence here merged with the other
// nodes': online if any node has a session, sessions summed, the activity
// and the choice about invitations of the latest change.
func (h *Hub) withElsewhere(id string, here *Presence) Presence {
	out := Presence{Person: Person{ID: id}}
	var latest time.Time
	if here != nil {
		out = *here
		if c, ok := h.changedAt.Load(id); ok {
			latest = c.(time.Time)
		}
	}
	for _, b := range h.relay.Presences(id) {
		p, err := decodePresence(b)
		if err != nil {
			h.log.Warn("bad presence dropped", "account", id, "err", err)
			continue
		}
		if p.Sessions <= 0 {
			continue
		}
		if !out.Online {
			out.Person = p.Person
		}
		out.Online = true
		out.Sessions += p.Sessions
		if p.Changed.After(latest) {
			latest = p.Changed
			out.Activity, out.Invitations = p.Activity, p.Invitations
		}
	}
	return out
}

// onNotice takes an invitation, or an answer to one, for an account; it
// answers an invitation only if the account has a session here.
func (h *Hub) onNotice(id string, b []byte) ([]byte, bool) {
	n, err := decodeNotice(b)
	if err != nil {
		h.log.Warn("bad invitation dropped", "err", err)
		return nil, false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	a, ok := h.accounts[id]
	if !ok {
		return nil, false
	}
	if n.Kind != inviteNotice {
		kind := Accepted
		if n.Kind == declinedNotice {
			kind = Declined
		}
		for _, s := range a.sessions {
			s.out.Put(Notice{Kind: kind, Invitation: n.Invitation, Text: n.Text})
		}
		return nil, false
	}
	rep := wireReply{V: WireFormat}
	rep.setErr(h.addInvitation(a, n.Invitation, n.Text))
	return encode(rep), true
}

// addInvitation puts an invitation in the account's list and tells its
// sessions; under h.mu.
func (h *Hub) addInvitation(a *account, inv Invitation, text string) error {
	if !a.invitations {
		return refuse(ErrInvitesOff, "%s has invitations turned off.", a.person.Name)
	}
	for _, x := range a.pending {
		if x.From.ID == inv.From.ID && x.Code == inv.Code {
			return refuse(ErrAlreadyInvited, "You have already invited %s to this %s.", a.person.Name, inv.Kind)
		}
	}
	h.nextID++
	inv.ID, inv.To = h.nextID, a.person
	if len(a.pending) >= maxPending {
		a.pending = a.pending[1:]
	}
	a.pending = append(a.pending, inv)
	if h.invitedTo[inv.Code] == nil {
		h.invitedTo[inv.Code] = map[string]struct{}{}
	}
	h.invitedTo[inv.Code][a.person.ID] = struct{}{}
	n := Notice{Kind: Invited, Invitation: inv, Text: text}
	for _, ts := range a.sessions {
		ts.out.Put(n)
	}
	return nil
}

// inviteElsewhere sends an invitation to an account with no session here.
func (h *Hub) inviteElsewhere(to Person, inv Invitation, text string) error {
	offline := refuse(ErrOffline, "%s is offline; send them the invite line instead.", to.Name)
	if h.relay == nil || !h.withElsewhere(to.ID, nil).Online {
		return offline
	}
	b, err := h.relay.Invite(to.ID, encode(wireNotice{V: WireFormat, Kind: inviteNotice, Invitation: inv, Text: text}))
	if err != nil {
		return offline
	}
	rep, err := decodeReply(b)
	if err != nil {
		h.log.Warn("bad invitation reply dropped", "err", err)
		return offline
	}
	return rep.err()
}

// answerElsewhere tells an inviter with no session here of the answer.
func (h *Hub) answerElsewhere(n Notice) {
	if h.relay == nil {
		return
	}
	kind := declinedNotice
	if n.Kind == Accepted {
		kind = acceptedNotice
	}
	if err := h.relay.Notify(n.Invitation.From.ID,
		encode(wireNotice{V: WireFormat, Kind: kind, Invitation: n.Invitation, Text: n.Text})); err != nil {
		h.log.Warn("answer to an invitation not sent", "err", err)
	}
}
