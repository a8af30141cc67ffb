// porcupine-check reads histories in the suite's format (docs/history.md) and prints each
// one's verdict by porcupine (github.com/anishathalye/porcupine), to cross-check the suite's
// own checker (fixtures/history/linearizable.py) on the same histories.
//
//	go build -o porcupine-check . && ./porcupine-check < histories.json
//
// Input: a JSON array of {"model": "register"|"bindings", "operations": [...]}, each
// operation as fixtures/history/history.py writes it (integer times). Output: one line per
// history, "ok", "illegal" or "unknown" (porcupine's verdict within -timeout).
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/anishathalye/porcupine"
)

type op struct {
	Client        int             `json:"client"`
	Key           json.RawMessage `json:"key"`
	Input         map[string]any  `json:"input"`
	Output        any             `json:"output"`
	Call          int64           `json:"call"`
	Return        *int64          `json:"return"`
	Indeterminate bool            `json:"indeterminate"`
}

type history struct {
	Model      string `json:"model"`
	Operations []op   `json:"operations"`
}

// unknownOutput is the output of an indeterminate operation: every step accepts it.
type unknownOutput struct{}

// canon is a JSON value's canonical text: equal values, equal text (Go sorts map keys).
func canon(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func refused(output any) bool {
	m, ok := output.(map[string]any)
	if !ok {
		return false
	}
	_, has := m["error"]
	return has
}

// register: the state is the canonical JSON of the value held ("null" when unset).
var register = porcupine.Model{
	Partition: byKey,
	Init:      func() any { return "null" },
	Step: func(state, input, output any) (bool, any) {
		in := input.(map[string]any)
		_, unknown := output.(unknownOutput)
		switch in["op"] {
		case "read":
			return unknown || canon(output) == state.(string), state
		case "write":
			if !unknown && refused(output) {
				return true, state
			}
			return true, canon(in["value"])
		case "delete":
			if !unknown && refused(output) {
				return true, state
			}
			return true, "null"
		}
		panic(fmt.Sprintf("register: unknown op %v", in["op"]))
	},
}

// setOf is a set of bindings as the sorted canonical JSON of each, joined.
func setOf(items []string) string {
	sort.Strings(items)
	out := items[:0]
	for i, s := range items {
		if i == 0 || s != items[i-1] {
			out = append(out, s)
		}
	}
	return strings.Join(out, "\n")
}

func members(state string) []string {
	if state == "" {
		return nil
	}
	return strings.Split(state, "\n")
}

var bindings = porcupine.Model{
	Partition: byKey,
	Init:      func() any { return "" },
	Step: func(state, input, output any) (bool, any) {
		in := input.(map[string]any)
		_, unknown := output.(unknownOutput)
		s := state.(string)
		if in["op"] == "read" {
			if unknown {
				return true, s
			}
			list := output.([]any)
			var items []string
			for _, b := range list {
				items = append(items, canon(b))
			}
			return setOf(items) == s && len(list) == len(members(s)), s
		}
		if !unknown && refused(output) {
			return true, s
		}
		b := canon(in["binding"])
		var rest []string
		had := false
		for _, m := range members(s) {
			if m == b {
				had = true
			} else {
				rest = append(rest, m)
			}
		}
		switch in["op"] {
		case "add":
			return true, setOf(append(rest, b))
		case "remove":
			if list, ok := output.([]any); ok && !unknown {
				if had != (len(list) == 1) || len(list) > 1 || (len(list) == 1 && canon(list[0]) != b) {
					return false, s
				}
			}
			return true, setOf(rest)
		}
		panic(fmt.Sprintf("bindings: unknown op %v", in["op"]))
	},
}

func byKey(h []porcupine.Operation) [][]porcupine.Operation {
	index := map[string]int{}
	var parts [][]porcupine.Operation
	for _, o := range h {
		k := o.Metadata.(string)
		i, ok := index[k]
		if !ok {
			i = len(parts)
			index[k] = i
			parts = append(parts, nil)
		}
		parts[i] = append(parts[i], o)
	}
	return parts
}

func main() {
	timeout := flag.Duration("timeout", 10*time.Second, "porcupine's time bound per history")
	flag.Parse()
	var histories []history
	if err := json.NewDecoder(bufio.NewReader(os.Stdin)).Decode(&histories); err != nil {
		fmt.Fprintln(os.Stderr, "porcupine-check: reading histories:", err)
		os.Exit(2)
	}
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for _, h := range histories {
		model := register
		if h.Model == "bindings" {
			model = bindings
		}
		var ops []porcupine.Operation
		for _, o := range h.Operations {
			ret := int64(math.MaxInt64)
			var output any = unknownOutput{}
			if !o.Indeterminate {
				ret, output = *o.Return, o.Output
			}
			ops = append(ops, porcupine.Operation{ClientId: o.Client, Input: o.Input, Call: o.Call,
				Output: output, Return: ret, Metadata: string(o.Key)})
		}
		switch porcupine.CheckOperationsTimeout(model, ops, *timeout) {
		case porcupine.Ok:
			fmt.Fprintln(w, "ok")
		case porcupine.Illegal:
			fmt.Fprintln(w, "illegal")
		default:
			fmt.Fprintln(w, "unknown")
		}
	}
}
