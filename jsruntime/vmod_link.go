package jsruntime

import "github.com/pi-go/pi/jsruntime/vmod"

// defaultVirtualSources returns the JS sources of the virtual host packages
// (module name → CommonJS source) from the vmod package.
func defaultVirtualSources() map[string]string {
	return vmod.Sources
}

// virtualAliases are vmod's other names for its modules (legacy scopes,
// pi-ai/compat); they become alias entries of the module map.
func virtualAliases() map[string]string {
	return vmod.Aliases
}
