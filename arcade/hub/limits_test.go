package hub

// unlimited turns a test hub's limits off, before it is used.
func unlimited(h *Hub) { h.limits.lim = NoLimits() }
