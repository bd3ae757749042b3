package pi

import "github.com/pi-go/pi/engine/rpc"

// wireRPCExtras connects the parts of the RPC server that other packages
// provide (manual compaction, HTML export) once they exist. Until then
// the server answers those commands with an error.
func wireRPCExtras(srv *rpc.Server) {
	srv.ExportHTML = rpc.ExportHTML
}
