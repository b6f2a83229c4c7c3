// Package save is the format of a game in progress, kept in the store: the
// deal spec and the moves, never a position. The solitaire screen writes
// and reads it; the text commands read the deal a save is of (daily).
package save

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"sshuffle/engine"
	"sshuffle/games"
)

// Version is bumped when the save format changes; an older save is then
// read by a converter or refused with a message, never misread.
const Version = 1

// Game is a game in progress: the deal and the moves, never a position,
// so a save can never hold an impossible position.
type Game struct {
	V       int             `json:"v"`
	Spec    string          `json:"spec"`
	Actions []engine.Action `json:"actions"`
	Elapsed time.Duration   `json:"elapsed"`
	Hints   int             `json:"hints"`
	Options games.Options   `json:"options,omitempty"`
}

// Encode is the save of g.
func Encode(g engine.Solitaire, opts games.Options, elapsed time.Duration, hints int) ([]byte, error) {
	return json.Marshal(Game{V: Version, Spec: g.Spec().String(), Actions: g.History(), Elapsed: elapsed, Hints: hints, Options: opts})
}

// Decode rebuilds the game by replaying the moves on a fresh deal.
func Decode(data []byte, newGame func(engine.Spec, games.Options) (engine.Solitaire, error)) (engine.Solitaire, Game, error) {
	var s Game
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, s, fmt.Errorf("the save is damaged (%v)", err)
	}
	if s.V != Version {
		return nil, s, fmt.Errorf("the save has format %d, this server reads %d", s.V, Version)
	}
	spec, err := engine.ParseSpec(s.Spec)
	if err != nil {
		return nil, s, err
	}
	g, err := newGame(spec, s.Options)
	if err != nil {
		return nil, s, err
	}
	for i, a := range s.Actions {
		if err := g.Do(a); err != nil {
			return nil, s, fmt.Errorf("move %d of the save does not replay: %v", i+1, err)
		}
	}
	if s.Elapsed < 0 || s.Hints < 0 {
		return nil, s, errors.New("the save has a negative time or hint count")
	}
	return g, s, nil
}

// Spec is the deal a save is of, read without replaying its moves.
func Spec(data []byte) (engine.Spec, error) {
	var s Game
	if err := json.Unmarshal(data, &s); err != nil {
		return engine.Spec{}, fmt.Errorf("the save is damaged (%v)", err)
	}
	if s.V != Version {
		return engine.Spec{}, fmt.Errorf("the save has format %d, this server reads %d", s.V, Version)
	}
	return engine.ParseSpec(s.Spec)
}

// DailyKey keeps today's deal in progress apart from the player's other
// game of the same kind, so neither overwrites the other.
func DailyKey(key string) string { return key + "#daily" }
