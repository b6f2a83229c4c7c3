package ui

// A hold made before its membership: for a room the hub joins the player
// to on their behalf (the play-now pool seats everyone it matches), the
// sink must exist before the membership does.

// Pending makes a hold with no membership yet, and the sink to join its
// room with: states reach the hold as those of Join do. Take gives it the
// membership once made; until then only State may be asked of it.
func Pending[S any, M Member](e *Env) (*Live[S, M], func(S)) {
	l := &Live[S, M]{to: &liveAddr{}}
	to := l.to
	return l, func(st S) { e.Send(LiveMsg[S]{State: st, to: to}) }
}

// Take gives a Pending hold its membership.
func (l *Live[S, M]) Take(m M) { l.m = m }
