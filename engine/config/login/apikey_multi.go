package login

import (
	"context"
	"encoding/json"
	"fmt"
)

// multiStepLogins are the API-key logins that ask more than a key, with
// the reference's prompts and stored shapes.
var multiStepLogins = map[string]func(context.Context, Interaction) (json.RawMessage, error){
	"amazon-bedrock": bedrockLogin,
	"google-vertex":  vertexLogin,
	"cloudflare-workers-ai": func(ctx context.Context, ui Interaction) (json.RawMessage, error) {
		return cloudflareLogin(ctx, ui, false)
	},
	"cloudflare-ai-gateway": func(ctx context.Context, ui Interaction) (json.RawMessage, error) {
		return cloudflareLogin(ctx, ui, true)
	},
}

// asker asks a series of questions, keeping the first error.
type asker struct {
	ctx context.Context
	ui  Interaction
	err error
}

func (a *asker) ask(kind, message string) string {
	if a.err != nil {
		return ""
	}
	var s string
	s, a.err = a.ui.Ask(a.ctx, Prompt{Kind: kind, Message: message})
	return s
}

func (a *asker) pick(message string, opts ...Option) string {
	if a.err != nil {
		return ""
	}
	var s string
	s, a.err = a.ui.Ask(a.ctx, Prompt{Kind: "select", Message: message, Options: opts})
	return s
}

func cloudflareLogin(ctx context.Context, ui Interaction, gateway bool) (json.RawMessage, error) {
	a := &asker{ctx: ctx, ui: ui}
	key := a.ask("secret", "Enter Cloudflare API key")
	account := a.ask("text", "Enter Cloudflare account ID")
	env := envObject("CLOUDFLARE_ACCOUNT_ID", account)
	if gateway {
		env = envObject("CLOUDFLARE_ACCOUNT_ID", account, "CLOUDFLARE_GATEWAY_ID", a.ask("text", "Enter Cloudflare AI Gateway ID"))
	}
	if a.err != nil {
		return nil, a.err
	}
	return apiKeyCredential(&key, env)
}

func bedrockLogin(ctx context.Context, ui Interaction) (json.RawMessage, error) {
	a := &asker{ctx: ctx, ui: ui}
	method := a.pick("Select Amazon Bedrock authentication method:",
		Option{ID: "bearer-token", Label: "Bearer token"},
		Option{ID: "aws-profile", Label: "AWS profile"},
		Option{ID: "credential-chain", Label: "Existing AWS credential chain"})
	if a.err != nil {
		return nil, a.err
	}
	if method == "bearer-token" {
		key := a.ask("secret", "Enter Amazon Bedrock bearer token")
		if a.err != nil {
			return nil, a.err
		}
		return apiKeyCredential(&key, nil)
	}
	ui.Notify(Event{Kind: "info", Message: "Amazon Bedrock supports AWS profiles, IAM credentials, and role-based credentials.",
		Links: []Link{{"AWS credential provider chain", "https://docs.aws.amazon.com/sdkref/latest/guide/standardized-credentials.html"}}})
	switch method {
	case "aws-profile":
		profile := a.ask("text", "Enter AWS profile name")
		if a.err != nil {
			return nil, a.err
		}
		return apiKeyCredential(nil, envObject("AWS_PROFILE", profile))
	case "credential-chain":
		a.ask("text", "Configure AWS credentials, then press Enter to continue")
		if a.err != nil {
			return nil, a.err
		}
		return apiKeyCredential(nil, nil)
	}
	return nil, fmt.Errorf("Unknown Amazon Bedrock auth method: %s", method)
}

func vertexLogin(ctx context.Context, ui Interaction) (json.RawMessage, error) {
	a := &asker{ctx: ctx, ui: ui}
	method := a.pick("Select Google Vertex AI authentication method:",
		Option{ID: "api-key", Label: "Google Cloud API key"},
		Option{ID: "adc", Label: "Application Default Credentials"},
		Option{ID: "service-account", Label: "Service account credentials file"})
	if a.err != nil {
		return nil, a.err
	}
	switch method {
	case "api-key":
		key := a.ask("secret", "Enter Google Cloud API key")
		if a.err != nil {
			return nil, a.err
		}
		return apiKeyCredential(&key, nil)
	case "adc", "service-account":
	default:
		return nil, fmt.Errorf("Unknown Google Vertex AI auth method: %s", method)
	}
	msg := "Provide a service account credentials file, project, and location."
	if method == "adc" {
		msg = "Run `gcloud auth application-default login`, then provide the project and location."
	}
	ui.Notify(Event{Kind: "info", Message: msg,
		Links: []Link{{"Application Default Credentials", "https://cloud.google.com/docs/authentication/provide-credentials-adc"}}})
	project := a.ask("text", "Enter Google Cloud project ID")
	location := a.ask("text", "Enter Google Cloud location")
	env := envObject("GOOGLE_CLOUD_PROJECT", project, "GOOGLE_CLOUD_LOCATION", location)
	if method == "service-account" {
		if path := a.ask("text", "Enter service account credentials file path"); path != "" {
			env = envObject("GOOGLE_CLOUD_PROJECT", project, "GOOGLE_CLOUD_LOCATION", location, "GOOGLE_APPLICATION_CREDENTIALS", path)
		}
	}
	if a.err != nil {
		return nil, a.err
	}
	return apiKeyCredential(nil, env)
}
