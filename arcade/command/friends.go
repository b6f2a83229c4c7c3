package command

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"sshuffle/arcade/hub"
	"sshuffle/internal/format"
	"sshuffle/store"
)

func init() {
	register(command{names: []string{"friends"}, usage: "[--json]", help: "whom you follow: online or not, and what they are doing", run: friends})
	register(command{names: []string{"friend"}, usage: "add|remove NAME", help: "follow or stop following a player", run: friend})
}

// Friend is one followed player as friends prints them.
type Friend struct {
	Name      string `json:"name"`
	Online    bool   `json:"online"`
	Doing     string `json:"doing,omitempty"` // "at the menu", "playing", "racing", "watching"
	Game      string `json:"game,omitempty"`
	Room      string `json:"room,omitempty"` // the race's invite code
	Watchable bool   `json:"watchable,omitempty"`
}

// FriendList is the answer of friends.
type FriendList struct {
	Friends []Friend `json:"friends"`
}

// Text is the list for a person.
func (l FriendList) Text() string {
	if len(l.Friends) == 0 {
		return "You follow nobody yet: ssh HOST friend add NAME\n"
	}
	var b strings.Builder
	for _, f := range l.Friends {
		if !f.Online {
			fmt.Fprintf(&b, "%-20s offline\n", f.Name)
			continue
		}
		line := f.Doing
		if f.Game != "" {
			line += " " + f.Game
		}
		if f.Room != "" {
			line += " in race " + f.Room
			if f.Watchable {
				line += " (watch: ssh -t HOST join " + f.Room + ")"
			}
		}
		fmt.Fprintf(&b, "%-20s online, %s\n", f.Name, line)
	}
	return b.String()
}

// Friends builds the friend list of account id: names from the store
// (validated account names), presence from the hub.
func Friends(r Request) (FriendList, error) {
	ids, err := r.Store.Following(r.Ctx, r.ID)
	if err != nil {
		return FriendList{}, err
	}
	var pres []hub.Presence
	if r.Presence != nil {
		pres = r.Presence(ids...)
	}
	out := FriendList{Friends: []Friend{}}
	for i, id := range ids {
		acc, err := r.Store.Account(r.Ctx, id)
		if err != nil || acc.Name == "" {
			continue // an account without a name shows nowhere
		}
		f := Friend{Name: acc.Name}
		if i < len(pres) && pres[i].Online {
			a := pres[i].Activity
			f.Online, f.Doing, f.Game, f.Room, f.Watchable = true, a.Doing.String(), a.Game, a.Room, a.Watchable
		}
		out.Friends = append(out.Friends, f)
	}
	slices.SortStableFunc(out.Friends, func(a, b Friend) int {
		if a.Online != b.Online {
			if a.Online {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out, nil
}

func wantsJSON(args []string) ([]string, bool) {
	var out []string
	j := false
	for _, a := range args {
		if a == "--json" {
			j = true
			continue
		}
		out = append(out, a)
	}
	return out, j
}

func friends(r Request) (string, int) {
	args, asJSON := wantsJSON(r.Args[1:])
	if len(args) != 0 {
		return "usage: friends [--json]\n", 1
	}
	if r.ID == "" {
		return "Guests have no friends list: connect with an SSH key.\n", 1
	}
	l, err := Friends(r)
	if err != nil {
		return "Your friends list is not available right now.\n", 2
	}
	if asJSON {
		b, _ := json.MarshalIndent(l, "", "  ")
		return string(b) + "\n", 0
	}
	return l.Text(), 0
}

func friend(r Request) (string, int) {
	args, _ := wantsJSON(r.Args[1:])
	if len(args) != 2 || (args[0] != "add" && args[0] != "remove") {
		return "usage: friend add NAME | friend remove NAME\n", 1
	}
	if r.ID == "" {
		return "Guests cannot follow anyone: connect with an SSH key.\n", 1
	}
	if _, err := r.Store.Account(r.Ctx, r.ID); err != nil {
		return "Play once first (ssh -t HOST), so that you have an account.\n", 1
	}
	name := args[1]
	if err := store.ValidName(name); err != nil {
		return fmt.Sprintf("%q is not a player name: %v\n", format.Clean(name, 40), err), 1
	}
	acc, err := r.Store.AccountByName(r.Ctx, store.NormalName(name))
	switch {
	case errors.Is(err, store.ErrNotFound):
		return fmt.Sprintf("Nobody here is called %s.\n", store.NormalName(name)), 1
	case err != nil:
		return "Players cannot be looked up right now.\n", 2
	}
	if args[0] == "remove" {
		if err := r.Store.Unfollow(r.Ctx, r.ID, acc.ID); err != nil {
			return "That could not be saved right now.\n", 2
		}
		return fmt.Sprintf("You no longer follow %s.\n", acc.Name), 0
	}
	if acc.ID == r.ID {
		return "You cannot follow yourself.\n", 1
	}
	err = r.Store.Follow(r.Ctx, r.ID, acc.ID)
	switch {
	case errors.Is(err, store.ErrInvalid):
		return fmt.Sprintf("You already follow %d players, the most there can be.\n", store.MaxFollowing), 1
	case err != nil:
		return "That could not be saved right now.\n", 2
	}
	return fmt.Sprintf("You follow %s now: you see when they are online and can invite them to races.\n", acc.Name), 0
}
