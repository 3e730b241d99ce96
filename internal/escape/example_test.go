package escape_test

import (
	"fmt"
	"log"
	"os"

	"github.com/perfloop/perfloop/internal/escape"
)

// Explain an allocation site from a heap profile with saved -m=2 output
// (escape.Run produces the same index by running the compiler).
func ExampleExplainer_Explain() {
	f, err := os.Open("testdata/planted.go1.26.build.txt")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	ix, err := escape.ReadIndex(f, "planted.go1.26.build.txt")
	if err != nil {
		log.Fatal(err)
	}
	e := escape.NewExplainer(ix, os.DirFS("testdata/planted"))
	x := e.Explain(escape.Site{File: "planted.go", Line: 13})
	fmt.Println(x.Cause, x.Name)
	fmt.Println(x.Verdict)
	fmt.Println(x.Reason)
	for _, l := range x.Flow {
		fmt.Println(l)
	}
	// Output:
	// moved-to-heap hdr
	// moved to heap: hdr
	// hdr is moved to the heap because its address escapes: w.Write(hdr[:]) (call parameter)
	// flow: {heap} ← &hdr:
	//   from hdr (address-of) at planted.go:18:26
	//   from hdr[:] (slice) at planted.go:18:26
	//   from w.Write(hdr[:]) (call parameter) at planted.go:18:22
}
