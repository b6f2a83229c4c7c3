package solitaire

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"sshuffle/engine"
	"sshuffle/games"
)

// saveVersion is bumped when the save format changes; an older save is then
// read by a converter or refused with a message, never misread.
const saveVersion = 1

// savedGame is a game in progress: the deal and the moves, never a position,
// so a save can never hold an impossible position.
type savedGame struct {
	V       int             `json:"v"`
	Spec    string          `json:"spec"`
	Actions []engine.Action `json:"actions"`
	Elapsed time.Duration   `json:"elapsed"`
	Hints   int             `json:"hints"`
	Options games.Options   `json:"options,omitempty"`
}

func encodeSave(g engine.Solitaire, opts games.Options, elapsed time.Duration, hints int) ([]byte, error) {
	return json.Marshal(savedGame{V: saveVersion, Spec: g.Spec().String(), Actions: g.History(), Elapsed: elapsed, Hints: hints, Options: opts})
}

// decodeSave rebuilds the game by replaying the moves on a fresh deal.
func decodeSave(data []byte, newGame func(engine.Spec, games.Options) (engine.Solitaire, error)) (engine.Solitaire, savedGame, error) {
	var s savedGame
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, s, fmt.Errorf("the save is damaged (%v)", err)
	}
	if s.V != saveVersion {
		return nil, s, fmt.Errorf("the save has format %d, this server reads %d", s.V, saveVersion)
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
