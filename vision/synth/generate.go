package synth

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/blueprints-companion/blueprints/vision/cardmodel"
)

// Blueprint is one card of the catalogue.
type Blueprint struct {
	ID     int
	Layout Layout
}

// Options steer the scene generator. Zero values mean "vary at random".
type Options struct {
	Model     cardmodel.Model
	Catalogue []Blueprint
	// Width and Height fix the image size; 0 picks 1280x720 (3 in 4) or
	// 1920x1080.
	Width, Height int
	// Players fixes the number of cards (1-4); 0 picks one.
	Players int
	// PipColor is the pip colour (sRGB 0-1) named PipName; zero is white.
	PipColor [3]float64
	PipName  string
	// HandProb, ScreenProb and GlareProb are the chances of a hand, of
	// player screens and of a glare spot (negative: never).
	HandProb, ScreenProb, GlareProb float64
	// Balance, if set, steers stack heights, top values and materials
	// towards even counts over many scenes and is updated.
	Balance *Balance
	// Antialias is POV-Ray's antialiasing threshold (0 or negative: off, the
	// default: the camera blur of Post smooths edges instead).
	Antialias float64
	// GlassTops is the chance that a stack's top die is clear glass while
	// the bag has glass dice left (0: the top is drawn like every other
	// die): training renders for the hardest top. At 0 no random number is
	// drawn for it, so every seed's scenes stay as they were.
	GlassTops float64
	// Mistakes is the chance that a card's building breaks a placement
	// rule the way a careless hand does (the mistakes the companion must
	// catch): a stack of 1-3 dice on a hatched cell (on a card whose
	// blueprint has one; the building may then hold more than 6 dice), or
	// else a stack whose top die stands on a higher value. At 0 no random
	// number is drawn for it, so every seed's scenes stay as they were.
	Mistakes float64
	// MaxYaw is how far (degrees, either way) a die placed on a card may
	// be turned from the card's axes; 0 means 5, a careful hand. Dice of
	// neighbouring cells turned far may touch or overlap a little: the
	// renderer does not push them apart.
	MaxYaw float64
	// NadirOnCards is the chance that a scene's camera stands over a card:
	// the point on the table straight under it (its nadir) lies on a
	// card's grid of cells or within nadirMargin of it. There a stack's top
	// face barely slides as the stack grows, so its height shows only in
	// how large the face looks, and a clear glass top's own pips and those
	// of its bottom face overlay: the hardest place on the table to read
	// (training and judging renders for it). At 0 no random number is
	// drawn for it, so every seed's scenes stay as they were.
	NadirOnCards float64
}

// nadirMargin is how far (mm) outside a card's grid the nadir of a camera
// wanted over a card may lie: a stack within it slides at most about
// 3 px per die at 1280 px (at a camera 50 cm up).
const nadirMargin = 20.0

// ErrGenerate is wrapped when no scene satisfying the framing rules could be
// made.
var ErrGenerate = errors.New("cannot generate scene")

// Balance counts what scenes showed so far.
type Balance struct {
	Heights [7]int           // stacks by height 1-6
	TopPips [7]int           // top dice by value
	Pips    [7]int           // all building dice by value
	Mats    map[Material]int // all building dice by material
}

// NewBalance returns an empty tally.
func NewBalance() *Balance { return &Balance{Mats: map[Material]int{}} }

// Record adds a scene's buildings to the tally.
func (b *Balance) Record(sc *Scene) {
	for _, c := range sc.Cards {
		for r := 0; r < 3; r++ {
			for col := 0; col < 2; col++ {
				st := c.Building[r][col]
				if len(st) == 0 {
					continue
				}
				b.Heights[len(st)]++
				b.TopPips[st[len(st)-1].Pips]++
				for _, d := range st {
					b.Pips[d.Pips]++
					b.Mats[d.Mat]++
				}
			}
		}
	}
}

// gen is one scene's random state.
type gen struct {
	rng    *rand.Rand
	opt    Options
	bal    *Balance // scratch copy steering this scene
	bag    map[Material]int
	sc     *Scene
	global float64 // highest stack top in the scene, mm
	// oneLight limits the scene to one area light (cheaper sequences)
	oneLight bool
}

