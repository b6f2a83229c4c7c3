package badger

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"sort"
	"strings"
	"sync"

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
	var bad, indexErr error
	// The two passes read different key ranges: on two cores, at once.
	var wg sync.WaitGroup
	wg.Go(func() {
		indexErr = db.View(func(txn *badger.Txn) error {
			it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte{kName}})
			defer it.Close()
			for it.Rewind(); it.Valid(); it.Next() {
				item := it.Item()
				if err := item.Value(func(v []byte) error {
					fromIndex.add(seed, string(item.Key()[1:]), v)
					return nil
				}); err != nil {
					return err
				}
			}
			return nil
		})
	})
	err := db.View(func(txn *badger.Txn) error {
		// Values this small live in the tree beside their keys: reading
		// them in the loop costs less than Badger's prefetching.
		it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte{kAccount}})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			item := it.Item()
			var name string
			if err := item.Value(func(v []byte) (err error) { name, err = accountName(v); return err }); err != nil {
				bad = fmt.Errorf("%w: %s: the record of account %s cannot be read (%v); nothing was changed. "+
					"Restore the store from a backup (sshuffle restore)", ErrDamaged, dir, item.Key()[1:], err)
				return nil
			}
			if name != "" {
				fromAccounts.add(seed, name, item.Key()[1:])
			}
		}
		return nil
	})
	wg.Wait()
	if err == nil {
		err = indexErr
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

func (p *pairSum) add(seed maphash.Seed, name string, id []byte) {
	var h maphash.Hash
	h.SetSeed(seed)
	h.WriteString(name)
	h.WriteByte(0)
	h.Write(id)
	x := h.Sum64()
	h.WriteByte(1) // a second, different hash of the same pair
	p.n++
	p.a += x
	p.b += h.Sum64()
}

// accountName is the Name field of an account record. The records are
// written by encoding/json from store.Account, so the name is a plain
// string right after the id; anything else (an escape, another layout)
// goes through encoding/json, which also says what is wrong with a record
// that is not JSON.
func accountName(v []byte) (string, error) {
	const key = `","Name":"`
	if bytes.HasPrefix(v, []byte(`{"ID":"`)) {
		if i := bytes.Index(v, []byte(key)); i > 0 {
			rest := v[i+len(key):]
			if j := bytes.IndexByte(rest, '"'); j >= 0 && bytes.IndexByte(rest[:j], '\\') < 0 &&
				bytes.IndexByte(v[:i], '\\') < 0 && json.Valid(v) {
				return string(rest[:j]), nil
			}
		}
	}
	var a struct{ Name string }
	err := json.Unmarshal(v, &a)
	return a.Name, err
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
