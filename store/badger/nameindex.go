package badger

import (
	"encoding/json"
	"fmt"
	"hash/maphash"
	"sort"
	"strings"

	"github.com/dgraph-io/badger/v4"
)

// checkNameIndex refuses a store whose name index disagrees with its
// accounts: an entry missing (a new key could claim a name an account
// holds, and two accounts would have one name), or pointing at an account
// that does not hold the name. It reads each account and each index entry
// once, in key order, and compares the two sets of (name, account) pairs
// by a sum of their hashes, which no order changes: a million accounts
// cost one pass over the records and no memory per record. Only when the
// sums differ does it build a map to say which entries disagree.
//
// It refuses rather than repairs: an index that disagrees means records
// were lost or damaged, and which side is right cannot be known from the
// store itself; a backup can.
func checkNameIndex(db *badger.DB, dir string) error {
	seed := maphash.MakeSeed()
	var fromAccounts, fromIndex pairSum
	var bad error
	err := db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte{kAccount}, PrefetchValues: true, PrefetchSize: 256})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			item := it.Item()
			id := string(item.Key()[1:])
			var a struct{ Name string }
			if err := item.Value(func(v []byte) error { return json.Unmarshal(v, &a) }); err != nil {
				bad = fmt.Errorf("%w: %s: the record of account %s cannot be read (%v); nothing was changed. "+
					"Restore the store from a backup (sshuffle restore)", ErrDamaged, dir, id, err)
				return nil
			}
			if a.Name != "" {
				fromAccounts.add(seed, a.Name, id)
			}
		}
		return nil
	})
	if err == nil && bad == nil {
		err = db.View(func(txn *badger.Txn) error {
			it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte{kName}, PrefetchValues: true, PrefetchSize: 256})
			defer it.Close()
			for it.Rewind(); it.Valid(); it.Next() {
				item := it.Item()
				if err := item.Value(func(v []byte) error {
					fromIndex.add(seed, string(item.Key()[1:]), string(v))
					return nil
				}); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if err != nil {
		return fmt.Errorf("%w: %s: reading the accounts and their names failed (%v); nothing was changed. "+
			"Restore the store from a backup (sshuffle restore)", ErrDamaged, dir, err)
	}
	if bad != nil {
		return bad
	}
	if fromAccounts == fromIndex {
		return nil
	}
	return nameIndexDisagreement(db, dir)
}

// pairSum is a count and two 64-bit sums of hashes of (name, id) pairs.
type pairSum struct {
	n    int
	a, b uint64
}

func (p *pairSum) add(seed maphash.Seed, name, id string) {
	var h maphash.Hash
	h.SetSeed(seed)
	h.WriteString(name)
	h.WriteByte(0)
	h.WriteString(id)
	x := h.Sum64()
	h.WriteByte(1) // a second, different hash of the same pair
	p.n++
	p.a += x
	p.b += h.Sum64()
}

// nameIndexDisagreement finds which entries disagree, for the refusal.
func nameIndexDisagreement(db *badger.DB, dir string) error {
	index := map[string]string{}
	var found []string
	_ = db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte{kName}, PrefetchValues: true})
		for it.Rewind(); it.Valid(); it.Next() {
			v, _ := it.Item().ValueCopy(nil)
			index[string(it.Item().Key()[1:])] = string(v)
		}
		it.Close()
		it = txn.NewIterator(badger.IteratorOptions{Prefix: []byte{kAccount}, PrefetchValues: true})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			id := string(it.Item().Key()[1:])
			var a struct{ Name string }
			_ = it.Item().Value(func(v []byte) error { return json.Unmarshal(v, &a) })
			if a.Name == "" {
				continue
			}
			switch holder, ok := index[a.Name]; {
			case !ok:
				found = append(found, fmt.Sprintf("account %s holds the name %q, which the name index lacks", id, a.Name))
			case holder != id:
				found = append(found, fmt.Sprintf("account %s holds the name %q, which the name index gives to %s",
					id, a.Name, holder))
			default:
				delete(index, a.Name)
			}
		}
		return nil
	})
	var names []string
	for name := range index {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		found = append(found, fmt.Sprintf("the name index gives %q to account %s, which does not hold it", name, index[name]))
	}
	if len(found) == 0 {
		found = append(found, "the counts differ")
	}
	more := ""
	if len(found) > 3 {
		more = fmt.Sprintf(" (and %d more)", len(found)-3)
		found = found[:3]
	}
	return fmt.Errorf("%w: %s: the name index disagrees with the accounts: %s%s; with it, one name could belong "+
		"to two accounts. Nothing was changed. Restore the store from a backup (sshuffle restore)",
		ErrDamaged, dir, strings.Join(found, "; "), more)
}
