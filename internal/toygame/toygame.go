//lint:file-ignore ST1005 these errors are the sentences players read, capitalised and punctuated as the house rules ask

// Package toygame is High Card, a table game small enough to read in one
// sitting, which exists to prove that a table game plugs into the house
// through its kit alone: tests register it in a catalogue of their own and
// play it through the hub, a table screen and selfplay, and nothing outside
// this package and those tests names it. Only tests import it.
//
// The rules: six cards (Ace, 2 and 3 of spades and hearts) are shuffled
// and dealt three to each of two players. The player to lead plays a card
// face up, then the other plays one; the higher rank takes the trick (on a
// tie, the leader), and the trick's taker leads the next. After three
// tricks the player with more tricks wins.
package toygame

import (
	"errors"
	"fmt"
	"slices"

	"sshuffle/engine"
)

// Name is the game's name in a spec and a record.
const Name = "highcard"

// Title is the game's name as a player reads it.
const Title = "High Card"

// HandSize is the deal: three cards each.
const HandSize = 3

// Settings: none. Strengths: the computer players NewPlayer makes.
var (
	Settings  = []engine.Setting{}
	Strengths = []string{"easy", "hard"}
)

// ErrNotYourTurn is Do's refusal of a seat acting out of turn.
var ErrNotYourTurn = errors.New("It is the other player's turn.")

// Deck is the game's six cards.
func Deck() []engine.Card { return engine.MustCards("AS 2S 3S AH 2H 3H") }

// Action is one card played.
type Action struct{ Card engine.Card }

// View is what one seat may see: its own hand, the cards on the table this
// trick, and the tricks taken. A spectator's has no hand.
type View struct {
	Seat   int
	Turn   int            // engine.NoSeat once over
	Hand   []engine.Card  // nil for a spectator
	Held   [2]int         // cards in each hand
	Trick  [2]engine.Card // this trick's cards by seat, NoCard until played
	Tricks [2]int
	Over   bool
	Winner int
}

// Game is one deal of High Card.
type Game struct {
	spec   engine.Spec
	start  Start
	hands  [2][]engine.Card
	trick  [2]engine.Card
	leader int
	turn   int
	tricks [2]int
	hist   []engine.Acted[Action]
}

// Start is a record's deal.
type Start struct {
	Hands [2]engine.RecordCards `json:"hands"`
	First int                   `json:"first"`
}

// New deals spec for two players from its seed.
func New(spec engine.Spec, players int) (*Game, error) {
	if players != 2 {
		return nil, fmt.Errorf("%s is for 2 players, not %d", Title, players)
	}
	rng := engine.NewRNG(spec.Seed)
	d := Deck()
	for i := len(d) - 1; i > 0; i-- {
		j := rng.Intn(i + 1)
		d[i], d[j] = d[j], d[i]
	}
	st := Start{First: rng.Intn(2)}
	st.Hands[0] = slices.Clone(d[:HandSize])
	st.Hands[1] = slices.Clone(d[HandSize:])
	return FromStart(spec, st)
}

// FromStart builds a game from a record's deal.
func FromStart(spec engine.Spec, st Start) (*Game, error) {
	all := append(slices.Clone(st.Hands[0]), st.Hands[1]...)
	slices.Sort(all)
	want := Deck()
	slices.Sort(want)
	if !slices.Equal(all, want) || len(st.Hands[0]) != HandSize || st.First < 0 || st.First > 1 {
		return nil, errors.New("that is not a deal of High Card")
	}
	g := &Game{spec: spec, start: st, leader: st.First, turn: st.First}
	g.hands[0], g.hands[1] = slices.Clone(st.Hands[0]), slices.Clone(st.Hands[1])
	return g, nil
}

func (g *Game) Spec() engine.Spec { return g.spec }
func (g *Game) Seats() int        { return 2 }

func (g *Game) Turn() int {
	if g.over() {
		return engine.NoSeat
	}
	return g.turn
}

func (g *Game) over() bool { return g.tricks[0]+g.tricks[1] == HandSize }

