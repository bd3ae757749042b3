// Command gateway serves the fake Radius gateway of package authref on a
// local port, for e2e/authref/record.sh: it prints its URL on the first
// line of stdout and each request on stderr as it arrives.
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"sync"

	"github.com/pi-go/pi/e2e/authref"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address (loopback only)")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	g := &authref.Gateway{URL: "http://" + ln.Addr().String()}
	fmt.Println(g.URL)
	var mu sync.Mutex
	logged := 0
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		g.ServeHTTP(w, r)
		mu.Lock()
		defer mu.Unlock()
		l := g.Log()
		for ; logged < len(l); logged++ {
			fmt.Fprintln(os.Stderr, l[logged])
		}
	})
	if err := http.Serve(ln, h); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