func (g *gen) uni(a, b float64) float64 { return a + (b-a)*g.rng.Float64() }

// Seats: seat k sits at angle; the card's printed up points to the centre.
// Seat 0 south, 1 west, 2 north, 3 east (clockwise seen from above).
func seatAngle(seat int) float64 { return math.Pi/2 - float64(seat)*math.Pi/2 }

var seatsFor = [][]int{nil, {0}, {0, 2}, {0, 1, 2}, {0, 1, 2, 3}}

// Generate makes a random still scene from seed.
func Generate(seed uint64, opt Options) (*Scene, error) {
	if len(opt.Catalogue) == 0 {
		return nil, fmt.Errorf("synth: %w: empty blueprint catalogue", ErrGenerate)
	}
	if err := opt.Model.Validate(); err != nil {
		return nil, fmt.Errorf("synth: %w", err)
	}
	if opt.Players < 0 || opt.Players > 4 {
		return nil, fmt.Errorf("synth: %w: players %d not in 1-4", ErrGenerate, opt.Players)
	}
	g := newGen(seed, opt)
	players := opt.Players
	if players == 0 {
		players = 1 + g.rng.IntN(4)
	}
	rIn := g.layoutCards(players)
	for i := range g.sc.Cards {
		g.fillBuilding(&g.sc.Cards[i])
	}
	g.placeOffer(players, rIn, offerSize(players))
	if g.rng.Float64() < opt.HandProb {
		ci := g.rng.IntN(len(g.sc.Cards))
		u, v := opt.Model.CellCenter(g.rng.IntN(3), g.rng.IntN(2))
		tgt := g.sc.Cards[ci].Point(opt.Model, u+g.uni(-4, 4), v+g.uni(-4, 4), 0)
		g.sc.Hands = append(g.sc.Hands, g.hand(ci, tgt, g.uni(-10, 10), g.global+g.uni(22, 60), g.handStyle()))
	}
	if g.rng.Float64() < opt.ScreenProb {
		for i := range g.sc.Cards {
			if len(g.sc.Screens) < 2 && (i == 0 || g.rng.Float64() < 0.3) {
				g.sc.Screens = append(g.sc.Screens, g.screen(i))
			}
		}
	}
	if err := g.frame(); err != nil {
		return nil, err
	}
	g.lightsAndLook(g.rng.Float64() < opt.GlareProb)
	if opt.Balance != nil {
		opt.Balance.Record(g.sc)
	}
	return g.sc, nil
}

func offerSize(players int) int {
	switch players {
	case 1:
		return 4
	case 2:
		return 8
	case 3:
		return 9
	default:
		return 7
	}
}

func newGen(seed uint64, opt Options) *gen {
	g := &gen{
		rng: rand.New(rand.NewPCG(seed, seed*0x9e3779b97f4a7c15+1)),
		opt: opt,
		bag: map[Material]int{Wood: 8, Recycled: 8, Stone: 8, Glass: 8},
	}
	g.bal = NewBalance()
	if b := opt.Balance; b != nil {
		g.bal.Heights, g.bal.TopPips, g.bal.Pips = b.Heights, b.TopPips, b.Pips
		for k, v := range b.Mats {
			g.bal.Mats[k] = v
		}
	}
	if opt.PipName == "" {
		g.opt.PipColor, g.opt.PipName = [3]float64{0.97, 0.97, 0.95}, "white"
	}
	aa := opt.Antialias
	if aa < 0 {
		aa = 0
	}
	g.sc = &Scene{Seed: seed, Model: opt.Model, PipColor: g.opt.PipColor, PipName: g.opt.PipName, Antialias: aa}
	return g
}

