package engine_test

import (
	"fmt"

	"github.com/blueprints-companion/blueprints/engine"
)

func ExampleScore() {
	bp, _ := engine.ParseBlueprint("12/1X/2X")
	b := engine.MustBuilding(
		[2]string{"W4", "R2 G2"},
		[2]string{"R3", ""},
		[2]string{"R1 G1", ""},
	)
	s := engine.Score(&bp, &b)
	fmt.Printf("bonus %d, wood %d, recycled %d, stone %d, glass %d: %d\n", s.Bonus, s.Wood, s.Recycled, s.Stone, s.Glass, s.Total)
	// Output: bonus 6, wood 4, recycled 10, stone 0, glass 3: 23
}

func ExampleCheckPlacement() {
	bp, _ := engine.ParseBlueprint("X1/31/1X")
	b := engine.MustBuilding([2]string{"", ""}, [2]string{"G4", ""}, [2]string{"", ""})
	die, _ := engine.ParseDie("W2")
	fmt.Println(engine.CheckPlacement(&bp, &b, die, 1, 0))
	// Output: engine: die W2 cannot go on G4 at row 2 col 1: a die goes only on an equal or lower value
}

func ExampleParseBlueprint() {
	bp, err := engine.ParseBlueprint("30/03/XX")
	fmt.Println(bp, bp.Dice(), err)
	_, err = engine.ParseBlueprint("X1/31")
	fmt.Println(err)
	// Output:
	// 3./.3/XX 6 <nil>
	// engine: bad blueprint: "X1/31" has 2 rows, want 3 separated by '/'
}
