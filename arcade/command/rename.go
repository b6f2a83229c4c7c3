package command

import (
	"errors"
	"fmt"

	"sshuffle/internal/format"
	"sshuffle/store"
)

func init() {
	register(command{names: []string{"rename"}, usage: "NAME", help: "pick or change your player name", run: rename})
}

type renameValue struct {
	Name        string `json:"name"`
	Fingerprint string `json:"fingerprint"`
}

func (v renameValue) Text() string { return fmt.Sprintf("You are %s now.\n", v.Name) }

// rename claims a name under the name picker's rules. A key that has not
// played yet gets its account here, with the name.
func rename(r Request, name string, args []string) (value, error) {
	usage := name + " NAME (3-20 letters, digits, _ or -)"
	rest, err := flags(usage, args, nil, nil)
	if err != nil {
		return nil, err
	}
	if len(rest) != 1 {
		return nil, refuse(usage, "%s needs one name", name)
	}
	if r.ID == "" {
		return nil, refuse(usage, "Guests have no name to keep: connect with an SSH key (ssh-keygen -t ed25519).")
	}
	want := rest[0]
	if err := store.ClaimableName(want); err != nil {
		return nil, refuse(usage, "%s", err.Error())
	}
	acc, err := r.Store.ClaimName(r.ctx(), r.ID, want)
	if errors.Is(err, store.ErrNotFound) {
		acc, err = r.Store.CreateAccount(r.ctx(), r.ID, want)
		if errors.Is(err, store.ErrExists) {
			// Its first session made it meanwhile: claim on that one.
			acc, err = r.Store.ClaimName(r.ctx(), r.ID, want)
		}
	}
	switch {
	case errors.Is(err, store.ErrNameTaken):
		return nil, refuse(usage, "The name %q is taken; try another.", format.Clean(store.NormalName(want), store.MaxNameLen))
	case err != nil:
		return nil, fail("renaming", err)
	}
	return renameValue{Name: acc.Name, Fingerprint: r.ID}, nil
}
