package drained

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func handle(w http.ResponseWriter, r *http.Request) error {
	_, err := io.Copy(w, r.Body)
	return err
}

// The request's body is read by the first iteration only.
func BenchmarkHandle(b *testing.B) {
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(`{"name":"echo"}`)) // want `req is a request with a body \(httptest.NewRequest\) made once before the loop, and every iteration reads it`
	for i := 0; i < b.N; i++ {
		handle(httptest.NewRecorder(), req)
	}
}

// A decoder per iteration over one reader.
func BenchmarkDecode(b *testing.B) {
	r := strings.NewReader(`{"a":1}`) // want `r is a reader \(strings.NewReader\) made once before the loop`
	var v map[string]int
	for b.Loop() {
		json.NewDecoder(r).Decode(&v)
	}
}

// Reset each iteration, made in the loop, or with no body: no report.
func BenchmarkReset(b *testing.B) {
	data := []byte(`{"a":1}`)
	r := bytes.NewReader(data)
	var v map[string]int
	for i := 0; i < b.N; i++ {
		r.Reset(data)
		json.NewDecoder(r).Decode(&v)
	}
}

func BenchmarkFresh(b *testing.B) {
	for i := 0; i < b.N; i++ {
		req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader("x"))
		handle(httptest.NewRecorder(), req)
	}
}

func BenchmarkGet(b *testing.B) {
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	for i := 0; i < b.N; i++ {
		handle(httptest.NewRecorder(), req)
	}
}

func BenchmarkNewBody(b *testing.B) {
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader("x"))
	for i := 0; i < b.N; i++ {
		req.Body = io.NopCloser(strings.NewReader("x"))
		handle(httptest.NewRecorder(), req)
	}
}
