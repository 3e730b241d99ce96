package trialrender

func render(buf []byte, items []string, pretty bool, max int) ([]byte, bool) {
	if pretty {
		s1 := len(buf)
		var ok bool
		buf, ok = render(buf, items, false, 80) // want `render tries a one-line layout by rendering the whole subtree \(render\), tests its width only after \(line 8\), and throws it away when too wide \(line 11\)`
		if ok && len(buf)-s1 <= 80 {
			return buf, true
		}
		buf = buf[:s1]
	}
	for i, it := range items {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, it...)
		if pretty {
			buf = append(buf, '\n')
		}
	}
	return buf, max < 0 || len(buf) <= max
}

// A renderer that checks its limit inside its loop and keeps what it
// wrote: nothing thrown away, nothing to say.
func bounded(buf []byte, items []string, max int) ([]byte, bool) {
	s := len(buf)
	for _, it := range items {
		buf = append(buf, it...)
		if len(buf)-s > max {
			return buf[:s], false
		}
	}
	return buf, true
}
