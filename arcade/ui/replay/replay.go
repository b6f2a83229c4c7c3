// Package replay is the screen that steps through a finished game of the
// player's history: left and right one action, space plays it at the pace
// it was played (or a steady one where no times were kept), + and -
// change the speed, and a slider line says where it is. What it draws
// comes from the store's record of the game alone, rebuilt move by move
// with the game's own rules: a solitaire from its deal and moves, a table
// game from its record through the game's kit, a race from its racers'
// timelines.
package replay

import (
	"errors"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"sshuffle/arcade/ui"
	"sshuffle/internal/format"
	"sshuffle/store"
)

// tape is one kind of game as a replay steps through it: positions 0 (the
// start) to steps() (the end).
type tape interface {
	steps() int
	// at is when action i (1..steps) was made, from the game's start;
	// false when no times were kept.
	at(i int) (time.Duration, bool)
	// body is the screen over the slider line and the key bar, at
	// position i, in lines of at most the screen's width.
	body(i int) []string
	// keys are the tape's own keys for the key bar ("key", "what"
	// pairs), and key handles one of them (true: it was one).
	keys() []string
	key(k string) bool
}

// ownHeader is a tape whose body draws its own first line.
type ownHeader interface{ ownHeader() }

const (
	// steady is the pace of a game whose times were not kept, at 1x.
	steady = 700 * time.Millisecond
	// longest caps one pause at 1x: a player who stopped to think for
	// minutes is skipped over, not waited for.
	longest  = 5 * time.Second
	maxSpeed = 16
)

// screen is the replay.
type screen struct {
	env   *ui.Env
	title string
	t     tape
	pos   int
	// playing: space set it going; gen tells this run's ticks from an
	// earlier run's, still on their way.
	playing bool
	gen     int
	speed   int
}

// tickMsg moves a playing replay one action on.
type tickMsg struct {
	s   *screen
	gen int
}

// Open is the replay a route asks for: r.ID in the player's history. draw
// draws a table game's seat (the table screen's drawing, which the arcade
// hands in: a screen package imports no other).
func Open(e *ui.Env, r ui.Route, draw TableDrawing) (ui.Screen, error) {
	if e.Player == nil || e.Player.Guest || e.Player.ID == "" {
		return nil, errors.New("Guests' games are not kept, so there is nothing to replay.")
	}
	id := strings.ToLower(strings.TrimSpace(r.ID))
	g, err := e.Store.HistoryGame(e.Ctx(), e.Player.ID, id)
	if errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrInvalid) {
		return nil, fmt.Errorf("There is no game %q in your history (ssh HOST history lists them).", format.Clean(r.ID, 30))
	}
	if err != nil {
		e.Log.Error("reading a game of the history", "id", id, "error", err.Error())
		return nil, errors.New("That game could not be read just now; try again in a minute.")
	}
	return New(e, g, draw)
}

// New is the replay of g, a game of the player's history.
func New(e *ui.Env, g store.HistoryEntry, draw TableDrawing) (ui.Screen, error) {
	what, outcome := ui.HistoryLine(g, e.Player.ID)
	s := &screen{env: e, speed: 1,
		title: fmt.Sprintf("Replay: %s, %s, %s", what, outcome, g.Finished.UTC().Format("2006-01-02 15:04"))}
	var err error
	switch {
	case g.Table != nil:
		s.t, err = newTableTape(e, *g.Table, draw)
	case g.Race != nil:
		s.t = newRaceTape(e, g)
	case g.Result != nil:
		s.t, err = newSolitaireTape(e, *g.Result)
	default:
		err = errors.New("This game cannot be replayed.")
	}
	if err != nil {
		return nil, err
	}
	return s, nil
}

func (s *screen) MinSize() (int, int) { return 80, 24 }

func (s *screen) Update(msg tea.Msg) tea.Cmd {
	switch m := msg.(type) {
	case tickMsg:
		if m.s != s || m.gen != s.gen || !s.playing {
			return nil
		}
		if s.pos < s.t.steps() {
			s.pos++
		}
		return s.next()
	case tea.KeyPressMsg:
		return s.press(m.String())
	}
	return nil
}