// layoutCards puts one card per player where the players sit and returns
// the distance from the table centre to the inner card edges.
func (g *gen) layoutCards(players int) float64 {
	m := g.opt.Model
	rIn := g.uni(62, 105)
	if players == 1 {
		rIn = g.uni(35, 60)
	}
	ids := g.rng.Perm(len(g.opt.Catalogue))
	for i, seat := range seatsFor[players] {
		bp := g.opt.Catalogue[ids[i%len(ids)]]
		a := seatAngle(seat) + g.uni(-7, 7)*math.Pi/180
		up := Vec3{math.Cos(seatAngle(seat)), math.Sin(seatAngle(seat)), 0}
		side := Vec3{up.Y, -up.X, 0}
		ctr := up.Scale(-(rIn + m.CardHeight/2 + g.uni(0, 12))).Add(side.Scale(g.uni(-12, 12)))
		g.sc.Cards = append(g.sc.Cards, Card{Seat: seat, ID: bp.ID, Layout: bp.Layout, Center: ctr, Angle: a})
	}
	return rIn
}

// pickMaterial takes a die colour from the bag, preferring the least shown.
func (g *gen) pickMaterial() Material {
	var avail []Material
	for _, mt := range Materials {
		if g.bag[mt] > 0 {
			avail = append(avail, mt)
		}
	}
	if len(avail) == 0 {
		return Materials[g.rng.IntN(4)]
	}
	mt := avail[g.rng.IntN(len(avail))]
	if g.rng.Float64() < 0.6 {
		sort.SliceStable(avail, func(i, j int) bool { return g.bal.Mats[avail[i]] < g.bal.Mats[avail[j]] })
		mt = avail[0]
	}
	g.bag[mt]--
	g.bal.Mats[mt]++
	return mt
}

// leastUsed picks, among candidates, one with the smallest count (ties at
// random).
func (g *gen) leastUsed(cands []int, count func(int) int) int {
	g.rng.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	best := cands[0]
	for _, c := range cands[1:] {
		if count(c) < count(best) {
			best = c
		}
	}
	return best
}

// heights chooses the stack heights on a card: following the blueprint,
// part of it (a building in progress), or deviating from it; never on a
// hatched cell and never more than 6 dice.
func (g *gen) heights(l Layout) [3][2]int {
	var h [3][2]int
	var open [][2]int
	for r := 0; r < 3; r++ {
		for c := 0; c < 2; c++ {
			if l[r][c] != Hatched {
				open = append(open, [2]int{r, c})
			}
		}
	}
	switch x := g.rng.Float64(); {
	case x < 0.12: // as planned
		for _, rc := range open {
			h[rc[0]][rc[1]] = l[rc[0]][rc[1]]
		}
	case x < 0.2: // in progress: a part of the plan
		for _, rc := range open {
			h[rc[0]][rc[1]] = g.rng.IntN(l[rc[0]][rc[1]] + 1)
		}
	default: // deviating, steered towards the least seen heights
		budget := 6
		g.rng.Shuffle(len(open), func(i, j int) { open[i], open[j] = open[j], open[i] })
		for k, rc := range open {
			if budget == 0 || (k > 0 && g.rng.Float64() < 0.35) || (k > 0 && budget < 3 && g.rng.Float64() < 0.5) {
				break
			}
			var cands []int
			for v := 1; v <= budget; v++ {
				cands = append(cands, v)
			}
			v := g.leastUsed(cands, func(v int) int { return g.bal.Heights[v] })
			h[rc[0]][rc[1]] = v
			budget -= v
		}
	}
	return h
}

// stackValues draws legal values for a stack of n dice: the top value
// steered towards the least seen, the others at or below it, ascending.
func (g *gen) stackValues(n int) []int {
	top := 1 + g.rng.IntN(6)
	if g.rng.Float64() < 0.7 {
		top = g.leastUsed([]int{1, 2, 3, 4, 5, 6}, func(v int) int { return g.bal.TopPips[v] })
	}
	vals := make([]int, n)
	vals[n-1] = top
	for i := 0; i < n-1; i++ {
		// lower dice: at most the top value, mostly close to it
		vals[i] = max(1, top-int(math.Abs(g.rng.NormFloat64())*1.6))
	}
	sort.Ints(vals)
	return vals
}

