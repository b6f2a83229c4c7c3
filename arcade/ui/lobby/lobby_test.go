package lobby

import (
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/stretchr/testify/require"

	"sshuffle/arcade/ui"
	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/games/kings"
	"sshuffle/games/spite"
)

// asked keeps the lobby's requests.
type asked struct {
	opens          []Open
	joins          []Join
	starts, stands []string
	invites        [][2]string // code, name
}

func (a *asked) Open(o Open)       { a.opens = append(a.opens, o) }
func (a *asked) Join(j Join)       { a.joins = append(a.joins, j) }
func (a *asked) Start(code string) { a.starts = append(a.starts, code) }
func (a *asked) Stand(code string) { a.stands = append(a.stands, code) }
func (a *asked) Invite(code, name string) {
	a.invites = append(a.invites, [2]string{code, name})
}

type page struct{ r ui.Route }

func (p *page) Update(tea.Msg) tea.Cmd               { return nil }
func (p *page) View() string                         { return fmt.Sprintf("page %d", p.r.Page) }
func (p *page) MinSize() (int, int)                  { return 1, 1 }
func build(_ *ui.Env, r ui.Route) (ui.Screen, error) { return &page{r: r}, nil }

var ansiRE = regexp.MustCompile("\x1b\\[[0-9;:?]*[a-zA-Z]")

type rig struct {
	t   *testing.T
	s   *Screen
	r   *ui.Router
	req *asked
}

func newRig(t *testing.T, color bool, tables []Table) *rig {
	e := &ui.Env{
		Log: slog.New(slog.DiscardHandler), Now: time.Now, Player: &ui.Player{ID: "k", Name: "ann"},
		Unicode: true, Color: color, Width: 80, Height: 24, Idle: time.Hour,
	}
	req := &asked{}
	s := New(e, req, GamesOf(games.Default()), tables)
	return &rig{t: t, s: s, r: ui.NewRouter(e, build, s, ""), req: req}
}

func (g *rig) frame() string { return ansiRE.ReplaceAllString(g.r.View().Content, "") }

func (g *rig) press(keys ...string) {
	for _, k := range keys {
		var m tea.KeyPressMsg
		switch k {
		case "enter":
			m = tea.KeyPressMsg{Code: tea.KeyEnter}
		case "esc":
			m = tea.KeyPressMsg{Code: tea.KeyEscape}
		case "backspace":
			m = tea.KeyPressMsg{Code: tea.KeyBackspace}
		case "up":
			m = tea.KeyPressMsg{Code: tea.KeyUp}
		case "down":
			m = tea.KeyPressMsg{Code: tea.KeyDown}
		case "left":
			m = tea.KeyPressMsg{Code: tea.KeyLeft}
		case "right":
			m = tea.KeyPressMsg{Code: tea.KeyRight}
		default:
			m = tea.KeyPressMsg{Code: []rune(k)[0], Text: k}
		}
		g.r.Update(m)
	}
}

func (g *rig) clickLine(y int) {
	g.r.Update(tea.MouseClickMsg{X: 10, Y: y, Button: tea.MouseLeft})
}

func fits(t *testing.T, frame string, w, h int) {
	t.Helper()
	lines := strings.Split(frame, "\n")
	require.LessOrEqual(t, len(lines), h, frame)
	for i, l := range lines {
		require.LessOrEqual(t, lipgloss.Width(l), w, "line %d too wide: %q", i, l)
	}
}

func someTables() []Table {
	return []Table{
		{Code: "KQRST", Game: kings.Name, Settings: "draw=end", Host: "ann",
			Seats: []Seat{{Name: "ann"}, {}, {Computer: true, Strength: "hard"}, {}}, Watchers: 2},
		{Code: "SPMAL", Game: spite.Name, Host: "bob", Seats: []Seat{{Name: "bob"}, {Reserved: "eve"}}},
		{Code: "BUSYX", Game: spite.Name, Settings: "payoff=13", Host: "cy", Seats: []Seat{{Name: "cy"}, {Name: "dee"}}, Playing: true, Watchers: 1},
	}
}

