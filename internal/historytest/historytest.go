// Package historytest makes finished games for the tests of histories,
// replays and exports: real games, played out by the computer players,
// so that their records replay with the rules.
package historytest

import (
	"encoding/json"
	"testing"
	"time"

	"sshuffle/engine"
	"sshuffle/store"
)

// TableGame plays a single game of kit on seed to its end, every seat by
// an easy computer player, and returns it as the store keeps a finished
// game with the given people in the first seats (the rest are computers).
func TableGame(t testing.TB, kit engine.TableKit, code string, seed uint64, seats int, finished time.Time, people ...store.Account) store.TableGame {
	t.Helper()
	spec := engine.Spec{Game: kit.Info().Name, Seed: seed}
	m, err := kit.NewMatch(spec, seats)
	if err != nil {
		t.Fatal(err)
	}
	players := make([]engine.TablePlayer, seats)
	for i := range players {
		if players[i], err = kit.NewPlayer(kit.Info().Strengths[0], seed+uint64(i)); err != nil {
			t.Fatal(err)
		}
	}
	g := m.Game()
	for n := 0; g.Turn() != engine.NoSeat; n++ {
		if n > 100000 {
			t.Fatal("the game does not end")
		}
		if err := g.Play(g.Turn(), players[g.Turn()]); err != nil {
			t.Fatal(err)
		}
	}
	res, over := g.Over()
	if !over {
		t.Fatal("the game is not over")
	}
	words := make([]string, seats)
	out := store.TableGame{Code: code, Game: spec.Game, Spec: spec.String(), Winner: res.Winner, Points: res.Points,
		LowWins: res.LowWins, Totals: res.Points, MatchEnd: true, MatchWinner: res.Winner,
		Started: finished.Add(-time.Minute), Finished: finished}
	for i := range seats {
		s := store.TableSeat{Strength: kit.Info().Strengths[0], Name: engine.ComputerName(kit.Info().Strengths[0], i)}
		words[i] = s.Strength
		if i < len(people) {
			s = store.TableSeat{Account: people[i].ID, Name: people[i].Name, Strength: "person"}
			words[i] = "person"
		}
		out.Seats = append(out.Seats, s)
	}
	if out.Record, err = json.Marshal(g.Record(words)); err != nil {
		t.Fatal(err)
	}
	if err := kit.Replay(out.Record); err != nil {
		t.Fatalf("the record does not replay: %v", err)
	}
	return out
}
