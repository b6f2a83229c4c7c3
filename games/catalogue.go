// Package games is the house's one registry of games: every fact about a
// game that is not its rules lives here (names, variants and their titles,
// options and their defaults, whether boards rank by points, the solver and
// its budget, rules and strategy text, deal ranges, the few facts a screen
// needs). A new game is one entry below plus its package; nothing else in
// the house branches on a game's name.
package games

import (
	"fmt"
	"slices"

	"sshuffle/engine"
	"sshuffle/games/freecell"
	"sshuffle/games/klondike"
	"sshuffle/games/pyramid"
	"sshuffle/games/spider"
	"sshuffle/games/tripeaks"
)

// Kind is how a game is played.
type Kind uint8

const (
	Solitaire Kind = iota // one player against the deal
	Table                 // seats around one deal, people or computer players
)

// Solver is a package's solver: it sees every card.
type Solver func(engine.Spec, int) engine.Result[engine.Action]

// Options are a player's choices for one game, by option key. They are
// preferences kept per player, not part of the deal: a game in progress
// keeps the ones it was dealt with (they travel in its save).
type Options map[string]bool

// On reports whether the option key is on.
func (o Options) On(key string) bool { return o[key] }

// On and Off are the two values of every player option.
const (
	On  = "on"
	Off = "off"
)

// option is a player option as an engine.Setting: Values[0] is the default.
func option(key, label string, def bool) engine.Setting {
	if def {
		return engine.Setting{Key: key, Label: label, Values: []string{On, Off}}
	}
	return engine.Setting{Key: key, Label: label, Values: []string{Off, On}}
}

// Winnable is the option every game whose deals the solver vets offers.
var Winnable = option("winnable", "Winnable deals only (deals our solver has won)", true)

// Range is where random deals are drawn from: seeds First to Last, less
// the ones in Skip.
type Range struct {
	First, Last uint64
	Skip        []uint64
}

// Contains reports whether n is a deal the range would draw.
func (r Range) Contains(n uint64) bool {
	return n >= r.First && n <= r.Last && !slices.Contains(r.Skip, n)
}

// seeds is the range of games dealt from a shuffle seed.
var seeds = Range{First: 1, Last: 1_000_000_000}

// Keys say what the game's own keys do, for the help screen.
type Keys struct {
	Draw string // d: "" when the game has no stock
	Home string // f: where "home" is in this game
}

// Variant is one way to play a game; the menu has a line for each.
type Variant struct {
	Name  string // engine.Spec.Variant; "" for a game without variants
	Title string // the menu line: "Klondike · Draw 1"
	Blurb string
	// Winnable: the solver vets this variant's deals, so the Winnable
	// option applies (and today's deal is a solver-won one).
	Winnable bool
}

// Game is one entry of the registry.
type Game struct {
	Name  string // engine.Spec.Game
	Title string // the game's name alone: "Klondike"
	Kind  Kind
	// Variants in menu order; a game without variants has one, named "".
	Variants []Variant
	// New deals a solitaire with the player's options; nil for a table
	// game (played at a live table), or a game listed but not playable
	// yet (Soon says what is coming).
	New  func(engine.Spec, Options) (engine.Solitaire, error)
	Soon string
	// Text prints a deal's opening layout.
	Text func(engine.Spec) (string, error)
	// Solve and Nodes: the solver and a budget (in positions) that decides
	// nearly every deal in about two seconds of one core at most (of each
	// core, for SolveOn).
	Solve Solver
	Nodes int
	// SolveOn searches one deal on several goroutines, with a budget
	// counting the positions of all of them; nil where the solver has no
	// such search.
	SolveOn func(spec engine.Spec, nodes, threads int) engine.Result[engine.Action]
	// SolvePaced is Solve calling pause between short stretches of its
	// search, so that a server can let its screens go first while it
	// rates a deal aside, and stopping (ok false) once pause says false;
	// nil where the solver has no pauses.
	SolvePaced func(spec engine.Spec, nodes int, pause func() bool) (r engine.Result[engine.Action], ok bool)
	// Options are the player's preferences for this game (besides
	// Winnable, which a Variant brings), each with two values "on"/"off".
	Options []engine.Setting
	// Settings are the table options that are part of the deal spec (and
	// so name a board); none of the solitaires has any.
	Settings []engine.Setting
	// Points: the game keeps a score worth ranking, so boards rank by
	// points after won/lost, and screens show the score.
	Points          bool
	Rules, Strategy string
	// Deals is where a random deal comes from; a deal number typed in may
	// go further (the game's New says how far).
	Deals Range
	// HintAside: the hint runs a search that can take a moment, so it runs
	// on a copy away from the screen's goroutine. StuckAside: the same for
	// the check that no move can change the position.
	HintAside, StuckAside bool
	Keys                  Keys
	// MinPlayers and MaxPlayers bound a table's seats.
	MinPlayers, MaxPlayers int
	// Kit is a table game's kit: how the server deals, seats, plays,
	// describes and records it, and the codec of its actions and views.
	// nil for a solitaire.
	Kit engine.TableKit
}

