package outputreturned

import "bytes"

type Node interface{ Accept(v *visitor) interface{} }

type Program struct{ Body []Node }
type Content struct{ Value string }
type Mustache struct{ Name string }

func (p *Program) Accept(v *visitor) interface{}  { return v.VisitProgram(p) }
func (c *Content) Accept(v *visitor) interface{}  { return v.VisitContent(c) }
func (m *Mustache) Accept(v *visitor) interface{} { return v.VisitMustache(m) }

type visitor struct{ ctx map[string]string }

func (v *visitor) VisitProgram(node *Program) interface{} {
	buf := new(bytes.Buffer) // want `VisitProgram makes a buffer for its output, writes into it what the walk's methods return as interface\{\} \(2 returns of a string among them\)`
	for _, n := range node.Body {
		if s, _ := n.Accept(v).(string); s != "" {
			buf.WriteString(s)
		}
	}
	return buf.String()
}

func (v *visitor) VisitContent(node *Content) interface{} { return node.Value }

func (v *visitor) VisitMustache(node *Mustache) interface{} { return v.ctx[node.Name] }
