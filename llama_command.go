package pi

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm/llamacpp"
)

// /llama: the router's models in a list, an unloaded one loaded when
// chosen, a loaded one unloaded, and "Download model…" for a Hugging Face
// owner/repository[:quant]. As in the reference it needs the terminal
// UI; elsewhere it says so. After every action the catalog is refreshed
// from the router (with network, even offline: /llama talks to the
// router anyway), so /model shows what the router now has.

const llamaDownloadItem = "Download model…"

// runLlamaCommand runs /llama.
func (app *Agent) runLlamaCommand(ctx context.Context) {
	app.llama.mu.Lock()
	ui := app.llama.ui
	app.llama.mu.Unlock()
	if app.mode != ModeInteractive || ui == nil {
		app.llamaNotify("/llama is available in interactive mode", "warning")
		return
	}
	c := app.llamaClient()
	if c == nil {
		ui.Notify("Configure llama.cpp with /login "+llamacpp.ProviderID, "warning")
		return
	}
	app.waitLlamaRefresh(ctx)
	list, ok := app.llamaReadCatalog(ctx, ui, c)
	for ok {
		choice, chosen := ui.Select(ctx, "llama.cpp models\n"+c.ServerURL, llamaItems(list), engine.DialogOptions{})
		if !chosen {
			return
		}
		var err error
		if choice == llamaDownloadItem {
			err = app.llamaDownload(ctx, ui, c)
		} else if m := llamaItemModel(list, choice); m != nil {
			switch {
			case m.Loaded():
				err = app.llamaUnload(ctx, ui, c, *m)
			case m.Status.Value == "unloaded":
				err = app.llamaLoad(ctx, ui, c, list, *m)
			default:
				ui.Notify(fmt.Sprintf("%s is %s", m.ID, m.Status.Value), "warning")
			}
		}
		list, ok = app.llamaReadCatalog(ctx, ui, c)
		if err != nil && ok && !llamaConnectionError(err) {
			ui.Notify(err.Error(), "error")
		}
	}
}

// llamaReadCatalog refreshes the catalog and returns the router's list,
// offering Retry and Close while the router cannot be reached.
func (app *Agent) llamaReadCatalog(ctx context.Context, ui engine.UI, c *llamacpp.Client) ([]llamacpp.ModelInfo, bool) {
	for {
		list, err := c.List(ctx, false)
		if err == nil {
			err = app.refreshLlama(ctx)
		}
		if err == nil {
			return list, true
		}
		if ctx.Err() != nil {
			return nil, false
		}
		msg := err.Error()
		if llamaConnectionError(err) {
			msg = "Could not connect to the server."
		}
		choice, ok := ui.Select(ctx, "llama.cpp unavailable\n"+c.ServerURL+"\n\n"+msg, []string{"Retry", "Close"}, engine.DialogOptions{})
		if !ok || choice != "Retry" {
			return nil, false
		}
	}
}

// llamaConnectionError reports a router that could not be reached.
func llamaConnectionError(err error) bool {
	return err != nil && (strings.HasPrefix(err.Error(), "Could not reach llama.cpp server") || errors.Is(err, context.DeadlineExceeded))
}

// llamaItems are the list's rows: loaded models first, then by id, each
// with its state, and the download row last.
func llamaItems(list []llamacpp.ModelInfo) []string {
	sorted := slices.Clone(list)
	slices.SortStableFunc(sorted, func(a, b llamacpp.ModelInfo) int {
		la, lb := a.Status.Value == "loaded", b.Status.Value == "loaded"
		if la != lb {
			if la {
				return -1
			}
			return 1
		}
		return strings.Compare(a.ID, b.ID)
	})
	out := make([]string, 0, len(sorted)+1)
	for _, m := range sorted {
		if d := llamaDescription(m); d != "" {
			out = append(out, m.ID+" · "+d)
		} else {
			out = append(out, m.ID)
		}
	}
	return append(out, llamaDownloadItem)
}

// llamaItemModel is the model a row names.
func llamaItemModel(list []llamacpp.ModelInfo, item string) *llamacpp.ModelInfo {
	id, _, _ := strings.Cut(item, " · ")
	for i := range list {
		if list[i].ID == id {
			return &list[i]
		}
	}
	return nil
}

