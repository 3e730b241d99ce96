package setsized

// Node is a tree's node.
type Node struct{ Parent *Node }

func parents(nodes []*Node) []*Node {
	var out []*Node
	set := make(map[*Node]bool, len(nodes)) // want `parents sizes set by len\(nodes\), the count of its input, but it holds what the function derives from the input \(set\[p\], line \d+\), not its elements`
	for _, n := range nodes {
		p := n.Parent
		if p == nil || set[p] {
			continue
		}
		set[p] = true
		out = append(out, p)
	}
	return out
}

func appendNew(dst, vals []*Node, seen map[*Node]bool) []*Node {
	for _, v := range vals {
		if !seen[v] {
			seen[v] = true
			dst = append(dst, v)
		}
	}
	return dst
}

func mapNodes(nodes []*Node, f func(*Node) []*Node) (out []*Node) {
	set := make(map[*Node]bool, len(nodes)) // want `mapNodes sizes set by len\(nodes\), the count of its input, but it holds what the function derives from the input \(appendNew stores into it, line \d+\)`
	for _, n := range nodes {
		out = appendNew(out, f(n), set)
	}
	return out
}

func index(nodes []*Node) map[*Node]bool {
	set := make(map[*Node]bool, len(nodes)) // its own elements: sized right
	for _, n := range nodes {
		set[n] = true
	}
	return set
}

func convert(data map[string]any) map[string]string {
	vals := make(map[string]string, len(data)) // the input map's own keys: sized right
	for k, v := range data {
		vals[k] = v.(string)
	}
	return vals
}

type field struct{ name string }

// byName indexes fields by name: one key per field, sized right.
func byName(flds []field) map[string]int {
	idx := make(map[string]int, len(flds))
	for i, f := range flds {
		if _, ok := idx[f.name]; ok {
			return nil // a duplicate is an error, not expected
		}
		idx[f.name] = i
	}
	return idx
}
