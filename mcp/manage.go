package mcp

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/pi-go/pi/internal/jsonx"
)

// The interactive /mcp manager's changes: a server's exposure or enabled
// state, saved where the server is defined and applied to the running
// session by replacing its connection.

// SetServerFields puts fields into one server's entry of an mcp.json,
// creating the entry (a project override) and the file when missing;
// every other key, entry and top-level field is kept.
func SetServerFields(path, name string, fields jsonx.Object) error {
	return editServers(path, func(servers jsonx.Object) (jsonx.Object, bool) {
		v, _ := servers.Get(name)
		entry, _ := v.(jsonx.Object)
		entry = slices.Clone(entry)
		for _, f := range fields {
			entry = entry.Put(f.Key, f.Value)
		}
		return servers.Put(name, entry), true
	})
}

// ChangeTarget is where a change to s is saved: the project override
// when one exists, else the file that defines s; "" for a server an
// extension registered (the change is the session's only).
func ChangeTarget(s *Server) string {
	switch {
	case s.Scope == "extension":
		return ""
	case s.Override != "":
		return s.Override
	}
	return s.Source
}

// CanOverrideInProject reports whether "Enable/Disable in this project"
// applies to s: a user-level server without a project override yet, in a
// trusted project.
func (m *Manager) CanOverrideInProject(s *Server) bool {
	return m.opts.Trusted && s.Scope == "global" && s.Override == ""
}

// ProjectConfigPath is the trusted project's mcp.json.
func (m *Manager) ProjectConfigPath() string { return ProjectPath(m.opts.Cwd) }

// Change sets fields ("enabled", "exposure") of one server: saved to the
// file that defines it (or, with inProject, to a new override in the
// project's mcp.json), in the session only for a registered server. The
// server's connection is then replaced, connecting when it is enabled,
// and the session's tools refresh before the next turn. It returns
// where the change was saved ("" for the session only).
func (m *Manager) Change(ctx context.Context, name string, fields jsonx.Object, inProject bool) (string, error) {
	old := m.find(name)
	if old == nil {
		return "", fmt.Errorf("No MCP server named %q.", name)
	}
	s := old.Server
	var next *Server
	path := ChangeTarget(s)
	if inProject {
		if !m.CanOverrideInProject(s) {
			return "", errors.New("Only a user-level server of a trusted project can be changed in this project.")
		}
		path = m.ProjectConfigPath()
	}
	if path == "" {
		merged := slices.Clone(s.Config)
		for _, f := range fields {
			merged = merged.Put(f.Key, f.Value)
		}
		ns, msg := Validate(name, merged)
		if msg != "" {
			return "", errors.New(msg)
		}
		ns.Scope, ns.Source = s.Scope, s.Source
		next = ns
	} else {
		if err := SetServerFields(path, name, fields); err != nil {
			return "", fmt.Errorf("saving %s: %w", path, err)
		}
		cfg := Load(m.opts.AgentDir, m.opts.Cwd, m.opts.Trusted)
		if next = cfg.Find(name); next == nil {
			return path, fmt.Errorf("%s no longer defines MCP server %q.", path, name)
		}
	}
	m.mu.Lock()
	nc := m.newConn(next)
	for i, c := range m.conns {
		if c == old {
			m.conns[i] = nc
		}
	}
	if next.Scope != "extension" {
		m.config.replace(next)
	}
	m.changed = true
	m.mu.Unlock()
	old.Remove()
	if next.Enabled {
		// A failed connection shows as the server's state in /mcp.
		_, _ = nc.Session(ctx)
		m.toolsChanged()
	}
	return path, nil
}
