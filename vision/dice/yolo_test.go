package dice

import (
	"errors"
	"image"
	"strings"
	"testing"
)

func TestParseYOLO(t *testing.T) {
	good := "2 0.47578125 0.50078125 0.21796875 0.15234375\n\n0 0.1 0.2 0.05 0.06\r\n5 1 1 1 1"
	labels, err := ParseYOLO(strings.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(labels) != 3 {
		t.Fatalf("%d labels, want 3", len(labels))
	}
	if l := labels[1]; l.Line != 3 || l.Class != 0 || l.Pips() != 1 || l.CX != 0.1 || l.H != 0.06 {
		t.Errorf("second label %+v, want line 3, class 0, cx 0.1, h 0.06", l)
	}
	if labels[2].Pips() != 6 {
		t.Errorf("class 5 reads as %d pips, want 6", labels[2].Pips())
	}

	bad := []struct {
		name, text, want string
	}{
		{"too few fields", "1 0.5 0.5 0.1", "line 1: 4 fields"},
		{"too many fields", "0 0.5 0.5 0.1 0.1\n1 0.5 0.5 0.1 0.1 0.9", "line 2: 6 fields"},
		{"class not a number", "one 0.5 0.5 0.1 0.1", `line 1: class "one"`},
		{"negative class", "-1 0.5 0.5 0.1 0.1", `line 1: class "-1"`},
		{"fractional class", "1.5 0.5 0.5 0.1 0.1", `line 1: class "1.5"`},
		{"coordinate not a number", "\n\n1 0.5 x 0.1 0.1", `line 3: cy "x" is not a number`},
		{"NaN", "1 NaN 0.5 0.1 0.1", `line 1: cx "NaN" is not a number`},
		{"pixel coordinates", "1 320 320 40 40", "line 1: cx 320 is outside 0..1"},
		{"empty box", "1 0.5 0.5 0 0.1", "line 1: w is 0"},
		{"binary junk", "1 0.5 0.5 0.1 0.1\n\x00\x01\x02", "line 2: 1 fields"},
		{"endless line", strings.Repeat("1", 5000), "line 1: longer than"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseYOLO(strings.NewReader(tc.text))
			if !errors.Is(err, ErrLabel) {
				t.Fatalf("err %v, want ErrLabel", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err %q does not say %q", err, tc.want)
			}
		})
	}
}

func TestLabelRect(t *testing.T) {
	cases := []struct {
		name string
		l    Label
		want image.Rectangle
		err  bool
	}{
		{"centre", Label{CX: 0.5, CY: 0.5, W: 0.25, H: 0.125}, image.Rect(240, 280, 400, 360), false},
		{"rounding over the edge is clipped", Label{CX: 0.95, CY: 0.5, W: 0.105, H: 0.1}, image.Rect(574, 288, 640, 352), false},
		{"half outside", Label{CX: 0.98, CY: 0.5, W: 0.2, H: 0.1}, image.Rectangle{}, true},
		{"too small", Label{CX: 0.5, CY: 0.5, W: 0.001, H: 0.1}, image.Rectangle{}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := tc.l.Rect(640, 640)
			if tc.err {
				if !errors.Is(err, ErrBox) {
					t.Fatalf("err %v, want ErrBox", err)
				}
				return
			}
			if err != nil || r != tc.want {
				t.Fatalf("Rect = %v, %v; want %v", r, err, tc.want)
			}
		})
	}
}

func TestSourceAndFold(t *testing.T) {
	a := SourceOf("train/images/dice_101_jpg.rf.9e69503db4a1230f791c4004b2080121.jpg")
	b := SourceOf("dice_101_jpg.rf.ec9045788ab90fbcc2b0b6dfbddce9e9.jpg")
	if a != "dice_101_jpg" || a != b {
		t.Fatalf("sources %q and %q, want both dice_101_jpg", a, b)
	}
	if SourceOf("plain.png") != "plain" {
		t.Errorf("SourceOf(plain.png) = %q", SourceOf("plain.png"))
	}
	if f := FoldOf(a); f < 0 || f >= Folds {
		t.Errorf("fold %d out of range", f)
	}
}

func FuzzParseYOLO(f *testing.F) {
	f.Add("2 0.47578125 0.50078125 0.21796875 0.15234375\n0 0.1 0.2 0.05 0.06\n")
	f.Add("1 0.5 0.5 0.1")
	f.Add("0 1e-300 0.5 1 1\n\n")
	f.Fuzz(func(t *testing.T, s string) {
		labels, err := ParseYOLO(strings.NewReader(s))
		if err != nil {
			if !errors.Is(err, ErrLabel) {
				t.Fatalf("error %v does not wrap ErrLabel", err)
			}
			return
		}
		for _, l := range labels {
			if l.Class < 0 || l.CX < 0 || l.CX > 1 || l.W <= 0 || l.W > 1 || l.H <= 0 {
				t.Fatalf("accepted %+v", l)
			}
			r, err := l.Rect(640, 480)
			if err == nil && (!r.In(image.Rect(0, 0, 640, 480)) || r.Dx() < MinSide || r.Dy() < MinSide) {
				t.Fatalf("%+v: Rect %v outside the image or too small", l, r)
			}
		}
	})
}
