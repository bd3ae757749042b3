package skills

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/pi-go/pi/prompts"
)

// startHome builds a HOME with 1,000 skills and 1,000 prompt templates
// under ~/.pi/agent and a project (a git repository) to start in, and ages
// the files so the resource cache keeps them.
func startHome(b *testing.B) (agent, cwd string) {
	b.Helper()
	home := b.TempDir()
	agent = filepath.Join(home, ".pi", "agent")
	for i := range 1000 {
		name := fmt.Sprintf("skill-%04d", i)
		skillMD(b, filepath.Join(agent, "skills", name), name, "Does thing number "+name+" when asked", "")
		write(b, filepath.Join(agent, "prompts", fmt.Sprintf("t%04d.md", i)), "---\ndescription: template\nargument-hint: \"<x>\"\n---\nDo $1 with ${@:2}\n")
	}
	cwd = filepath.Join(home, "proj")
	if err := os.MkdirAll(filepath.Join(cwd, ".git"), 0o755); err != nil {
		b.Fatal(err)
	}
	ageFiles(b, agent)
	return agent, cwd
}

// startDiscovery is what cmd/pi's discoverResources does at start: open the
// resource index, discover skills and templates side by side, save the
// index.
func startDiscovery(b *testing.B, agent, cwd, index string) {
	cache := prompts.OpenFileCache(index)
	var s []Skill
	var wg sync.WaitGroup
	wg.Go(func() {
		s, _ = Discover(Options{AgentDir: agent, Cwd: cwd, Home: filepath.Dir(filepath.Dir(agent)), Cache: cache})
	})
	tm, _ := prompts.LoadTemplates(prompts.TemplateOptions{AgentDir: agent, Cwd: cwd, Home: filepath.Dir(filepath.Dir(agent)), Cache: cache})
	wg.Wait()
	if err := cache.Save(); err != nil {
		b.Fatal(err)
	}
	if len(s) != 1000 || len(tm) != 1000 {
		b.Fatalf("loaded %d skills, %d templates", len(s), len(tm))
	}
}

// BenchmarkStartResources measures what resource discovery adds to a start
// with 1,000 skills and 1,000 templates, the way cmd/pi runs it: "warm" with
// the index of an earlier start and nothing changed (every start after the
// first), "cold" without an index (the first start, or after the index was
// deleted), "none" with no resources at all (the baseline the others add to).
func BenchmarkStartResources(b *testing.B) {
	agent, cwd := startHome(b)
	index := filepath.Join(agent, "cache", "resources.idx")
	empty := b.TempDir()
	emptyAgent := filepath.Join(empty, ".pi", "agent")
	cases := []struct {
		name string
		prep func()
		run  func()
	}{
		{"warm", func() { startDiscovery(b, agent, cwd, index) }, func() { startDiscovery(b, agent, cwd, index) }},
		{"cold", nil, func() {
			os.Remove(index)
			startDiscovery(b, agent, cwd, index)
		}},
		{"none", nil, func() {
			cache := prompts.OpenFileCache(filepath.Join(emptyAgent, "cache", "resources.idx"))
			Discover(Options{AgentDir: emptyAgent, Cwd: empty, Home: empty, Cache: cache})
			prompts.LoadTemplates(prompts.TemplateOptions{AgentDir: emptyAgent, Cwd: empty, Home: empty, Cache: cache})
			_ = cache.Save()
		}},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			if tc.prep != nil {
				tc.prep()
			}
			cpu0 := cpuTime()
			for b.Loop() {
				tc.run()
			}
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/1e6, "cpu-ms/op")
		})
	}
}
