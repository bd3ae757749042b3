// Package packages installs, updates, removes and resolves pi packages:
// npm packages, git repositories and local folders that bundle
// extensions, skills, prompt templates and themes, as settings
// "packages" and -e name them.
//
// npm sources need no Node: a built-in registry client reads packuments
// (with .npmrc registries, scoped registries and auth tokens), resolves
// npm semver ranges and dist-tags, verifies each tarball's integrity and
// lays out node_modules as npm does (hoisted, with a package-lock.json),
// so that the reference, which runs npm, and this package each load and
// update the other's installs. The npmCommand setting hands npm work to
// that external command exactly as the reference does. Git sources use
// the system git.
//
// Files by noun: source.go (parsing sources, identities), semver.go
// (npm versions and ranges), npmrc.go and registry.go (registry
// configuration and client), tarball.go (download, integrity,
// extraction), npm.go (the dependency tree and node_modules), external.go
// (npmCommand), git.go, resources.go (a package's resources: the pi
// manifest, conventional folders, settings filters), resolve.go (the
// configured and -e packages' resources, installing what is missing),
// settingsfile.go (order-keeping JSON edits), lock_*.go (the install
// lock) and manager.go (install, remove, update, list). npmtest is a
// fake registry for tests.
package packages
