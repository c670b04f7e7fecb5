package main

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/blueprints-companion/blueprints/vision/internal/cnn"
)

func writeNets(t *testing.T, path string, a cnn.Arch, n int, seed uint64) []*cnn.Net {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	var nets []*cnn.Net
	for i := 0; i < n; i++ {
		net, err := cnn.New(a, rng)
		require.NoError(t, err)
		nets = append(nets, net)
	}
	data, err := cnn.MarshalEnsemble(nets)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, data, 0o644))
	return nets
}

func TestMergeKeepsEveryNetworkInOrder(t *testing.T) {
	dir := t.TempDir()
	a := cnn.Arch{InC: 1, Side: 8, Convs: []int{2}, Hidden: 4, Classes: 6}
	first := writeNets(t, filepath.Join(dir, "a.cnn"), a, 1, 1)
	second := writeNets(t, filepath.Join(dir, "b.cnn"), a, 2, 2)
	out := filepath.Join(dir, "m.cnn")
	var log bytes.Buffer
	require.NoError(t, run([]string{"-out", out, filepath.Join(dir, "a.cnn"), filepath.Join(dir, "b.cnn")}, &log))
	assert.Contains(t, log.String(), "3 networks")
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	got, err := cnn.UnmarshalAll(data)
	require.NoError(t, err)
	require.Len(t, got, 3)
	// each member reads an input as the network it came from
	x := make([]float32, 64)
	for i := range x {
		x[i] = float32(i%7) / 7
	}
	for i, want := range append(first, second...) {
		ws, wg := want.NewWorkspace(), got[i].NewWorkspace()
		require.NoError(t, ws.Forward(x))
		require.NoError(t, wg.Forward(x))
		assert.Equal(t, ws.Prob, wg.Prob, "member %d", i)
	}
}

// With -mixed, networks of other input sides merge into one file, which
// only cnn.UnmarshalMixed reads back.
func TestMergeMixedSides(t *testing.T) {
	dir := t.TempDir()
	writeNets(t, filepath.Join(dir, "a.cnn"), cnn.Arch{InC: 1, Side: 8, Convs: []int{2}, Hidden: 4, Classes: 6}, 2, 1)
	writeNets(t, filepath.Join(dir, "b.cnn"), cnn.Arch{InC: 1, Side: 16, Convs: []int{2}, Hidden: 4, Classes: 6}, 1, 2)
	out := filepath.Join(dir, "m.cnn")
	require.NoError(t, run([]string{"-mixed", "-out", out, filepath.Join(dir, "a.cnn"), filepath.Join(dir, "b.cnn")}, &bytes.Buffer{}))
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	_, err = cnn.UnmarshalAll(data)
	assert.Error(t, err, "members of other sides")
	got, err := cnn.UnmarshalMixed(data)
	require.NoError(t, err)
	require.Len(t, got, 3)
	assert.Equal(t, []int{8, 8, 16}, []int{got[0].Arch.Side, got[1].Arch.Side, got[2].Arch.Side})
}

