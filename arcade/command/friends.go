package command

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/throttle"
	"sshuffle/arcade/ui"
	"sshuffle/internal/format"
	"sshuffle/store"
)

func init() {
	register(command{names: []string{"friends"}, usage: "[--json]", help: "whom you follow: online or not, and what they are doing", run: friends})
	register(command{names: []string{"friend"}, usage: "add|remove NAME", help: "follow or stop following a player", run: friend})
}

// Friend is one followed player as friends prints them.
type Friend struct {
	Name   string `json:"name"`
	Bot    bool   `json:"bot,omitempty"` // a bot's account (docs/bots.md)
	Online bool   `json:"online"`
	Doing  string `json:"doing,omitempty"` // "at the menu", "playing", "racing", "watching"
	Game   string `json:"game,omitempty"`
	// What is Doing and Game in words, when there is a game: "racing
	// Klondike Draw 1", "at a Spite and Malice table".
	What      string `json:"what,omitempty"`
	Room      string `json:"room,omitempty"` // the race's invite code
	Watchable bool   `json:"watchable,omitempty"`
	// Watch is the invite line that opens the room: ssh -t -p PORT HOST join CODE.
	Watch string `json:"watch,omitempty"`
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
		name := f.Name
		if f.Bot {
			name = ui.BotName(name)
		}
		if !f.Online {
			fmt.Fprintf(&b, "%-20s offline\n", name)
			continue
		}
		line := f.What
		if line == "" {
			line = f.Doing
		}
		switch {
		case f.Room != "" && f.Watch != "":
			line += " (code " + f.Room + "; watch: " + f.Watch + ")"
		case f.Room != "":
			line += " (code " + f.Room + ")"
		}
		fmt.Fprintf(&b, "%-20s online, %s\n", name, line)
	}
	return b.String()
}

// Friends builds the friend list of account id: names from the store
// (validated account names), presence from the hub.
func Friends(r Request) (FriendList, error) {
	ids, err := r.Store.Following(r.ctx(), r.ID)
	if err != nil {
		return FriendList{}, err
	}
	var pres []hub.Presence
	if r.Presence != nil {
		pres = r.Presence(ids...)
	}
	out := FriendList{Friends: []Friend{}}
	for i, id := range ids {
		acc, err := r.Store.Account(r.ctx(), id)
		if err != nil || acc.Name == "" {
			continue // an account without a name shows nowhere
		}
		f := Friend{Name: acc.Name}
		if bot, err := r.Store.IsBot(r.ctx(), id); err == nil {
			f.Bot = bot
		}
		if i < len(pres) && pres[i].Online {
			a := pres[i].Activity
			f.Online, f.Doing, f.Game, f.Room, f.Watchable = true, a.Doing.String(), a.Game, a.Room, a.Watchable
			if a.Game != "" {
				f.What = ui.Doing(r.Games, a)
			}
			if a.Room != "" && a.Watchable && r.InviteLine != nil {
				f.Watch = r.InviteLine(a.Room)
			}
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

// Followed is the answer of friend add and friend remove.
type Followed struct {
	Name      string `json:"name"`
	Following bool   `json:"following"`
}

// Text is the answer for a person.
func (f Followed) Text() string {
	if f.Following {
		return fmt.Sprintf("You follow %s now: you see when they are online and can invite them to races.\n", f.Name)
	}
	return fmt.Sprintf("You no longer follow %s.\n", f.Name)
}

func friends(r Request, name string, args []string) (value, error) {
	usage := name + " [--json]"
	rest, err := flags(usage, args, nil, nil)
	if err != nil {
		return nil, err
	}
	if len(rest) != 0 {
		return nil, refuse(usage, "%s takes no words", name)
	}
	if r.ID == "" {
		return nil, refuse(usage, "Guests have no friends list: connect with an SSH key (ssh-keygen -t ed25519).")
	}
	l, err := Friends(r)
	if err != nil {
		return nil, fail("your friends list", err)
	}
	return l, nil
}

func friend(r Request, name string, args []string) (value, error) {
	usage := name + " add NAME | " + name + " remove NAME"
	rest, err := flags(usage, args, nil, nil)
	if err != nil {
		return nil, err
	}
	if len(rest) != 2 || (rest[0] != "add" && rest[0] != "remove") {
		return nil, refuse(usage, "%s needs add or remove and a name", name)
	}
	if r.ID == "" {
		return nil, refuse(usage, "Guests cannot follow anyone: connect with an SSH key (ssh-keygen -t ed25519).")
	}
	if _, err := r.Store.Account(r.ctx(), r.ID); errors.Is(err, store.ErrNotFound) {
		return nil, refuse(usage, "Play once first (ssh -t HOST), so that you have an account.")
	} else if err != nil {
		return nil, fail("your account", err)
	}
	who := rest[1]
	if err := store.ValidName(who); err != nil {
		return nil, refuse(usage, "%q is not a player name: %v", format.Clean(who, 40), err)
	}
	// Asked before the lookup, whatever its answer: held back only for
	// unknown names, the answer would still tell which names exist.
	if !r.Names.Allow(r.ID, r.Addr) {
		return nil, refuse(usage, "%s", throttle.TooManyNames)
	}
	acc, err := r.Store.AccountByName(r.ctx(), store.NormalName(who))
	switch {
	case errors.Is(err, store.ErrNotFound):
		r.Names.Failed(r.ID, r.Addr)
		return nil, refuse(usage, "Nobody here is called %s.", store.NormalName(who))
	case err != nil:
		return nil, fail("looking players up", err)
	}
	if rest[0] == "remove" {
		if err := r.Store.Unfollow(r.ctx(), r.ID, acc.ID); err != nil {
			return nil, fail("unfollowing", err)
		}
		return Followed{Name: acc.Name}, nil
	}
	if acc.ID == r.ID {
		return nil, refuse(usage, "You cannot follow yourself.")
	}
	err = r.Store.Follow(r.ctx(), r.ID, acc.ID)
	switch {
	case errors.Is(err, store.ErrInvalid):
		return nil, refuse(usage, "You follow %d players already, the most there can be.", store.MaxFollowing)
	case err != nil:
		return nil, fail("following", err)
	}
	return Followed{Name: acc.Name, Following: true}, nil
}
