package segment

import (
	"errors"
	"testing"
)

func TestCells(t *testing.T) {
	tests := []struct {
		name, text string
		want       string
		wantDP     [Digits]bool
		err        error
	}{
		{name: "empty is blank", text: "", want: "        "},
		{name: "digits left aligned", text: "12", want: "12      "},
		{name: "dot joins the digit before", text: "1.5", want: "15      ", wantDP: [Digits]bool{true}},
		{name: "all segments", text: "8.8.8.8.8.8.8.8.", want: "88888888", wantDP: [Digits]bool{true, true, true, true, true, true, true, true}},
		{name: "leading dot is its own cell", text: ".5", want: " 5      ", wantDP: [Digits]bool{true}},
		{name: "double dot", text: "1..", want: "1       ", wantDP: [Digits]bool{true, true}},
		{name: "nine characters", text: "ABCDEFGHI", err: ErrText},
		{name: "unknown character", text: "A*", err: ErrText},
		{name: "non ASCII", text: "é", err: ErrText},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cells, err := Cells(tt.text)
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("Cells(%q) error = %v, want %v", tt.text, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Cells(%q): %v", tt.text, err)
			}
			for i, c := range cells {
				if c&0x7F != tt.want[i] || (c&0x80 != 0) != tt.wantDP[i] {
					t.Fatalf("Cells(%q)[%d] = %q dp=%v, want %q dp=%v", tt.text, i, c&0x7F, c&0x80 != 0, tt.want[i], tt.wantDP[i])
				}
			}
		})
	}
}

func TestFormatScore(t *testing.T) {
	for _, tt := range []struct {
		score int
		want  string
		err   bool
	}{
		{0, "       0", false}, {12, "      12", false}, {-5, "      -5", false},
		{MaxScore, "99999999", false}, {MinScore, "-9999999", false},
		{MaxScore + 1, "", true}, {MinScore - 1, "", true},
	} {
		got, err := FormatScore(tt.score)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("FormatScore(%d) = %q, %v; want %q (error %v)", tt.score, got, err, tt.want, tt.err)
		}
		if err != nil && !errors.Is(err, ErrScore) {
			t.Errorf("FormatScore(%d) error %v does not wrap ErrScore", tt.score, err)
		}
	}
}

func TestEveryCharacterHasSegments(t *testing.T) {
	for c := byte(' '); c < 0x7F; c++ {
		if s, ok := Lookup(c); ok && s == 0 && c != ' ' {
			t.Errorf("%q maps to no segments", c)
		}
	}
}
