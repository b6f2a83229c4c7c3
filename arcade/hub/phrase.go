//lint:file-ignore ST1005 these errors are the sentences players read, capitalised and punctuated as the house rules ask (DESIGN.md, "Illegal move")

package hub

import (
	"errors"
	"time"
)

// Quick phrases: the one way people in a room speak to each other. A
// member sends a phrase's number, never text, and every screen words it
// from this list, so nothing a client types ever reaches another screen.

// Phrases are the quick phrases, numbered from 0 as Say takes them.
var Phrases = []string{"Good game", "Well played", "Good luck", "Thanks", "Oops", "Rematch?"}

const (
	// PhraseShown is how long a phrase stays on the room's screens: long
	// enough to read between two moves.
	PhraseShown = 5 * time.Second
	// PhraseGap is the least time between two phrases of one person, so
	// that nobody can drown a table in them.
	PhraseGap = 3 * time.Second
)

var (
	ErrNoPhrase      = errors.New("There is no such quick phrase.")
	ErrPhraseTooSoon = errors.New("One quick phrase every 3 seconds: wait a moment.")
)

// Said is the phrase a room shows now: who said it and which.
type Said struct {
	By     Person
	Phrase int // index into Phrases
}

// Text is the phrase as a screen shows it: "ann: Good luck".
func (s Said) Text() string {
	if s.Phrase < 0 || s.Phrase >= len(Phrases) {
		return ""
	}
	return s.By.Name + ": " + Phrases[s.Phrase]
}

// talk is what a room keeps of its phrases; only the room's goroutine
// touches it.
type talk struct {
	said  *Said
	shown alarm
	last  map[string]time.Time // by account ID: each person's last phrase
}

// say puts by's phrase n up for PhraseShown, then calls gone; the room
// pushes the change itself.
func (k *talk) say(l *loop, c Clock, by Person, n int, gone func()) error {
	if by.Guest {
		return ErrGuest // a guest watches; nothing of theirs reaches the others
	}
	if n < 0 || n >= len(Phrases) {
		return ErrNoPhrase
	}
	now := c.Now()
	// Kept by account, not by membership: leaving and joining again does
	// not start a new count.
	if t, ok := k.last[by.ID]; ok && now.Sub(t) < PhraseGap {
		return ErrPhraseTooSoon
	}
	if k.last == nil {
		k.last = map[string]time.Time{}
	}
	k.last[by.ID] = now
	k.said = &Said{By: by.public(), Phrase: n}
	k.shown.set(l, c, PhraseShown, func() {
		k.said = nil
		gone()
	})
	return nil
}

// Say shows quick phrase n (an index into Phrases) with the member's name
// to everyone at the table who has not muted phrases, for PhraseShown.
func (m *TableMember) Say(n int) error {
	if m.rm != nil {
		return m.remoteDo(wireRequest{Op: opSay, N: n})
	}
	return m.do(func(t *Table, me *tmember) error {
		if err := t.talk.say(&t.loop, t.h.clock, me.Person, n, t.spoke); err != nil {
			return err
		}
		t.spoke()
		return nil
	})
}

// Mute stops (or, with false, starts again) the phrases in this member's
// states; the member is sent no state for a phrase alone while muted.
func (m *TableMember) Mute(on bool) error {
	if m.rm != nil {
		return m.remoteDo(wireRequest{Op: opMute, On: on})
	}
	return m.do(func(t *Table, me *tmember) error {
		if me.mute != on {
			me.mute = on
			t.version++
			t.put(me, t.stateFor(me, t.shared()))
		}
		return nil
	})
}

// spoke pushes a change of the phrase shown to the members who hear them.
func (t *Table) spoke() {
	t.version++
	sh := t.shared()
	for _, m := range t.members {
		if !m.mute {
			t.put(m, t.stateFor(m, sh))
		}
	}
}

// Say shows quick phrase n with the member's name to everyone in the race
// who has not muted phrases, for PhraseShown.
func (m *RaceMember) Say(n int) error {
	if m.rm != nil {
		return m.remoteDo(wireRequest{Op: opSay, N: n})
	}
	return m.do(func(r *Race, me *member) error {
		if err := r.talk.say(&r.loop, r.h.clock, me.Person, n, r.spoke); err != nil {
			return err
		}
		r.spoke()
		return nil
	})
}

// Mute stops (or, with false, starts again) the phrases in this member's
// states; the member is sent no state for a phrase alone while muted.
func (m *RaceMember) Mute(on bool) error {
	if m.rm != nil {
		return m.remoteDo(wireRequest{Op: opMute, On: on})
	}
	return m.do(func(r *Race, me *member) error {
		if me.mute != on {
			me.mute = on
			r.version++
			r.base.Version, r.base.Elapsed = r.version, r.elapsed()
			me.out.Put(r.stateFor(me))
		}
		return nil
	})
}

// spoke pushes a change of the phrase shown to the members who hear them.
func (r *Race) spoke() {
	r.version++
	// The rest of the state is as the last change left it; its race time
	// is now's, as every state's is.
	r.base.Version, r.base.Elapsed, r.base.Said = r.version, r.elapsed(), r.talk.said
	for _, m := range r.members {
		if !m.mute {
			m.out.Put(r.stateFor(m))
		}
	}
}
