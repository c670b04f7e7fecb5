package engine

// Breakdown is a building's round points by scoring rule.
type Breakdown struct {
	Bonus    int `json:"bonus"`
	Wood     int `json:"wood"`
	Recycled int `json:"recycled"`
	Stone    int `json:"stone"`
	Glass    int `json:"glass"`
	Total    int `json:"total"`
}

// BlueprintBonus is the score for a building that matches its blueprint.
const BlueprintBonus = 6

// recycledPoints[n] is the score of n green dice (more than 6 score as 6).
var recycledPoints = [...]int{0, 2, 5, 10, 15, 20, 30}

// stonePoints[level] is the score of a black die on that level (4+ as 4).
var stonePoints = [...]int{0, 2, 3, 5, 8}

// Matches reports whether the building earns the blueprint bonus: every
// numbered cell has exactly that many dice and every other cell is empty.
func Matches(bp *Blueprint, b *Building) bool {
	for r := 0; r < Rows; r++ {
		for c := 0; c < Cols; c++ {
			want := bp[r][c]
			if want < 0 {
				want = 0
			}
			if int8(b[r][c].n) != want {
				return false
			}
		}
	}
	return true
}

// Score computes a building's round points. It does not check legality (see
// Validate); it allocates nothing.
func Score(bp *Blueprint, b *Building) Breakdown {
	var s Breakdown
	if Matches(bp, b) {
		s.Bonus = BlueprintBonus
	}
	green := 0
	for r := 0; r < Rows; r++ {
		for c := 0; c < Cols; c++ {
			st := &b[r][c]
			for l := 0; l < int(st.n); l++ {
				d := st.dice[l]
				switch d.Mat {
				case Wood:
					s.Wood += 2 * woodNeighbours(b, r, c, l)
				case Recycled:
					green++
				case Stone:
					lv := l + 1
					if lv > 4 {
						lv = 4
					}
					s.Stone += stonePoints[lv]
				case Glass:
					s.Glass += int(d.Pips)
				}
			}
		}
	}
	if green > 6 {
		green = 6
	}
	s.Recycled = recycledPoints[green]
	s.Total = s.Bonus + s.Wood + s.Recycled + s.Stone + s.Glass
	return s
}

// woodNeighbours counts the dice sharing a face with the die at level l
// (0-based) of cell (r, c): above, below, and at the same level in the
// orthogonally adjacent cells. Any colour counts.
func woodNeighbours(b *Building, r, c, l int) int {
	n := 0
	h := int(b[r][c].n)
	if l > 0 {
		n++
	}
	if l+1 < h {
		n++
	}
	if r > 0 && int(b[r-1][c].n) > l {
		n++
	}
	if r+1 < Rows && int(b[r+1][c].n) > l {
		n++
	}
	if c > 0 && int(b[r][c-1].n) > l {
		n++
	}
	if c+1 < Cols && int(b[r][c+1].n) > l {
		n++
	}
	return n
}

// Prize is one of the four prize types.
type Prize uint8

// The four prizes, in the order the rulebook lists them.
const (
	Skyscraper Prize = iota
	StructuralIntegrity
	Geometrist
	MaterialsPrize
)

// NumPrizes is the number of prize types.
const NumPrizes = 4

// Prizes lists the prize types in order.
var Prizes = [NumPrizes]Prize{Skyscraper, StructuralIntegrity, Geometrist, MaterialsPrize}

var prizeNames = [NumPrizes]string{"skyscraper", "structural-integrity", "geometrist", "materials"}

// String is the prize's name as used in JSON (skyscraper,
// structural-integrity, geometrist, materials).
func (p Prize) String() string {
	if int(p) < NumPrizes {
		return prizeNames[p]
	}
	return "prize?"
}

// PrizeSet is a set of prizes, one bit each.
type PrizeSet uint8

// Has reports whether p is in the set.
func (s PrizeSet) Has(p Prize) bool { return s&(1<<p) != 0 }

// List returns the prizes in the set, in order.
func (s PrizeSet) List() []Prize {
	var out []Prize
	for _, p := range Prizes {
		if s.Has(p) {
			out = append(out, p)
		}
	}
	return out
}

// Names returns the prize names in the set, in order (never nil).
func (s PrizeSet) Names() []string {
	out := []string{}
	for _, p := range s.List() {
		out = append(out, p.String())
	}
	return out
}

// Qualifies returns the prizes a building qualifies for. All its dice count,
// covered ones too: skyscraper, a stack of 5 or more; structural integrity,
// 4 or more dice with the same value; geometrist, every value 1 to 6;
// materials, 5 or more dice of the same colour.
func Qualifies(b *Building) PrizeSet {
	s, _ := census(b)
	return s
}

// census makes one pass over the building: the prizes it qualifies for and
// its dice per material (indexed by Material).
func census(b *Building) (PrizeSet, [NumMaterials + 1]int) {
	var s PrizeSet
	var values [7]int
	var mats [NumMaterials + 1]int
	for r := 0; r < Rows; r++ {
		for c := 0; c < Cols; c++ {
			st := &b[r][c]
			if st.n >= 5 {
				s |= 1 << Skyscraper
			}
			for l := 0; l < int(st.n); l++ {
				values[st.dice[l].Pips&7]++
				mats[st.dice[l].Mat&7%(NumMaterials+1)]++
			}
		}
	}
	all := true
	for v := 1; v <= 6; v++ {
		if values[v] >= 4 {
			s |= 1 << StructuralIntegrity
		}
		if values[v] == 0 {
			all = false
		}
	}
	if all {
		s |= 1 << Geometrist
	}
	for _, m := range Materials {
		if mats[m] >= 5 {
			s |= 1 << MaterialsPrize
		}
	}
	return s, mats
}

// CountMaterial counts the dice of material m in the building, covered too.
func CountMaterial(b *Building, m Material) int {
	n := 0
	for r := 0; r < Rows; r++ {
		for c := 0; c < Cols; c++ {
			st := &b[r][c]
			for l := 0; l < int(st.n); l++ {
				if st.dice[l].Mat == m {
					n++
				}
			}
		}
	}
	return n
}
