package uitest

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"charm.land/lipgloss/v2"
)

// Fit is what a frame must show to fit its window: every line within W
// cells and no more than H lines, no word cut short by an ellipsis, each of
// Whole on the screen whole (a name, a log entry, a count: not cut at the
// edge, not run into the text beside it), and every key the screen takes
// named in its help (the key bar, or the page ? shows).
type Fit struct {
	W, H int
	// Whole are texts the frame must hold whole: on one line, with no
	// letter or digit straight before or after them.
	Whole []string
	// Wrapped are texts the frame must hold whole but may wrap at their
	// spaces: read across the lines as one text.
	Wrapped []string
	// Keys are the keys the screen takes, as its help names them ("q",
	// "space"); Help is the text they must be named in (the frame's key
	// bar and the help page). Keys without Help: the frame itself.
	Keys []string
	Help string
	// Ellipses are texts ending in "…" that are meant ("Starting…"), not
	// a word cut short.
	Ellipses []string
}

// cutWord is a letter or digit straight before an ellipsis ("…", "...",
// or the "~" the table screens cut with for clients without UTF-8).
var cutWord = regexp.MustCompile(`[\p{L}\p{N}](…|\.\.\.|~)`)

// FitProblems lists what keeps frame from fitting f, in words; none: it
// fits.
func FitProblems(frame string, f Fit) []string {
	var out []string
	lines := strings.Split(frame, "\n")
	if len(lines) > f.H {
		out = append(out, "more than "+itoa(f.H)+" lines: "+itoa(len(lines)))
	}
	for i, l := range lines {
		if w := lipgloss.Width(l); w > f.W {
			out = append(out, "line "+itoa(i)+" is "+itoa(w)+" cells wide: "+quote(l))
		}
		meant := l
		for _, e := range f.Ellipses {
			meant = strings.ReplaceAll(meant, e, "")
		}
		if m := cutWord.FindString(meant); m != "" {
			out = append(out, "line "+itoa(i)+" cuts a word short ("+quote(m)+"): "+quote(l))
		}
	}
	for _, s := range f.Whole {
		if !holdsWhole(lines, s) {
			out = append(out, "not whole on the screen: "+quote(s))
		}
	}
	if len(f.Wrapped) > 0 {
		flow := " " + strings.Join(strings.Fields(frame), " ") + " "
		for _, s := range f.Wrapped {
			if !holdsWhole([]string{flow}, strings.Join(strings.Fields(s), " ")) {
				out = append(out, "not whole on the screen, even wrapped: "+quote(s))
			}
		}
	}
	help := f.Help
	if help == "" {
		help = frame
	}
	for _, k := range f.Keys {
		if !namesKey(help, k) {
			out = append(out, "the help does not name the key "+quote(k))
		}
	}
	return out
}

// CheckFit fails t with every problem FitProblems finds in frame.
func CheckFit(t testing.TB, frame string, f Fit) {
	t.Helper()
	if p := FitProblems(frame, f); len(p) > 0 {
		t.Fatalf("the frame does not fit %dx%d:\n  %s\n%s", f.W, f.H, strings.Join(p, "\n  "), frame)
	}
}

func holdsWhole(lines []string, s string) bool {
	for _, l := range lines {
		for from := 0; ; {
			i := strings.Index(l[from:], s)
			if i < 0 {
				break
			}
			i += from
			if !wordRune(lastRune(l[:i])) && !wordRune(firstRune(l[i+len(s):])) {
				return true
			}
			from = i + 1
		}
	}
	return false
}

// namesKey: k appears in help as a key of its own, not inside a word.
func namesKey(help, k string) bool { return holdsWhole(strings.Split(help, "\n"), k) }

func wordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func lastRune(s string) rune {
	r := []rune(s)
	if len(r) == 0 {
		return ' '
	}
	return r[len(r)-1]
}

func firstRune(s string) rune {
	for _, r := range s {
		return r
	}
	return ' '
}

func itoa(n int) string { return strconv.Itoa(n) }

func quote(s string) string { return strconv.Quote(s) }