func TestMergeRefusesBadInput(t *testing.T) {
	dir := t.TempDir()
	writeNets(t, filepath.Join(dir, "a.cnn"), cnn.Arch{InC: 1, Side: 8, Convs: []int{2}, Hidden: 4, Classes: 6}, 1, 1)
	writeNets(t, filepath.Join(dir, "c.cnn"), cnn.Arch{InC: 1, Side: 8, Convs: []int{2}, Hidden: 4, Classes: 4}, 1, 3)
	writeNets(t, filepath.Join(dir, "s16.cnn"), cnn.Arch{InC: 1, Side: 16, Convs: []int{2}, Hidden: 4, Classes: 6}, 1, 4)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "junk.cnn"), []byte("not a network"), 0o644))
	out := filepath.Join(dir, "m.cnn")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{filepath.Join(dir, "a.cnn")}, "-out"},
		{[]string{"-out", out}, "no CNN files"},
		{[]string{"-out", out, filepath.Join(dir, "junk.cnn")}, "junk.cnn"},
		{[]string{"-out", out, filepath.Join(dir, "missing.cnn")}, "missing.cnn"},
		{[]string{"-out", out, filepath.Join(dir, "a.cnn"), filepath.Join(dir, "c.cnn")}, "c.cnn: reads"},
		{[]string{"-out", out, "-mixed", filepath.Join(dir, "a.cnn"), filepath.Join(dir, "c.cnn")}, "c.cnn: reads"}, // other classes
		{[]string{"-out", out, filepath.Join(dir, "a.cnn"), filepath.Join(dir, "s16.cnn")}, "s16.cnn: reads"},
	} {
		err := run(tc.args, &bytes.Buffer{})
		if assert.Error(t, err, "%v", tc.args) {
			assert.Contains(t, err.Error(), tc.want, "%v", tc.args)
		}
	}
	_, err := os.Stat(out)
	assert.True(t, os.IsNotExist(err), "nothing written on bad input")
}

func TestBlendMixesNetworkByNetwork(t *testing.T) {
	dir := t.TempDir()
	a := cnn.Arch{InC: 1, Side: 8, Convs: []int{2}, Hidden: 4, Classes: 6}
	first := writeNets(t, filepath.Join(dir, "a.cnn"), a, 2, 1)
	second := writeNets(t, filepath.Join(dir, "b.cnn"), a, 2, 2)
	writeNets(t, filepath.Join(dir, "one.cnn"), a, 1, 3)
	x := make([]float32, 64)
	for i := range x {
		x[i] = float32(i%5) / 5
	}
	read := func(path string) []*cnn.Net {
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		got, err := cnn.UnmarshalAll(data)
		require.NoError(t, err)
		return got
	}
	probs := func(n *cnn.Net) []float32 {
		ws := n.NewWorkspace()
		require.NoError(t, ws.Forward(x))
		return append([]float32(nil), ws.Prob...)
	}
	out := filepath.Join(dir, "m.cnn")
	for _, tc := range []struct {
		w    string
		want []*cnn.Net
	}{{"0", first}, {"1", second}} {
		var log bytes.Buffer
		require.NoError(t, run([]string{"-blend", tc.w, "-out", out, filepath.Join(dir, "a.cnn"), filepath.Join(dir, "b.cnn")}, &log))
		assert.Contains(t, log.String(), "2 networks")
		got := read(out)
		require.Len(t, got, 2)
		for i := range got {
			assert.InDeltaSlice(t, probs(tc.want[i]), probs(got[i]), 1e-5, "-blend %s member %d", tc.w, i)
		}
	}
	// halfway: neither end
	require.NoError(t, run([]string{"-blend", "0.5", "-out", out, filepath.Join(dir, "a.cnn"), filepath.Join(dir, "b.cnn")}, &bytes.Buffer{}))
	half := read(out)
	assert.NotEqual(t, probs(first[0]), probs(half[0]))
	assert.NotEqual(t, probs(second[0]), probs(half[0]))

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-blend", "1.5", "-out", out, filepath.Join(dir, "a.cnn"), filepath.Join(dir, "b.cnn")}, "0-1"},
		{[]string{"-blend", "0.5", "-out", out, filepath.Join(dir, "a.cnn")}, "two CNN files"},
		{[]string{"-blend", "0.5", "-out", out, filepath.Join(dir, "a.cnn"), filepath.Join(dir, "one.cnn")}, "holds 2 networks"},
		{[]string{"-blend", "0.5", "-out", out, filepath.Join(dir, "a.cnn"), filepath.Join(dir, "missing.cnn")}, "missing.cnn"},
	} {
		err := run(tc.args, &bytes.Buffer{})
		if assert.Error(t, err, "%v", tc.args) {
			assert.Contains(t, err.Error(), tc.want, "%v", tc.args)
		}
	}
}
