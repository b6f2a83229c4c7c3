package race

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
	"sshuffle/internal/format"
)

// clock is the race time now, between the room's states.
func (s *raceScreen) clock() time.Duration {
	if s.st.Phase == hub.Running {
		return s.st.Elapsed + s.env.Now().Sub(s.got)
	}
	return s.st.Elapsed
}

// standing is one racer's progress in a few words.
func standing(x hub.Standing) string {
	switch {
	case x.Status == hub.Won:
		return fmt.Sprintf("won %s %s", format.Ordinal(x.Place), format.Duration(x.Time))
	case x.Place > 0:
		return fmt.Sprintf("%d/%d %s", x.Home, x.Total, format.Ordinal(x.Place))
	case x.Status == hub.GaveUp:
		return "out (gave up)"
	case x.Status == hub.Dropped:
		return "out (dropped)"
	case x.Status == hub.Over:
		return fmt.Sprintf("%d/%d ended", x.Home, x.Total)
	case x.Status == hub.Ready:
		return "ready"
	}
	if x.Total == 0 {
		return "starting"
	}
	// What every move of a racer changes, in every panel: made without
	// fmt.
	b := make([]byte, 0, 16)
	b = strconv.AppendInt(b, int64(x.Home), 10)
	b = append(b, '/')
	b = strconv.AppendInt(b, int64(x.Total), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(x.Moves), 10)
	return string(append(b, 'm'))
}

// who is a racer's name with what marks them.
func (s *raceScreen) who(x hub.Standing) string {
	n := x.Name
	switch {
	case x.Ghost:
		n += " (ghost)"
	case x.ID == s.st.You:
		n += " (you)"
	}
	return n
}

// panel is the racers beside the board, under its head ("Race CODE" and
// the clock, which the frame writes): two lines each, appended to lines.
// The lines of a racer whose standing is as in kept (the lines made
// before, by racer) are kept's strings; kept is brought up to date.
func (s *raceScreen) panel(lines []string, kept *[]racerLines) []string {
	k := *kept
	for i, x := range s.st.Racers {
		if i >= len(k) {
			k = append(k, racerLines{})
		}
		if r := &k[i]; !r.ok || r.x != x || r.you != s.st.You {
			r.name, r.state = s.racerLines(i, x)
			r.ok, r.x, r.you = true, x, s.st.You
		}
		lines = append(lines, k[i].name, k[i].state)
	}
	*kept = k
	if n := len(s.st.Watchers); n > 0 {
		lines = append(lines, ui.FaintStyle.Render(fmt.Sprintf("%d watching", n)))
	}
	return lines
}

// racerLines is what the panel writes of racer i: a name line and a
// standing line.
func (s *raceScreen) racerLines(i int, x hub.Standing) (name, state string) {
	name, state = strconv.Itoa(i+1)+" "+s.who(x), standing(x)
	// A string's width is at most its length.
	if len(name) > panelWidth-1 && lipgloss.Width(name) > panelWidth-1 {
		// A long name fills the line: what marks it goes under it,
		// with the standing.
		name = fmt.Sprintf("%d %s", i+1, x.Name)
		if tag := strings.TrimPrefix(s.who(x), x.Name+" "); tag != s.who(x) {
			state = tag + " " + state
		}
	}
	return cut(name, panelWidth-1), "  " + cut(state, panelWidth-3)
}

// racerLines are one racer's lines of the panel, made for x as seen by
// you (whose own line says so).
type racerLines struct {
	ok          bool
	x           hub.Standing
	you         string
	name, state string
}

// folded is the panel in one line, for a window too narrow for it.
func (s *raceScreen) folded(width int) string {
	line := "Race " + format.Duration(s.clock()) + s.foldedTail(width-len("Race 0:00:00"))
	if lipgloss.Width(line) > width {
		r := []rune(line)
		for len(r) > 0 && lipgloss.Width(string(r))+1 > width {
			r = r[:len(r)-1]
		}
		line = string(r) + "…"
	}
	return line
}

