package config

import (
	"crypto/rand"
	"fmt"
	"os"
)

// DeviceID returns the installation's device id reader: the id from the
// global settings, created (a random UUID) and saved on first use, as the
// reference's settings do. The ChatGPT sign-in names the agent host by it.
func DeviceID(agentDir string) func() (string, error) {
	return func() (string, error) {
		cwd, _ := os.Getwd()
		s, err := Load(agentDir, cwd, false)
		if err != nil {
			return "", fmt.Errorf("reading settings for the device id: %w", err)
		}
		if id, ok := s.GlobalRaw("deviceId").(string); ok && id != "" {
			return id, nil
		}
		b := make([]byte, 16)
		_, _ = rand.Read(b)
		b[6] = b[6]&0x0f | 0x40
		b[8] = b[8]&0x3f | 0x80
		id := fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
		if err := s.SetGlobal("deviceId", id); err != nil {
			return "", fmt.Errorf("saving the device id: %w", err)
		}
		return id, nil
	}
}
