package llamacpp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// ProviderID is the provider the router's models are listed under.
const ProviderID = "llama.cpp"

// DefaultServerURL is where `llama serve` listens unless told otherwise.
const DefaultServerURL = "http://127.0.0.1:9931"

// requestTimeout bounds every router request, as the reference does.
const requestTimeout = 15 * time.Second

// ModelInfo is one entry of the router's model list. Only the fields pi
// reads are decoded.
type ModelInfo struct {
	ID           string        `json:"id"`
	Source       string        `json:"source,omitempty"`
	Status       ModelStatus   `json:"status"`
	Meta         *ModelMeta    `json:"meta,omitempty"`
	Architecture *Architecture `json:"architecture,omitempty"`
}

// ModelStatus is the router's state of a model: value is loaded,
// sleeping, unloaded, loading or downloading.
type ModelStatus struct {
	Value    string          `json:"value"`
	Args     []string        `json:"args,omitempty"`
	Failed   bool            `json:"failed,omitempty"`
	ExitCode *int            `json:"exit_code,omitempty"`
	Progress json.RawMessage `json:"progress,omitempty"`
}

// ModelMeta carries the context sizes the router knows.
type ModelMeta struct {
	NCtx      int `json:"n_ctx"`
	NCtxTrain int `json:"n_ctx_train"`
}

// Architecture is what the router read from the GGUF metadata.
type Architecture struct {
	InputModalities  []string `json:"input_modalities"`
	OutputModalities []string `json:"output_modalities"`
}

// Loaded reports a model that holds memory: loaded, or asleep and woken
// by the next request.
func (m ModelInfo) Loaded() bool {
	return m.Status.Value == "loaded" || m.Status.Value == "sleeping"
}

// Props is the part of GET /props pi reads.
type Props struct {
	ModelsAutoload *bool
	ChatTemplate   string
}

// Client is one router server. APIKey, when set, is sent as a bearer
// token.
type Client struct {
	ServerURL string
	APIKey    string
	HTTP      *http.Client
}

// NewClient returns a client for the normalised server URL.
func NewClient(serverURL, apiKey string) (*Client, error) {
	u, err := NormalizeServerURL(serverURL)
	if err != nil {
		return nil, err
	}
	return &Client{ServerURL: u, APIKey: apiKey, HTTP: http.DefaultClient}, nil
}

// NormalizeServerURL is the server's root URL: http or https, without
// query, fragment, trailing slashes or a trailing /v1 (users paste the
// OpenAI-compatible URL as often as the root).
func NormalizeServerURL(value string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(value))
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("Invalid URL: %s", strings.TrimSpace(value))
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", errors.New("Server URL must use http or https")
	}
	u.Fragment, u.RawFragment, u.RawQuery, u.ForceQuery = "", "", "", false
	p := strings.TrimRight(u.Path, "/")
	p = strings.TrimSuffix(p, "/v1")
	u.Path, u.RawPath = p, ""
	return strings.TrimSuffix(u.String(), "/"), nil
}

// InferenceURL is the OpenAI-compatible base URL of a server.
func InferenceURL(serverURL string) string {
	if u, err := NormalizeServerURL(serverURL); err == nil {
		serverURL = u
	}
	return serverURL + "/v1"
}

// request sends one JSON request and decodes the answer into out (when
// non-nil). A failed status is an error carrying the server's message.
func (c *Client) request(ctx context.Context, method, path string, body, out any) error {
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.ServerURL+path, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.APIKey)
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		if ctx.Err() != nil && errors.Is(ctx.Err(), context.Canceled) {
			return ctx.Err()
		}
		return fmt.Errorf("Could not reach llama.cpp server at %s: %w", c.ServerURL, unwrapNet(err))
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		var e struct {
			Error struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(data, &e) == nil && e.Error.Message != "" {
			return errors.New(e.Error.Message)
		}
		return fmt.Errorf("llama.cpp returned HTTP %d", resp.StatusCode)
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(data, out)
}

// unwrapNet keeps the network-level cause of a failed request (the
// reference names it: "connect ECONNREFUSED ..."), not the URL again.
func unwrapNet(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// List returns the router's models; reload asks the router to scan its
// model directories again.
func (c *Client) List(ctx context.Context, reload bool) ([]ModelInfo, error) {
	path := "/models"
	if reload {
		path += "?reload=1"
	}
	var payload struct {
		Data []json.RawMessage `json:"data"`
	}
	if err := c.request(ctx, http.MethodGet, path, nil, &payload); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		if errors.As(err, &se) || errors.As(err, &te) {
			return nil, errors.New("llama.cpp returned an invalid model catalog")
		}
		return nil, err
	}
	if payload.Data == nil {
		return nil, errors.New("llama.cpp returned an invalid model catalog")
	}
	out := make([]ModelInfo, 0, len(payload.Data))
	for _, raw := range payload.Data {
		var m ModelInfo
		// A single-model server lists its model without a status: it is
		// not a router.
		if json.Unmarshal(raw, &m) != nil || m.ID == "" || m.Status.Value == "" {
			return nil, errors.New("Server is not running in llama.cpp router mode")
		}
		out = append(out, m)
	}
	return out, nil
}

