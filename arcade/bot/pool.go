package bot

import "sshuffle/arcade/hub"

// A seek with "pool": true waits in the play-now pool, as a person pressing
// play now does, for people who allow bots; the pool opens the table and
// deals. Tables of the pool are rated and take the game's default
// settings. One pool seek a bot at a time: the pool keeps one place an
// account.

// poolSeek is the bot's place in the pool.
type poolSeek struct {
	m    *hub.PoolMember
	seat *seat // the seat the pool will make, followed before it is made
	game string
	told bool // seeking sent
}

// poolEvent is a pool state for one of the bot's pool seeks.
type poolEvent struct {
	p  *poolSeek
	st hub.PoolState
}

func (s *session) seekPool(in In) {
	if s.pool != nil {
		s.fail(in.Type, "You are waiting in the play-now pool already; send stopSeek first.")
		return
	}
	if in.Settings != "" || len(in.Against) > 0 || in.Pace != "" {
		s.fail(in.Type, "A play-now seek finds people at the game's default settings: leave out settings, against and pace.")
		return
	}
	kit, ok := s.cfg.Kit(in.Game)
	if !ok {
		s.fail(in.Type, "There is no table game called %q; try spite or kings.", clip(in.Game))
		return
	}
	if !s.sit(in.Type) {
		return
	}
	info := kit.Info()
	p := &poolSeek{game: info.Name}
	p.seat = &seat{kit: kit, started: map[int]bool{}, over: map[int]bool{}}
	m, err := s.cfg.Hub.PlayNow(s.me, hub.PoolWant{Game: info.Name, Players: in.Players}, func(st hub.PoolState) {
		select {
		case s.poolEvents <- poolEvent{p: p, st: st}:
		case <-s.done:
		}
	}, func(ts hub.TableState) {
		select {
		case s.events <- tableEvent{t: p.seat, st: ts}:
		case <-s.done:
		}
	})
	if err != nil {
		s.cfg.Shared.stand(s.me.ID)
		s.fail(in.Type, "%s", err.Error())
		return
	}
	p.m = m
	s.pool = p
}

// poolState follows the bot's place in the pool: a seeking once it waits,
// its table once the pool has seated it, a seekEnd when it is out without
// one.
func (s *session) poolState(ev poolEvent) {
	p := ev.p
	if s.pool != p {
		return // a seek stopped already
	}
	switch ev.st.Phase {
	case hub.PoolWaiting:
		if !p.told {
			p.told = true
			s.send(Seeking{Type: TSeeking, Pool: true, Game: p.game, Rated: s.cfg.Rated, Seats: []Seat{}})
		}
	case hub.PoolClosed:
		s.pool = nil
		s.cfg.Shared.stand(s.me.ID)
		s.send(SeekEnd{Type: TSeekEnd, Reason: ev.st.Reason})
	case hub.PoolSeated:
		s.pool = nil
		t := p.seat
		t.code, t.m = ev.st.Code, ev.st.Table
		if old := s.tables[t.code]; old != nil {
			s.cfg.Shared.stand(s.me.ID) // not reached: a pool table is new
		}
		s.tables[t.code] = t
		if st := t.pending; st != nil {
			t.pending = nil
			s.state(t, *st)
		} else if st, err := t.m.State(); err == nil {
			s.state(t, st)
		}
	}
}

// stopSeek takes the bot out of the pool; a table the pool made meanwhile
// is left too, as the bot asked to go.
func (s *session) stopSeek(in string) {
	p := s.pool
	if p == nil {
		s.fail(in, "You are not waiting in the play-now pool.")
		return
	}
	s.pool = nil
	if tm := p.m.Leave(); tm != nil {
		_ = tm.Leave()
	}
	s.cfg.Shared.stand(s.me.ID)
	s.send(SeekEnd{Type: TSeekEnd, Reason: "You left the play-now pool."})
}

// leavePool is the session ending while in the pool: a seat made
// meanwhile is dropped, held a while as on any lost connection.
func (s *session) leavePool() {
	if p := s.pool; p != nil {
		s.pool = nil
		if tm := p.m.Leave(); tm != nil {
			_ = tm.Drop()
		}
		s.cfg.Shared.stand(s.me.ID)
	}
}
