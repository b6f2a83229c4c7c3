package toygame_test

import (
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/internal/toygame"
)

// catalogue is a catalogue of the test's own, with High Card its one game:
// the house's catalogue never lists it.
func catalogue() *games.Catalogue {
	return games.NewCatalogue(games.TableGame(toygame.Kit(), "Three cards each; the higher card takes the trick."))
}

// member is a person's screen at the table: the newest state pushed.
type member struct {
	mu   sync.Mutex
	last hub.TableState
	got  chan struct{}
}

func (m *member) sink(st hub.TableState) {
	m.mu.Lock()
	m.last = st
	m.mu.Unlock()
	select {
	case m.got <- struct{}{}:
	default:
	}
}

// TestThroughTheHub plays High Card at a hub table: opened, joined by a
// person, started, played by the person from the views the room pushes
// (decoded with the kit the catalogue holds) against a computer seat to
// the end, and its result record replays with the game's rules. Nothing
// but this package names the game.
func TestThroughTheHub(t *testing.T) {
	cat := catalogue()
	kit, ok := cat.TableKit(toygame.Name)
	require.True(t, ok)
	clock := hub.NewManualClock()
	results := make(chan hub.TableResult, 1)
	h := hub.New(hub.Config{Clock: clock, Rand: engine.NewRNG(3), TableKit: cat.TableKit,
		OnTableResult: func(r hub.TableResult) { results <- r }})
	defer h.Close()

	if _, err := h.OpenTable(hub.TableConfig{Game: toygame.Name, Seats: []hub.SeatPlan{{}, {Computer: "normal"}}}); err == nil {
		t.Fatal("a computer strength High Card does not have was accepted")
	}
	ann := hub.Person{ID: "a", Name: "ann"}
	tb, err := h.OpenTable(hub.TableConfig{Game: toygame.Name, Host: ann, Seats: []hub.SeatPlan{{}, {Computer: "hard"}}})
	require.NoError(t, err)
	me := &member{got: make(chan struct{}, 1)}
	m, err := tb.Join(ann, hub.AnySeat, me.sink)
	require.NoError(t, err)
	require.NoError(t, m.Start())

	bad, _ := toygame.EncodeAction(toygame.Action{Card: engine.MustCards("KD")[0]})
	played := 0
	for range 100 {
		st, err := m.State()
		require.NoError(t, err)
		if st.Phase != hub.TablePlaying {
			break
		}
		if st.Turn != st.Seat {
			clock.Advance(time.Second) // the computer's pace
			continue
		}
		v, err := kit.DecodeView(st.View)
		require.NoError(t, err)
		view := v.(toygame.View)
		require.Len(t, view.Hand, view.Held[0])
		require.Error(t, m.Do(bad), "a card not of the game")
		a, err := kit.EncodeAction(toygame.Action{Card: view.Hand[0]})
		require.NoError(t, err)
		require.NoError(t, m.Do(a))
		played++
	}
	require.Equal(t, toygame.HandSize, played, "the person played each of their cards")
	st, err := m.State()
	require.NoError(t, err)
	require.Equal(t, hub.TableFinished, st.Phase)
	require.NotNil(t, st.Result)
	require.Equal(t, toygame.HandSize, st.Result.Points[0]+st.Result.Points[1])
	require.Contains(t, st.Log[len(st.Log)-1], "wins the game")

	r := <-results
	require.Equal(t, toygame.Name, r.Spec.Game)
	require.Equal(t, "person", r.Seats[0].Strength)
	require.Equal(t, "hard", r.Seats[1].Strength)
	require.NoError(t, kit.Replay(r.Record))
	require.Equal(t, st.Result.Winner, r.Outcome.Winner)
}

// TestCodec: every action and view of real games comes back from its bytes
// equal; hostile bytes are refused.
func TestCodec(t *testing.T) {
	for seed := uint64(1); seed < 20; seed++ {
		g, err := toygame.New(engine.Spec{Game: toygame.Name, Seed: seed}, 2)
		require.NoError(t, err)
		p, _ := toygame.NewPlayer("easy", seed)
		check := func() {
			for _, s := range []int{0, 1, engine.Spectator} {
				v := g.View(s)
				b, err := toygame.EncodeView(v)
				require.NoError(t, err)
				back, err := toygame.DecodeView(b)
				require.NoError(t, err, "%s", b)
				require.Equal(t, v, back)
			}
		}
		check()
		for g.Turn() != engine.NoSeat {
			a := p.Choose(g.View(g.Turn()))
			b, err := toygame.EncodeAction(a)
			require.NoError(t, err)
			back, err := toygame.DecodeAction(b)
			require.NoError(t, err)
			require.Equal(t, a, back)
			require.NoError(t, g.Do(g.Turn(), a))
			check()
		}
		line, err := json.Marshal(g.Record([]string{"easy", "easy"}))
		require.NoError(t, err)
		require.NoError(t, toygame.Replay(line))
	}
	for _, b := range []string{``, `{}`, `{"card":"KD"}`, `{"card":"ZZ"}`, `[1]`} {
		_, err := toygame.DecodeAction([]byte(b))
		require.Error(t, err, b)
	}
	for _, b := range []string{``, `{}`, `{"seat":3,"turn":0,"hand":[]}`, `{"seat":-1,"turn":0,"hand":["AS"]}`,
		`{"seat":0,"turn":0,"hand":["KD"],"held":[1,0]}`, `{"seat":-1,"turn":0,"hand":null,"trick":["ZZ",""]}`} {
		_, err := toygame.DecodeView([]byte(b))
		require.Error(t, err, b)
	}
}
