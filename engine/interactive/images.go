package interactive

import (
	"os"

	"github.com/pi-go/pi/engine/tui"
)

// loadImageSettings reads how tool-result images are drawn: the
// terminal.images setting ("kitty", "iterm2", false, or "auto") over the
// environment's detection, terminal.showImages (default on) and
// terminal.imageWidthCells (default 60), as the reference reads them.
func (a *app) loadImageSettings() {
	v := a.v
	switch s := a.c.Setting("terminal.images").(type) {
	case string:
		switch s {
		case "kitty":
			v.images = tui.ImagesKitty
		case "iterm2":
			v.images = tui.ImagesITerm2
		default:
			v.images = tui.DetectImageProtocol(os.Getenv)
		}
	case bool:
		v.images = tui.ImagesNone
		if s {
			v.images = tui.DetectImageProtocol(os.Getenv)
		}
	default:
		v.images = tui.DetectImageProtocol(os.Getenv)
	}
	v.showImages = true
	if b, ok := a.c.Setting("terminal.showImages").(bool); ok {
		v.showImages = b
	}
	v.imageWidth = 60
	if n, ok := a.c.Setting("terminal.imageWidthCells").(float64); ok && n >= 1 {
		v.imageWidth = int(n)
	}
	if v.cell == (tui.CellSize{}) {
		v.cell = tui.DefaultCellSize
	}
	v.imageGen++
}

// setCellSize applies the terminal's cell size report: images are sized
// again.
func (a *app) setCellSize(c tui.CellSize) {
	if c == a.v.cell {
		return
	}
	a.v.cell = c
	a.v.imageGen++
	a.v.changed()
	a.tr.invalidateAll()
	a.p.RequestRender()
}
