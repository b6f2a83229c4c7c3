package command

func init() {
	register(command{names: []string{"help", "--help", "-h"}, help: "this text", run: func(r Request) (string, int) {
		return Usage(r.Games), 0
	}})
}
