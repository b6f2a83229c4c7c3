package arcade

import (
	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/games/freecell"
	"sshuffle/games/klondike"
	"sshuffle/games/pyramid"
	"sshuffle/games/spider"
	"sshuffle/games/tripeaks"
)

// catalogue is the menu's list of solitaires, in menu order.
var catalogue = []gameInfo{
	{Title: "Klondike · Draw 1", Game: "klondike", Variant: "draw1", New: adapt(klondike.New), Points: true,
		Solve: solver("klondike"), WinnableOnly: true, Options: []option{winnableOption},
		Blurb: "The classic: seven columns, turn one card at a time, unlimited passes.",
		Rules: klondikeRules, Strategy: klondikeStrategy},
	{Title: "Klondike · Draw 3", Game: "klondike", Variant: "draw3", New: adapt(klondike.New), Points: true,
		Solve: solver("klondike"), WinnableOnly: true, Options: []option{winnableOption},
		Blurb: "Turn three at a time; only the top waste card plays. Unlimited passes.",
		Rules: klondikeRules, Strategy: klondikeStrategy},
	{Title: "FreeCell", Game: "freecell", New: newFreeCell, Solve: solver("freecell"),
		Options: []option{
			{Key: "auto", Label: "Send safe cards to the foundations automatically", Default: true},
			{Key: "return", Label: "Let the top foundation card come back to a column", Default: false},
		},
		Blurb:    "Every card face up, four free cells. Numbered deals from the classic 32,000.",
		Strategy: "Keep free cells empty: each one doubles as room to move runs. Free the Aces and twos early, empty a column when you can (it is worth more than a cell), and plan a run's move before starting it.",
		Rules:    "All 52 cards are dealt face up into eight columns. Move one card at a time: onto a column whose top card is one higher and the other colour, into an empty free cell (one card each), into an empty column, or onto its foundation (by suit, Ace to King). Runs move at once when the free cells and empty columns could carry them one card at a time. Win with all 52 cards on the foundations."},
	{Title: "Spider · 1 suit", Game: "spider", Variant: "1suit", New: adapt(spider.New), Points: true,
		Solve: solver("spider"), WinnableOnly: true, Options: []option{winnableOption},
		Blurb: "Two decks of spades, ten columns. The gentlest way in.", Rules: spiderRules, Strategy: spiderStrategy},
	{Title: "Spider · 2 suits", Game: "spider", Variant: "2suit", New: adapt(spider.New), Points: true,
		Solve: solver("spider"), WinnableOnly: true, Options: []option{winnableOption},
		Blurb: "Spades and hearts: untangle red and black builds.", Rules: spiderRules, Strategy: spiderStrategy},
	{Title: "Spider · 4 suits", Game: "spider", Variant: "4suit", New: adapt(spider.New), Points: true,
		Solve: solver("spider"),
		Blurb: "Two full decks: the classic, and much harder.", Rules: spiderRules, Strategy: spiderStrategy},
	{Title: "TriPeaks", Game: "tripeaks", New: adapt(tripeaks.New), Points: true,
		Solve: solver("tripeaks"), WinnableOnly: true, Options: []option{winnableOption},
		Blurb:    "Clear three peaks, one card higher or lower. Long runs pay.",
		Strategy: "Look for the longest chain before playing: runs pay more the longer they get. Prefer cards that uncover face-down ones, and play from the peaks' inner slopes where two cards wait on one.",
		Rules:    "Play any uncovered card one rank above or below the waste card; suits don't matter, and King and Ace connect. A face-down card turns up once both cards over it are gone. When nothing fits, turn the stock (one pass, -5 points, the run starts over). Runs score 1, 2, 3...; clearing the peaks scores 15, 15 and 30."},
	{Title: "Pyramid", Game: "pyramid", New: adapt(pyramid.New),
		Solve: solver("pyramid"), WinnableOnly: true, Options: []option{winnableOption},
		Blurb:    "Remove pairs that add up to 13 and take the pyramid apart.",
		Strategy: "Work the pyramid from the bottom rows evenly: a card high up is freed only when both below it go. Keep track of where each card's partner is before using a stock card on a pyramid pair it could have matched later.",
		Rules:    "Remove two free cards adding to 13 (A=1, J=11, Q=12); a King goes alone. A card is free once both cards over it are gone. The turned stock card and the waste top pair with each other or with free pyramid cards. Three passes through the stock. Win when the pyramid, stock and waste are all empty."},
}

// solver is a game's solver from the registry of games.
func solver(name string) solveFunc { return games.All[name].Solve }

func newFreeCell(spec engine.Spec, o options) (engine.Solitaire, error) {
	g, err := freecell.NewWithSettings(spec, freecell.Settings{AutoFoundation: o.on("auto"), FoundationReturn: o.on("return")})
	if err != nil {
		return nil, err
	}
	return g, nil
}

const klondikeStrategy = "Turn up face-down cards first, from the longest columns; empty a column only when a King is ready to fill it; don't rush cards to the foundations that the columns still need to build on."

const klondikeRules = "Build the columns down in alternating colours; move any face-up card with everything on it when the run is in order. Only a King (or a King-led run) fills an empty column. Foundations go up by suit from Ace to King. Turn the stock onto the waste; only the top waste card plays; unlimited passes. Score: waste to column 5, to foundation 10, column to foundation 10, turning a card 5, foundation back to a column -15, recycling the waste -100 (Draw 1)."

const spiderStrategy = "Build in suit whenever you can: only same-suit runs move together. Turn face-down cards and empty columns before dealing a row, and keep an empty column for shuffling runs around rather than parking a lone card in it."

const spiderRules = "Build down regardless of suit; only same-suit runs move together; any card or same-suit run fills an empty column. Deal a row of ten from the stock when no column is empty. A full King-to-Ace run of one suit leaves the table. Score: 500 to start, -1 per move or row, +100 per finished run."
