package natsrelay

import "time"

// The tables' lobby across nodes: each node publishes the listing of each
// table it owns (private ones too, for the seats people hold there) in a
// KV bucket (sshuffle_lobby) in memory with a TTL, one key per table and
// node, "<code>.<node>", rewritten when the listing changes and every
// ListingEvery; every node watches the bucket, and a lobby there shows its
// own tables and the other nodes' fresh listings. A table that ends is
// deleted from the bucket at once; a dead node's listings age out after
// ListingTTL.

const (
	DefaultListingEvery = 15 * time.Second
	DefaultListingTTL   = 45 * time.Second
	listingBucket       = "sshuffle_lobby"
)

// SetListing publishes the listing of a table this node owns; nil takes it
// down. It never blocks.
func (r *Relay) SetListing(code string, listing []byte) { r.lists.set(code, listing) }

// Listings is every other node's fresh listings.
func (r *Relay) Listings() [][]byte { return r.lists.all() }

// ListenListings has changed called when another node's listings change,
// and every ListingEvery, when some may have aged out.
func (r *Relay) ListenListings(changed func()) error {
	r.lists.listen(changed)
	return nil
}
