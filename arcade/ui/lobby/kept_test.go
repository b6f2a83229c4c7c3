package lobby

import (
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
	"sshuffle/games"
	"sshuffle/games/spite"
)

// Every frame drawn from what the frames before kept is the frame drawn
// afresh, through the whole script: nothing a line is drawn from is left
// out of what it is kept by.
func TestKeptLobbyFramesAreFresh(t *testing.T) {
	for _, seed := range []uint64{1, 2} {
		playLobbyFrames(t, seed, 300, func(ls *lobbyScript) {
			t.Helper()
			view := ls.r.View().Content
			ls.s.kept = listParts{}
			require.Equal(t, view, ls.r.View().Content, "the frame drawn from what was kept differs from one drawn afresh")
		})
	}
}

// samePieces counts the lines of after that are strings of before (kept),
// and fails for a line the same as one of before made again.
func samePieces(t *testing.T, before, after []string) (kept, made int) {
	t.Helper()
	was := map[string]*byte{}
	for _, p := range before {
		was[p] = unsafe.StringData(p)
	}
	for i, p := range after {
		ptr, ok := was[p]
		switch {
		case !ok:
			made++
		case ptr == unsafe.StringData(p):
			kept++
		default:
			t.Errorf("line %d (%q) is as before but was made again", i, p)
		}
	}
	return kept, made
}

// A relisting makes the rows of the tables that changed, and of those
// that came, and keeps every other line: the rows of the tables that did
// not change (wherever they now are), the title, the detail of the table
// under the cursor and the key bars.
func TestLobbyRelistKeepsUnchangedLines(t *testing.T) {
	ls := newLobbyScript(t, 9)
	for range 12 {
		ls.tables = append(ls.tables, ls.newTable())
	}
	ls.r.Update(Tables{List: slices.Clone(ls.tables)})
	ls.r.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	_, before := ls.r.ViewPieces(nil)
	before = slices.Clone(before)
	require.Len(t, before, 24, "a piece a line")

	ts := slices.Clone(ls.tables)
	ts = slices.Delete(ts, 0, 1)   // the first closes: every row under it moves up
	ts[3].Playing = !ts[3].Playing // one starts
	ts = append(ts, ls.newTable())
	ls.r.Update(Tables{List: ts})
	_, after := ls.r.ViewPieces(nil)
	require.Len(t, after, 24)
	kept, made := samePieces(t, before, after)
	// The row that changed, the row that came into view at the bottom.
	require.Equal(t, 2, made, "only the changed rows are made")
	require.Equal(t, 22, kept)
	got := strings.Join(after, "")
	ls.s.kept = listParts{}
	require.Equal(t, ls.r.View().Content, got, "the pieces differ from a frame drawn afresh")

	// The cursor moving makes the two rows it leaves and reaches, and the
	// detail of the table it reaches.
	_, before = ls.r.ViewPieces(nil)
	before = slices.Clone(before)
	ls.r.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	_, after = ls.r.ViewPieces(nil)
	_, made = samePieces(t, before, after)
	require.LessOrEqual(t, made, 2+3, "two rows and the detail")

	// A relisting that changes nothing shown (the same tables, copied
	// afresh as the hub's list is) draws nothing: no line is made.
	same := make([]Table, len(ts))
	for i, x := range ts {
		x.Seats = slices.Clone(x.Seats)
		same[i] = x
	}
	ls.s.Update(Tables{List: same})
	buf := ls.s.ViewPieces(nil)
	require.Zero(t, testing.AllocsPerRun(20, func() { buf = ls.s.ViewPieces(buf[:0]) }), "a frame of the same list allocates")
}

// A player seated at a table not yet started sees its invite line under
// the lobby, kept as the list changes; the pieces are the frame drawn
// whole.
func TestLobbyPageInviteLineKept(t *testing.T) {
	h := hub.New(hub.Config{TableKit: games.Default().TableKit})
	defer h.Close()
	e := &ui.Env{
		Log: slog.New(slog.DiscardHandler), Now: time.Now, Player: &ui.Player{ID: "k", Name: "ann", Addr: "192.0.2.1"},
		Unicode: true, Color: true, Width: 80, Height: 24, Idle: time.Hour, Games: games.Default(), Hub: h,
		InviteHost: "cards.example.org", InvitePort: 2222, Done: make(chan struct{}),
	}
	defer close(e.Done)
	msgs := make(chan tea.Msg, 64)
	e.Prepare()
	e.SetSend(func(m tea.Msg) { msgs <- m })
	s, err := OpenPage(e, ui.Route{Page: ui.Lobby}, hub.TableConfig{})
	require.NoError(t, err)
	pg := s.(*Page)
	defer pg.Save()
	pg.Open(Open{Game: spite.Name, Seats: []SeatChoice{{}, {}}})
	deadline := time.After(10 * time.Second)
	for pg.seated == nil {
		select {
		case m := <-msgs:
			pg.Update(m)
		case <-deadline:
			t.Fatalf("never seated:\n%s", pg.View())
		}
	}
	before := slices.Clone(pg.ViewPieces(nil))
	require.Len(t, before, 24)
	require.Contains(t, before[23], "Invite: ssh -t -p 2222 cards.example.org join "+pg.code())
	require.Contains(t, strings.Join(before, ""), "You sit in seat 1 at table "+pg.code())
	pg.Update(Tables{List: []Table{{Code: "OTHER", Game: spite.Name, Host: "bob", Seats: []Seat{{Name: "bob"}, {}}}}})
	after := pg.ViewPieces(nil)
	require.Len(t, after, 24)
	require.Same(t, unsafe.StringData(before[23]), unsafe.StringData(after[23]), "the invite line is kept")
	got := strings.Join(after, "")
	pg.kept, pg.inviteOK = listParts{}, false
	require.Equal(t, pg.View(), got)
	e.Height = 16 // too short for the invite line
	require.NotContains(t, pg.View(), "Invite:")
}

