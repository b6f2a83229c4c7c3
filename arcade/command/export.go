package command

import (
	"encoding/json"
	"strings"
	"time"

	"sshuffle/engine"
	"sshuffle/internal/format"
	"sshuffle/store"
)

func init() {
	register(command{names: []string{"export"}, usage: "[--since DATE]",
		help: "all your finished games as JSON Lines, newest first (docs/playing.md says the form)", run: export})
}

// exportValue is the account's games, one JSON line each (docs/playing.md,
// "Export"): a table game is its docs/tablegames.md record with the
// fields below added; a solitaire is its deal, moves and time.
type exportValue struct {
	Games []json.RawMessage `json:"games"`
}

func (v exportValue) Text() string {
	var b strings.Builder
	for _, g := range v.Games {
		b.Write(g)
		b.WriteByte('\n')
	}
	return b.String()
}

// exportHead is what every line has; a table game's record or a
// solitaire's moves come beside it.
type exportHead struct {
	ID       string    `json:"id"`
	Kind     string    `json:"kind"`
	Finished time.Time `json:"finished"`
}

// exportSolitaire is a solitaire (or the account's game in a race): the
// deal spec, the moves from the deal (engine.Action: k kind, f from, i
// index, t to) and when each was made in milliseconds from the start.
type exportSolitaire struct {
	exportHead
	Game      string          `json:"game"`
	Spec      string          `json:"spec"`
	Won       bool            `json:"won"`
	Abandoned bool            `json:"abandoned,omitempty"`
	Score     int             `json:"score"`
	Moves     int             `json:"moves"`
	ElapsedMs int64           `json:"elapsedMs"`
	Actions   []engine.Action `json:"actions"`
	TimesMs   []int64         `json:"timesMs,omitempty"`
	// Options are the game options the moves were made with (FreeCell's
	// "auto" sends safe cards home after each move).
	Options map[string]bool `json:"options,omitempty"`
	// Race: the race this game was played in.
	Race *store.RaceRecord `json:"race,omitempty"`
}

func solitaireLine(e store.HistoryEntry) exportSolitaire {
	out := exportSolitaire{exportHead: exportHead{ID: e.ID, Kind: e.Kind, Finished: e.Finished}, Game: e.Game,
		Race: e.Race, Actions: []engine.Action{}}
	if e.Race != nil {
		out.Spec = e.Race.Spec
	}
	if r := e.Result; r != nil {
		out.Spec, out.Won, out.Abandoned, out.Score, out.Moves = r.Spec, r.Won, r.Abandoned, r.Score, r.Moves
		out.ElapsedMs = r.Elapsed.Milliseconds()
		if r.Actions != nil {
			out.Actions = r.Actions
		}
		out.Options = r.Options
		for _, t := range r.Times {
			out.TimesMs = append(out.TimesMs, t.Milliseconds())
		}
	}
	return out
}

// tableLine is the game's record with the export's fields added; the
// match's deal (whose seed deals its later games) only once it is over.
func tableExport(e store.HistoryEntry) (json.RawMessage, error) {
	var rec map[string]json.RawMessage
	if err := json.Unmarshal(e.Table.Record, &rec); err != nil {
		return nil, err
	}
	g := e.Table
	add := map[string]any{"id": e.ID, "kind": e.Kind, "finished": e.Finished, "code": g.Code, "gameNo": g.GameNo}
	names := make([]string, len(g.Seats))
	for i, s := range g.Seats {
		names[i] = format.Clean(s.Name, store.MaxNameLen)
	}
	add["players"] = names
	if g.MatchEnd {
		add["spec"] = g.Spec
	}
	for k, v := range add {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		rec[k] = b
	}
	return json.Marshal(rec)
}

func export(r Request, name string, args []string) (value, error) {
	usage := name + " [--since DATE]"
	since, rest, err := stringFlag(usage, "--since", args)
	if err != nil {
		return nil, err
	}
	if len(rest) > 0 {
		return nil, refuse(usage, "%s takes only --since DATE (2026-12-01, UTC)", name)
	}
	q := store.HistoryQuery{N: store.MaxBoard}
	if since != "" {
		t, err := time.Parse(time.DateOnly, since)
		if err != nil {
			t, err = time.Parse(time.RFC3339, since)
		}
		if err != nil {
			return nil, refuse(usage, "--since takes a date such as 2026-12-01 (UTC), not %q", format.Clean(since, 40))
		}
		q.Since = t
	}
	if r.ID == "" {
		return nil, refuse(usage, "Guests' games are not kept: connect with an SSH key.")
	}
	v := exportValue{Games: []json.RawMessage{}}
	for {
		es, err := r.Store.History(r.ctx(), r.ID, q)
		if err != nil {
			return nil, fail("your games", err)
		}
		for _, e := range es {
			var line []byte
			switch e.Kind {
			case store.HistoryTable:
				line, err = tableExport(e)
			default:
				// The list holds no moves: the game whole has them.
				whole, gerr := r.Store.HistoryGame(r.ctx(), r.ID, e.ID)
				if gerr != nil {
					return nil, fail("your games", gerr)
				}
				line, err = json.Marshal(solitaireLine(whole))
			}
			if err != nil {
				return nil, fail("your games", err)
			}
			v.Games = append(v.Games, line)
		}
		if len(es) < q.N {
			return v, nil
		}
		q.After = es[len(es)-1].ID
	}
}