// TableGame is the entry of a table game, every fact taken from its kit:
// one variant, the game itself, with the blurb the menu shows.
func TableGame(kit engine.TableKit, blurb string) *Game {
	in := kit.Info()
	return &Game{
		Name: in.Name, Title: in.Title, Kind: Table,
		Variants:   []Variant{{Title: in.Title, Blurb: blurb}},
		Settings:   in.Settings,
		MinPlayers: in.MinPlayers, MaxPlayers: in.MaxPlayers,
		Kit: kit,
	}
}

// Entry is one line of the menu: a game in one of its variants.
type Entry struct {
	Game    *Game
	Variant Variant
}

// Key is the game-and-settings key used for stats, saves and boards.
func (e Entry) Key() string { return e.Spec(0).Key() }

// Title is the entry's menu line.
func (e Entry) Title() string { return e.Variant.Title }

// Spec is the entry's deal with this seed.
func (e Entry) Spec(seed uint64) engine.Spec {
	return engine.Spec{Game: e.Game.Name, Variant: e.Variant.Name, Seed: seed}
}

// Playable reports whether the entry can be dealt today.
func (e Entry) Playable() bool { return e.Game != nil && e.Game.New != nil }

// AtTable reports a table game, played at a live table (a lobby opens it)
// rather than dealt alone.
func (e Entry) AtTable() bool { return e.Game != nil && e.Game.Kind == Table }

// Options are the options the player can set for this entry.
func (e Entry) Options() []engine.Setting {
	var o []engine.Setting
	if e.Variant.Winnable {
		o = append(o, Winnable)
	}
	return append(o, e.Game.Options...)
}

// Defaults are the entry's options as they are until the player sets them.
func (e Entry) Defaults() Options {
	o := Options{}
	for _, s := range e.Options() {
		o[s.Key] = s.Values[0] == On
	}
	return o
}

// Catalogue is a list of games in menu order.
type Catalogue struct{ games []*Game }

// NewCatalogue lists games in the order given.
func NewCatalogue(games ...*Game) *Catalogue { return &Catalogue{games: games} }

// Games are the catalogue's games in menu order.
func (c *Catalogue) Games() []*Game { return slices.Clone(c.games) }

// Game finds a game by its name.
func (c *Catalogue) Game(name string) (*Game, bool) {
	for _, g := range c.games {
		if g.Name == name {
			return g, true
		}
	}
	return nil, false
}

// TableKit finds a table game's kit by the game's name.
func (c *Catalogue) TableKit(name string) (engine.TableKit, bool) {
	g, ok := c.Game(name)
	if !ok || g.Kit == nil {
		return nil, false
	}
	return g.Kit, true
}

// TableGames are the catalogue's table games in menu order.
func (c *Catalogue) TableGames() []*Game {
	var out []*Game
	for _, g := range c.games {
		if g.Kit != nil {
			out = append(out, g)
		}
	}
	return out
}

// Entries are the menu's lines, in order.
func (c *Catalogue) Entries() []Entry {
	var out []Entry
	for _, g := range c.games {
		for _, v := range g.Variants {
			out = append(out, Entry{Game: g, Variant: v})
		}
	}
	return out
}

