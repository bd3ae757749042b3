package authcmd

import "github.com/pi-go/pi/engine/config"

// deviceID is the installation's device id (config.DeviceID): the
// ChatGPT sign-in identifies the agent host by it.
func deviceID(agentDir string) func() (string, error) { return config.DeviceID(agentDir) }
