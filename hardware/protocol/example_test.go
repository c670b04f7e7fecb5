package protocol_test

import (
	"fmt"

	"github.com/blueprints-companion/blueprints/hardware/protocol"
)

func Example() {
	f, _ := protocol.NewSetScore(7, 2, 42)
	wire, _ := protocol.AppendEncode(nil, &f)
	fmt.Printf("% x\n", wire)

	var got protocol.Frame
	_ = protocol.Decode(wire[1:len(wire)-1], &got)
	fmt.Println(&got)
	// Output:
	// 00 04 07 10 02 01 01 04 2a 33 a5 00
	// SET_SCORE seq=7 payload=02 00 00 00 2a
}