// Props reads the server's properties, or one model's without loading it
// (model != "").
func (c *Client) Props(ctx context.Context, model string) (Props, error) {
	path := "/props"
	if model != "" {
		// The reference's parameter order.
		path += "?model=" + url.QueryEscape(model) + "&autoload=false"
	}
	var raw map[string]json.RawMessage
	if err := c.request(ctx, http.MethodGet, path, nil, &raw); err != nil {
		return Props{}, err
	}
	var p Props
	var b bool
	if json.Unmarshal(raw["models_autoload"], &b) == nil && raw["models_autoload"] != nil {
		p.ModelsAutoload = &b
	}
	var s string
	if json.Unmarshal(raw["chat_template"], &s) == nil {
		p.ChatTemplate = s
	}
	return p, nil
}

type modelBody struct {
	Model string `json:"model"`
}

// Load asks the router to load a model; it returns once the router
// accepted the request.
func (c *Client) Load(ctx context.Context, model string) error {
	return c.request(ctx, http.MethodPost, "/models/load", modelBody{model}, nil)
}

// Unload asks the router to unload a model.
func (c *Client) Unload(ctx context.Context, model string) error {
	return c.request(ctx, http.MethodPost, "/models/unload", modelBody{model}, nil)
}

// Download asks the router to download a Hugging Face model
// (owner/repository[:quant]).
func (c *Client) Download(ctx context.Context, model string) error {
	return c.request(ctx, http.MethodPost, "/models", modelBody{model}, nil)
}

// find is the model's entry in a fresh list, or nil.
func (c *Client) find(ctx context.Context, model string) (*ModelInfo, error) {
	list, err := c.List(ctx, false)
	if err != nil {
		return nil, err
	}
	for i := range list {
		if list[i].ID == model {
			return &list[i], nil
		}
	}
	return nil, nil
}

// wait pauses between polls of the router, or ends with the context.
func wait(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// UnloadAndWait unloads a model and polls the list until it is gone or
// unloaded.
func (c *Client) UnloadAndWait(ctx context.Context, model string) error {
	if err := c.Unload(ctx, model); err != nil {
		return err
	}
	for {
		e, err := c.find(ctx, model)
		if err != nil {
			return err
		}
		if e == nil || e.Status.Value == "unloaded" {
			return nil
		}
		if err := wait(ctx, 100*time.Millisecond); err != nil {
			return err
		}
	}
}

// LoadAndWait loads a model and polls the list until it is loaded, or
// fails with the router's reason. The router's list is authoritative; its
// event stream only speeds up progress display, which headless callers
// do without.
func (c *Client) LoadAndWait(ctx context.Context, model string) (*ModelInfo, error) {
	if err := c.Load(ctx, model); err != nil {
		return nil, err
	}
	for {
		e, err := c.find(ctx, model)
		if err != nil {
			return nil, err
		}
		if e != nil && e.Status.Value == "loaded" {
			return e, nil
		}
		if e != nil && e.Status.Failed {
			if e.Status.ExitCode != nil {
				return nil, fmt.Errorf("Model exited with code %d", *e.Status.ExitCode)
			}
			return nil, errors.New("Model failed to load")
		}
		if err := wait(ctx, 250*time.Millisecond); err != nil {
			return nil, err
		}
	}
}

// DownloadAndWait starts a download and polls until the model is listed
// and no longer downloading, then returns the reloaded list.
func (c *Client) DownloadAndWait(ctx context.Context, model string) ([]ModelInfo, error) {
	if err := c.Download(ctx, model); err != nil {
		return nil, err
	}
	sawDownloading := false
	for polls := 1; ; polls++ {
		e, err := c.find(ctx, model)
		if err != nil {
			return nil, err
		}
		switch {
		case e != nil && e.Status.Value == "downloading":
			sawDownloading = true
		case e != nil && (sawDownloading || polls >= 2):
			return c.List(ctx, true)
		}
		if err := wait(ctx, 500*time.Millisecond); err != nil {
			return nil, err
		}
	}
}

// FormatBytes is a size in binary units, as the reference shows it.
func FormatBytes(n int64) string {
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	units := []string{"KiB", "MiB", "GiB", "TiB"}
	v := float64(n) / 1024
	u := units[0]
	for i := 1; i < len(units) && v >= 1024; i++ {
		v /= 1024
		u = units[i]
	}
	if v >= 10 {
		return fmt.Sprintf("%.1f %s", v, u)
	}
	return fmt.Sprintf("%.2f %s", v, u)
}
