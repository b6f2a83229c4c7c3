package arcade

import (
	"context"
	"math"
	"strconv"
	"sync"
	"time"

	"sshuffle/arcade/bot"
	"sshuffle/store"
)

// storedGames are the table games this node stored lately, by table code
// and game number, so that a bot's gameOver can carry the game's history
// id and the rating change it made: the table sends its last state before
// the game is stored, and the bot's session waits here the few
// milliseconds between the two.
type storedGames struct {
	mu    sync.Mutex
	games map[string]storedGame
	wake  chan struct{} // closed and replaced on every put
}

type storedGame struct {
	g  store.TableGame
	at time.Time
}

// storedKeep is how long a stored game stays on the board: a bot session
// reads it within moments, or has given up on it.
const storedKeep = time.Minute

func storedKey(code string, gameNo int) string { return code + "/" + strconv.Itoa(gameNo) }

// put tells the board that g is stored, and wakes whoever waits.
func (b *storedGames) put(g store.TableGame, now time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.games == nil {
		b.games = map[string]storedGame{}
	}
	for k, x := range b.games {
		if now.Sub(x.at) > storedKeep {
			delete(b.games, k)
		}
	}
	b.games[storedKey(g.Code, g.GameNo)] = storedGame{g: g, at: now}
	if b.wake != nil {
		close(b.wake)
		b.wake = nil
	}
}

// wait returns the game stored for code and gameNo, waiting for it until
// ctx ends; false when it did not come (not stored, or stored by another
// node of a cluster).
func (b *storedGames) wait(ctx context.Context, code string, gameNo int) (store.TableGame, bool) {
	for {
		b.mu.Lock()
		x, ok := b.games[storedKey(code, gameNo)]
		if b.wake == nil {
			b.wake = make(chan struct{})
		}
		wake := b.wake
		b.mu.Unlock()
		if ok {
			return x.g, true
		}
		select {
		case <-wake:
		case <-ctx.Done():
			return store.TableGame{}, false
		}
	}
}

// storedWait bounds how long a bot's gameOver waits for its game to be
// stored: a store write takes milliseconds; past this the gameOver goes
// without the id and rating (docs/bots.md says so).
const storedWait = 2 * time.Second

// botStored is the bot session's hook: the history id of account's game
// gameNo at table code, and the rating change it made when rated. A game
// stored by another node of a cluster is looked for in the account's
// newest table games instead.
func (s *Server) botStored(account, code string, gameNo int) (string, *bot.RatingChange) {
	ctx, cancel := context.WithTimeout(context.Background(), storedWait)
	defer cancel()
	g, ok := s.bots.stored.wait(ctx, code, gameNo)
	if ok && !g.Rated {
		return store.TableGameID(g), nil
	}
	// The rating before and after is in the account's own copy, which the
	// store fills in as it moves the rating.
	rctx, rcancel := context.WithTimeout(context.Background(), storedWait)
	defer rcancel()
	mine, err := s.store.TableGames(rctx, account, 8)
	if err != nil {
		s.log.Warn("bot: reading a stored game for its gameOver", "code", code, "game", gameNo, "err", err)
	}
	for _, c := range mine {
		if c.Code != code || c.GameNo != gameNo || (ok && c.Spec != g.Spec) {
			continue
		}
		return store.TableGameID(c), ratingChange(c, account)
	}
	if ok {
		return store.TableGameID(g), nil
	}
	return "", nil
}

// ratingChange is account's seat's rating before and after g; nil when g
// is casual or account holds no rated seat in it.
func ratingChange(g store.TableGame, account string) *bot.RatingChange {
	if !g.Rated {
		return nil
	}
	for _, x := range g.Seats {
		if x.Account != account || x.Rating == nil {
			continue
		}
		r := x.Rating
		return &bot.RatingChange{Before: round(r.Rating), After: round(r.After),
			DeviationBefore: round(r.Deviation), DeviationAfter: round(r.AfterDeviation)}
	}
	return nil
}

func round(f float64) int { return int(math.Round(f)) }
