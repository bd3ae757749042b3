package config

import (
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/pi-go/pi/engine"
)

// FormatModelList renders --list-models [search]: a table of provider,
// model, context, max-out, thinking and images, sorted by provider then id,
// every cell padded to its column (the last one too) and columns joined by
// two spaces. models should be Registry.Available(). The text ends with a
// newline; with no models or no match it is the reference's one-line
// notice instead.
func FormatModelList(models []*engine.Model, search string) string {
	if len(models) == 0 {
		return NoModelsAvailableMessage() + "\n"
	}
	list := models
	if search != "" {
		list = fuzzyFilter(models, search)
	}
	if len(list) == 0 {
		return "No models matching \"" + search + "\"\n"
	}
	list = append([]*engine.Model(nil), list...)
	sort.SliceStable(list, func(i, j int) bool {
		if list[i].Provider != list[j].Provider {
			return localeLess(list[i].Provider, list[j].Provider)
		}
		return localeLess(list[i].ID, list[j].ID)
	})
	rows := [][]string{{"provider", "model", "context", "max-out", "thinking", "images"}}
	for _, m := range list {
		rows = append(rows, []string{m.Provider, m.ID, formatTokenCount(m.ContextWindow), formatTokenCount(m.MaxTokens), yesNo(m.Reasoning), yesNo(m.SupportsImages())})
	}
	widths := make([]int, 6)
	for _, r := range rows {
		for i, c := range r {
			if n := len([]rune(c)); n > widths[i] {
				widths[i] = n
			}
		}
	}
	var b strings.Builder
	for _, r := range rows {
		for i, c := range r {
			if i > 0 {
				b.WriteString("  ")
			}
			b.WriteString(c)
			b.WriteString(strings.Repeat(" ", widths[i]-len([]rune(c))))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// formatTokenCount writes 200000 as "200K", 1000000 as "1M", 4096 as
// "4.1K".
func formatTokenCount(n int) string {
	switch {
	case n >= 1_000_000:
		return scaled(float64(n)/1_000_000) + "M"
	case n >= 1_000:
		return scaled(float64(n)/1_000) + "K"
	}
	return strconv.Itoa(n)
}

func scaled(f float64) string {
	if f == float64(int64(f)) {
		return strconv.FormatInt(int64(f), 10)
	}
	return strconv.FormatFloat(f, 'f', 1, 64)
}

// fuzzyFilter keeps the models whose "provider id" matches every
// whitespace-separated token of query as a subsequence, best matches
// first (the TUI's fuzzy filter, on which --list-models relies).
func fuzzyFilter(models []*engine.Model, query string) []*engine.Model {
	tokens := strings.FieldsFunc(strings.ToLower(query), unicode.IsSpace)
	if len(tokens) == 0 {
		return models
	}
	type scored struct {
		m     *engine.Model
		score float64
	}
	var out []scored
	for _, m := range models {
		text := strings.ToLower(m.Provider + " " + m.ID)
		total, ok := 0.0, true
		for _, t := range tokens {
			s, matched := fuzzyScore(t, text)
			if !matched {
				ok = false
				break
			}
			total += s
		}
		if ok {
			out = append(out, scored{m, total})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].score < out[j].score })
	res := make([]*engine.Model, len(out))
	for i, s := range out {
		res[i] = s.m
	}
	return res
}

// fuzzyScore reports whether q is a subsequence of text; lower scores are
// better (consecutive matches and early starts are rewarded).
func fuzzyScore(q, text string) (float64, bool) {
	qi, score, last := 0, 0.0, -1
	qr, tr := []rune(q), []rune(text)
	for i := 0; i < len(tr) && qi < len(qr); i++ {
		if tr[i] != qr[qi] {
			continue
		}
		if last >= 0 && i == last+1 {
			score -= 5
		} else if last >= 0 {
			score += float64(i - last)
		} else {
			score += float64(i) * 0.1
		}
		last = i
		qi++
	}
	return score, qi == len(qr)
}