// Entry finds an entry by its key ("klondike/draw1", "freecell").
func (c *Catalogue) Entry(key string) (Entry, bool) {
	for _, e := range c.Entries() {
		if e.Key() == key {
			return e, true
		}
	}
	return Entry{}, false
}

// Lookup is the entry a spec is dealt from, with the spec's settings in
// their one canonical form (checked against the game's settings, so a
// solitaire's spec has none).
func (c *Catalogue) Lookup(spec engine.Spec) (Entry, engine.Spec, error) {
	g, ok := c.Game(spec.Game)
	if !ok {
		return Entry{}, spec, fmt.Errorf("there is no game %q", spec.Game)
	}
	settings, err := engine.NormalizeSettings(spec.Settings, g.Settings)
	if err != nil {
		return Entry{}, spec, fmt.Errorf("%s: %v", g.Title, err)
	}
	spec.Settings = settings
	for _, v := range g.Variants {
		if v.Name == spec.Variant {
			return Entry{Game: g, Variant: v}, spec, nil
		}
	}
	return Entry{}, spec, fmt.Errorf("%s has no variant %q", g.Title, spec.Variant)
}

// Default is the house's catalogue.
func Default() *Catalogue { return house }

var house = NewCatalogue(
	&Game{
		Name: "klondike", Title: "Klondike", Kind: Solitaire,
		Variants: []Variant{
			{Name: "draw1", Title: "Klondike · Draw 1", Winnable: true,
				Blurb: "The classic: seven columns, turn one card at a time, unlimited passes."},
			{Name: "draw3", Title: "Klondike · Draw 3", Winnable: true,
				Blurb: "Turn three at a time; only the top waste card plays. Unlimited passes."},
		},
		New:  adapt(klondike.New),
		Text: klondike.Text, Solve: klondike.Solve, Nodes: klondike.DefaultNodes, SolveOn: klondike.SolveOn, SolvePaced: klondike.SolvePaced,
		Points: true, Deals: seeds,
		Keys:     Keys{Draw: "turn the stock", Home: "send the card home at once"},
		Strategy: "Turn up face-down cards first, from the longest columns; empty a column only when a King is ready to fill it; don't rush cards to the foundations that the columns still need to build on.",
		Rules:    "Build the columns down in alternating colours; move any face-up card with everything on it when the run is in order. Only a King (or a King-led run) fills an empty column. Foundations go up by suit from Ace to King. Turn the stock onto the waste; only the top waste card plays; unlimited passes. Score: waste to column 5, to foundation 10, column to foundation 10, turning a card 5, foundation back to a column -15, recycling the waste -100 (Draw 1).",
	},
	&Game{
		Name: "freecell", Title: "FreeCell", Kind: Solitaire,
		Variants: []Variant{{Title: "FreeCell",
			Blurb: "Every card face up, four free cells. Numbered deals from the classic 32,000."}},
		New:  newFreeCell,
		Text: freecell.Text, Solve: freecell.Solve, Nodes: 2_000_000,
		Options: []engine.Setting{
			option("auto", "Send safe cards to the foundations automatically", true),
			option("return", "Let the top foundation card come back to a column", false),
		},
		// The classic 32,000, less 11982: the one deal of them that
		// cannot be won.
		Deals:     Range{First: 1, Last: 32000, Skip: []uint64{11982}},
		HintAside: true, // the hint is the solver's next move
		Keys:      Keys{Home: "send the card home at once"},
		Strategy:  "Keep free cells empty: each one doubles as room to move runs. Free the Aces and twos early, empty a column when you can (it is worth more than a cell), and plan a run's move before starting it.",
		Rules:     "All 52 cards are dealt face up into eight columns. Move one card at a time: onto a column whose top card is one higher and the other colour, into an empty free cell (one card each), into an empty column, or onto its foundation (by suit, Ace to King). Runs move at once when the free cells and empty columns could carry them one card at a time. Win with all 52 cards on the foundations.",
	},
	&Game{
		Name: "spider", Title: "Spider", Kind: Solitaire,
		Variants: []Variant{
			{Name: "1suit", Title: "Spider · 1 suit", Winnable: true, Blurb: "Two decks of spades, ten columns. The gentlest way in."},
			{Name: "2suit", Title: "Spider · 2 suits", Winnable: true, Blurb: "Spades and hearts: untangle red and black builds."},
			{Name: "4suit", Title: "Spider · 4 suits", Blurb: "Two full decks: the classic, and much harder."},
		},
		New:  adapt(spider.New),
		Text: spider.Text, Solve: spider.Solve, Nodes: spider.DefaultNodes,
		Points: true, Deals: seeds,
		// Spider's hint may look ahead over thousands of positions and its
		// check searches the reachable ones: both can take a noticeable
		// moment.
		HintAside: true, StuckAside: true,
		Keys:     Keys{Draw: "deal a row", Home: "send the card home at once"},
		Strategy: "Build in suit whenever you can: only same-suit runs move together. Turn face-down cards and empty columns before dealing a row, and keep an empty column for shuffling runs around rather than parking a lone card in it.",
		Rules:    "Build down regardless of suit; only same-suit runs move together; any card or same-suit run fills an empty column. Deal a row of ten from the stock when no column is empty. A full King-to-Ace run of one suit leaves the table. Score: 500 to start, -1 per move or row, +100 per finished run.",
	},
	&Game{
		Name: "tripeaks", Title: "TriPeaks", Kind: Solitaire,
		Variants: []Variant{{Title: "TriPeaks", Winnable: true,
			Blurb: "Clear three peaks, one card higher or lower. Long runs pay."}},
		New:  adapt(tripeaks.New),
		Text: tripeaks.Text, Solve: tripeaks.Solve, Nodes: 1_000_000,
		Points: true, Deals: seeds,
		Keys:     Keys{Draw: "turn the stock", Home: "send the card to the waste"},
		Strategy: "Look for the longest chain before playing: runs pay more the longer they get. Prefer cards that uncover face-down ones, and play from the peaks' inner slopes where two cards wait on one.",
		Rules:    "Play any uncovered card one rank above or below the waste card; suits don't matter, and King and Ace connect. A face-down card turns up once both cards over it are gone. When nothing fits, turn the stock (one pass, -5 points, the run starts over). Runs score 1, 2, 3...; clearing the peaks scores 15, 15 and 30.",
	},
	&Game{
		Name: "pyramid", Title: "Pyramid", Kind: Solitaire,
		Variants: []Variant{{Title: "Pyramid", Winnable: true,
			Blurb: "Remove pairs that add up to 13 and take the pyramid apart."}},
		New:  adapt(pyramid.New),
		Text: pyramid.Text, Solve: pyramid.Solve, Nodes: 1_000_000,
		Deals:    seeds,
		Keys:     Keys{Draw: "turn the stock", Home: "remove a King, or the card and its only pair"},
		Strategy: "Work the pyramid from the bottom rows evenly: a card high up is freed only when both below it go. Keep track of where each card's partner is before using a stock card on a pyramid pair it could have matched later.",
		Rules:    "Remove two free cards adding to 13 (A=1, J=11, Q=12); a King goes alone. A card is free once both cards over it are gone. The turned stock card and the waste top pair with each other or with free pyramid cards. Three passes through the stock. Win when the pyramid, stock and waste are all empty.",
	},
	// The table games: played at live tables of the hub, so they have no
	// New; the menu opens their lobby.
	TableGame(SpiteKit(), "Two players race to empty their pay-off piles onto shared stacks."),
	TableGame(KingsKit(), "Build down around the table; 2 to 4 players, the first out wins."),
)

// adapt turns a package's typed constructor into the registry's form
// without the typed-nil trap (a nil *Game inside a non-nil interface).
func adapt[G engine.Solitaire](f func(engine.Spec) (G, error)) func(engine.Spec, Options) (engine.Solitaire, error) {
	return func(s engine.Spec, _ Options) (engine.Solitaire, error) {
		g, err := f(s)
		if err != nil {
			return nil, err
		}
		return g, nil
	}
}

func newFreeCell(spec engine.Spec, o Options) (engine.Solitaire, error) {
	g, err := freecell.NewWithSettings(spec, freecell.Settings{AutoFoundation: o.On("auto"), FoundationReturn: o.On("return")})
	if err != nil {
		return nil, err
	}
	return g, nil
}
