package engine

// A table game as the server holds it: the typed contract above (Table,
// Player) with the game's own action and view types erased to bytes. The
// room that seats the players, the commands that play computer against
// computer and the screens that draw a table all take a TableKit, so that
// none of them names a game package: a game is registered once, in the
// catalogue (sshuffle/games), which builds its kit from the typed package.
// Actions and views cross as the bytes the kit's codec makes, the form a
// member on another machine would receive them in.

// TableInfo is what the server needs to know of a table game before any
// game is dealt.
type TableInfo struct {
	Name  string // Spec.Game, and a record's "game"
	Title string // the game's name as a player reads it: "Spite and Malice"
	// Settings are the table options, Values[0] each one's default.
	Settings []Setting
	// MinPlayers and MaxPlayers bound the seats.
	MinPlayers, MaxPlayers int
	// Strengths are the computer players NewPlayer makes, weakest first.
	Strengths []string
	// StandIn is the strength that plays for a person whose turn clock
	// ran out or who dropped; "" means the middle one of Strengths.
	StandIn string
	// WinsAre and PointsAre say what a win and the points are, for a
	// report of many games, where that is not "a game won" and "points
	// scored" ("hands gone out", "penalty points").
	WinsAre, PointsAre string
	// Ratings are the computer strengths' fixed ratings at this game
	// (Glicko-2, see sshuffle/engine/rating), measured by playing them
	// against one another (`sshuffle ratings`): a rated game against a
	// computer moves only its people's ratings. A strength left out makes
	// a game it plays in unrated.
	Ratings map[string]StrengthRating
}

// StrengthRating is a computer strength's fixed rating and its deviation.
type StrengthRating struct {
	Rating, Deviation float64
}

// NearestStrength is the computer strength whose fixed rating is nearest
// rating (the weaker on a tie), for offering a person an opponent of their
// level; "" when no strength is rated.
func (in TableInfo) NearestStrength(rating float64) string {
	best, gap := "", 0.0
	for _, s := range in.Strengths {
		r, ok := in.Ratings[s]
		if !ok {
			continue
		}
		d := r.Rating - rating
		if d < 0 {
			d = -d
		}
		if best == "" || d < gap {
			best, gap = s, d
		}
	}
	return best
}

// StandInStrength is the strength that plays for an absent person.
func (in TableInfo) StandInStrength() string {
	if in.StandIn != "" || len(in.Strengths) == 0 {
		return in.StandIn
	}
	return in.Strengths[len(in.Strengths)/2]
}

// TableCodec turns a game's actions and views into bytes and back. A
// decoder takes bytes from anyone: it never panics, and refuses (with a
// sentence a player understands) anything that is not a well-formed value
// of the game, such as a card that is not a card or a seat past the table.
// The decoded values are the game package's own types, erased.
type TableCodec interface {
	EncodeAction(a any) ([]byte, error)
	DecodeAction(b []byte) (any, error)
	EncodeView(v any) ([]byte, error)
	DecodeView(b []byte) (any, error)
}

// TableKit is one table game with its types erased.
type TableKit interface {
	Info() TableInfo
	TableCodec
	// NewMatch deals a match's first game on spec for seats players.
	NewMatch(spec Spec, seats int) (TableMatch, error)
	// ResumeMatch rebuilds a match in progress: game is the current
	// game's number from 0, totals the points counted so far, record the
	// current game's record so far (docs/tablegames.md's form).
	ResumeMatch(spec Spec, game int, totals []int, record []byte) (TableMatch, error)
	// NewPlayer makes a computer player of one of Info().Strengths.
	NewPlayer(strength string, seed uint64) (TablePlayer, error)
	// Replay checks one record line with the game's rules from its start.
	Replay(line []byte) error
}

// TableMatch is a match: games dealt one after another until the match
// setting's end.
type TableMatch interface {
	// Game is the game in play, or the last one once the match is over.
	Game() TableGame
	// Next, once the current game is over, counts it and deals the next;
	// false when the match is over.
	Next() bool
	Totals() []int
	// Winner is the match's winner once it is over, NoSeat before or on a
	// tie.
	Winner() int
}

// TableGame is one game of a match in play.
type TableGame interface {
	// Turn is the seat to act, NoSeat once the game is over.
	Turn() int
	// Do decodes the action and applies it for seat; a refusal (an action
	// that does not decode, or one the rules refuse) leaves the game as it
	// was and is one sentence for the player.
	Do(seat int, action []byte) error
	// View is seat's view (Spectator: the public one), encoded.
	View(seat int) []byte
	// Play makes the computer player's choice for seat, the seat to act,
	// from that seat's view. A choice the rules refuse (a bug in a
	// computer player) is replaced by the first legal action, so a table
	// never stalls; the error says that no action could be made at all.
	Play(seat int, p TablePlayer) error
	// Choice and PlayChosen are Play in two halves, for a caller that
	// keeps the game on one goroutine and lets a computer player think on
	// another. Choice takes seat's view now (a value of its own, sharing
	// nothing with the game) and returns the thinking: a function that
	// touches only that view and p, and returns p's choice encoded (nil
	// when p has none). PlayChosen applies such a choice for seat on the
	// game's goroutine, replacing one that does not decode or that the
	// rules refuse with the first legal action, as Play does. Each p
	// thinks for one seat at a time: its choices draw on its own source.
	Choice(seat int, p TablePlayer) func() []byte
	PlayChosen(seat int, action []byte) error
	Over() (TableResult, bool)
	// NotYourTurn reports whether err is the rules' refusal of a seat
	// acting out of turn, which a table words with the names it knows.
	NotYourTurn(err error) bool
	// Describe words what the game's history gained since the last call,
	// for a table's log; every card it names is face up for everyone.
	Describe(names []string) []string
	// Actions counts the entries of the game's history.
	Actions() int
	// Record is the game so far as a docs/tablegames.md record value, with the
	// given seat words: a value of its own, which another goroutine may
	// marshal to JSON while the game plays on.
	Record(seats []string) any
}

// TablePlayer is a computer player. A kit's own players are chosen for by
// TableGame.Play, in the game's own types; ChooseEncoded is the same
// choice from an encoded view, for a caller that holds only bytes.
type TablePlayer interface {
	ChooseEncoded(view []byte) ([]byte, error)
}

// WireCards is a list of cards as a table codec writes it: the records'
// two-character strings, with a nil list written as null and read back as
// nil, so that "no hand at all" (a spectator's) and "an empty hand" stay
// apart across the wire.
type WireCards []Card

func (cs WireCards) MarshalJSON() ([]byte, error) {
	if cs == nil {
		return []byte("null"), nil
	}
	return RecordCards(cs).MarshalJSON()
}

func (cs *WireCards) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		*cs = nil
		return nil
	}
	var rc RecordCards
	if err := rc.UnmarshalJSON(data); err != nil {
		return err
	}
	*cs = WireCards(rc)
	return nil
}

// TableLegal is a kit that lists, from one seat's encoded view alone, the
// actions that seat may take now, each encoded as the codec writes an
// action. A program that plays a seat from afar (a bot) is sent them with
// every view, so that it never has to know the rules to make a legal move.
// The list is empty when it is not the view's seat's turn.
type TableLegal interface {
	LegalEncoded(view []byte) ([][]byte, error)
}
