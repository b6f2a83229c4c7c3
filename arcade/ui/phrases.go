package ui

import (
	"strconv"
	"strings"
	"sync/atomic"

	"sshuffle/arcade/hub"
)

// Quick phrases, as the table and race screens offer them: p opens the
// list on the message line, a digit says that phrase to the room (its
// number goes to the hub, never text), m mutes or unmutes everyone's.

// PhraseKey opens the quick phrases; no table or race key uses it.
const PhraseKey = "p"

// PhrasesSetting is the stored setting that mutes quick phrases ("off");
// anything else, or none, shows them.
const PhrasesSetting = "phrases"

// PhrasesMuted says whether the player muted quick phrases: kept with the
// account, or for a guest in the session.
func PhrasesMuted(e *Env) bool {
	if e.Player == nil || e.Player.Guest || e.Player.ID == "" || e.Store == nil {
		return e.phrasesOff
	}
	v, err := e.Store.Setting(e.Ctx(), e.Player.ID, PhrasesSetting)
	return err == nil && v == "off"
}

// setPhrasesMuted keeps the player's choice; false when the store could
// not take it (it holds for the session all the same).
func setPhrasesMuted(e *Env, on bool) bool {
	e.phrasesOff = on
	if e.Player == nil || e.Player.Guest || e.Player.ID == "" || e.Store == nil {
		return true
	}
	v := "on"
	if on {
		v = "off"
	}
	return e.Store.PutSetting(e.Ctx(), e.Player.ID, PhrasesSetting, v) == nil
}

// MuteLatest wraps a room member's Mute for a picker: each call goes to
// the room off the screen's goroutine, and whichever of them runs last
// tells the room the player's last choice, so quick presses that overtake
// each other on the way still leave the room as the screen says.
func MuteLatest(mute func(on bool) error) func(on bool) {
	var latest atomic.Bool
	return func(on bool) {
		latest.Store(on)
		go func() { _ = mute(latest.Load()) }()
	}
}

// PhrasePicker is a live screen's quick phrases: whether the list is open,
// whether they are muted, and the room's two requests. Say and Mute must
// not block (they go to the room off the screen's goroutine).
type PhrasePicker struct {
	env   *Env
	open  bool
	muted bool
	say   func(n int)
	mute  func(on bool)
}

// NewPhrasePicker is the picker of a screen whose room takes say and
// mute. The hub starts every membership unmuted, so a player who muted
// phrases has the room told at once.
func NewPhrasePicker(e *Env, say func(n int), mute func(on bool)) *PhrasePicker {
	p := &PhrasePicker{env: e, say: say, mute: mute, muted: PhrasesMuted(e)}
	if p.muted {
		mute(true)
	}
	return p
}

// Open reports whether the list is shown (on the message line).
func (p *PhrasePicker) Open() bool { return p != nil && p.open }

// Key takes a key: PhraseKey opens the list; while it is open a digit says
// that phrase, m mutes or unmutes, and any key closes it. handled is false
// for a key the screen should still take as its own; note is a sentence
// for the message line, or "".
func (p *PhrasePicker) Key(key string) (handled bool, note string) {
	if p == nil {
		return false, ""
	}
	if !p.open {
		if key == PhraseKey {
			p.open = true
			return true, ""
		}
		return false, ""
	}
	p.open = false
	switch {
	case len(key) == 1 && key[0] >= '1' && int(key[0]-'1') < len(hub.Phrases):
		p.say(int(key[0] - '1'))
		return true, ""
	case key == "m":
		p.muted = !p.muted
		p.mute(p.muted)
		kept := setPhrasesMuted(p.env, p.muted)
		note = "Quick phrases are off: you see nobody's (p then m turns them on)."
		if !p.muted {
			note = "Quick phrases are on."
		}
		if !kept {
			note += " The setting could not be saved; it holds until you leave."
		}
		return true, note
	case key == "esc" || key == PhraseKey:
		return true, ""
	}
	return false, ""
}

// Line is the open list as one line of 79 cells at most: "1 Good game
// 2 Well played …".
func (p *PhrasePicker) Line() string {
	parts := make([]string, 0, len(hub.Phrases)+1)
	for i, ph := range hub.Phrases {
		parts = append(parts, strconv.Itoa(i+1)+" "+ph)
	}
	m := "m mute"
	if p.muted {
		m = "m unmute"
	}
	return strings.Join(append(parts, m), "  ")
}

// Said is the phrase to show from a room's state, or "" (none, or muted).
func (p *PhrasePicker) Said(s *hub.Said) string {
	if p == nil || p.muted || s == nil {
		return ""
	}
	return s.Text()
}
