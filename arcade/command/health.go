package command

func init() {
	register(command{names: []string{"health"}, help: `"ok" while the server takes players`, run: health})
}

type healthValue struct {
	OK bool `json:"ok"`
}

func (healthValue) Text() string { return "ok\n" }

func health(r Request, _ string, _ []string) (value, error) {
	if r.Health != nil {
		if err := r.Health(); err != nil {
			return nil, failHealth{err}
		}
	}
	return healthValue{OK: true}, nil
}

// failHealth keeps health's old sentence: monitors match "not ok: why".
type failHealth struct{ err error }

func (f failHealth) Error() string { return "not ok: " + f.err.Error() }
