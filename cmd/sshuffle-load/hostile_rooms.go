package main

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"time"
)

// Hostile items against the hub's limits: a lobby flooded with new tables,
// and invite codes guessed as fast as the server answers.

// roomLimits are the sentences a player reads when the hub's limits (or the
// lobby's one-request-at-a-time) refuse them.
var roomLimits = []string{
	"rooms open; close one first",
	"faster than the lobby goes",
	"A table is on its way",
	"Too many codes tried",
}

// hostileNames keeps each try's account apart: every try is a fresh key,
// and a taken name would send it to the name picker.
var hostileNames atomic.Int64

func hostileName(item string) string {
	return fmt.Sprintf("%s%s%04d", runPrefix, item, hostileNames.Add(1)%10000)
}

func init() {
	// n and Enter written 3,000 times in one burst, in the table lobby:
	// the hub's caps answer with a sentence, and the session still
	// answers afterwards.
	addHostile("8-table-flood", func(h *hostile) error {
		r, err := openRacer(h.addr, h.local, hostileName("f"), "table kings person")
		if err != nil {
			return err
		}
		defer r.close()
		// Earlier tries' rooms may still fill this address's cap: then the
		// lobby opens with that sentence, and the flood follows anyway.
		if _, err := r.waitAny(append([]string{"Invite: "}, roomLimits...), 30*time.Second); err != nil {
			return err
		}
		if _, err := io.WriteString(r.in, strings.Repeat("n\r", 3000)); err != nil {
			return err
		}
		if _, err := r.waitAny(roomLimits, 30*time.Second); err != nil {
			return fmt.Errorf("the flood was never refused: %w", err)
		}
		return nil
	})
	// Codes typed in the lobby as fast as they are answered, for a few
	// seconds: the guessing must be refused before long.
	addHostile("10-code-guess", func(h *hostile) error {
		r, err := openRacer(h.addr, h.local, hostileName("g"), "table kings person")
		if err != nil {
			return err
		}
		defer r.close()
		if _, err := r.waitAny(append([]string{"Invite: "}, roomLimits...), 30*time.Second); err != nil {
			return err
		}
		refused := false
		for stop := time.Now().Add(5 * time.Second); time.Now().Before(stop); {
			code := randomCode()
			if _, err := io.WriteString(r.in, "c"+code+"\r"); err != nil {
				return err
			}
			s, err := r.waitAny([]string{"code " + code, "room " + code, "Too many codes tried", "wait for it"}, 10*time.Second)
			if err != nil {
				return err
			}
			if strings.Contains(s, "Too many codes tried") {
				refused = true
			}
		}
		if !refused {
			return errors.New("guessing codes was never refused")
		}
		return nil
	})
}

// waitAny waits until the screen shows one of wants, and returns it.
func (r *racer) waitAny(wants []string, d time.Duration) (string, error) {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		s := r.screen()
		for _, w := range wants {
			if strings.Contains(s, w) {
				return s, nil
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	return "", fmt.Errorf("%s: screen never showed any of %q", r.name, wants)
}

// randomCode is five letters of the codes' alphabet (no I, L, O).
func randomCode() string {
	const alphabet = "ABCDEFGHJKMNPQRSTUVWXYZ"
	var b [5]byte
	_, _ = rand.Read(b[:])
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b[:])
}
