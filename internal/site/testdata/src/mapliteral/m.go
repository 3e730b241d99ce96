package mapliteral

type Mode int

const (
	HalfUp Mode = iota
	HalfDown
	Up
	Down
)

type Rounder string

const (
	RoundHalfDown Rounder = "half_down"
	RoundUp       Rounder = "up"
	RoundDown     Rounder = "down"
)

var defaultRounder = Rounder("half_up")

func rounder(mode Mode) Rounder {
	if mode == HalfUp {
		return defaultRounder
	}
	modes := map[Mode]Rounder{ // want `rounder builds the map modes from a literal of 3 constant entries on every call, only to read it \(line 31\): each call makes the map and stores every entry to answer one lookup`
		HalfDown: RoundHalfDown,
		Up:       RoundUp,
		Down:     RoundDown,
	}
	return modes[mode]
}

// Returned: the caller's map.
func table() map[Mode]Rounder {
	m := map[Mode]Rounder{HalfDown: RoundHalfDown, Up: RoundUp, Down: RoundDown}
	return m
}

// Filled further: not a constant table.
func extended(extra Rounder) Rounder {
	m := map[Mode]Rounder{HalfDown: RoundHalfDown, Up: RoundUp, Down: RoundDown}
	m[HalfUp] = extra
	return m[HalfUp]
}

// An entry from the parameters.
func withParam(r Rounder, mode Mode) Rounder {
	m := map[Mode]Rounder{HalfDown: r, Up: RoundUp, Down: RoundDown}
	return m[mode]
}