// A relisting converts only the tables the hub lists otherwise: the others
// are the tables converted before (their seats the same slice), and the
// screen shows the change.
func TestPageRelistConvertsOnlyChangedTables(t *testing.T) {
	pg := &Page{Screen: New(&ui.Env{Width: 80, Height: 24, Unicode: true, Player: &ui.Player{ID: "k", Name: "ann"}}, &asked{}, GamesOf(games.Default()), nil)}
	info := func(code string, watchers int) hub.TableInfo {
		return hub.TableInfo{Code: code, Game: spite.Name, Host: hub.Person{ID: "b", Name: "bob"}, Watchers: watchers,
			Seats: []hub.SeatInfo{{Name: "bob", Person: hub.Person{ID: "b", Name: "bob"}}, {}}}
	}
	pg.Update(lobbyMsg{list: hub.TableList{Tables: []hub.TableInfo{info("AAAAA", 0), info("BBBBB", 0)}}})
	a, b := unsafe.SliceData(pg.tables[0].Seats), unsafe.SliceData(pg.tables[1].Seats)
	pg.Update(lobbyMsg{list: hub.TableList{Tables: []hub.TableInfo{info("AAAAA", 0), info("BBBBB", 2)}}})
	require.Same(t, a, unsafe.SliceData(pg.tables[0].Seats), "an unchanged table is not converted again")
	require.NotSame(t, b, unsafe.SliceData(pg.tables[1].Seats))
	require.Equal(t, 2, pg.Screen.tables[1].Watchers)
	require.Contains(t, pg.View(), "BBBBB  Spite and Malice     seated 1/2  1 free   host bob, 2 watching")

	// The first closes and two open: the one left is found where it
	// moved to, as it was.
	b = unsafe.SliceData(pg.tables[1].Seats)
	pg.Update(lobbyMsg{list: hub.TableList{Tables: []hub.TableInfo{info("BBBBB", 2), info("CCCCC", 0), info("DDDDD", 1)}}})
	require.Len(t, pg.tables, 3)
	require.Same(t, b, unsafe.SliceData(pg.tables[0].Seats), "a table that moved up is not converted again")
	require.Equal(t, []string{"BBBBB", "CCCCC", "DDDDD"}, []string{pg.tables[0].Code, pg.tables[1].Code, pg.tables[2].Code})
	require.Equal(t, 1, pg.tables[2].Watchers)
	require.NotContains(t, pg.View(), "AAAAA")
}

// Lobbies given the same list share its conversion: the second takes the
// first one's tables, and a list from another hub is converted anew.
func TestPagesShareOneConversion(t *testing.T) {
	env := func() *ui.Env {
		return &ui.Env{Width: 80, Height: 24, Unicode: true, Player: &ui.Player{ID: "k", Name: "ann"}}
	}
	a := &Page{Screen: New(env(), &asked{}, GamesOf(games.Default()), nil)}
	b := &Page{Screen: New(env(), &asked{}, GamesOf(games.Default()), nil)}
	info := func(code string) hub.TableInfo {
		return hub.TableInfo{Code: code, Game: spite.Name, Host: hub.Person{ID: "b", Name: "bob"},
			Seats: []hub.SeatInfo{{Name: "bob", Person: hub.Person{ID: "b", Name: "bob"}}, {}}}
	}
	list := hub.TableList{Tables: []hub.TableInfo{info("AAAAA"), info("BBBBB")}, Version: 7}
	a.Update(lobbyMsg{list: list})
	b.Update(lobbyMsg{list: list})
	require.Len(t, b.Screen.tables, 2)
	require.Same(t, unsafe.SliceData(a.Screen.tables), unsafe.SliceData(b.Screen.tables), "the second lobby converted the list again")

	other := hub.TableList{Tables: []hub.TableInfo{info("CCCCC")}, Version: 7}
	b.Update(lobbyMsg{list: other})
	require.Equal(t, "CCCCC", b.Screen.tables[0].Code)
	require.Equal(t, "AAAAA", a.Screen.tables[0].Code, "a lobby's list changed under it")
	require.Contains(t, b.View(), "CCCCC")
	require.NotContains(t, b.View(), "AAAAA")
}
