package anthropic

import (
	"encoding/json"
	"strings"

	"github.com/pi-go/pi/engine"
)

// compat is the part of a model's "compat" object this API reads, with the
// reference's defaults filled in.
type compat struct {
	supportsEagerToolInputStreaming bool
	supportsLongCacheRetention      bool
	supportsCacheControlOnTools     bool
	supportsTemperature             bool
	allowEmptySignature             bool
	sendSessionAffinityHeaders      bool
	sessionAffinityFormat           string
	forceAdaptiveThinking           bool
	supportsMidConvoEffort          bool
}

// readCompat applies the defaults the reference uses for a model: every
// capability on, except empty signatures and session-affinity headers,
// which only OpenRouter gets by default.
func readCompat(m *engine.Model) compat {
	var raw struct {
		SupportsEagerToolInputStreaming *bool   `json:"supportsEagerToolInputStreaming"`
		SupportsLongCacheRetention      *bool   `json:"supportsLongCacheRetention"`
		SupportsCacheControlOnTools     *bool   `json:"supportsCacheControlOnTools"`
		SupportsTemperature             *bool   `json:"supportsTemperature"`
		AllowEmptySignature             *bool   `json:"allowEmptySignature"`
		SendSessionAffinityHeaders      *bool   `json:"sendSessionAffinityHeaders"`
		SessionAffinityFormat           *string `json:"sessionAffinityFormat"`
		ForceAdaptiveThinking           *bool   `json:"forceAdaptiveThinking"`
		SupportsMidConvoEffort          *bool   `json:"supportsMidConvoEffort"`
	}
	if len(m.Compat) > 0 {
		// A malformed compat object is ignored rather than failing the request:
		// config loading reports it, and the defaults are usable.
		_ = json.Unmarshal(m.Compat, &raw)
	}
	isOpenRouter := m.Provider == "openrouter" || strings.Contains(m.BaseURL, "openrouter.ai")
	or := func(p *bool, def bool) bool {
		if p == nil {
			return def
		}
		return *p
	}
	c := compat{
		supportsEagerToolInputStreaming: or(raw.SupportsEagerToolInputStreaming, true),
		supportsLongCacheRetention:      or(raw.SupportsLongCacheRetention, true),
		supportsCacheControlOnTools:     or(raw.SupportsCacheControlOnTools, true),
		supportsTemperature:             or(raw.SupportsTemperature, true),
		allowEmptySignature:             or(raw.AllowEmptySignature, false),
		sendSessionAffinityHeaders:      or(raw.SendSessionAffinityHeaders, isOpenRouter),
		forceAdaptiveThinking:           or(raw.ForceAdaptiveThinking, false),
		supportsMidConvoEffort:          or(raw.SupportsMidConvoEffort, false),
	}
	if raw.SessionAffinityFormat != nil {
		c.sessionAffinityFormat = *raw.SessionAffinityFormat
	} else if isOpenRouter {
		c.sessionAffinityFormat = "openrouter"
	}
	return c
}