// foldedTail is the folded panel after its clock: " · " and each racer,
// in room cells: the player always, the others in standing order while
// they fit whole, then how many more there are (the 1-8 keys follow
// them).
func (s *raceScreen) foldedTail(room int) string {
	var b strings.Builder
	parts := make([]string, len(s.st.Racers))
	mine := -1
	for i, x := range s.st.Racers {
		name := x.Name
		if x.ID == s.st.You && !x.Ghost {
			name, mine = "you", i
		}
		parts[i] = " · " + name + " " + standing(x)
	}
	used := 0
	if mine >= 0 {
		used = lipgloss.Width(parts[mine])
	}
	shown := make([]bool, len(parts))
	more := 0
	for i, p := range parts {
		if i == mine {
			shown[i] = true
			continue
		}
		rest := len(parts) - i - 1
		if mine > i {
			rest--
		}
		tail := 0
		if rest > 0 {
			tail = len(" · +9 more")
		}
		if more == 0 && used+lipgloss.Width(p)+tail <= room {
			shown[i], used = true, used+lipgloss.Width(p)
		} else {
			more++
		}
	}
	for i, p := range parts {
		if shown[i] {
			b.WriteString(p)
		}
	}
	if more > 0 {
		fmt.Fprintf(&b, " · +%d more", more)
	}
	return b.String()
}

func cut(s string, w int) string {
	if len(s) <= w {
		return s // no more runes than bytes
	}
	r := []rune(s)
	if len(r) <= w {
		return s
	}
	return string(r[:w-1]) + "…"
}

func (s *raceScreen) View() string { return strings.Join(s.ViewPieces(nil), "") }

// ViewPieces is the view in pieces, one a line (ui.PiecedScreen): while
// racing, a clock turn makes the lines that show the clock, and the others
// are the strings of the frame before.
func (s *raceScreen) ViewPieces(dst []string) []string {
	e := s.env
	if !s.have {
		return append(dst, ui.TitleStyle.Render("Race")+"\n\nJoining the race…")
	}
	switch {
	case s.st.Phase == hub.Lobby, s.st.Phase == hub.Countdown:
		return s.frame.lobby.pieces(dst, s.lobbyView())
	case s.st.Phase == hub.Closed && s.game == nil:
		return s.frame.results.pieces(dst, s.resultsView())
	case s.st.Phase == hub.Finished:
		return s.frame.results.pieces(dst, s.resultsView())
	}
	g := s.game
	if s.view != nil && (g == nil || !s.racing()) {
		g = s.view // a watcher, or a racer who is out, following someone
	}
	if g == nil {
		return s.frame.results.pieces(dst, s.resultsView())
	}
	bw := g.BoardWidth()
	side := e.Width-bw >= panelWidth+2
	g.Reserve(0)
	if side {
		g.Reserve(panelWidth + 1)
	}
	return s.frame.draw(dst, s, g, g.RestLines(), side)
}

func (s *raceScreen) followedName() string {
	for _, x := range s.st.Racers {
		if x.ID == s.st.Following && !x.Ghost {
			return x.Name
		}
	}
	return "a racer"
}