// fillBuilding builds stacks on a card and places their dice.
func (g *gen) fillBuilding(c *Card) {
	h := g.heights(c.Layout)
	onHigher := [2]int{-1, -1}
	if g.opt.Mistakes > 0 && g.rng.Float64() < g.opt.Mistakes {
		onHigher = g.mistake(c.Layout, &h)
	}
	for r := 0; r < 3; r++ {
		for col := 0; col < 2; col++ {
			n := h[r][col]
			if n == 0 {
				continue
			}
			g.bal.Heights[n]++
			vals := g.stackValues(n)
			if onHigher == [2]int{r, col} {
				// the top die on a higher value: top t, the die under it
				// above t
				t := 1 + g.rng.IntN(5)
				vals[n-1], vals[n-2] = t, t+1+g.rng.IntN(6-t)
			}
			g.bal.TopPips[vals[n-1]]++
			st := make(Stack, n)
			for k := range st {
				if k == n-1 && g.opt.GlassTops > 0 && g.bag[Glass] > 0 && g.rng.Float64() < g.opt.GlassTops {
					g.bag[Glass]--
					g.bal.Mats[Glass]++
					st[k] = Die{Glass, vals[k]}
					continue
				}
				st[k] = Die{g.pickMaterial(), vals[k]}
			}
			c.Building[r][col] = st
			for _, d := range st {
				g.addDie(c, r, col, d)
			}
		}
	}
}

// mistake changes the heights h of a card with layout l so that its
// building breaks a placement rule: a stack of 1-3 dice on a hatched cell
// (six times in ten, where the card has one), or else it returns a cell
// whose top die must stand on a higher value (a stack of at least two, made
// so on an open cell where no stack is that high).
func (g *gen) mistake(l Layout, h *[3][2]int) (onHigher [2]int) {
	var hatched, open, tall [][2]int
	for r := 0; r < 3; r++ {
		for c := 0; c < 2; c++ {
			switch {
			case l[r][c] == Hatched:
				hatched = append(hatched, [2]int{r, c})
			case h[r][c] >= 2:
				tall = append(tall, [2]int{r, c})
			default:
				open = append(open, [2]int{r, c})
			}
		}
	}
	if len(hatched) > 0 && g.rng.Float64() < 0.6 {
		rc := hatched[g.rng.IntN(len(hatched))]
		h[rc[0]][rc[1]] = 1 + g.rng.IntN(3)
		return [2]int{-1, -1}
	}
	if len(tall) > 0 {
		return tall[g.rng.IntN(len(tall))]
	}
	if len(open) == 0 {
		return [2]int{-1, -1}
	}
	rc := open[g.rng.IntN(len(open))]
	h[rc[0]][rc[1]] = 2
	return rc
}

// addDie puts a die on top of cell (r, col), as a hand leaves it: a little
// off centre and turned.
func (g *gen) addDie(c *Card, r, col int, d Die) PlacedDie {
	m := g.opt.Model
	u, v := m.CellCenter(r, col)
	k := len(c.Dice[r][col])
	slack := math.Max(0, (m.Cell-m.Die)/2-0.4)
	off := math.Min(slack, 0.7)
	ctr := c.Point(m, u+g.uni(-off, off), v+g.uni(-off, off), m.CardThickness+(float64(k)+0.5)*m.Die)
	maxYaw := g.opt.MaxYaw
	if maxYaw == 0 {
		maxYaw = 5
	}
	yaw := g.uni(-maxYaw, maxYaw)
	pd := g.poseDie(d, ctr, c.Angle*180/math.Pi+yaw)
	pd.Yaw = yaw
	c.Dice[r][col] = append(c.Dice[r][col], pd)
	g.global = math.Max(g.global, ctr.Z+m.Die/2)
	return pd
}

// poseDie orients a die so that d.Pips is on top, turned by yawDeg (plus a
// random quarter turn of its side faces).
func (g *gen) poseDie(d Die, ctr Vec3, yawDeg float64) PlacedDie {
	rots := rotationsShowing(d.Pips)
	q := rots[g.rng.IntN(len(rots))]
	return PlacedDie{Die: d, Center: ctr, Rot: RotZ(yawDeg * math.Pi / 180).Mul(q), Yaw: yawDeg}
}

