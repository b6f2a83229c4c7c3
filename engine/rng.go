package engine

// RNG is a small seeded generator (SplitMix64). We own the algorithm rather
// than use math/rand so that a seed names the same deal on every Go release
// and every machine, which saves, races and daily deals rely on.
type RNG struct{ s uint64 }

// NewRNG seeds a generator.
func NewRNG(seed uint64) *RNG { return &RNG{s: seed} }

// Uint64 returns the next value.
func (r *RNG) Uint64() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Intn returns a value in [0,n) without modulo bias.
func (r *RNG) Intn(n int) int {
	if n <= 0 {
		panic("engine: Intn with n <= 0")
	}
	bound := uint64(n)
	limit := -bound % bound // 2^64 mod n
	for {
		v := r.Uint64()
		if v >= limit {
			return int(v % bound)
		}
	}
}

// Shuffle permutes cards in place (Fisher-Yates).
func (r *RNG) Shuffle(cards []Card) {
	for i := len(cards) - 1; i > 0; i-- {
		j := r.Intn(i + 1)
		cards[i], cards[j] = cards[j], cards[i]
	}
}

// ShuffledDecks returns n decks shuffled together with the given seed.
func ShuffledDecks(seed uint64, n int) []Card {
	cards := make([]Card, 0, 52*n)
	for range n {
		cards = append(cards, Deck()...)
	}
	NewRNG(seed).Shuffle(cards)
	return cards
}
