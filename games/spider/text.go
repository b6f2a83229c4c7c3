package spider

import (
	"fmt"
	"strings"

	"sshuffle/engine"
)

// Text is the opening layout with every card shown, for `sshuffle deal`.
// Face-down cards are in brackets; each column is listed bottom to top.
func Text(spec engine.Spec) (string, error) {
	g, err := New(spec)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", g.spec)
	b.WriteString("Columns, bottom to top ([face down]):\n")
	for c := 0; c < numCols; c++ {
		cs := g.p.col(c)
		d := int(g.p.down[c])
		fmt.Fprintf(&b, "%2d: [", c+1)
		for i, x := range cs[:d] {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(x.ASCII())
		}
		b.WriteString("]")
		for _, x := range cs[d:] {
			b.WriteString(" " + x.ASCII())
		}
		b.WriteByte('\n')
	}
	b.WriteString("Stock rows, in dealing order, columns 1 to 10:\n")
	for r := 0; r < numRows; r++ {
		fmt.Fprintf(&b, "%2d:", r+1)
		for _, x := range g.stock[r*numCols : r*numCols+numCols] {
			b.WriteString(" " + x.ASCII())
		}
		b.WriteByte('\n')
	}
	return b.String(), nil
}
