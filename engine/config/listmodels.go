package config

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
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
			return collateLess(list[i].Provider, list[j].Provider)
		}
		return collateLess(list[i].ID, list[j].ID)
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

// fuzzyFilter keeps the models whose "provider id" contains every token
// of query (split on whitespace and "/") as a case-insensitive subsequence;
// a token like "gpt5" also matches as "5gpt" and the other way round. The
// caller sorts the result, so match quality is not ranked here.
func fuzzyFilter(models []*engine.Model, query string) []*engine.Model {
	tokens := strings.FieldsFunc(strings.ToLower(query), func(r rune) bool { return unicode.IsSpace(r) || r == '/' })
	if len(tokens) == 0 {
		return models
	}
	var out []*engine.Model
	for _, m := range models {
		text := strings.ToLower(m.Provider + " " + m.ID)
		ok := true
		for _, t := range tokens {
			if !isSubsequence(t, text) && !isSubsequence(swapAlphaDigits(t), text) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, m)
		}
	}
	return out
}

func isSubsequence(q, text string) bool {
	if q == "" {
		return false
	}
	qr := []rune(q)
	i := 0
	for _, r := range text {
		if i < len(qr) && r == qr[i] {
			i++
		}
	}
	return i == len(qr)
}

var (
	lettersDigits = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([a-z]+)([0-9]+)$`) })
	digitsLetters = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([0-9]+)([a-z]+)$`) })
)

// swapAlphaDigits turns "gpt5" into "5gpt" and "5gpt" into "gpt5"; other
// tokens give "".
func swapAlphaDigits(t string) string {
	if m := lettersDigits().FindStringSubmatch(t); m != nil {
		return m[2] + m[1]
	}
	if m := digitsLetters().FindStringSubmatch(t); m != nil {
		return m[2] + m[1]
	}
	return ""
}
