// Package authinfo holds the one type the slash commands' Agent interface
// shares with the root package: it imports nothing, so *pi.Agent can
// return it without linking the TUI into every program that embeds pi.
package authinfo

// Provider is one provider /login and /logout offer.
type Provider struct {
	ID, Name string
	// OAuth: this build can sign in with an account; APIKey: it can
	// store an API key.
	OAuth, APIKey bool
	// Configured: credentials are available (auth.json, environment or
	// models.json); Stored names what auth.json holds ("api_key",
	// "oauth", "" for nothing).
	Configured bool
	Stored     string
}