// placeOffer scatters n loose dice between the cards, sorted by value along
// the way the first seat reads.
func (g *gen) placeOffer(players int, rIn float64, n int) {
	m := g.opt.Model
	pos := g.offerSlots(players, rIn, n)
	vals := make([]int, len(pos))
	for i := range vals {
		vals[i] = 1 + g.rng.IntN(6)
	}
	sort.Ints(vals)
	for i, p := range pos {
		var avail []Material
		for _, x := range Materials {
			if g.bag[x] > 0 {
				avail = append(avail, x)
			}
		}
		if len(avail) == 0 {
			break
		}
		mt := avail[g.rng.IntN(len(avail))]
		g.bag[mt]--
		p.Z = m.Die / 2
		g.sc.Offer = append(g.sc.Offer, g.poseDie(Die{mt, vals[i]}, p, g.uni(0, 360)))
	}
}

// offerSlots are n places for loose dice between the cards, on the table.
func (g *gen) offerSlots(players int, rIn float64, n int) []Vec3 {
	m := g.opt.Model
	var x0, x1, y0, y1 float64
	switch players {
	case 1:
		x0, x1, y0, y1 = -75, 75, -rIn+24, -rIn+80
	case 2:
		x0, x1, y0, y1 = -85, 85, -rIn+24, rIn-24
	default:
		e := rIn - 24
		x0, x1, y0, y1 = -e, e, -e, e
	}
	var pos []Vec3
	minD := m.Die*math.Sqrt2 + 1
	for tries := 0; len(pos) < n && tries < 4000; tries++ {
		p := Vec3{g.uni(x0, x1), g.uni(y0, y1), 0}
		ok := true
		for _, q := range pos {
			if p.Sub(q).Len() < minD {
				ok = false
				break
			}
		}
		if ok {
			pos = append(pos, p)
		}
	}
	sort.Slice(pos, func(i, j int) bool { return pos[i].X+0.3*pos[i].Y < pos[j].X+0.3*pos[j].Y })
	return pos
}

// hand builds a hand and forearm reaching from the seat of card ci, the
// fingertips over tgt: palm height z (mm above the table), turned by angDeg.
// The lowest point of the hand is about z-10.
func (g *gen) hand(ci int, tgt Vec3, angDeg, z float64, st handStyle) Hand {
	card := g.sc.Cards[ci]
	a := card.Angle + angDeg*math.Pi/180
	f := Vec3{math.Cos(a), math.Sin(a), 0}
	l := Vec3{f.Y, -f.X, 0} // to the right
	up := Vec3{0, 0, 1}
	k := st.k
	side := 1.0
	if !st.right {
		side = -1
	}
	// the fingertips end over the target: palm centre behind it
	pc := tgt.Sub(f.Scale(52 * k))
	pc.Z = z + 10
	var parts []Capsule
	at := func(base Vec3, df, dl, dz float64) Vec3 {
		return base.Add(f.Scale(df * k)).Add(l.Scale(dl * k * side)).Add(up.Scale(dz * k))
	}
	// palm: two flat capsules side by side
	parts = append(parts,
		Capsule{at(pc, -22, -14, 0), at(pc, 8, -17, 0), 14 * k},
		Capsule{at(pc, -22, 12, 0), at(pc, 8, 18, 0), 13 * k},
		Capsule{at(pc, -18, 0, 2), at(pc, 6, 0, 2), 14 * k},
	)
	// wrist and forearm rising towards the player
	wr := at(pc, -42, 0, 6)
	parts = append(parts, Capsule{wr, at(pc, -14, 0, 2), 20 * k})
	parts = append(parts, Capsule{wr, at(pc, -300, g.uni(-40, 40), 110), 28 * k})
	// fingers: index..little, two segments each, curling down
	for i, L := range []float64{44, 49, 46, 37} {
		dl := -25 + 17*float64(i)
		kn := at(pc, 16, dl*1.0, 1)
		spread := (float64(i) - 1.5) * 3
		mid := at(kn, L*0.55, spread, -3)
		tip := at(mid, L*0.45, spread*0.5, -st.curl)
		rr := (8.6 - 0.5*float64(i)) * k
		parts = append(parts, Capsule{kn, mid, rr}, Capsule{mid, tip, rr * 0.92})
	}
	// thumb on the inner side
	tb := at(pc, -16, -26, -1)
	parts = append(parts, Capsule{tb, at(pc, 8, -42, -5), 10 * k}, Capsule{at(pc, 8, -42, -5), at(pc, 24, -48, -9), 9 * k})
	return Hand{Seat: card.Seat, Card: ci, Parts: parts, Skin: st.skin}
}

