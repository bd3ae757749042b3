package tui

// Event is one thing the terminal reported: a Key, a Paste, a Mouse
// event, a Resize, a Focus change or a terminal reply.
type Event interface{ isEvent() }

// Paste is bracketed-paste text.
type Paste struct{ Text string }

// Resize is a new terminal size in cells.
type Resize struct{ Width, Height int }

// Focus reports the terminal window gaining or losing focus.
type Focus struct{ Focused bool }

// MouseAction is what a mouse event did.
type MouseAction uint8

// Mouse actions.
const (
	MousePress MouseAction = iota
	MouseRelease
	MouseMotion
	MouseWheelUp
	MouseWheelDown
)

// Mouse is a mouse event in zero-based cell coordinates.
type Mouse struct {
	X, Y   int
	Button int // 0 left, 1 middle, 2 right
	Action MouseAction
	Mod    Mod
	Raw    string
}

// Reply is a terminal's answer to a query (colour reports, Kitty keyboard
// flags, device attributes), kept raw for the code that asked.
type Reply struct{ Raw string }

func (Key) isEvent()    {}
func (Paste) isEvent()  {}
func (Resize) isEvent() {}
func (Focus) isEvent()  {}
func (Mouse) isEvent()  {}
func (Reply) isEvent()  {}
