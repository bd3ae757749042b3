package engine

// BashResult is the outcome of a user bash command (the RPC bash
// response's data and what a bashExecution message records), in the
// reference's key order.
type BashResult struct {
	Output         string `json:"output"`
	ExitCode       *int   `json:"exitCode,omitempty"`
	Cancelled      bool   `json:"cancelled"`
	Truncated      bool   `json:"truncated"`
	FullOutputPath string `json:"fullOutputPath,omitempty"`
}
