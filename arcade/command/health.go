package command

func init() {
	register(command{names: []string{"health"}, help: `"ok" while the server takes players`, run: health})
}

func health(r Request) (string, int) {
	if r.Health != nil {
		if err := r.Health(); err != nil {
			return "not ok: " + err.Error() + "\n", 1
		}
	}
	return "ok\n", 0
}