func (s *raceScreen) lobbyView() string {
	e := s.env
	var b strings.Builder
	what := "deal #" + fmt.Sprint(s.st.Spec.Seed)
	if s.st.Ranked {
		what = "today's deal, ranked"
	}
	b.WriteString(ui.TitleStyle.Render("Race "+s.st.Code) + "  " + s.info.Title() + " · " + what + "\n")
	if s.rated {
		b.WriteString(ui.FaintStyle.Render("Difficulty: "+s.rating.Text()) + "\n")
	} else {
		b.WriteString("\n")
	}
	b.WriteString("Invite: " + ui.KeyStyle.Render(e.InviteLine(s.st.Code)) + "\n\n")
	if s.st.Phase == hub.Countdown {
		b.WriteString(ui.WarnStyle.Render(fmt.Sprintf("Starting in %d…", s.st.Count)) + "\n\n")
	} else {
		b.WriteString(fmt.Sprintf("Racers (%d/%d):\n", len(s.st.Racers), hub.MaxRacers))
	}
	for _, x := range s.st.Racers {
		line := "  " + s.who(x)
		if x.Host {
			line += ui.FaintStyle.Render("  host")
		}
		if !x.Here {
			line += ui.FaintStyle.Render("  (away)")
		}
		b.WriteString(line + "\n")
	}
	// Notices and names wrap at words, never cut at the window's edge.
	wrapped := func(text string, st lipgloss.Style, n int) {
		for _, l := range ui.FitLines(text, e.Width, n) {
			b.WriteString(st.Render(l) + "\n")
		}
	}
	if len(s.st.Watchers) > 0 {
		var names []string
		for _, w := range s.st.Watchers {
			names = append(names, w.Name)
		}
		wrapped("Watching: "+strings.Join(names, ", "), ui.FaintStyle, 3)
	}
	b.WriteString("\n")
	msg, tone := s.message()
	switch {
	case s.prompt != nil:
		b.WriteString("Invite whom (a name; enter sends, esc cancels): " + *s.prompt + "_\n")
	case s.phrases.Open():
		// Cut, not wrapped: its double spaces set the phrases apart.
		b.WriteString(tone.Style().Render(format.Clean(msg, e.Width)) + "\n")
	case msg != "":
		wrapped(msg, tone.Style(), 3)
	case s.st.Host == s.st.You && s.st.Phase == hub.Lobby && s.st.Ranked:
		wrapped("You are the host: start when everyone is in. A first try at today's deal counts as the daily one.", ui.FaintStyle, 3)
	case s.st.Host == s.st.You && s.st.Phase == hub.Lobby:
		wrapped("You are the host: start when everyone is in.", ui.FaintStyle, 3)
	case s.st.Phase == hub.Lobby:
		wrapped("Waiting for the host to start.", ui.FaintStyle, 3)
	default:
		b.WriteString("\n")
	}
	if s.st.Host == s.st.You && s.st.Phase == hub.Lobby {
		b.WriteString(ui.HelpBar(e.Width, "s", "start", "g", "add a ghost", "i", "invite a friend", "q", "leave", ui.PhraseKey, "phrases"))
	} else {
		b.WriteString(ui.HelpBar(e.Width, "i", "invite a friend", "q", "leave", ui.PhraseKey, "phrases"))
	}
	return b.String()
}

func (s *raceScreen) resultsView() string {
	e := s.env
	var b strings.Builder
	title := "Race " + s.st.Code + " results"
	if s.st.Phase != hub.Finished {
		title = "Race " + s.st.Code
	}
	b.WriteString(ui.TitleStyle.Render(title) + "  " + s.info.Title() + " · deal #" + fmt.Sprint(s.st.Spec.Seed) + "\n\n")
	for i, x := range s.st.Racers {
		place := "  -  "
		if x.Place > 0 {
			place = fmt.Sprintf("%4s ", format.Ordinal(x.Place))
		}
		status := x.Status.String()
		if x.Status.Out() {
			status = "out"
		}
		fmt.Fprintf(&b, "%d %s %-28s %-8s %6s %4d moves %3d/%d\n", i+1, place, cut(s.who(x), 28), status, format.Duration(x.Time), x.Moves, x.Home, x.Total)
	}
	b.WriteString("\n")
	if msg, tone := s.message(); msg != "" {
		for _, l := range ui.FitLines(msg, e.Width, 3) {
			b.WriteString(tone.Style().Render(l) + "\n")
		}
	} else if s.st.Phase == hub.Finished {
		b.WriteString(ui.FaintStyle.Render("Kept on your profile.") + "\n")
	}
	b.WriteString(ui.HelpBar(e.Width, "1-8", "follow a racer", "q", "menu", ui.PhraseKey, "phrases"))
	return b.String()
}
