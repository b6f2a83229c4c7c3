package lobby

import (
	"fmt"
	"log/slog"
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
	"sshuffle/games"
	"sshuffle/games/spite"
)

// BenchmarkLobbyRelist is one lobby's cost of a relisting on a busy
// server: 200 tables listed, one of them changed (a seat taken, a
// watcher), and the frame drawn as the session's renderer asks for it.
func BenchmarkLobbyRelist(b *testing.B) {
	ls := newLobbyScript(&testing.T{}, 5)
	for range 200 {
		ls.tables = append(ls.tables, ls.newTable())
	}
	lists := make([][]Table, 2)
	for j := range lists {
		ts := slices.Clone(ls.tables)
		for i := range ts {
			ts[i].Seats = slices.Clone(ts[i].Seats)
		}
		ts[3+j].Watchers += 1 + j
		lists[j] = ts
	}
	var pieces []string
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		ls.r.Update(Tables{List: lists[i%2]})
		_, pieces = ls.r.ViewPieces(pieces[:0])
	}
}

// BenchmarkLobbyPageRelist is BenchmarkLobbyRelist from the hub's list:
// 200 tables as the hub lists them, each relisting a new list with one
// table changed, taken by the lobby page and drawn.
func BenchmarkLobbyPageRelist(b *testing.B) {
	e := &ui.Env{Log: slog.New(slog.DiscardHandler), Now: time.Now, Player: &ui.Player{ID: "k", Name: "ann"},
		Unicode: true, Color: true, Width: 80, Height: 24, Idle: time.Hour}
	pg := &Page{Screen: New(e, &asked{}, GamesOf(games.Default()), nil), env: e}
	r := ui.NewRouter(e, build, pg, "")
	r.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	// As the hub lists them: a table that did not change is the same
	// listing (its strings and seats) in the next list.
	var first hub.TableList
	for i := range 200 {
		host := hub.Person{ID: fmt.Sprint("h", i), Name: fmt.Sprint("host", i)}
		first.Tables = append(first.Tables, hub.TableInfo{Code: fmt.Sprintf("T%04d", i), Game: spite.Name, Host: host, Watchers: i % 3,
			Seats: []hub.SeatInfo{{Name: host.Name, Person: host, Here: true}, {}}})
	}
	lists := make([]hub.TableList, 2)
	for j := range lists {
		lists[j].Tables = slices.Clone(first.Tables)
		lists[j].Tables[3+j].Watchers += 1 + j
	}
	var pieces []string
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		r.Update(lobbyMsg{list: lists[i%2]})
		_, pieces = r.ViewPieces(pieces[:0])
	}
}