// handStyle is what stays the same about one player's hand.
type handStyle struct {
	k     float64 // size
	right bool
	curl  float64
	skin  [3]float64
}

func (g *gen) handStyle() handStyle {
	skins := [][3]float64{{0.89, 0.68, 0.56}, {0.80, 0.58, 0.45}, {0.62, 0.43, 0.31}, {0.42, 0.28, 0.20}, {0.93, 0.75, 0.65}}
	return handStyle{k: g.uni(0.92, 1.1), right: g.rng.IntN(2) == 0, curl: g.uni(6, 11), skin: skins[g.rng.IntN(len(skins))]}
}

// screen stands a player screen just beyond the card's top edge, facing
// the card.
func (g *gen) screen(ci int) Screen {
	m := g.opt.Model
	c := g.sc.Cards[ci]
	up := c.Up()
	w, h := g.uni(130, 170), g.uni(75, 105)
	lean := g.uni(4, 14) * math.Pi / 180
	base := c.Point(m, m.CardWidth/2+g.uni(-8, 8), -g.uni(4, 9), 0)
	r := c.Right()
	bl := base.Sub(r.Scale(w / 2))
	br := base.Add(r.Scale(w / 2))
	vert := Vec3{0, 0, math.Cos(lean)}.Add(up.Scale(math.Sin(lean))) // leaning away from the card
	cols := [][3]float64{{0.55, 0.18, 0.12}, {0.80, 0.72, 0.55}, {0.20, 0.22, 0.25}, {0.35, 0.45, 0.30}}
	return Screen{
		Seat: c.Seat, Card: ci,
		Corners:   [4]Vec3{bl, br, br.Add(vert.Scale(h)), bl.Add(vert.Scale(h))},
		Normal:    r.Cross(vert).Unit().Scale(-1),
		Thickness: 2.5,
		Color:     cols[g.rng.IntN(len(cols))],
	}
}

// poi are the points the framing must show: card corners, stack tops and
// offer dice.
func (g *gen) poi() []Vec3 {
	m := g.opt.Model
	var pts []Vec3
	for _, c := range g.sc.Cards {
		cs := c.Corners(m)
		pts = append(pts, cs[:]...)
		for r := 0; r < 3; r++ {
			for col := 0; col < 2; col++ {
				pts = append(pts, c.CellTop(m, r, col))
			}
		}
	}
	for _, d := range g.sc.Offer {
		pts = append(pts, d.Center)
	}
	return pts
}

// dieSpan is the smallest and largest mean edge, in pixels, of a die's top
// face on any cell at level 1.
func (g *gen) dieSpan(cam Camera) (lo, hi float64) {
	m := g.opt.Model
	lo, hi = math.Inf(1), 0
	for _, c := range g.sc.Cards {
		for r := 0; r < 3; r++ {
			for col := 0; col < 2; col++ {
				u, v := m.CellCenter(r, col)
				z := m.CardThickness + m.Die
				h := m.Die / 2
				q := [4]Vec3{c.Point(m, u-h, v-h, z), c.Point(m, u+h, v-h, z), c.Point(m, u+h, v+h, z), c.Point(m, u-h, v+h, z)}
				e := 0.0
				for i := 0; i < 4; i++ {
					a0, b0, _ := cam.Project(q[i])
					a1, b1, _ := cam.Project(q[(i+1)%4])
					e += math.Hypot(a1-a0, b1-b0) / 4
				}
				lo, hi = math.Min(lo, e), math.Max(hi, e)
			}
		}
	}
	return lo, hi
}

