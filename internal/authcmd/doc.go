// Package authcmd is `pi auth`: signing in to providers and out again, and
// printing or checking the credentials other programs need (login,
// logout, print-api-key, print-bearer-token, check), with the reference's
// output, exit codes and auth.json format.
package authcmd
