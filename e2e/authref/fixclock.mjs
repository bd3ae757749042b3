// Loaded with `node --import` when e2e/authref/record.sh runs the
// reference: its clock stands still at 2026-01-01T00:00:00Z, so the expiry
// and checkedAt values it writes are the same at every recording
// (refClock in e2e/auth_reference_test.go).
const fixed = 1767225600000;
Date.now = () => fixed;
