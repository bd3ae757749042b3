package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"

	"github.com/pi-go/pi/internal/jsonx"
)

// loopbackHosts are the hosts a loopback redirect URI (RFC 8252) and an
// http authorization server metadata URL may use.
var loopbackHosts = []string{"localhost", "127.0.0.1", "[::1]"}

// OAuthSettings are a server's "oauth" object: how pi identifies itself
// to the authorization server and where the browser comes back to.
type OAuthSettings struct {
	ClientID, ClientSecret string
	// CallbackPort is 0 when unset.
	CallbackPort          int
	CallbackURL           string
	Scope                 string
	ClientName            string
	ClientRegistration    string
	AuthServerMetadataURL string
}

// validateOAuth checks an "oauth" object with the reference's messages.
func validateOAuth(o jsonx.Object) string {
	str := func(key string) (string, bool, bool) {
		v, ok := o.Get(key)
		if !ok {
			return "", false, true
		}
		s, isStr := v.(string)
		return s, true, isStr
	}
	if _, has, ok := str("clientId"); has && !ok {
		return "oauth.clientId must be a string"
	}
	if _, has, ok := str("clientSecret"); has && !ok {
		return "oauth.clientSecret must be a string"
	}
	port := 0
	if v, ok := o.Get("callbackPort"); ok {
		n, isNum := v.(json.Number)
		i, err := n.Int64()
		if !isNum || err != nil || i < 1 || i > 65535 {
			return "oauth.callbackPort must be a port number"
		}
		port = int(i)
	}
	cb, hasCB, cbOK := str("callbackUrl")
	if hasCB {
		u, err := url.Parse(cb)
		if !cbOK || err != nil || !isLoopbackRedirect(u) {
			return "oauth.callbackUrl must be an http URI on localhost, 127.0.0.1, or [::1] without query or fragment"
		}
		if p := u.Port(); p != "" && port != 0 && p != fmt.Sprint(port) {
			return "oauth.callbackUrl and oauth.callbackPort name different ports"
		}
	}
	if _, has, ok := str("scope"); has && !ok {
		return "oauth.scope must be a string"
	}
	if name, has, ok := str("clientName"); has && (!ok || trimSpace(name) == "") {
		return "oauth.clientName must be a non-empty string"
	}
	if reg, has, _ := str("clientRegistration"); has && reg != "auto" && reg != "dcr" {
		if reg != "cimd" {
			return `oauth.clientRegistration must be "auto", "dcr", or "cimd"`
		}
		if o.Index("clientId") >= 0 || o.Index("clientName") >= 0 {
			return `oauth.clientRegistration "cimd" cannot be combined with oauth.clientId or oauth.clientName`
		}
		if hasCB && cbOK && !isMetadataDocumentCallback(cb) {
			return `oauth.clientRegistration "cimd" requires oauth.callbackUrl on localhost or 127.0.0.1 with path /callback`
		}
	}
	if v, ok := o.Get("authServerMetadataUrl"); ok {
		s, _ := v.(string)
		u, err := url.Parse(s)
		if s == "" || err != nil || !(u.Scheme == "https" || u.Scheme == "http" && slices.Contains(loopbackHosts, hostOf(u))) {
			return "oauth.authServerMetadataUrl must be an https URL, or http on localhost, 127.0.0.1, or [::1]"
		}
	}
	return ""
}

// hostOf is a URL's host without the port, brackets kept as the WHATWG
// URL's hostname keeps them.
func hostOf(u *url.URL) string {
	h := u.Hostname()
	if len(h) > 0 && h[0] != '[' && slices.Contains([]byte(h), ':') {
		return "[" + h + "]"
	}
	return h
}

func isLoopbackRedirect(u *url.URL) bool {
	return u.Scheme == "http" && slices.Contains(loopbackHosts, hostOf(u)) && u.RawQuery == "" && !u.ForceQuery && u.Fragment == ""
}

// isMetadataDocumentCallback reports a callback URL that pi's Client ID
// Metadata Documents list: /callback on localhost or 127.0.0.1, any
// port. An unset callback URL is pi's default, which they list.
func isMetadataDocumentCallback(callbackURL string) bool {
	if callbackURL == "" {
		return true
	}
	u, err := url.Parse(callbackURL)
	if err != nil {
		return false
	}
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	return hostOf(u) != "[::1]" && path == "/callback"
}

func trimSpace(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t' || s[0] == '\n' || s[0] == '\r') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t' || s[len(s)-1] == '\n' || s[len(s)-1] == '\r') {
		s = s[:len(s)-1]
	}
	return s
}

// OAuthSettingsOf resolves a server's oauth settings; the client secret
// may name an environment variable or a command, resolved here so a
// secret that fails to resolve fails the sign-in or refresh that needs
// it, not the connection.
func (s *Server) OAuthSettingsOf(ctx context.Context) (OAuthSettings, error) {
	var o OAuthSettings
	get := func(key string) string { v, _ := s.OAuth.Get(key); str, _ := v.(string); return str }
	o.ClientID = get("clientId")
	o.CallbackURL = get("callbackUrl")
	o.Scope = get("scope")
	o.ClientName = get("clientName")
	o.ClientRegistration = get("clientRegistration")
	o.AuthServerMetadataURL = get("authServerMetadataUrl")
	if v, ok := s.OAuth.Get("callbackPort"); ok {
		if n, ok := v.(json.Number); ok {
			i, _ := n.Int64()
			o.CallbackPort = int(i)
		}
	}
	if secret := get("clientSecret"); secret != "" {
		v, err := expandValue(secret, `MCP server "`+s.Name+`" oauth.clientSecret`)
		if err != nil {
			return o, err
		}
		o.ClientSecret = v
	}
	return o, nil
}

// AuthProvider is the pi provider whose login an HTTP server's "auth"
// names (its bearer token is that provider's credential), "" when none.
func (s *Server) AuthProvider() string {
	v, ok := s.Config.Get("auth")
	if !ok {
		return ""
	}
	o, _ := v.(jsonx.Object)
	p, _ := o.Get("provider")
	str, _ := p.(string)
	return str
}

// UsesOAuth reports an HTTP server that signs in with OAuth: one without
// an Authorization header or a provider's login ("auth").
func (s *Server) UsesOAuth() bool {
	if !s.IsHTTP() || hasAuthorization(s) {
		return false
	}
	_, hasAuth := s.Config.Get("auth")
	return !hasAuth
}

// validateAuth checks an HTTP server's "auth": a provider name, and a
// URL that is https or loopback, since the provider's token goes to it.
func validateAuth(v any, serverURL string) string {
	o, ok := v.(jsonx.Object)
	p, _ := o.Get("provider")
	if name, isStr := p.(string); !ok || !isStr || name == "" {
		return "auth.provider must be a provider name"
	}
	u, err := url.Parse(serverURL)
	if err != nil || u.Scheme != "https" && !slices.Contains(loopbackHosts, hostOf(u)) {
		return "auth requires an https URL, or http on localhost, 127.0.0.1, or [::1]"
	}
	return ""
}
