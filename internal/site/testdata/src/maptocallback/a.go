package maptocallback

// Values are what a request logger hands its user's callback.
type Values struct {
	Status      int
	QueryParams map[string][]string
	seen        map[string]bool
}

type Config struct {
	LogQueryParams []string
	LogValuesFunc  func(v Values) error
}

func (config Config) log(query map[string][]string) error {
	v := Values{Status: 200}
	v.QueryParams = map[string][]string{} // want `v.QueryParams is a map made per call and handed to config.LogValuesFunc in v: what the API gives its callback, which may keep it`
	for _, p := range config.LogQueryParams {
		if vs, ok := query[p]; ok {
			v.QueryParams[p] = vs
		}
	}
	v.seen = map[string]bool{} // unexported: not the API's
	return config.LogValuesFunc(v)
}

// Handed to a declared function, or never handed: no report.
func (config Config) kept(query map[string][]string) Values {
	v := Values{}
	v.QueryParams = make(map[string][]string, len(query))
	sink(v)
	return v
}

func sink(Values) {}
