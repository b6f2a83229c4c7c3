package importtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const module = "sshuffle"

// pkg is what go list says of one package.
type pkg struct {
	ImportPath                         string
	Imports, TestImports, XTestImports []string
	Deps                               []string
}

// The rules, each one a sentence a violation is reported in.
var (
	// What the rules engine and the games must not reach, even through
	// another package: they are plain values, the same on every machine.
	forbiddenForGames = []string{
		"charm.land/ssh", "charm.land/wish/v2", "golang.org/x/crypto/ssh",
		"charm.land/bubbletea/v2", module + "/store",
	}
	badgerBackend = module + "/store/badger"
	screensRoot   = module + "/arcade/ui/"
	// notScreens are the packages under arcade/ui that screens share.
	notScreens = []string{screensRoot + "board"}
)

// hubMayImportGames would let arcade/hub reach the game packages; it is
// false since the hub takes its kits from the catalogue through the
// wiring, so the rule holds for games as for the rest.
const hubMayImportGames = false

// reachRule forbids the packages that from matches to reach (directly or
// through another package) any package under one of forbidden, forbidden
// itself included.
type reachRule struct {
	from      func(string) bool
	forbidden []string
	why       string
}

// reachRules are the rules of the form "P reaches nothing under F";
// hubGames says whether the hub may still reach the game packages.
func reachRules(hubGames bool) []reachRule {
	isHub := func(p string) bool { return p == hubPkg || strings.HasPrefix(p, hubPkg+"/") }
	rules := []reachRule{{
		// The live rooms deal in plain values that could cross between
		// machines: no session, no screen, no store.
		from: isHub,
		forbidden: []string{
			"charm.land/ssh", "charm.land/wish", "golang.org/x/crypto/ssh",
			"charm.land/bubbletea", "charm.land/lipgloss", module + "/store",
		},
		why: "the hub knows no SSH, Bubble Tea or store",
	}}
	if !hubGames {
		rules = append(rules, reachRule{
			from:      isHub,
			forbidden: []string{module + "/games"},
			why:       "the hub gets its kits from the catalogue, through the wiring",
		})
	}
	return rules
}

const hubPkg = module + "/arcade/hub"

// testRigs are packages only tests import: they may open a Badger store
// as a test does, and no other package may import them.
var testRigs = []string{module + "/internal/uitest"}

func isGameSide(p string) bool {
	return p == module+"/engine" || p == module+"/games" || strings.HasPrefix(p, module+"/games/")
}

// screen is the screen package p is, or "" when p is none: a direct child
// of arcade/ui other than the shared ones.
func screen(p string) string {
	rest, ok := strings.CutPrefix(p, screensRoot)
	if !ok || strings.Contains(rest, "/") || slices.Contains(notScreens, p) {
		return ""
	}
	return rest
}

func reaches(deps []string, forbidden string) bool {
	for _, d := range deps {
		if d == forbidden || strings.HasPrefix(d, forbidden+"/") {
			return true
		}
	}
	return false
}

