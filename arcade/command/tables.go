package command

import (
	"fmt"
	"strings"
	"time"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/ui"
)

func init() {
	register(command{names: []string{"tables"}, usage: "[--json]",
		help: "the open tables of Spite and Malice and Kings in the Corner", run: tables})
}

// TableSeat is one seat of an open table as tables prints it.
type TableSeat struct {
	Name     string `json:"name,omitempty"`     // the person's name, or the computer player's; "" for a free seat
	Computer string `json:"computer,omitempty"` // the computer player's strength
	Reserved string `json:"reserved,omitempty"` // a free seat kept for this player
	Free     bool   `json:"free,omitempty"`
	Away     bool   `json:"away,omitempty"` // the person dropped; a computer stands in
	Bot      bool   `json:"bot,omitempty"`  // the seat's player is a bot (docs/bots.md)
}

// OpenTable is one listed table.
type OpenTable struct {
	Code     string      `json:"code"`
	Game     string      `json:"game"`
	Settings string      `json:"settings"` // canonical: defaults left out
	Phase    string      `json:"phase"`    // seating, playing, between games, finished
	Host     string      `json:"host"`
	Seats    []TableSeat `json:"seats"`
	Free     int         `json:"free"` // person's seats still open
	Watchers int         `json:"watchers"`
	Pace     string      `json:"pace"` // the computer players': steady, quick or instant
	Rated    bool        `json:"rated"`
	// Ratings are the seats' ratings at the game as players read them
	// ("1623", "1500?" while provisional), by seat; "" for a free seat.
	Ratings []string  `json:"ratings"`
	Opened  time.Time `json:"opened"`
	// Join is the line that opens the table: ssh -t -p PORT HOST join CODE.
	Join string `json:"join,omitempty"`
}

// TableListing is the answer of tables.
type TableListing struct {
	Tables []OpenTable `json:"tables"`
}

// Text is the list for a person.
func (l TableListing) Text() string {
	if len(l.Tables) == 0 {
		return "No table is open. Open one: ssh -t HOST table kings (or from the menu).\n"
	}
	var b strings.Builder
	for _, t := range l.Tables {
		var seats []string
		for _, s := range t.Seats {
			switch {
			case s.Computer != "" && s.Name != "":
				seats = append(seats, s.Name+" ("+s.Computer+")")
			case s.Computer != "":
				seats = append(seats, "computer ("+s.Computer+")")
			case s.Free && s.Reserved != "":
				seats = append(seats, "kept for "+s.Reserved)
			case s.Free:
				seats = append(seats, "free")
			case s.Bot:
				seats = append(seats, s.Name+ui.BotMark)
			default:
				seats = append(seats, s.Name)
			}
		}
		settings := t.Settings
		if settings == "" {
			settings = "default settings"
		}
		if t.Pace != "" && t.Pace != string(hub.Steady) {
			settings += ", " + t.Pace + " pace"
		}
		if t.Rated {
			settings += ", rated"
		}
		host := "host " + t.Host
		if t.Host == "" {
			host = "no host" // everyone seated left while seating
		}
		fmt.Fprintf(&b, "%s  %-6s %-14s %s, %s; seats: %s; %d watching\n", t.Code, t.Game, t.Phase, host,
			settings, strings.Join(seats, ", "), t.Watchers)
		if t.Join != "" {
			fmt.Fprintf(&b, "        %s\n", t.Join)
		}
	}
	return b.String()
}

// Tables lists the hub's open tables (names are validated account names).
func Tables(r Request) TableListing {
	out := TableListing{Tables: []OpenTable{}}
	if r.Tables == nil {
		return out
	}
	for _, t := range r.Tables() {
		ot := OpenTable{Code: t.Code, Game: t.Game, Settings: t.Settings, Phase: t.Phase.String(), Host: t.Host.Name,
			Free: t.Free, Watchers: t.Watchers, Pace: string(t.Speed), Rated: t.Rated, Opened: t.Opened.UTC(), Seats: []TableSeat{}, Ratings: []string{}}
		for _, s := range t.Seats {
			// The table's own name for the seat, as its log and results
			// say it: a computer's, or the person's (kept while a computer
			// plays the seat for them).
			ts := TableSeat{Name: s.Name, Computer: s.Computer, Reserved: s.Reserved.Name, Free: s.Open(), Away: s.StandIn, Bot: s.Person.Bot}
			ot.Ratings = append(ot.Ratings, s.Rating)
			if ts.Name == "" {
				ts.Name = s.Person.Name
			}
			if s.Gone && ts.Computer == "" {
				ts.Name, ts.Computer = "", "normal"
			}
			ot.Seats = append(ot.Seats, ts)
		}
		if r.InviteLine != nil && t.Phase != hub.TableClosed {
			ot.Join = r.InviteLine(t.Code)
		}
		out.Tables = append(out.Tables, ot)
	}
	return out
}

func tables(r Request, name string, args []string) (value, error) {
	usage := name + " [--json]"
	rest, err := flags(usage, args, nil, nil)
	if err != nil {
		return nil, err
	}
	if len(rest) != 0 {
		return nil, refuse(usage, "%s takes no words", name)
	}
	return Tables(r), nil
}
