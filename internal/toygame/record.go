//lint:file-ignore ST1005 these errors are the sentences players read, capitalised and punctuated as the house rules ask

package toygame

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"sshuffle/engine"
	"sshuffle/games"
)

// Record is one game as a record line, in the form of the house's table
// game records: the game, the seats, the deal, the actions, the result.
type Record struct {
	Game    string         `json:"game"`
	Seats   []string       `json:"seats"`
	Start   Start          `json:"start"`
	Actions []RecordAction `json:"actions"`
	Result  RecordResult   `json:"result"`
}

// RecordAction is one card played, with its seat.
type RecordAction struct {
	Seat int    `json:"seat"`
	Card string `json:"card"`
}

// RecordResult: the winner and each seat's tricks; Winner is nil while the
// game is in play.
type RecordResult struct {
	Winner *int  `json:"winner"`
	Tricks []int `json:"tricks"`
}

// Record writes the game with the given seat words.
func (g *Game) Record(seats []string) Record {
	rec := Record{Game: Name, Seats: slices.Clone(seats), Start: g.start, Actions: []RecordAction{}}
	rec.Start.Hands = [2]engine.RecordCards{slices.Clone(g.start.Hands[0]), slices.Clone(g.start.Hands[1])}
	for _, h := range g.hist {
		rec.Actions = append(rec.Actions, RecordAction{Seat: h.Seat, Card: h.Action.Card.ASCII()})
	}
	if res, over := g.Over(); over {
		rec.Result = RecordResult{Winner: &res.Winner, Tricks: res.Points}
	}
	return rec
}

func replayed(line []byte) (*Game, Record, error) {
	var rec Record
	if err := json.Unmarshal(line, &rec); err != nil {
		return nil, rec, fmt.Errorf("not a record: %v", err)
	}
	if rec.Game != Name {
		return nil, rec, fmt.Errorf("the record is of %q, not %q", rec.Game, Name)
	}
	g, err := FromStart(engine.Spec{Game: Name}, rec.Start)
	if err != nil {
		return nil, rec, err
	}
	for i, ra := range rec.Actions {
		c, err := engine.ParseRecordCard(ra.Card)
		if err == nil {
			err = g.Do(ra.Seat, Action{Card: c})
		}
		if err != nil {
			return nil, rec, fmt.Errorf("action %d: %v", i+1, err)
		}
	}
	return g, rec, nil
}

// Replay replays a finished game's record and checks its result.
func Replay(line []byte) error {
	g, rec, err := replayed(line)
	if err != nil {
		return err
	}
	res, over := g.Over()
	switch {
	case !over:
		return errors.New("the game is not over")
	case rec.Result.Winner == nil || *rec.Result.Winner != res.Winner || !slices.Equal(rec.Result.Tricks, res.Points):
		return fmt.Errorf("the record's result is not the replayed one (seat %d wins, tricks %v)", res.Winner, res.Points)
	}
	return nil
}

// Resume rebuilds a game in progress from its record so far.
func Resume(line []byte) (*Game, error) {
	g, _, err := replayed(line)
	return g, err
}

var (
	errNoMove  = errors.New("That is not a move of High Card.")
	errBadView = errors.New("That is not a view of a High Card table.")
)

// EncodeAction writes a card played as {"card":"2S"}.
func EncodeAction(a Action) ([]byte, error) {
	return json.Marshal(struct {
		Card string `json:"card"`
	}{a.Card.ASCII()})
}

// DecodeAction reads a card played, refusing anything that is not a card
// of the game.
func DecodeAction(b []byte) (Action, error) {
	var w struct {
		Card string `json:"card"`
	}
	if json.Unmarshal(b, &w) != nil {
		return Action{}, errNoMove
	}
	c, err := engine.ParseRecordCard(w.Card)
	if err != nil || !slices.Contains(Deck(), c) {
		return Action{}, errNoMove
	}
	return Action{Card: c}, nil
}

type wireView struct {
	Seat   int              `json:"seat"`
	Turn   int              `json:"turn"`
	Hand   engine.WireCards `json:"hand"`
	Held   [2]int           `json:"held"`
	Trick  [2]string        `json:"trick"`
	Tricks [2]int           `json:"tricks"`
	Over   bool             `json:"over"`
	Winner int              `json:"winner"`
}

// EncodeView writes a view.
func EncodeView(v View) ([]byte, error) {
	w := wireView{Seat: v.Seat, Turn: v.Turn, Hand: engine.WireCards(v.Hand), Held: v.Held, Tricks: v.Tricks,
		Over: v.Over, Winner: v.Winner}
	for i, c := range v.Trick {
		if c != engine.NoCard {
			w.Trick[i] = c.ASCII()
		}
	}
	return json.Marshal(w)
}

// DecodeView reads a view, refusing one no table of the game could show.
func DecodeView(b []byte) (View, error) {
	var w wireView
	if json.Unmarshal(b, &w) != nil {
		return View{}, errBadView
	}
	seat := func(s int) bool { return s == -1 || s == 0 || s == 1 }
	if !seat(w.Seat) || !seat(w.Turn) || !seat(w.Winner) || (w.Hand == nil) != (w.Seat == -1) ||
		len(w.Hand) > HandSize || (w.Seat >= 0 && len(w.Hand) != w.Held[w.Seat]) {
		return View{}, errBadView
	}
	for i := range 2 {
		if w.Held[i] < 0 || w.Held[i] > HandSize || w.Tricks[i] < 0 || w.Tricks[i] > HandSize {
			return View{}, errBadView
		}
	}
	v := View{Seat: w.Seat, Turn: w.Turn, Hand: []engine.Card(w.Hand), Held: w.Held, Tricks: w.Tricks, Over: w.Over,
		Winner: w.Winner}
	for _, c := range v.Hand {
		if !slices.Contains(Deck(), c) {
			return View{}, errBadView
		}
	}
	for i, s := range w.Trick {
		if s == "" {
			continue
		}
		c, err := engine.ParseRecordCard(s)
		if err != nil || !slices.Contains(Deck(), c) {
			return View{}, errBadView
		}
		v.Trick[i] = c
	}
	return v, nil
}

// Kit is High Card as the server holds it, for a test's catalogue.
func Kit() engine.TableKit {
	return games.TablePackage[Action, View, *Game, *Match]{
		Info: engine.TableInfo{Name: Name, Title: Title, Settings: Settings, MinPlayers: 2, MaxPlayers: 2,
			Strengths: Strengths},
		NewMatch: NewMatch, Resume: Resume, ResumeMatch: ResumeMatch, NewPlayer: NewPlayer,
		Describe: Describe, Replay: Replay, NotYourTurn: ErrNotYourTurn,
		Record:       func(g *Game, seats []string) any { return g.Record(seats) },
		EncodeAction: EncodeAction, DecodeAction: DecodeAction, EncodeView: EncodeView, DecodeView: DecodeView,
	}.Kit()
}
