package ui

import (
	"strconv"
	"strings"
	"sync"

	"charm.land/lipgloss/v2"
)

var (
	TitleStyle = lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#5fd7ff"))
	FaintStyle = lipgloss.NewStyle().Faint(true)
	ErrStyle   = lipgloss.NewStyle().Foreground(lipgloss.Color("#ff5f5f")).Bold(true)
	OkStyle    = lipgloss.NewStyle().Foreground(lipgloss.Color("#87d787"))
	WarnStyle  = lipgloss.NewStyle().Foreground(lipgloss.Color("#ffd75f"))
	KeyStyle   = lipgloss.NewStyle().Bold(true)
	SelStyle   = lipgloss.NewStyle().Reverse(true)
)

// The styles drawn on every frame, as escape codes (see Codes).
var KeyCodes, FaintCodes = CodesOf(KeyStyle), CodesOf(FaintStyle)

// Codes is a style reduced to the escape codes it puts around a text.
// lipgloss's Render works out borders, margins and widths again on every
// call; for the few dozen styled runs of every frame of every session that
// is most of a frame's time (BenchmarkGameFrame shows it). A style whose
// output is more than Codes around the text keeps going through Render.
type Codes struct {
	Style     lipgloss.Style
	pre, post string
	// Exact: Render writes the codes around the text, not the style.
	Exact bool
}

func CodesOf(style lipgloss.Style) Codes {
	c := Codes{Style: style}
	const mark = "\x00"
	pre, post, ok := strings.Cut(style.Render(mark), mark)
	if !ok {
		return c
	}
	c.pre, c.post, c.Exact = pre, post, true
	for _, text := range []string{"K♠", " 10♥ ", "░░░░░", "[   ]", "a b", "esc drop"} {
		if style.Render(text) != pre+text+post {
			c.Exact = false
		}
	}
	return c
}

func (c Codes) Render(text string) string {
	if !c.Exact {
		return c.Style.Render(text)
	}
	return c.pre + text + c.post
}

// Codes are what Render writes before and after a text; exact false when
// Render is more than that (then Render or Write must be used).
func (c Codes) Codes() (pre, post string, exact bool) { return c.pre, c.post, c.Exact }

func (c Codes) Write(sb *strings.Builder, text string) {
	if !c.Exact {
		sb.WriteString(c.Style.Render(text))
		return
	}
	sb.WriteString(c.pre)
	sb.WriteString(text)
	sb.WriteString(c.post)
}

// HelpBar renders "key action" pairs, dropping pairs from the end until the
// bar fits the width. Every frame of every screen draws a bar or two, and
// the bars are few: each is made once per width and kept.
func HelpBar(width int, pairs ...string) string {
	// The key is made on the stack, and a string of it only for a bar
	// not made before.
	var buf [256]byte
	kb := strconv.AppendInt(buf[:0], int64(width), 10)
	for _, p := range pairs {
		kb = append(kb, 0)
		kb = append(kb, p...)
	}
	helpBars.RLock()
	bar, ok := helpBars.m[string(kb)]
	helpBars.RUnlock()
	if ok {
		return bar
	}
	key := string(kb)
	bar = helpBar(width, pairs...)
	helpBars.Lock()
	if len(helpBars.m) >= 4096 {
		clear(helpBars.m) // bounded: a flood of odd widths starts it over
	}
	helpBars.m[key] = bar
	helpBars.Unlock()
	return bar
}

var helpBars = struct {
	sync.RWMutex
	m map[string]string
}{m: map[string]string{}}

func helpBar(width int, pairs ...string) string {
	for n := len(pairs); n >= 2; n -= 2 {
		s := ""
		w := 0
		for i := 0; i+1 < n; i += 2 {
			part := pairs[i] + " " + pairs[i+1]
			if i > 0 {
				s += "  "
				w += 2
			}
			s += KeyCodes.Render(pairs[i]) + " " + FaintCodes.Render(pairs[i+1])
			w += lipgloss.Width(part)
		}
		if w <= width {
			return s
		}
	}
	return ""
}

// Tone is how a screen's message line reads: news, an error, a warning,
// or good news.
type Tone uint8

const (
	ToneInfo Tone = iota
	ToneErr
	ToneWarn
	ToneOK
)

// Style is the style a message line of the tone is drawn in.
func (t Tone) Style() lipgloss.Style {
	switch t {
	case ToneErr:
		return ErrStyle
	case ToneWarn:
		return WarnStyle
	case ToneOK:
		return OkStyle
	}
	return FaintStyle
}
