package maphanded

type RouteMatch struct{ Vars map[string]string }

type route struct{ names []string }

func (r *route) Match(path string, m *RouteMatch) {
	m.Vars = map[string]string{}
	extract(path, r.names, m.Vars)
	extract(path+"/", r.names, m.Vars)
	count(path, r.names, m.Vars)
	count(path, r.names, map[string]string{})
}

func extract(input string, names []string, output map[string]string) {
	for _, name := range names {
		output[name] = input // want `output\[name\] stores into output, the map every caller passes from RouteMatch.Vars, an exported field`
	}
}

// count's callers pass other maps too: its stores are its own.
func count(input string, names []string, seen map[string]string) {
	for _, name := range names {
		seen[name] = input
	}
}
