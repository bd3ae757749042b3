package jsruntime

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/dop251/goja"
)

// pi.registerVirtualModel and ctx.modelRegistry.registerVirtualModel: the
// catalog entry goes to the registry (VirtualRegistry); the definition,
// with its route function, stays in the extension's runtime
// (hostjs/pi_internal_models.js), where RouteVirtual asks it before each
// request made with the model.

// VirtualRegistry is the registry side of virtual models, implemented by
// the agent's model registry.
type VirtualRegistry interface {
	// RegisterVirtualModel lists the definition's catalog entry (def is
	// the definition without its route function).
	RegisterVirtualModel(def json.RawMessage) error
	UnregisterVirtualModel(provider, id string)
}

// VirtualRequest is what a router learns about one request.
type VirtualRequest struct {
	Provider      string `json:"provider"`
	ID            string `json:"id"`
	ThinkingLevel string `json:"thinkingLevel"`
	// Reason is user, continuation, retry or direct.
	Reason string `json:"reason"`
	// Previous is the model of the latest successful response, if any.
	Previous *VirtualPrevious `json:"previous,omitempty"`
	// State is the router state stored on the session branch, if any.
	State json.RawMessage `json:"state,omitempty"`
	// Messages are the request's messages, system messages included.
	Messages json.RawMessage `json:"messages"`
}

// VirtualPrevious names the physical model of a response.
type VirtualPrevious struct {
	Provider      string `json:"provider"`
	ID            string `json:"id"`
	ThinkingLevel string `json:"thinkingLevel,omitempty"`
}

// VirtualRoute is the router's answer.
type VirtualRoute struct {
	Provider      string          `json:"provider"`
	ID            string          `json:"id"`
	ThinkingLevel string          `json:"thinkingLevel"`
	State         json.RawMessage `json:"state"`
	// Keep is set when the router kept the current state (returned none,
	// or request.state itself): nothing is stored.
	Keep bool `json:"keep"`
}

// routeTimeout bounds a router that never settles.
const routeTimeout = 5 * time.Minute

func (a *API) virtualRegistry() VirtualRegistry {
	v, _ := a.opts.Models.(VirtualRegistry)
	return v
}

// virtualCall answers the bridge's virtual-model calls; ok is false for
// other names.
func (a *API) virtualCall(name string, av []json.RawMessage) (v any, ok bool, err error) {
	switch name {
	case "models.ofType":
		return a.typedCall(av), true, nil
	case "models.registerVirtualModel":
		reg := a.virtualRegistry()
		if reg == nil {
			return nil, true, errors.New("virtual models are not available here")
		}
		if len(av) == 0 {
			return nil, true, errors.New("Virtual model provider and id must not be empty.")
		}
		if err := reg.RegisterVirtualModel(av[0]); err != nil {
			return nil, true, err
		}
		a.refreshSessionModel()
		return nil, true, nil
	case "models.unregisterVirtualModel":
		if reg := a.virtualRegistry(); reg != nil {
			reg.UnregisterVirtualModel(argString(av, 0), argString(av, 1))
			a.refreshSessionModel()
		}
		return nil, true, nil
	}
	return nil, false, nil
}

// RouteVirtual asks the router of a virtual model where one request goes.
// It must not be called from the extensions' loop.
func (a *API) RouteVirtual(ctx context.Context, req VirtualRequest) (VirtualRoute, error) {
	if a.rt == nil {
		return VirtualRoute{}, errors.New("virtual models are not available here")
	}
	if a.onLoop() {
		return VirtualRoute{}, errors.New("a virtual model cannot be routed from an extension's own call")
	}
	b, err := json.Marshal(req)
	if err != nil {
		return VirtualRoute{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, routeTimeout)
	defer cancel()
	out, err := a.callJS(ctx, func(vm *goja.Runtime, ok, fail goja.Value) error {
		fn, isFn := goja.AssertFunction(a.bridgeObj.Get("virtualRoute"))
		if !isFn {
			return errors.New("virtual models are not available here")
		}
		_, err := fn(goja.Undefined(), vm.ToValue(string(b)), ok, fail)
		return err
	})
	if err != nil {
		return VirtualRoute{}, err
	}
	var r VirtualRoute
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		return VirtualRoute{}, err
	}
	return r, nil
}
