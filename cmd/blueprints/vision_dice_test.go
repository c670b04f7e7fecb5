package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// diceData is the real-photo data set beside the repository clone.
var diceData = filepath.Join("..", "..", "..", "shared", "datasets", "dice-real")

// dicePhoto is a photo of the data set with its label file.
func dicePhoto(t *testing.T) (img, labels string) {
	t.Helper()
	img = filepath.Join(diceData, "train", "images", "dice_101_jpg.rf.9e69503db4a1230f791c4004b2080121.jpg")
	labels = filepath.Join(diceData, "train", "labels", "dice_101_jpg.rf.9e69503db4a1230f791c4004b2080121.txt")
	if _, err := os.Stat(img); err != nil {
		abs, _ := filepath.Abs(diceData)
		t.Fatalf("the dice data set is needed at %s: %v", abs, err)
	}
	return img, labels
}

func TestVisionDiceJSON(t *testing.T) {
	img, _ := dicePhoto(t)
	dir := t.TempDir()
	lab := filepath.Join(dir, "boxes.txt")
	// Two boxes around the same die (class column ignored) and one more.
	require.NoError(t, os.WriteFile(lab, []byte("2 0.47578125 0.50078125 0.21796875 0.15234375\n\n0 0.47578125 0.50078125 0.21796875 0.15234375\n5 0.2 0.2 0.1 0.1\n"), 0o644))
	out, code, msg := run(t, "", "vision", "dice", "--image", img, "--yolo", lab, "--json")
	require.Equal(t, 0, code, msg)
	var got []struct {
		Pips       int     `json:"pips"`
		Confidence float64 `json:"confidence"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &got), out)
	require.Len(t, got, 3)
	assert.Equal(t, got[0], got[1], "the same box read twice")
	for _, r := range got {
		assert.True(t, r.Pips >= 1 && r.Pips <= 6, "pips %d", r.Pips)
		assert.True(t, r.Confidence > 0 && r.Confidence <= 1, "confidence %v", r.Confidence)
	}
	assert.Equal(t, 3, got[0].Pips, "the three on dice_101")

	out, code, msg = run(t, "", "vision", "dice", "--image", img, "--yolo", lab)
	require.Equal(t, 0, code, msg)
	assert.Contains(t, out, "line 4: ")
}

func TestVisionDiceErrors(t *testing.T) {
	img, labels := dicePhoto(t)
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	notImage := write("x.jpg", "not a jpeg")
	badLine := write("bad.txt", "1 0.5 0.5 0.1 0.1\n2 0.5 0.5 0.1\n")
	outside := write("out.txt", "1 0.5 0.5 0.1 0.1\n1 0.98 0.5 0.2 0.1\n")
	pixels := write("px.txt", "1 320 320 40 40\n")
	cases := map[string]struct {
		args []string
		want string
	}{
		"unreadable image":   {[]string{"--image", notImage, "--yolo", labels}, "not an image"},
		"missing image":      {[]string{"--image", filepath.Join(dir, "none.jpg"), "--yolo", labels}, "--image"},
		"missing labels":     {[]string{"--image", img, "--yolo", filepath.Join(dir, "none.txt")}, "--yolo"},
		"short label line":   {[]string{"--image", img, "--yolo", badLine}, "line 2: 4 fields"},
		"box outside":        {[]string{"--image", img, "--yolo", outside}, "line 2: box"},
		"pixel coordinates":  {[]string{"--image", img, "--yolo", pixels}, "line 1: cx 320 is outside 0..1"},
		"no labels":          {[]string{"--image", img}, "need --image and --yolo"},
		"both modes":         {[]string{"--image", img, "--yolo", labels, "--dataset", dir}, "not both"},
		"bad method":         {[]string{"--image", img, "--yolo", labels, "--method", "magic"}, "--method"},
		"bad model":          {[]string{"--image", img, "--yolo", labels, "--model", notImage}, "model"},
		"empty model":        {[]string{"--image", img, "--yolo", labels, "--model", write("empty.cnn", "")}, "empty.cnn is empty"},
		"bad passes":         {[]string{"--image", img, "--yolo", labels, "--passes", "3"}, "--passes"},
		"bad boxes":          {[]string{"--image", img, "--yolo", labels, "--boxes", "2"}, "--boxes"},
		"dataset not a set":  {[]string{"--dataset", dir}, "--dataset"},
		"bad folds":          {[]string{"--dataset", diceData, "--folds", "7"}, "--folds"},
		"stray argument":     {[]string{"extra"}, "unknown command"},
		"image is directory": {[]string{"--image", dir, "--yolo", labels}, "--image"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, code, msg := run(t, "", append([]string{"vision", "dice"}, tc.args...)...)
			assert.Equal(t, 2, code, msg)
			assert.Contains(t, msg, tc.want)
			assert.False(t, strings.Contains(msg, "panic"))
		})
	}
}

func TestVisionDiceDataset(t *testing.T) {
	dicePhoto(t)
	out, code, msg := run(t, "", "vision", "dice", "--dataset", diceData, "--folds", "0", "--method", "classic", "--json")
	require.Equal(t, 0, code, msg)
	var rep struct {
		Dice      int       `json:"dice"`
		Accuracy  float64   `json:"accuracy"`
		PerValue  []float64 `json:"per_value_accuracy"`
		Confusion [][]int   `json:"confusion"`
		MsPerDie  float64   `json:"ms_per_die"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep), out)
	assert.Greater(t, rep.Dice, 500)
	assert.Len(t, rep.PerValue, 6)
	assert.Len(t, rep.Confusion, 6)
	assert.Greater(t, rep.MsPerDie, 0.0)
}
