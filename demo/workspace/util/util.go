// Package util holds helpers for the demo.
package util

// Double returns twice its argument.
func Double(n int) int {
	return n * 2
}
