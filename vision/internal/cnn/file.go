package cnn

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"

	"github.com/blueprints-companion/blueprints/vision/internal/vec"
)

// The model file: the magic line, the architecture as little-endian int32
// (InC, Side, number of convs, each conv's channels, Hidden, Classes, flags), every
// parameter as little-endian float32 in params order, then a CRC-32 (IEEE)
// of everything before it.
const magic = Magic

// Magic is how a model file begins.
const Magic = "blueprints-cnn v1\n"

// Architecture flags in the header.
const flagGAP = 1

// ErrFormat is returned for a model file that cannot be read.
var ErrFormat = errors.New("cnn: not a model file")

// MarshalBinary encodes the network as a model file.
func (n *Net) MarshalBinary() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString(magic)
	a := n.Arch
	hdr := []int32{int32(a.InC), int32(a.Side), int32(len(a.Convs))}
	for _, c := range a.Convs {
		hdr = append(hdr, int32(c))
	}
	flags := int32(0)
	if a.GAP {
		flags |= flagGAP
	}
	hdr = append(hdr, int32(a.Hidden), int32(a.Classes), flags)
	if err := binary.Write(&buf, binary.LittleEndian, hdr); err != nil {
		return nil, err
	}
	for _, p := range n.params() {
		if err := binary.Write(&buf, binary.LittleEndian, p); err != nil {
			return nil, err
		}
	}
	if err := binary.Write(&buf, binary.LittleEndian, crc32.ChecksumIEEE(buf.Bytes())); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Unmarshal decodes a model file made by MarshalBinary.
func Unmarshal(data []byte) (*Net, error) {
	if len(data) < len(magic)+4 || string(data[:len(magic)]) != magic {
		return nil, fmt.Errorf("%w: missing header", ErrFormat)
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return nil, fmt.Errorf("%w: checksum mismatch (damaged file)", ErrFormat)
	}
	r := bytes.NewReader(body[len(magic):])
	readInt := func() (int, error) {
		var v int32
		if err := binary.Read(r, binary.LittleEndian, &v); err != nil {
			return 0, fmt.Errorf("%w: short header: %v", ErrFormat, err)
		}
		return int(v), nil
	}
	var a Arch
	var err error
	if a.InC, err = readInt(); err != nil {
		return nil, err
	}
	if a.Side, err = readInt(); err != nil {
		return nil, err
	}
	nc, err := readInt()
	if err != nil {
		return nil, err
	}
	if nc < 1 || nc > 8 {
		return nil, fmt.Errorf("%w: %d conv blocks", ErrFormat, nc)
	}
	for i := 0; i < nc; i++ {
		c, err := readInt()
		if err != nil {
			return nil, err
		}
		a.Convs = append(a.Convs, c)
	}
	if a.Hidden, err = readInt(); err != nil {
		return nil, err
	}
	if a.Classes, err = readInt(); err != nil {
		return nil, err
	}
	flags, err := readInt()
	if err != nil {
		return nil, err
	}
	if flags&^flagGAP != 0 {
		return nil, fmt.Errorf("%w: unknown flags %#x", ErrFormat, flags)
	}
	a.GAP = flags&flagGAP != 0
	if err := a.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	// Check the size before allocating, so a forged header cannot ask for
	// gigabytes.
	if want := a.paramCount(); int64(r.Len()) != 4*want {
		return nil, fmt.Errorf("%w: %d bytes of parameters, want %d", ErrFormat, r.Len(), 4*want)
	}
	n, err := New(a, nil)
	if err != nil {
		return nil, err
	}
	for _, p := range n.params() {
		if err := binary.Read(r, binary.LittleEndian, p); err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%w: %v", ErrFormat, err)
		}
		for _, v := range p {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return nil, fmt.Errorf("%w: parameter is not finite", ErrFormat)
			}
		}
		// Subnormal weights (training's weight decay leaves many) change
		// no reading but make every multiply by them slow on many
		// processors: they are read as zero.
		vec.FlushSubnormals(p)
	}
	n.hidden.wt, n.hidden.wtRows = denseWT(n.hidden.w, n.hidden.in, n.hidden.out)
	return n, nil
}

// paramCount is the number of parameters a network of architecture a has.
func (a Arch) paramCount() int64 {
	var t int64
	c, s := int64(a.InC), int64(a.Side)
	for _, k := range a.Convs {
		t += int64(k)*c*9 + int64(k)
		c, s = int64(k), s/2
	}
	flat := c * s * s
	if a.GAP {
		flat = c
	}
	t += int64(a.Hidden)*flat + int64(a.Hidden)
	return t + int64(a.Classes)*int64(a.Hidden) + int64(a.Classes)
}

