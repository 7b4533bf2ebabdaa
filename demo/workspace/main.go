package main

import (
	"fmt"

	"example.com/demo/util"
)

func main() {
	fmt.Println(util.Double(21))
	// A deliberate type error, so the diagnostics have something to show.
	var name string = util.Double(2)
	fmt.Println(name)
}
