// Package login holds the sign-in flows of the built-in providers: the
// browser and device-code OAuth logins that create the credentials
// engine/config stores in auth.json and refreshes, and the API-key entry.
//
// A flow talks to the person signing in through an Interaction (prompts
// and notices), so the same flow serves `pi auth login` and a TUI. Its
// endpoints live in an Endpoints value that tests point at local servers.
package login