// violations lists every broken rule, one sentence each.
func violations(pkgs []pkg, rules []reachRule) []string {
	var out []string
	for _, p := range pkgs {
		if isGameSide(p.ImportPath) {
			for _, f := range forbiddenForGames {
				if reaches(p.Deps, f) {
					out = append(out, fmt.Sprintf("%s reaches %s", p.ImportPath, f))
				}
				for _, ti := range append(slices.Clone(p.TestImports), p.XTestImports...) {
					if ti == f || strings.HasPrefix(ti, f+"/") {
						out = append(out, fmt.Sprintf("%s's tests import %s", p.ImportPath, ti))
					}
				}
			}
		}
		for _, r := range rules {
			if !r.from(p.ImportPath) {
				continue
			}
			for _, f := range r.forbidden {
				for _, d := range p.Deps {
					if d == f || strings.HasPrefix(d, f+"/") {
						out = append(out, fmt.Sprintf("%s reaches %s (%s)", p.ImportPath, d, r.why))
					}
				}
			}
		}
		// Tests may open a Badger store as the rig of a test, the way cmd
		// does for the server; the packages themselves may not.
		if !strings.HasPrefix(p.ImportPath, module+"/cmd/") && p.ImportPath != badgerBackend && !slices.Contains(testRigs, p.ImportPath) &&
			!strings.HasPrefix(p.ImportPath, badgerBackend+"/") && slices.Contains(p.Deps, badgerBackend) {
			out = append(out, fmt.Sprintf("%s reaches %s (only cmd may name the backend)", p.ImportPath, badgerBackend))
		}
		for _, i := range p.Imports {
			if slices.Contains(testRigs, i) && !slices.Contains(testRigs, p.ImportPath) {
				out = append(out, fmt.Sprintf("%s imports the test rig %s (only tests may)", p.ImportPath, i))
			}
		}
		// A screen's tests may build other screens: they stand in for the
		// arcade's builder, which is the one place that knows them all.
		if s := screen(p.ImportPath); s != "" {
			for _, i := range p.Imports {
				if o := screen(i); o != "" && o != s {
					out = append(out, fmt.Sprintf("screen package %s imports screen package %s", p.ImportPath, i))
				}
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func goList(t *testing.T) []pkg {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	cmd := exec.Command("go", "list", "-json=ImportPath,Imports,TestImports,XTestImports,Deps", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, stderr.String())
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p pkg
		require.NoError(t, dec.Decode(&p))
		pkgs = append(pkgs, p)
	}
	require.NotEmpty(t, pkgs)
	return pkgs
}

func TestImportsPointOneWay(t *testing.T) {
	pkgs := goList(t)
	var names []string
	for _, p := range pkgs {
		names = append(names, p.ImportPath)
	}
	// The rules check something only while the packages they name exist.
	for _, want := range []string{module + "/engine", module + "/games/klondike", screensRoot + "menu", screensRoot + "solitaire", hubPkg} {
		require.Contains(t, names, want)
	}
	require.Empty(t, violations(pkgs, reachRules(hubMayImportGames)))
}

// Each rule catches what it is for.
func TestRulesCatchForbiddenImports(t *testing.T) {
	got := violations([]pkg{
		{ImportPath: module + "/games/klondike", Deps: []string{module + "/engine", "charm.land/bubbletea/v2"}},
		{ImportPath: module + "/engine", Deps: []string{module + "/store"}},
		{ImportPath: module + "/games/spider", XTestImports: []string{"charm.land/ssh"}},
		{ImportPath: module + "/arcade", Deps: []string{badgerBackend}},
		{ImportPath: module + "/cmd/sshuffle", Deps: []string{badgerBackend}},
		{ImportPath: screensRoot + "menu", Imports: []string{screensRoot + "solitaire", screensRoot + "board", module + "/arcade/ui"}},
		{ImportPath: screensRoot + "board", Imports: []string{module + "/arcade/ui"}},
		{ImportPath: screensRoot + "solitaire", Imports: []string{screensRoot + "solitaire", screensRoot + "help"}},
		{ImportPath: screensRoot + "race", TestImports: []string{screensRoot + "solitaire"}},
		{ImportPath: hubPkg, Deps: []string{module + "/engine", "golang.org/x/crypto/ssh", "charm.land/lipgloss/v2", module + "/store"}},
		{ImportPath: hubPkg + "/wire", Deps: []string{"charm.land/wish/v2/bubbletea", "charm.land/bubbletea/v2"}},
		{ImportPath: module + "/internal/uitest", Imports: []string{badgerBackend}, Deps: []string{badgerBackend}},
		{ImportPath: screensRoot + "help", Imports: []string{module + "/internal/uitest"}, TestImports: []string{module + "/internal/uitest"}},
		{ImportPath: hubPkg + "/rooms", Deps: []string{module + "/games", module + "/games/spite", module + "/gamesx"}},
	}, reachRules(false))
	want := []string{
		module + "/arcade reaches " + badgerBackend + " (only cmd may name the backend)",
		module + "/engine reaches " + module + "/store",
		module + "/games/klondike reaches charm.land/bubbletea/v2",
		module + "/games/spider's tests import charm.land/ssh",
		"screen package " + screensRoot + "menu imports screen package " + screensRoot + "solitaire",
		"screen package " + screensRoot + "solitaire imports screen package " + screensRoot + "help",
		screensRoot + "help imports the test rig " + module + "/internal/uitest (only tests may)",
		hubPkg + " reaches golang.org/x/crypto/ssh (the hub knows no SSH, Bubble Tea or store)",
		hubPkg + " reaches charm.land/lipgloss/v2 (the hub knows no SSH, Bubble Tea or store)",
		hubPkg + " reaches " + module + "/store (the hub knows no SSH, Bubble Tea or store)",
		hubPkg + "/wire reaches charm.land/wish/v2/bubbletea (the hub knows no SSH, Bubble Tea or store)",
		hubPkg + "/wire reaches charm.land/bubbletea/v2 (the hub knows no SSH, Bubble Tea or store)",
		hubPkg + "/rooms reaches " + module + "/games (the hub gets its kits from the catalogue, through the wiring)",
		hubPkg + "/rooms reaches " + module + "/games/spite (the hub gets its kits from the catalogue, through the wiring)",
	}
	slices.Sort(want)
	require.Equal(t, want, got)
}
