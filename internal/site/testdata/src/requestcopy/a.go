package requestcopy

import (
	"context"
	"net/http"
)

type key int

const (
	varsKey key = iota
	routeKey
)

type Router struct{ h http.Handler }

func (r *Router) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	vars := map[string]string{"id": "1"}
	req = requestWithVars(req, vars)
	req = requestWithRoute(req, r)
	r.h.ServeHTTP(w, req)
}

func requestWithVars(r *http.Request, vars map[string]string) *http.Request {
	ctx := context.WithValue(r.Context(), varsKey, vars)
	return r.WithContext(ctx) // want `req is copied twice in a row: requestWithVars \(r.WithContext\), then requestWithRoute \(r.WithContext\) at a.go:31`
}

func requestWithRoute(r *http.Request, route *Router) *http.Request {
	ctx := context.WithValue(r.Context(), routeKey, route)
	return r.WithContext(ctx)
}

// Two copies made in place.
func Direct(req *http.Request, a, b any) *http.Request {
	req = req.WithContext(context.WithValue(req.Context(), varsKey, a)) // want `req is copied twice in a row: WithContext, then WithContext at a.go:37`
	req = req.WithContext(context.WithValue(req.Context(), routeKey, b))
	return req
}

// One copy: no shape.
func Once(req *http.Request, a any) *http.Request {
	req = requestWithVars(req, nil)
	return req
}

// Copies of two different requests: no shape.
func Two(a, b *http.Request) (*http.Request, *http.Request) {
	x := a.WithContext(context.Background())
	y := b.WithContext(context.Background())
	return x, y
}

// The first copy is handed on before the second is made: each copy is
// seen with its own values, no shape.
func Served(h http.Handler, w http.ResponseWriter, req *http.Request, a, b any) {
	req = req.WithContext(context.WithValue(req.Context(), varsKey, a))
	h.ServeHTTP(w, req)
	req = req.WithContext(context.WithValue(req.Context(), routeKey, b))
	h.ServeHTTP(w, req)
}

// Two copies of one request, each kept: the second is not made from the
// first, no shape.
func Siblings(req *http.Request, a, b any) (*http.Request, *http.Request) {
	x := req.WithContext(context.WithValue(req.Context(), varsKey, a))
	y := req.WithContext(context.WithValue(req.Context(), routeKey, b))
	return x, y
}

// The second copy is made from the first's result under another name:
// the shape.
func Chained(req *http.Request, a, b any) *http.Request {
	x := req.WithContext(context.WithValue(req.Context(), varsKey, a)) // want `req is copied twice in a row: WithContext, then WithContext at a.go:75`
	y := x.WithContext(context.WithValue(x.Context(), routeKey, b))
	return y
}

// A helper that is not a copy (it returns the request it was given): no
// shape.
func same(r *http.Request, _ any) *http.Request { return r }

func NotCopies(req *http.Request, a, b any) *http.Request {
	req = same(req, a)
	req = same(req, b)
	return req
}
