package command

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"sshuffle/store"
)

func init() {
	register(command{names: []string{"bot"}, usage: "[register]",
		help: "bot: play as a program, in JSON Lines (see docs/bots.md); bot register: make this key's account a bot, for good",
		run:  runBot})
}

// registered is what bot register did.
type registered struct {
	Account string `json:"account"`
	Name    string `json:"name"`
	Bot     bool   `json:"bot"`
	New     bool   `json:"new"` // the account was made now
}

func (v registered) Text() string {
	made := ""
	if v.New {
		made = "new "
	}
	return fmt.Sprintf("The %saccount %s is a bot now. Connect it with: ssh -T HOST bot (docs/bots.md says what to send).\n", made, v.Name)
}

// runBot answers "bot register"; plain "bot" is the protocol, which the
// arcade runs before any command.
func runBot(r Request, _ string, args []string) (value, error) {
	const usage = "bot register"
	if len(args) != 1 || args[0] != "register" {
		return nil, refuse(usage, "bot speaks JSON Lines: connect with ssh -T HOST bot; to make this key's account a bot, run ssh NAME@HOST bot register")
	}
	if r.ID == "" {
		return nil, refuse(usage, "A bot needs a key: connect with one (ssh-keygen -t ed25519).")
	}
	return register1(r.ctx(), r.Store, r.ID, r.User)
}

// register1 makes the account of id a bot, making the account first (named
// user) when the key has none. An account that has played as a person
// stays a person's: its results, tables and races are a person's record.
func register1(ctx context.Context, st store.Store, id, user string) (value, error) {
	const usage = "bot register"
	acc, err := st.Account(ctx, id)
	isNew := false
	switch {
	case errors.Is(err, store.ErrNotFound):
		name := strings.ToLower(user)
		if e := store.ClaimableName(name); e != nil {
			return nil, refuse(usage, "A bot needs a name, from the user you connect as (ssh NAME@HOST bot register): %s", e.Error())
		}
		acc, err = st.CreateAccount(ctx, id, name)
		switch {
		case errors.Is(err, store.ErrNameTaken):
			return nil, refuse(usage, "The name %s is taken; connect as another: ssh NAME@HOST bot register.", name)
		case errors.Is(err, store.ErrExists):
		case err != nil:
			return nil, fail("Registering a bot", err)
		default:
			isNew = true
		}
	case err != nil:
		return nil, fail("Registering a bot", err)
	}
	if bot, err := st.IsBot(ctx, id); err != nil {
		return nil, fail("Registering a bot", err)
	} else if bot {
		return registered{Account: id, Name: acc.Name, Bot: true}, nil
	}
	if acc.Name == "" {
		return nil, refuse(usage, "This account has no name yet; pick one first (ssh HOST rename NAME), then register.")
	}
	played, err := hasPlayed(ctx, st, id)
	if err != nil {
		return nil, fail("Registering a bot", err)
	}
	if played {
		return nil, refuse(usage, "%s has played as a person, so it stays a person's account; a bot needs a key of its own (ssh-keygen -t ed25519 -f bot_key).", acc.Name)
	}
	if err := st.MarkBot(ctx, id); err != nil {
		return nil, fail("Registering a bot", err)
	}
	return registered{Account: id, Name: acc.Name, Bot: true, New: isNew}, nil
}

// hasPlayed: the account has any game, table game or race on its record.
func hasPlayed(ctx context.Context, st store.Store, id string) (bool, error) {
	rs, err := st.Results(ctx, id, 1)
	if err != nil || len(rs) > 0 {
		return len(rs) > 0, err
	}
	tg, err := st.TableGames(ctx, id, 1)
	if err != nil || len(tg) > 0 {
		return len(tg) > 0, err
	}
	races, err := st.Races(ctx, id, 1)
	return len(races) > 0, err
}
