package command

import (
	"errors"
	"fmt"

	"sshuffle/store"
)

func init() {
	register(command{names: []string{"whoami"}, help: "your player name and key fingerprint", run: whoami})
}

type whoamiValue struct {
	Guest       bool   `json:"guest"`       // connected without a key
	Account     bool   `json:"account"`     // the key has an account (it has played)
	Name        string `json:"name"`        // "" until one is picked
	Fingerprint string `json:"fingerprint"` // the key's SHA256 fingerprint; "" for a guest
}

func (w whoamiValue) Text() string {
	switch {
	case w.Guest:
		return "You are a guest (no key). Make one with ssh-keygen -t ed25519 to keep your stats.\n"
	case !w.Account:
		return "You have not played yet: connect with a terminal to create your account.\n" + w.Fingerprint + "\n"
	}
	name := w.Name
	if name == "" {
		name = "(no name yet: pick one with rename NAME)"
	}
	return fmt.Sprintf("%s\n%s\n", name, w.Fingerprint)
}

func whoami(r Request, name string, args []string) (value, error) {
	if _, err := flags(name, args, nil, nil); err != nil {
		return nil, err
	}
	if len(args) > 0 {
		return nil, refuse(name, "%s takes no words after it", name)
	}
	if r.ID == "" {
		return whoamiValue{Guest: true}, nil
	}
	acc, err := r.Store.Account(r.ctx(), r.ID)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return whoamiValue{Fingerprint: r.ID}, nil
	case err != nil:
		return nil, fail("your account", err)
	}
	return whoamiValue{Account: true, Name: acc.Name, Fingerprint: r.ID}, nil
}
