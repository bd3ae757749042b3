package engine

// imagesBlockedText replaces an image when images.blockImages is on.
const imagesBlockedText = "Image reading is disabled."

// BlockImages returns msgs with every image of a user or tool result
// message replaced by the text "Image reading is disabled." (one for a
// run of images), as the reference filters what it sends when the
// images.blockImages setting is on. The messages given are not changed.
func BlockImages(msgs []*Message) []*Message {
	out, copied := msgs, false
	for i, m := range msgs {
		if m.Role != RoleUser && m.Role != RoleToolResult {
			continue
		}
		has := false
		for _, b := range m.Content.Blocks {
			if b.Type == ContentImage {
				has = true
				break
			}
		}
		if !has {
			continue
		}
		blocks := make([]Content, 0, len(m.Content.Blocks))
		for _, b := range m.Content.Blocks {
			if b.Type == ContentImage {
				b = TextContent(imagesBlockedText)
			}
			if n := len(blocks); n > 0 && b.Type == ContentText && b.Text == imagesBlockedText &&
				blocks[n-1].Type == ContentText && blocks[n-1].Text == imagesBlockedText {
				continue
			}
			blocks = append(blocks, b)
		}
		if !copied {
			out, copied = append([]*Message(nil), msgs...), true
		}
		c := *m
		c.Content = Blocks(blocks...)
		out[i] = &c
	}
	return out
}
