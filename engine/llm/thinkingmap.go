package llm

import (
	"encoding/json"

	"github.com/pi-go/pi/engine"
)

// ThinkingMapEntry looks a key (a thinking level, or "off") up in the
// model's thinkingLevelMap: present reports whether the key is there, and
// value is nil where the map holds null. A map that is absent, or whose
// values are not all strings or null, has no entries.
func ThinkingMapEntry(m *engine.Model, key string) (value *string, present bool) {
	if len(m.ThinkingLevelMap) == 0 {
		return nil, false
	}
	var mp map[string]*string
	if json.Unmarshal(m.ThinkingLevelMap, &mp) != nil {
		return nil, false
	}
	value, present = mp[key]
	return value, present
}
