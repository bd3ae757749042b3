package config

// Reload reads the settings files again into s, as the reference's
// ctx.reload() does (SettingsManager.reload): every later read through s
// sees the new values, so callers keep their *Settings. A file that no
// longer parses keeps its previous values and is reported in Warnings; a
// missing file reads as empty. The error is Load's: a file that cannot
// be read for another reason than its content. Reload holds s's lock only to swap the
// layers, so concurrent readers never see a half-loaded state.
func (s *Settings) Reload(agentDir, cwd string, projectTrusted bool) error {
	fresh, err := Load(agentDir, cwd, projectTrusted)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// Load reads a malformed file as empty; the reference keeps that
	// layer as it was instead.
	keepGlobal := fresh.globalBad != nil
	keepProject := false
	for _, w := range fresh.warnings {
		if fresh.globalBad == nil || w != fresh.globalBad.Error() {
			keepProject = true
		}
	}
	if !keepGlobal {
		s.global, s.globalOrder, s.globalBad = fresh.global, fresh.globalOrder, nil
	}
	if !keepProject {
		s.project, s.projectOrder = fresh.project, fresh.projectOrder
	}
	s.globalPath = fresh.globalPath
	s.warnings = fresh.warnings
	s.rebuild()
	return nil
}