func (s *screen) press(k string) tea.Cmd {
	n := s.t.steps()
	switch k {
	case "right", "l":
		s.stop()
		s.pos = min(s.pos+1, n)
	case "left", "h":
		s.stop()
		s.pos = max(s.pos-1, 0)
	case "home", "0":
		s.stop()
		s.pos = 0
	case "end", "$":
		s.stop()
		s.pos = n
	case "space", "p":
		if s.playing {
			s.stop()
			return nil
		}
		if s.pos >= n {
			s.pos = 0
		}
		s.playing = true
		s.gen++
		return s.next()
	case "+", "=", "f":
		s.speed = min(s.speed*2, maxSpeed)
	case "-", "s":
		s.speed = max(s.speed/2, 1)
	case "q", "esc":
		s.stop()
		return s.env.Back()
	default:
		s.t.key(k)
	}
	return nil
}

func (s *screen) stop() { s.playing = false; s.gen++ }

// next is the tick of the next action at its pace, or nothing at the end.
func (s *screen) next() tea.Cmd {
	if s.pos >= s.t.steps() {
		s.playing = false
		return nil
	}
	wait := steady
	if to, ok := s.t.at(s.pos + 1); ok {
		var from time.Duration
		if s.pos > 0 {
			from, _ = s.t.at(s.pos)
		}
		wait = min(max(to-from, 0), longest)
	}
	wait /= time.Duration(s.speed)
	gen := s.gen
	return tea.Tick(max(wait, 10*time.Millisecond), func(time.Time) tea.Msg { return tickMsg{s: s, gen: gen} })
}

// slider is the line that says where the replay is: the action of how
// many, a bar, the time, the speed and whether it plays.
func (s *screen) slider(w int) string {
	n := s.t.steps()
	head := fmt.Sprintf(" %d/%d ", s.pos, n)
	tail := ""
	if t, ok := s.t.at(s.pos); ok && s.pos > 0 {
		tail += " " + format.Duration(t)
	}
	tail += fmt.Sprintf(" x%d", s.speed)
	if s.playing {
		tail += " playing"
	} else {
		tail += " paused"
	}
	barW := max(w-len("Move")-len(head)-len(tail)-2, 4)
	at := 0
	if n > 0 {
		at = s.pos * (barW - 1) / n
	}
	fill, knob, rest := "=", "o", "-"
	if s.env.Unicode {
		fill, knob, rest = "━", "●", "─"
	}
	bar := strings.Repeat(fill, at) + knob + strings.Repeat(rest, barW-1-at)
	return "Move" + head + "[" + bar + "]" + tail
}

func (s *screen) View() string {
	e := s.env
	w, h := e.Width, e.Height
	body := s.t.body(s.pos)
	if _, own := s.t.(ownHeader); !own {
		body = append([]string{s.header()}, body...)
	}
	room := h - 2
	lines := make([]string, 0, h)
	for i := 0; i < room; i++ {
		if i < len(body) {
			lines = append(lines, body[i])
		} else {
			lines = append(lines, "")
		}
	}
	lines = append(lines, fitWidth(s.slider(w), w))
	pairs := append([]string{"←→", "one action", "space", "play/pause", "+/-", "speed"}, s.t.keys()...)
	pairs = append(pairs, "q", "back")
	lines = append(lines, ui.HelpBar(w, pairs...))
	return strings.Join(lines, "\n")
}

// fitWidth cuts a plain line to w cells.
func fitWidth(s string, w int) string {
	if lipgloss.Width(s) <= w {
		return s
	}
	r := []rune(s)
	for len(r) > 0 && lipgloss.Width(string(r)) > w {
		r = r[:len(r)-1]
	}
	return string(r)
}

// header is a replay's first line: its title, cut to the width.
func (s *screen) header() string { return ui.TitleStyle.Render(fitWidth(s.title, s.env.Width)) }

func splitLines(s string) []string { return strings.Split(strings.TrimSuffix(s, "\n"), "\n") }