// An ensemble file holds several networks that give the same classes
// (UnmarshalAll takes only members reading the same input too): the
// ensemble magic line, the number of members as a little-endian int32, each
// member as its length (int32) followed by its own model file (with its own
// checksum), then a CRC-32 (IEEE) of everything before it.
const ensembleMagic = EnsembleMagic

// EnsembleMagic is how a file of several networks (MarshalEnsemble)
// begins.
const EnsembleMagic = "blueprints-cnn ensemble v1\n"

// MaxMembers is the most networks an ensemble file may hold.
const MaxMembers = 16

// MarshalEnsemble encodes nets as one model file. One network is written as
// a plain model file (MarshalBinary); more as an ensemble file. The networks
// must give the same classes; members reading inputs of different channels
// or sides are read back only by UnmarshalMixed.
func MarshalEnsemble(nets []*Net) ([]byte, error) {
	if len(nets) == 0 || len(nets) > MaxMembers {
		return nil, fmt.Errorf("cnn: %d networks in an ensemble, want 1..%d", len(nets), MaxMembers)
	}
	if err := sameIO(nets, true); err != nil {
		return nil, err
	}
	if len(nets) == 1 {
		return nets[0].MarshalBinary()
	}
	var buf bytes.Buffer
	buf.WriteString(ensembleMagic)
	if err := binary.Write(&buf, binary.LittleEndian, int32(len(nets))); err != nil {
		return nil, err
	}
	for _, n := range nets {
		b, err := n.MarshalBinary()
		if err != nil {
			return nil, err
		}
		if err := binary.Write(&buf, binary.LittleEndian, int32(len(b))); err != nil {
			return nil, err
		}
		buf.Write(b)
	}
	if err := binary.Write(&buf, binary.LittleEndian, crc32.ChecksumIEEE(buf.Bytes())); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// UnmarshalAll decodes a model file holding one network (MarshalBinary) or
// several (MarshalEnsemble). The networks of an ensemble take the same input
// and give the same classes.
func UnmarshalAll(data []byte) ([]*Net, error) { return unmarshalAll(data, false) }

// UnmarshalMixed is UnmarshalAll for an ensemble whose members may read
// different inputs (grey and colour networks, or patches of other sides,
// averaged): each member's Arch.InC and Arch.Side say which.
func UnmarshalMixed(data []byte) ([]*Net, error) { return unmarshalAll(data, true) }

func unmarshalAll(data []byte, mixed bool) ([]*Net, error) {
	if len(data) < len(ensembleMagic) || string(data[:len(ensembleMagic)]) != ensembleMagic {
		n, err := Unmarshal(data)
		if err != nil {
			return nil, err
		}
		return []*Net{n}, nil
	}
	if len(data) < len(ensembleMagic)+8 {
		return nil, fmt.Errorf("%w: short ensemble header", ErrFormat)
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return nil, fmt.Errorf("%w: checksum mismatch (damaged file)", ErrFormat)
	}
	rest := body[len(ensembleMagic):]
	count := int32(binary.LittleEndian.Uint32(rest))
	rest = rest[4:]
	if count < 1 || count > MaxMembers {
		return nil, fmt.Errorf("%w: %d networks in an ensemble, want 1..%d", ErrFormat, count, MaxMembers)
	}
	nets := make([]*Net, 0, count)
	for i := 0; i < int(count); i++ {
		if len(rest) < 4 {
			return nil, fmt.Errorf("%w: ensemble member %d: short length", ErrFormat, i+1)
		}
		size := int64(int32(binary.LittleEndian.Uint32(rest)))
		rest = rest[4:]
		if size < 0 || size > int64(len(rest)) {
			return nil, fmt.Errorf("%w: ensemble member %d: %d bytes, %d left", ErrFormat, i+1, size, len(rest))
		}
		n, err := Unmarshal(rest[:size])
		if err != nil {
			return nil, fmt.Errorf("ensemble member %d: %w", i+1, err)
		}
		nets = append(nets, n)
		rest = rest[size:]
	}
	if len(rest) != 0 {
		return nil, fmt.Errorf("%w: %d bytes after the last ensemble member", ErrFormat, len(rest))
	}
	if err := sameIO(nets, mixed); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	return nets, nil
}

// sameIO checks that the networks take the same input and give the same
// classes; with mixed, their inputs may differ in channels and side.
func sameIO(nets []*Net, mixed bool) error {
	a := nets[0].Arch
	for i, n := range nets[1:] {
		if b := n.Arch; ((b.InC != a.InC || b.Side != a.Side) && !mixed) || b.Classes != a.Classes {
			return fmt.Errorf("cnn: ensemble member %d reads %d×%d×%d into %d classes, member 1 %d×%d×%d into %d",
				i+2, b.InC, b.Side, b.Side, b.Classes, a.InC, a.Side, a.Side, a.Classes)
		}
	}
	return nil
}
