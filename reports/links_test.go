package reports

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/require"
)

// The README, docs/ and reports/ point at one another and at the code; a
// file moved or a heading renamed must fail here rather than leave a reader
// at a dead link.
func TestMarkdownLinksResolve(t *testing.T) {
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	pages := markdownPages(t, root)
	require.Contains(t, pages, filepath.Join(root, "README.md"))
	for _, page := range pages {
		for _, bad := range brokenLinks(t, root, page) {
			t.Errorf("%s: %s", rel(root, page), bad)
		}
	}
}

// The README is for players and operators: what it is, how to play, how to
// run it. Everything longer belongs in docs/ or reports/, where it links.
func TestReadmeIsShort(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "README.md"))
	require.NoError(t, err)
	lines := strings.Count(string(data), "\n")
	require.LessOrEqual(t, lines, 250, "README.md has %d lines; move the detail to docs/", lines)
}

// An unclosed code fence swallows the rest of a page, links and headings
// with it, and the link check would pass over them unseen.
func TestMarkdownFencesClose(t *testing.T) {
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	for _, page := range markdownPages(t, root) {
		data, err := os.ReadFile(page)
		require.NoError(t, err)
		fences := 0
		for _, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(line, "```") {
				fences++
			}
		}
		require.Zero(t, fences%2, "%s: a code fence is not closed", rel(root, page))
	}
}

// The checker itself: each kind of dead link it must catch, and the live
// ones it must let through.
func TestBrokenLinksFindsDeadLinks(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(root, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	write("docs/b.md", "# The `B` page: notes\n## Twice\n## Twice\n")
	write("README.md", strings.Join([]string{
		"# Top",
		"[ok](docs/b.md) [ok](docs/b.md#the-b-page-notes) [ok](docs/b.md#twice-1) [ok](#top) [ok](docs/)",
		"[ok](https://example.com/x) `[code](nowhere.md)`",
		"```",
		"[fenced](nowhere.md)",
		"```",
		"[gone](docs/c.md) [anchor](docs/b.md#nope) [self](#nope) [out](../elsewhere.md) [three](docs/b.md#twice-2)",
	}, "\n"))
	require.Equal(t, []string{
		"docs/c.md: no such file",
		"docs/b.md#nope: no such heading",
		"#nope: no such heading",
		"../elsewhere.md: outside the repository",
		"docs/b.md#twice-2: no such heading",
	}, brokenLinks(t, root, filepath.Join(root, "README.md")))
}

func markdownPages(t *testing.T, root string) []string {
	var pages []string
	pages = append(pages, filepath.Join(root, "README.md"))
	for _, dir := range []string{"docs", "reports"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(p, ".md") {
				pages = append(pages, p)
			}
			return nil
		})
		require.NoError(t, err)
	}
	return pages
}

var (
	fenceRe  = regexp.MustCompile("(?ms)^```.*?^```")
	codeRe   = regexp.MustCompile("`[^`\n]*`")
	linkRe   = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	headRe   = regexp.MustCompile(`(?m)^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$`)
	schemeRe = regexp.MustCompile(`^[a-z][a-z0-9+.-]*:`)
)

// brokenLinks lists each relative link of page whose file, or whose
// #anchor in a Markdown file, does not exist inside root.
func brokenLinks(t *testing.T, root, page string) []string {
	data, err := os.ReadFile(page)
	require.NoError(t, err)
	text := codeRe.ReplaceAllString(fenceRe.ReplaceAllString(string(data), ""), "")
	var bad []string
	for _, m := range linkRe.FindAllStringSubmatch(text, -1) {
		link := m[1]
		if schemeRe.MatchString(link) {
			continue
		}
		file, anchor, _ := strings.Cut(link, "#")
		target := page
		if file != "" {
			target = filepath.Join(filepath.Dir(page), filepath.FromSlash(file))
		}
		if r, err := filepath.Rel(root, target); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			bad = append(bad, link+": outside the repository")
			continue
		}
		if _, err := os.Stat(target); err != nil {
			bad = append(bad, link+": no such file")
			continue
		}
		if anchor != "" && strings.HasSuffix(target, ".md") && !anchors(t, target)[anchor] {
			bad = append(bad, link+": no such heading")
		}
	}
	return bad
}

// anchors are the ids GitHub gives a page's headings: lower case, spaces to
// hyphens, punctuation dropped, a repeated heading numbered -1, -2...
func anchors(t *testing.T, page string) map[string]bool {
	data, err := os.ReadFile(page)
	require.NoError(t, err)
	text := fenceRe.ReplaceAllString(string(data), "")
	ids := map[string]bool{}
	seen := map[string]int{}
	for _, m := range headRe.FindAllStringSubmatch(text, -1) {
		var b strings.Builder
		for _, r := range strings.ToLower(m[1]) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		id := b.String()
		if n := seen[id]; n > 0 {
			seen[id]++
			id += "-" + strconv.Itoa(n)
		} else {
			seen[id] = 1
		}
		ids[id] = true
	}
	return ids
}

func rel(root, p string) string {
	r, err := filepath.Rel(root, p)
	if err != nil {
		return p
	}
	return r
}