// Do plays a's card for seat, or says why not.
func (g *Game) Do(seat int, a Action) error {
	switch {
	case g.over():
		return errors.New("The game is over.")
	case seat != g.turn:
		return ErrNotYourTurn
	}
	i := slices.Index(g.hands[seat], a.Card)
	if i < 0 {
		return fmt.Errorf("You don't hold %v.", a.Card)
	}
	g.hands[seat] = slices.Delete(g.hands[seat], i, i+1)
	g.trick[seat] = a.Card
	g.hist = append(g.hist, engine.Acted[Action]{Seat: seat, Action: a})
	other := 1 - seat
	if g.trick[other] == engine.NoCard {
		g.turn = other
		return nil
	}
	taker := g.leader
	if g.trick[1-g.leader].Rank() > g.trick[g.leader].Rank() {
		taker = 1 - g.leader
	}
	g.tricks[taker]++
	g.trick = [2]engine.Card{}
	g.leader, g.turn = taker, taker
	return nil
}

// View is seat's view; any other seat gets the spectator's.
func (g *Game) View(seat int) View {
	v := View{Seat: seat, Turn: g.Turn(), Trick: g.trick, Tricks: g.tricks, Over: g.over(), Winner: engine.NoSeat,
		Held: [2]int{len(g.hands[0]), len(g.hands[1])}}
	if seat == 0 || seat == 1 {
		v.Hand = slices.Clone(g.hands[seat])
	} else {
		v.Seat = engine.Spectator
	}
	if res, over := g.Over(); over {
		v.Winner = res.Winner
	}
	return v
}

// Legal lists the cards seat may play.
func (g *Game) Legal(seat int) []Action {
	if seat != g.Turn() {
		return nil
	}
	var out []Action
	for _, c := range g.hands[seat] {
		out = append(out, Action{Card: c})
	}
	return out
}

// Over: the seat with more tricks wins, scoring its tricks.
func (g *Game) Over() (engine.TableResult, bool) {
	if !g.over() {
		return engine.TableResult{Winner: engine.NoSeat}, false
	}
	w := 0
	if g.tricks[1] > g.tricks[0] {
		w = 1
	}
	return engine.TableResult{Winner: w, Points: []int{g.tricks[0], g.tricks[1]}}, true
}

func (g *Game) History() []engine.Acted[Action] { return slices.Clone(g.hist) }

// Match is one game: High Card plays no matches.
type Match struct{ g *Game }

// NewMatch deals the match's one game.
func NewMatch(spec engine.Spec, players int) (*Match, error) {
	g, err := New(spec, players)
	if err != nil {
		return nil, err
	}
	return &Match{g: g}, nil
}

// ResumeMatch wraps a game rebuilt from its record.
func ResumeMatch(_ engine.Spec, game int, _ []int, current *Game) (*Match, error) {
	if game != 0 {
		return nil, errors.New("High Card plays one game a match")
	}
	return &Match{g: current}, nil
}

func (m *Match) Game() *Game         { return m.g }
func (m *Match) Next() (*Game, bool) { return m.g, false }
func (m *Match) Totals() []int       { res, _ := m.g.Over(); return res.Points }
func (m *Match) Winner() int         { res, _ := m.g.Over(); return res.Winner }

// NewPlayer makes a computer player: easy plays a card at random, hard the
// lowest card that takes the trick, else its lowest.
func NewPlayer(strength string, seed uint64) (engine.Player[Action, View], error) {
	switch strength {
	case "easy":
		return &easy{rng: engine.NewRNG(seed)}, nil
	case "hard":
		return hard{}, nil
	}
	return nil, fmt.Errorf("a computer player is easy or hard, not %q", strength)
}

type easy struct{ rng *engine.RNG }

func (p *easy) Choose(v View) Action { return Action{Card: v.Hand[p.rng.Intn(len(v.Hand))]} }

type hard struct{}

func (hard) Choose(v View) Action {
	hand := slices.Clone(v.Hand)
	slices.SortFunc(hand, func(a, b engine.Card) int { return int(a.Rank()) - int(b.Rank()) })
	if led := v.Trick[1-v.Seat]; led != engine.NoCard {
		for _, c := range hand {
			if c.Rank() > led.Rank() {
				return Action{Card: c}
			}
		}
	}
	return Action{Card: hand[0]}
}

// Describe words one action for a table's log.
func Describe(_, _ View, seat int, a Action, names []string) []string {
	who := fmt.Sprintf("seat %d", seat+1)
	if seat >= 0 && seat < len(names) && names[seat] != "" {
		who = names[seat]
	}
	return []string{who + " played " + a.Card.String()}
}
