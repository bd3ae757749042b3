#!/bin/sh
# Re-records e2e/testdata/authref/*.json from the reference pi: every case
# of TestAuthMatchesReference (e2e/auth_reference_test.go) runs the
# reference against the fake gateway of this package, with its clock fixed
# by fixclock.mjs. Needs the reference installed
# (../shared/conformance/install-reference.sh prints its command line) and
# the callback port 127.0.0.1:1456 free. Review the diff before committing.
set -eu
cd "$(dirname "$0")/../.."
install=${PI_REFERENCE_INSTALL:-../shared/conformance/install-reference.sh}
[ -f "$install" ] || install=/work/shared/conformance/install-reference.sh
ref=${PI_AUTH_REFERENCE:-$(bash "$install" 2>/dev/null | tail -1)}
mkdir -p e2e/testdata/authref
PI_AUTH_REFERENCE="$ref" go test ./e2e -run '^(TestAuthMatchesReference|TestAuthRecordBuiltinFlows)$' -count=1 "$@"
