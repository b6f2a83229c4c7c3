package command

import "fmt"

func init() {
	register(command{names: []string{"whoami"}, help: "your account name and key fingerprint", run: whoami})
}

func whoami(r Request) (string, int) {
	if r.ID == "" {
		return "You are a guest (no key). Make one with ssh-keygen -t ed25519 to keep your stats.\n", 0
	}
	acc, err := r.Store.Account(r.Ctx, r.ID)
	if err != nil {
		return "You have not played yet: connect with a terminal to create your account.\n", 0
	}
	name := acc.Name
	if name == "" {
		name = "(no name yet)"
	}
	return fmt.Sprintf("%s\n%s\n", name, r.ID), 0
}
