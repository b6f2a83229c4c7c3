// Package importtest holds the test that keeps the house's imports
// pointing one way (see docs/architecture.md): the rules engine and the
// games know no SSH, no Bubble Tea and no store; only cmd names the Badger
// backend; the live rooms (arcade/hub) reach no SSH, Bubble Tea, Lip Gloss,
// store or game package; no screen package imports another (its tests
// may, as the builder does); only tests import the test rigs.
package importtest