// A computer player is listed by its name with its strength beside it.
func TestListNamesComputerPlayers(t *testing.T) {
	g := newRig(t, true, nil)
	g.r.Update(Tables{List: []Table{{Code: "KQRST", Game: kings.Name, Host: "ann",
		Seats: []Seat{{Name: "ann"}, {Name: "Turing", Computer: true, Strength: "hard"}, {Name: "Bit", Computer: true, Strength: "easy"}}}}})
	require.Contains(t, g.frame(), "Seats: 1 ann, 2 Turing (hard), 3 Bit (easy).")
}

func lineOf(t *testing.T, frame, s string) string {
	t.Helper()
	for _, l := range strings.Split(frame, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	t.Fatalf("no line holds %q:\n%s", s, frame)
	return ""
}

func TestListShowsTablesAndUpdatesLive(t *testing.T) {
	g := newRig(t, true, nil)
	require.Contains(t, g.frame(), "No table is open")
	g.r.Update(Tables{List: someTables()})
	f := g.frame()
	fits(t, f, 80, 24)
	k := lineOf(t, f, "KQRST")
	for _, want := range []string{"Kings in the Corner", "seated 2/4", "2 free", "host ann", "2 watching"} {
		require.Contains(t, k, want)
	}
	require.Contains(t, lineOf(t, f, "SPMAL"), "Spite and Malice")
	require.Contains(t, lineOf(t, f, "SPMAL"), "seated 1/2")
	require.Contains(t, lineOf(t, f, "BUSYX"), "playing")
	// The chosen table's settings and seats, in words.
	require.Contains(t, f, "Settings: Draw a card: end. Seats: 1 ann, 2 free, 3 computer (hard), 4 free.")
	g.press("down")
	require.Contains(t, g.frame(), "Settings: standard. Seats: 1 bob, 2 kept for eve.")
	// A new list keeps the cursor on the same table, wherever it moved.
	list := someTables()
	list = append([]Table{{Code: "NEWER", Game: kings.Name, Host: "eve", Seats: []Seat{{Name: "eve"}, {}}}}, list...)
	g.r.Update(Tables{List: list})
	f = g.frame()
	require.Contains(t, f, "NEWER")
	require.Contains(t, lineOf(t, f, "> "), "SPMAL")
	// A table that closed leaves the list.
	g.r.Update(Tables{List: list[:1]})
	require.NotContains(t, g.frame(), "SPMAL")
	require.Contains(t, lineOf(t, g.frame(), "> "), "NEWER")
}

func TestJoinAndWatch(t *testing.T) {
	g := newRig(t, true, someTables())
	g.press("enter")
	g.press("w")
	g.press("down", "down", "enter") // playing: watched
	require.Equal(t, []Join{{Code: "KQRST"}, {Code: "KQRST", Watch: true}, {Code: "BUSYX", Watch: true}}, g.req.joins)
	require.Contains(t, g.frame(), "Joining table BUSYX to watch")
	// The hub's refusal shows in red.
	g.r.Update(Refused{Text: "That table is full."})
	require.Contains(t, g.r.View().Content, ui.ErrStyle.Render("That table is full."))
	// Mouse: a click chooses a table, a second click on it sits there.
	g.req.joins = nil
	lines := strings.Split(g.frame(), "\n")
	for i, l := range lines {
		if strings.Contains(l, "SPMAL") {
			g.clickLine(i)
			require.Contains(t, lineOf(t, g.frame(), "> "), "SPMAL")
			require.Empty(t, g.req.joins)
			g.clickLine(i)
		}
	}
	require.Equal(t, []Join{{Code: "SPMAL"}}, g.req.joins)
	// Nothing to join.
	g = newRig(t, false, nil)
	g.press("enter")
	require.Empty(t, g.req.joins)
	require.Contains(t, g.frame(), "! There is no open table yet")
}

func TestOpenATable(t *testing.T) {
	g := newRig(t, true, nil)
	g.press("n")
	f := g.frame()
	fits(t, f, 80, 24)
	require.Contains(t, f, "Open a table")
	require.Contains(t, f, "Spite and Malice")
	// The defaults: Spite, two seats, the second a computer of normal strength.
	g.press("enter", "enter")
	require.Equal(t, Open{Game: spite.Name, Settings: "", Seats: []SeatChoice{{}, {Computer: true, Strength: "normal"}}}, g.req.opens[0])
	require.Contains(t, g.frame(), "Opening the table")
	// The table opened: the form gives way to the list with the seat.
	g.r.Update(Seated{Table: someTables()[0], Seat: 0, Host: true})
	f = g.frame()
	require.NotContains(t, f, "Open a table")
	require.NotContains(t, f, "Opening the table")
	require.Contains(t, f, "You sit in seat 1")

	g = newRig(t, true, nil)
	g.press("n", "right") // Kings in the Corner
	f = g.frame()
	require.Contains(t, f, "Kings in the Corner")
	for _, st := range kings.Settings {
		require.Contains(t, f, st.Label)
	}
	// draw: end; kingsAtOnce stays; match: 25; clock: none; the pace
	// stays; seats: 4; seat 2 a person, seat 3 hard, seat 4 easy.
	g.press("down", "right", "down", "down", "right", "down", "left", "down", "down", "right", "down", "right", "right", "right",
		"down", "left", "left", "down", "left", "down", "right")
	f = g.frame()
	fits(t, f, 80, 24)
	require.Contains(t, lineOf(t, f, "Seats "), "4")
	require.Contains(t, lineOf(t, f, "Seat 2"), "a person")
	require.Contains(t, lineOf(t, f, "Seat 3"), "computer, hard")
	g.press("enter", "enter")
	want := Open{Game: kings.Name, Settings: "draw=end,match=25", Seats: []SeatChoice{{}, {}, {Computer: true, Strength: "hard"}, {Computer: true, Strength: "easy"}},
		Clock: -1, Private: true}
	require.Equal(t, []Open{want}, g.req.opens)
	_, err := engine.NormalizeSettings(want.Settings, kings.Settings)
	require.NoError(t, err)
	// esc goes back to the list; esc there goes back out.
	g.press("esc")
	require.Contains(t, g.frame(), "Tables")
	g.press("esc")
	require.Equal(t, ui.Menu, g.r.Current().(*page).r.Page)
}

// TestOpenAtAPace: the form's pace line goes round steady (the default,
// asked for as ""), quick and instant, and the list shows a table's pace
// when it is not the default.
func TestOpenAtAPace(t *testing.T) {
	for _, c := range []struct {
		keys []string
		want string
		line string
	}{{nil, "", "steady"}, {[]string{"right"}, "quick", "quick"}, {[]string{"left"}, "instant", "instant: no pause"}} {
		g := newRig(t, true, nil)
		g.press("n")
		for i := 0; i < 8 && !strings.Contains(lineOf(t, g.frame(), "> "), "Computer players' pace"); i++ {
			g.press("down")
		}
		require.Contains(t, lineOf(t, g.frame(), "> "), "Computer players' pace")
		require.Contains(t, lineOf(t, g.frame(), "Turn clock"), "60 s", "the line after the turn clock")
		g.press(c.keys...)
		require.Contains(t, lineOf(t, g.frame(), "Computer players' pace"), c.line)
		fits(t, g.frame(), 80, 24)
		g.press("enter", "enter")
		require.Len(t, g.req.opens, 1)
		require.Equal(t, c.want, g.req.opens[0].Pace)
	}
	g := newRig(t, true, []Table{{Code: "QUICK", Game: kings.Name, Host: "ann", Seats: []Seat{{Name: "ann"}, {}}, Pace: "instant"},
		{Code: "STEDY", Game: kings.Name, Host: "bob", Seats: []Seat{{Name: "bob"}, {}}}})
	require.True(t, strings.HasSuffix(strings.TrimSpace(lineOf(t, g.frame(), "QUICK")), "host ann, instant"), lineOf(t, g.frame(), "QUICK"))
	require.Contains(t, g.frame(), "Seats: 1 ann, 2 free. Pace: instant.")
	require.True(t, strings.HasSuffix(strings.TrimSpace(lineOf(t, g.frame(), "STEDY")), "host bob"), lineOf(t, g.frame(), "STEDY"))
}

// Reached from Kings in the Corner on the menu, the form opens on it.
func TestFormOpensOnTheGameChosen(t *testing.T) {
	g := newRig(t, true, nil)
	g.r.Current().(*Screen).ComeFor(kings.Name)
	g.press("n")
	require.Contains(t, lineOf(t, g.frame(), "Game "), "Kings in the Corner")
	g.press("enter", "enter")
	require.Equal(t, kings.Name, g.req.opens[0].Game)
}

func TestOpenFormByMouse(t *testing.T) {
	g := newRig(t, true, nil)
	g.press("n")
	lines := strings.Split(g.frame(), "\n")
	at := func(s string) int {
		for i, l := range lines {
			if strings.Contains(l, s) {
				return i
			}
		}
		t.Fatalf("no %q", s)
		return 0
	}
	// Click a line to choose it, click its right half to step it on.
	y := at("Pay-off pile")
	g.r.Update(tea.MouseClickMsg{X: 50, Y: y, Button: tea.MouseLeft})
	g.r.Update(tea.MouseClickMsg{X: 50, Y: y, Button: tea.MouseLeft})
	require.Contains(t, lineOf(t, g.frame(), "Pay-off pile"), "26")
	y = at("Open the table")
	g.r.Update(tea.MouseClickMsg{X: 5, Y: y, Button: tea.MouseLeft})
	g.r.Update(tea.MouseClickMsg{X: 5, Y: y, Button: tea.MouseLeft})
	require.Len(t, g.req.opens, 1)
	require.Equal(t, "payoff=26", g.req.opens[0].Settings)
}

func TestOddBytesNeverReachTheLobby(t *testing.T) {
	g := newRig(t, true, []Table{{Code: "AB\x1b[2J", Game: "ki\x07ngs", Settings: "draw=\x1b[31mend", Host: "ev\x1b[31mil\r\n",
		Seats: []Seat{{Name: "x\x1b]0;t\x07"}, {Computer: true, Strength: "h\x00ard"}}}})
	g.r.Update(Refused{Text: "no\x1b[5m"})
	for _, raw := range []string{g.r.View().Content} {
		require.NotContains(t, raw, "\x1b[31m")
		require.NotContains(t, raw, "\x1b[2J")
		require.NotContains(t, raw, "\x1b[5m")
		rest := regexp.MustCompile("\x1b\\[[0-9;:]*m").ReplaceAllString(raw, "")
		for _, r := range rest {
			require.False(t, (r < 0x20 && r != '\n') || r == 0x7f || (r >= 0x80 && r < 0xa0), "control %q in %q", r, rest)
		}
	}
	g.press("right") // clears the refusal, shows the detail
	require.NotContains(t, g.r.View().Content, "\x1b]0;")
}

func TestLobbyTooSmall(t *testing.T) {
	g := newRig(t, true, someTables())
	g.r.Update(tea.WindowSizeMsg{Width: 59, Height: 24})
	require.Contains(t, g.frame(), "Make the window at least 60x16")
	g.r.Update(tea.WindowSizeMsg{Width: 60, Height: 16})
	fits(t, g.frame(), 60, 16)
	require.Contains(t, g.frame(), "KQRST")
}

func TestSeatedWaitsAndTheHostStarts(t *testing.T) {
	g := newRig(t, true, someTables())
	g.press("s")
	require.Contains(t, g.frame(), "You sit at no table yet.")
	g.r.Update(Seated{Table: someTables()[0], Seat: 1})
	f := g.frame()
	fits(t, f, 80, 24)
	require.Contains(t, f, "You sit in seat 2 at table KQRST (Kings in the Corner). Waiting for ann to")
	g.press("s")
	require.Empty(t, g.req.starts)
	require.Contains(t, g.frame(), "Only the host starts the table.")
	g.r.Update(Seated{Table: someTables()[0], Seat: 0, Host: true})
	require.Contains(t, g.frame(), "Press s to start")
	g.press("s")
	require.Equal(t, []string{"KQRST"}, g.req.starts)
	// Clicks still land on the list's lines below the banner.
	lines := strings.Split(g.frame(), "\n")
	for i, l := range lines {
		if strings.Contains(l, "BUSYX") {
			g.clickLine(i)
		}
	}
	require.Contains(t, lineOf(t, g.frame(), "> "), "BUSYX")
	g.press("x")
	require.Equal(t, []string{"KQRST"}, g.req.stands)
	g.r.Update(Seated{})
	require.NotContains(t, g.frame(), "You sit in seat")
	// Leaving the lobby while seated gives the seat up.
	g.r.Update(Seated{Table: someTables()[1], Seat: 1})
	g.press("q")
	require.Equal(t, []string{"KQRST", "SPMAL"}, g.req.stands)
}

func TestJoinByCode(t *testing.T) {
	g := newRig(t, true, nil)
	g.press("c", "k", "q", "1", "r", "x", "backspace", "s", "t")
	require.Contains(t, g.frame(), "Table code (enter to join, esc to cancel): KQRST_")
	g.press("enter")
	require.Equal(t, []Join{{Code: "KQRST"}}, g.req.joins)
	g.press("c", "a", "esc", "enter")
	require.Len(t, g.req.joins, 1, "esc cancels; enter then joins nothing")
}

func TestInviteAFriendFromTheSeat(t *testing.T) {
	g := newRig(t, true, someTables())
	g.press("i")
	require.Contains(t, g.frame(), "Sit at a table first")
	require.NotContains(t, g.frame(), "Invite whom")

	g.r.Update(Seated{Table: someTables()[0], Seat: 1})
	require.Contains(t, g.frame(), "i invite")
	// Characters a name cannot hold are not typed; q is a letter here.
	g.press("i", "b", "o", " ", "q", "backspace", "b", "!")
	f := g.frame()
	fits(t, f, 80, 24)
	require.Contains(t, f, "Invite whom (a name; enter sends, esc cancels): bob_")
	g.press("enter")
	require.Equal(t, [][2]string{{"KQRST", "bob"}}, g.req.invites)
	require.Contains(t, g.frame(), "Inviting bob…")
	require.NotContains(t, g.frame(), "Invite whom")
	g.r.Update(Invited{Name: "Bob"})
	require.Contains(t, g.frame(), "Invited Bob.")

	// esc cancels: nothing is sent, and the lobby is still there.
	g.press("i", "e", "v", "esc")
	require.NotContains(t, g.frame(), "Invite whom")
	g.press("enter") // enter on the list again: it joins, it does not invite
	require.Len(t, g.req.invites, 1)

	// A name too short for anyone is refused here, with the store's sentence.
	g.press("i", "c", "y", "enter")
	require.Contains(t, g.frame(), "A name needs 3 to 20 characters.")
	require.Len(t, g.req.invites, 1)
	// The hub's refusal is shown as it says it.
	g.press("i", "c", "y", "d", "enter")
	require.Equal(t, [2]string{"KQRST", "cyd"}, g.req.invites[1])
	g.r.Update(Refused{Text: "You can invite only players you follow, and you do not follow cyd."})
	require.Contains(t, g.frame(), "You can invite only players you follow, and you do not follow cyd.")

	// Standing up mid-prompt closes it: there is no table to invite to.
	g.press("i", "d")
	g.r.Update(Seated{})
	require.NotContains(t, g.frame(), "Invite whom")
	g.press("enter")
	require.Len(t, g.req.invites, 2)
}

// The host's part passed on to this player (its holder left): the lobby
// says so, and s now starts the table.
func TestTheHostsPartComesToYou(t *testing.T) {
	g := newRig(t, true, someTables())
	g.r.Update(Seated{Table: someTables()[0], Seat: 1})
	require.NotContains(t, g.frame(), "you host the table now")
	g.r.Update(Seated{Table: someTables()[0], Seat: 1, Host: true})
	f := g.frame()
	fits(t, f, 80, 24)
	require.Contains(t, f, "The host left: you host the table now.")
	require.Contains(t, f, "Press s to start")
	g.r.Update(Seated{Table: someTables()[0], Seat: 1, Host: true})
	g.press("down")
	require.NotContains(t, g.frame(), "you host the table now", "said once")
}