// nadirOnCard says whether the table point straight under eye lies on a
// card's grid of cells or within nadirMargin of it.
func (g *gen) nadirOnCard(eye Vec3) bool {
	m := g.opt.Model
	gu0, gv0 := m.GridOrigin[0], m.GridOrigin[1]
	gu1, gv1 := gu0+float64(m.Cols)*m.Cell, gv0+float64(m.Rows)*m.Cell
	for _, c := range g.sc.Cards {
		d := eye.Sub(c.Center)
		d.Z = 0
		u := d.Dot(c.Right()) + m.CardWidth/2
		v := m.CardHeight/2 - d.Dot(c.Up())
		if u >= gu0-nadirMargin && u <= gu1+nadirMargin && v >= gv0-nadirMargin && v <= gv1+nadirMargin {
			return true
		}
	}
	return false
}

// frame chooses a camera the way a table owner mounts one: 35-90 cm up,
// tilted up to 25 degrees, any turn about the vertical, the cards filling
// most of the frame and a die's top spanning 20-70 pixels.
func (g *gen) frame() error {
	w, h := g.opt.Width, g.opt.Height
	if w == 0 || h == 0 {
		w, h = 1280, 720
		if g.rng.IntN(4) == 0 {
			w, h = 1920, 1080
		}
	}
	pts := g.poi()
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range pts {
		minX, maxX = math.Min(minX, p.X), math.Max(maxX, p.X)
		minY, maxY = math.Min(minY, p.Y), math.Max(maxY, p.Y)
	}
	scale := float64(w) / 1280
	// principal axis of the content: a table owner turns the camera so that
	// the long side of the layout runs along the long side of the image
	var sxx, syy, sxy float64
	mx, my := (minX+maxX)/2, (minY+maxY)/2
	for _, p := range pts {
		sxx += (p.X - mx) * (p.X - mx)
		syy += (p.Y - my) * (p.Y - my)
		sxy += (p.X - mx) * (p.Y - my)
	}
	axis := 0.5 * math.Atan2(2*sxy, sxx-syy) * 180 / math.Pi
	overCard := g.opt.NadirOnCards > 0 && g.rng.Float64() < g.opt.NadirOnCards
	tries := 400
	if overCard {
		tries = 4000
	}
	for try := 0; try < tries; try++ {
		hfov := g.uni(45, 80)
		tilt := g.uni(0, 25)
		if try%3 == 0 {
			tilt = g.uni(0, 8)
		}
		yaw := g.uni(0, 360)
		if g.rng.Float64() < 0.7 {
			yaw = axis + 90 + 180*float64(g.rng.IntN(2)) + g.uni(-20, 20)
		}
		fill := g.uni(0.78, 0.95)
		tgt := Vec3{(minX+maxX)/2 + g.uni(-8, 8), (minY+maxY)/2 + g.uni(-8, 8), 0}
		ya, ta := yaw*math.Pi/180, tilt*math.Pi/180
		upDir := Vec3{math.Cos(ya), math.Sin(ya), 0}
		back := upDir.Scale(-math.Sin(ta)).Add(Vec3{0, 0, math.Cos(ta)})
		camAt := func(d float64) Camera {
			return LookCamera(tgt.Add(back.Scale(d)), tgt, upDir, hfov, w, h)
		}
		extent := func(cam Camera) float64 {
			e := 0.0
			for _, p := range pts {
				u, v, ok := cam.Project(p)
				if !ok {
					return math.Inf(1)
				}
				e = math.Max(e, math.Max(math.Abs(u-cam.Cx)/(float64(w)/2), math.Abs(v-cam.Cy)/(float64(h)/2)))
			}
			return e
		}
		lo, hi := 150.0, 4000.0
		for i := 0; i < 50; i++ {
			mid := (lo + hi) / 2
			if extent(camAt(mid)) > fill {
				lo = mid
			} else {
				hi = mid
			}
		}
		d := hi
		cam := camAt(d)
		// a die may not look bigger than about 70 px (at 1280 wide)
		maxDie := g.uni(50, 66) * scale
		if _, big := g.dieSpan(cam); big > maxDie {
			d *= big / maxDie
			cam = camAt(d)
		}
		small, big := g.dieSpan(cam)
		ez := cam.Center().Z
		if ez < 350 || ez > 900 || small < 20*scale || big > 70*scale || extent(cam) > 0.97 {
			continue
		}
		if overCard && !g.nadirOnCard(cam.Center()) {
			continue
		}
		g.sc.Cam, g.sc.HFOV, g.sc.Tilt, g.sc.Yaw = cam, hfov, tilt, math.Mod(yaw+720, 360)
		return nil
	}
	return fmt.Errorf("synth: %w: no camera frames the cards with readable dice", ErrGenerate)
}

