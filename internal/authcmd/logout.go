package authcmd

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

func runLogout(args []string, e *env) int {
	if len(args) != 1 || strings.HasPrefix(args[0], "-") {
		errorf(e, "Usage: pi auth logout <provider>")
		return 1
	}
	ref := args[0]
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	reg, _ := loadRegistry(e)
	if reg == nil {
		errorf(e, "Could not read stored credentials: the model registry did not load")
		return 1
	}
	types, err := reg.StoredCredentialTypes()
	if err != nil {
		errorf(e, "Could not read stored credentials: %s", err)
		return 1
	}
	id := matchProvider(reg, ref, true)
	// A provider only an extension registers is not loaded here, so its
	// stored credential matches by id alone.
	key := id
	if key == "" {
		key = ref
	}
	typ, stored := types[key]
	if id == "" && !stored {
		errorf(e, "Unknown provider %q.", sanitize(ref))
		ids := make([]string, 0, len(types))
		for k := range types {
			ids = append(ids, k)
		}
		slices.Sort(ids)
		list := strings.Join(ids, ", ")
		if list == "" {
			list = "none"
		}
		errorf(e, "Stored credentials: %s", list)
		return 1
	}
	name := ref
	if id != "" {
		name = providerName(reg, id)
	}
	if !stored {
		fmt.Fprintf(e.stdout, "No stored credentials for %s. Environment variables and models.json config are unchanged.\n", name)
		return 0
	}
	if _, err := reg.RemoveCredential(ctx, key); err != nil {
		errorf(e, "Logout failed: %s", err)
		return 1
	}
	if typ == "oauth" {
		fmt.Fprintf(e.stdout, "Logged out of %s.\n", name)
	} else {
		fmt.Fprintf(e.stdout, "Removed stored API key for %s. Environment variables and models.json config are unchanged.\n", name)
	}
	return 0
}

// sanitize replaces control characters of user input echoed back, so a
// provider name cannot move the cursor or change colours.
func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return '?'
		}
		return r
	}, s)
}
