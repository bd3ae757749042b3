package config

import (
	"path/filepath"
	"testing"
)

// BenchmarkLoadModels measures the registry load at start with no
// models.json: it must not grow with the catalog.
func BenchmarkLoadModels(b *testing.B) {
	dir := b.TempDir()
	getenv := func(k string) string {
		if k == "ANTHROPIC_API_KEY" {
			return "x"
		}
		return ""
	}
	b.ReportAllocs()
	for b.Loop() {
		r, _ := loadModels(dir, getenv)
		_ = r
	}
}

// BenchmarkResolveDefault is the start's model choice with one provider's
// key set and no settings: the first-available fallback.
func BenchmarkResolveDefault(b *testing.B) {
	dir := b.TempDir()
	r, _ := loadModels(filepath.Join(dir, "agent"), func(k string) string {
		if k == "ANTHROPIC_API_KEY" {
			return "x"
		}
		return ""
	})
	b.ReportAllocs()
	for b.Loop() {
		if initialModel(r, FromMaps(nil, nil)) == nil {
			b.Fatal("no model")
		}
	}
}

// BenchmarkResolveCLIModel is --model provider/id against the whole
// catalog, the start path that reads every model.
func BenchmarkResolveCLIModel(b *testing.B) {
	r, _ := loadModels(b.TempDir(), func(k string) string {
		if k == "ANTHROPIC_API_KEY" {
			return "x"
		}
		return ""
	})
	b.ReportAllocs()
	for b.Loop() {
		m, _, _, err := resolveCLIModel(r, "", "anthropic/claude-opus-5-5", "", false)
		if err != nil || m == nil {
			b.Fatal(err)
		}
	}
}