// lightsAndLook picks the table, lights, glare and camera simulation.
func (g *gen) lightsAndLook(glare bool) {
	sc := g.sc
	switch g.rng.IntN(3) {
	case 0:
		woods := [][2][3]float64{{{0.62, 0.42, 0.24}, {0.45, 0.28, 0.14}}, {{0.78, 0.62, 0.42}, {0.62, 0.46, 0.28}}, {{0.36, 0.22, 0.13}, {0.24, 0.14, 0.08}}, {{0.70, 0.55, 0.38}, {0.50, 0.36, 0.22}}}
		wc := woods[g.rng.IntN(len(woods))]
		sc.Table = Table{Kind: "wood", Color: wc[0], Color2: wc[1], Scale: g.uni(8, 20), Angle: g.uni(0, 180)}
	case 1:
		cloths := [][3]float64{{0.12, 0.38, 0.20}, {0.45, 0.45, 0.45}, {0.55, 0.15, 0.14}, {0.72, 0.66, 0.55}, {0.25, 0.20, 0.18}}
		cc := cloths[g.rng.IntN(len(cloths))]
		sc.Table = Table{Kind: "cloth", Color: cc, Color2: [3]float64{cc[0] * 0.8, cc[1] * 0.8, cc[2] * 0.8}, Scale: g.uni(5, 15), Angle: g.uni(0, 90)}
	default:
		plains := [][3]float64{{0.88, 0.88, 0.86}, {0.70, 0.70, 0.72}, {0.92, 0.88, 0.80}, {0.20, 0.20, 0.21}, {0.55, 0.50, 0.45}}
		pc := plains[g.rng.IntN(len(plains))]
		sc.Table = Table{Kind: "plain", Color: pc, Color2: [3]float64{pc[0] * 0.93, pc[1] * 0.93, pc[2] * 0.93}, Scale: g.uni(30, 120)}
	}
	n := 1
	switch x := g.rng.Float64(); {
	case g.oneLight:
	case x < 0.12:
		n = 3
	case x < 0.4:
		n = 2
	}
	total := g.uni(1.1, 1.7)
	ctr := sc.Cam.Center()
	ctr.Z = 0
	for i := 0; i < n; i++ {
		share := total / float64(n)
		if i == 0 {
			share = total * (0.5 + 0.5/float64(n))
		} else {
			share = total * 0.5 / float64(n)
		}
		a := g.uni(0, 2*math.Pi)
		r := g.uni(100, 650)
		sc.Lights = append(sc.Lights, Light{
			Pos:       ctr.Add(Vec3{r * math.Cos(a), r * math.Sin(a), g.uni(700, 1400)}),
			Kelvin:    g.uni(2800, 6500),
			Intensity: share,
			Size:      g.uni(80, 260),
		})
	}
	if glare {
		// a lamp mirrored in a card: the reflection of the camera ray off the
		// card surface points at it
		c := sc.Cards[g.rng.IntN(len(sc.Cards))]
		m := g.opt.Model
		p := c.Point(m, g.uni(10, m.CardWidth-10), g.uni(10, m.CardHeight-10), 0)
		toCam := sc.Cam.Center().Sub(p)
		refl := Vec3{-toCam.X, -toCam.Y, toCam.Z}.Unit()
		sc.Lights = append(sc.Lights, Light{Pos: p.Add(refl.Scale(g.uni(900, 1500))), Kelvin: g.uni(4000, 6500), Intensity: g.uni(0.35, 0.6), Glare: true})
		sc.Glare = true
	}
	sc.Post = Post{
		NoiseSigma:  g.uni(0.3, 2.2),
		BlurSigma:   g.uni(0.4, 1.1),
		JPEGQuality: 76 + g.rng.IntN(9),
	}
}
