package packages

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
)

// externalNpm runs the npmCommand setting's package manager with the
// arguments the reference gives it.
type externalNpm struct {
	argv []string
	out  io.Writer
}

func (m *Manager) external() *externalNpm {
	return &externalNpm{argv: m.NpmCommand, out: m.out()}
}

// manager is the package manager npmCommand runs: npm, pnpm or bun,
// directly or after a wrapper's "--" or among its arguments.
func (x *externalNpm) manager() (string, error) {
	norm := func(c string) string {
		b := filepath.Base(c)
		for _, ext := range []string{".cmd", ".exe", ".CMD", ".EXE"} {
			b = strings.TrimSuffix(b, ext)
		}
		return b
	}
	direct := norm(x.argv[0])
	args := x.argv[1:]
	for i := len(args) - 1; i >= 0; i-- {
		if args[i] == "--" {
			if i+1 < len(args) {
				return norm(args[i+1]), nil
			}
			return direct, nil
		}
	}
	known := map[string]bool{"npm": true, "pnpm": true, "bun": true}
	if known[direct] {
		return direct, nil
	}
	var found []string
	seen := map[string]bool{}
	for _, a := range args {
		if n := norm(a); known[n] && !seen[n] {
			seen[n] = true
			found = append(found, n)
		}
	}
	if len(found) > 1 {
		return "", fmt.Errorf("Ambiguous npmCommand package managers: %s", strings.Join(found, ", "))
	}
	if len(found) == 1 {
		return found[0], nil
	}
	return direct, nil
}

func (x *externalNpm) run(ctx context.Context, dir string, args ...string) error {
	if x.argv[0] == "" {
		return fmt.Errorf("Invalid npmCommand: first array entry must be a non-empty command")
	}
	full := append(append([]string{}, x.argv[1:]...), args...)
	cmd := exec.CommandContext(ctx, x.argv[0], full...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = x.out, x.out
	if err := cmd.Run(); err != nil {
		code := -1
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else {
			return fmt.Errorf("%s %s: %w", x.argv[0], strings.Join(full, " "), err)
		}
		return fmt.Errorf("%s %s failed with code %d", x.argv[0], strings.Join(full, " "), code)
	}
	return nil
}

func realRoot(root string) string {
	if r, err := filepath.EvalSymlinks(root); err == nil {
		return r
	}
	return root
}

func (x *externalNpm) install(ctx context.Context, root string, specs []string) error {
	if err := ensureProject(root); err != nil {
		return err
	}
	pm, err := x.manager()
	if err != nil {
		return err
	}
	r := realRoot(root)
	var args []string
	switch pm {
	case "bun":
		args = append(append([]string{"install"}, specs...), "--cwd", r, "--omit=peer")
	case "pnpm":
		args = append(append([]string{"install"}, specs...), "--prefix", r, "--config.auto-install-peers=false", "--config.strict-peer-dependencies=false", "--config.strict-dep-builds=false")
	default:
		args = append(append([]string{"install"}, specs...), "--prefix", r, "--legacy-peer-deps", "--no-audit", "--no-fund")
	}
	return x.run(ctx, "", args...)
}

func (x *externalNpm) uninstall(ctx context.Context, root, name string) error {
	pm, err := x.manager()
	if err != nil {
		return err
	}
	r := realRoot(root)
	if pm == "bun" {
		return x.run(ctx, "", "uninstall", name, "--cwd", r)
	}
	args := []string{"uninstall", name, "--prefix", r}
	if pm != "pnpm" {
		args = append(args, "--legacy-peer-deps", "--no-audit", "--no-fund")
	}
	return x.run(ctx, "", args...)
}

func (x *externalNpm) gitDepsArgs() []string {
	pm, _ := x.manager()
	switch pm {
	case "bun":
		return []string{"install", "--omit=dev", "--omit=peer"}
	case "pnpm":
		return []string{"install", "--prod", "--config.auto-install-peers=false", "--config.strict-peer-dependencies=false", "--config.strict-dep-builds=false"}
	case "npm":
		return []string{"install", "--omit=dev", "--legacy-peer-deps", "--no-audit", "--no-fund"}
	}
	return []string{"install"}
}

// latest asks `<npmCommand> view <spec> version --json`, as the
// reference does.
func (x *externalNpm) latest(ctx context.Context, cwd string, s Source) (string, error) {
	spec := s.Name
	if s.Version != "" {
		spec = s.Spec
	}
	full := append(append([]string{}, x.argv[1:]...), "view", spec, "version", "--json")
	cmd := exec.CommandContext(ctx, x.argv[0], full...)
	cmd.Dir = cwd
	cmd.Stderr = io.Discard
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s %s: %w", x.argv[0], strings.Join(full, " "), err)
	}
	raw := strings.TrimSpace(string(out))
	var one string
	if json.Unmarshal([]byte(raw), &one) == nil {
		return one, nil
	}
	var list []string
	if json.Unmarshal([]byte(raw), &list) == nil {
		if v := maxSatisfying(list, s.Range); v != "" {
			return v, nil
		}
	}
	return "", fmt.Errorf("Unexpected response from npm view")
}
