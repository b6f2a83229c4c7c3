package arcade

import (
	"fmt"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
	"sshuffle/arcade/ui/account"
	"sshuffle/arcade/ui/friends"
	"sshuffle/arcade/ui/help"
	"sshuffle/arcade/ui/history"
	"sshuffle/arcade/ui/lobby"
	"sshuffle/arcade/ui/menu"
	"sshuffle/arcade/ui/options"
	"sshuffle/arcade/ui/playnow"
	"sshuffle/arcade/ui/profile"
	"sshuffle/arcade/ui/race"
	"sshuffle/arcade/ui/replay"
	"sshuffle/arcade/ui/solitaire"
	"sshuffle/arcade/ui/table"
)

// build is the router's builder: the one place that knows every screen
// package, so that none of them has to know another.
func (s *Server) build(e *ui.Env, r ui.Route) (ui.Screen, error) {
	switch r.Page {
	case ui.Lobby:
		return lobby.OpenPage(e, r, s.tableDefaults())
	case ui.Table:
		return table.OpenPage(e, r)
	case ui.PlayNow:
		return playnow.Open(e, r)
	case ui.Menu:
		note := r.Note
		if note == "" && e.Player != nil && e.Player.ID != "" {
			note = s.lostRaceNote(e.Player.ID)
		}
		return menu.New(e, note), nil
	case ui.Name:
		return account.NewName(e, r), nil
	case ui.Friends:
		return friends.New(e), nil
	case ui.Race:
		// A code may be a table's (join CODE, an invitation).
		if r.Code != "" {
			if room, err := s.hub.Room(r.Code); err == nil && room.Kind() == hub.TableRoom {
				return table.OpenPage(e, r)
			}
		}
		boards := raceBoards
		boards.Keep = s.races.keep
		return race.Open(e, r, boards)
	case ui.Play, ui.Daily:
		return solitaire.Open(e, r)
	case ui.Won:
		return solitaire.NewResult(e, r), nil
	case ui.Options:
		return options.New(e, r.Game), nil
	case ui.Rules:
		return help.NewRules(e, r.Game), nil
	case ui.Help:
		return help.New(e, r.Game), nil
	case ui.Profile:
		return profile.New(e), nil
	case ui.Boards:
		return profile.NewBoards(e, r.Game), nil
	case ui.History:
		return history.New(e), nil
	case ui.Replay:
		return replay.Open(e, r, table.Still)
	}
	return nil, fmt.Errorf("there is no page %d", r.Page)
}

// raceBoards are the solitaire screen's games, embedded in a race.
var raceBoards = race.BoardsOf(solitaire.DealEmbedded, solitaire.ResumeEmbedded, solitaire.WatchEmbedded)

// tableDefaults is the server's table times, for tables opened here.
func (s *Server) tableDefaults() hub.TableConfig {
	return hub.TableConfig{TurnClock: s.cfg.TableClock, Pace: s.cfg.TablePace, Hold: s.cfg.TableHold, Break: s.cfg.TableBreak}
}
