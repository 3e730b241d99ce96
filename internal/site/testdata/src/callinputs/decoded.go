package callinputs

import (
	"encoding/json"
	"math"
)

type doc struct {
	Coordinates json.RawMessage
}

// Decode fills d from data, then decodes its coordinates: both calls work
// on what Decode is given.
func Decode(data []byte) ([]float64, error) {
	d := &doc{}
	if err := json.Unmarshal(data, d); err != nil { // want `json.Unmarshal\(data, d\) works on what Decode is given \(data\)`
		return nil, err
	}
	var pts []float64
	err := json.Unmarshal(d.Coordinates, &pts) // want `json.Unmarshal\(d.Coordinates, &pts\) works on what Decode is given \(data\)`
	return pts, err
}

// Project is arithmetic on what it is given.
func Project(lat float64, level uint32) float64 {
	siny := math.Sin(lat * math.Pi / 180)                          // want `math.Sin\(lat \* math.Pi / 180\) works on what Project is given \(lat\)`
	return math.Log((1+siny)/(1-siny)) * float64(uint64(1)<<level) // want `math.Log\(\(1 \+ siny\) / \(1 - siny\)\) works on what Project is given \(lat\)`
}

// Half has a constant argument: ConstMath's, not this matcher's.
func Half() float64 {
	return math.Sqrt(0.25)
}
