package hub

import (
	"slices"

	"sshuffle/engine/rating"
)

// seatRating is the rating label of a seat that is taken: a computer's
// fixed one from the kit, a person's through the wiring (cached: the
// lobby and every state read it).
func (t *Table) seatRating(s *tseat) string {
	if s.person.ID == "" {
		r, ok := t.kit.Info().Ratings[s.computer]
		if !ok {
			return ""
		}
		return rating.Label(rating.Rating{Rating: r.Rating, Deviation: r.Deviation})
	}
	if t.h.ratingOf == nil {
		return ""
	}
	if l, ok := t.ratings[s.person.ID]; ok {
		return l
	}
	l := t.h.ratingOf(s.person.ID, t.cfg.Game)
	if t.ratings == nil {
		t.ratings = map[string]string{}
	}
	t.ratings[s.person.ID] = l
	return l
}

// rerate reads the people's ratings again once a rated game is recorded,
// and shows them if they moved.
func (t *Table) rerate() {
	if t.h.ratingOf == nil || t.ended {
		return
	}
	before := t.seatInfos()
	clear(t.ratings)
	if slices.Equal(before, t.seatInfos()) {
		return
	}
	t.publish()
	t.changed()
}
