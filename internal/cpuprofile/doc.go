// Package cpuprofile profiles the first part of a process when
// PI_CPUPROFILE names a file; importing it for its init is enough.
package cpuprofile