// llamaDescription is a row's detail: loaded (with its context) or the
// router's state.
func llamaDescription(m llamacpp.ModelInfo) string {
	var parts []string
	switch {
	case m.Loaded():
		parts = append(parts, "loaded")
		if c := llamaContextLabel(m); c != "" {
			parts = append(parts, c+" context")
		}
	case m.Status.Value != "unloaded":
		parts = append(parts, m.Status.Value)
	}
	return strings.Join(parts, " · ")
}

func llamaContextLabel(m llamacpp.ModelInfo) string {
	n := 0
	if m.Meta != nil {
		n = m.Meta.NCtx
		if n == 0 {
			n = m.Meta.NCtxTrain
		}
	}
	if n == 0 {
		args := m.Status.Args
		for i := 0; i < len(args)-1; i++ {
			if args[i] == "--ctx-size" || args[i] == "-c" || args[i] == "-ctx" {
				if v, err := strconv.Atoi(args[i+1]); err == nil && v > 0 {
					n = v
					break
				}
			}
		}
	}
	switch {
	case n == 0:
		return ""
	case n >= 1000:
		return strconv.Itoa((n+500)/1000) + "k"
	default:
		return strconv.Itoa(n)
	}
}

// llamaLoad loads a model; with others loaded it asks whether to unload
// them first, and puts them back when that load fails.
func (app *Agent) llamaLoad(ctx context.Context, ui engine.UI, c *llamacpp.Client, list []llamacpp.ModelInfo, target llamacpp.ModelInfo) error {
	var loaded []llamacpp.ModelInfo
	for _, m := range list {
		if m.ID != target.ID && m.Loaded() {
			loaded = append(loaded, m)
		}
	}
	replace := false
	if len(loaded) > 0 {
		title := fmt.Sprintf("%d models are loaded", len(loaded))
		if len(loaded) == 1 {
			title = "1 model is loaded"
		}
		choice, ok := ui.Select(ctx, title, []string{"Unload all and load", "Keep loaded and load", "Cancel"}, engine.DialogOptions{})
		if !ok || choice == "Cancel" {
			return nil
		}
		replace = choice == "Unload all and load"
	}
	if replace {
		for _, m := range loaded {
			if err := c.UnloadAndWait(ctx, m.ID); err != nil {
				return err
			}
		}
	}
	ui.Notify("Loading model "+target.ID, "info")
	entry, err := c.LoadAndWait(ctx, target.ID)
	if err != nil {
		if replace {
			ui.Notify("Restoring previously loaded models", "info")
			for _, m := range loaded {
				_, _ = c.LoadAndWait(ctx, m.ID)
			}
		}
		return err
	}
	if err := app.refreshLlama(ctx); err != nil {
		return err
	}
	if entry.Status.Value == "loaded" {
		ui.Notify("Loaded "+target.ID, "info")
	} else {
		ui.Notify("Load started for "+target.ID, "info")
	}
	return nil
}

// llamaUnload unloads a model once the user confirms.
func (app *Agent) llamaUnload(ctx context.Context, ui engine.UI, c *llamacpp.Client, m llamacpp.ModelInfo) error {
	if !ui.Confirm(ctx, "Unload model?", m.ID, engine.DialogOptions{}) {
		return nil
	}
	if err := c.UnloadAndWait(ctx, m.ID); err != nil {
		return err
	}
	if err := app.refreshLlama(ctx); err != nil {
		return err
	}
	ui.Notify("Unloaded "+m.ID, "info")
	return nil
}

// llamaDownload asks for owner/repository[:quant] and has the router
// download it.
func (app *Agent) llamaDownload(ctx context.Context, ui engine.UI, c *llamacpp.Client) error {
	text, ok := ui.Input(ctx, "Download model", "Model name or owner/repository[:quant]", engine.DialogOptions{})
	model := strings.TrimSpace(text)
	if !ok || model == "" {
		return nil
	}
	repo, _, _ := strings.Cut(model, ":")
	if strings.Count(repo, "/") != 1 || strings.HasPrefix(repo, "/") || strings.HasSuffix(repo, "/") {
		return fmt.Errorf("Enter a Hugging Face owner/repository[:quant], not %q", model)
	}
	ui.Notify("Downloading model "+model, "info")
	if _, err := c.DownloadAndWait(ctx, model); err != nil {
		return err
	}
	if err := app.refreshLlama(ctx); err != nil {
		return err
	}
	ui.Notify("Downloaded "+model, "info")
	return nil
}
