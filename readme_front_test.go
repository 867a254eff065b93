package main

import (
	"bytes"
	endian "encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The top README is the front door: what a newcomer reads in the first ten
// minutes. The rest lives in the areas' READMEs, which it links.

// maxFrontDoorLines bounds README.md (#35: "at most 450").
const maxFrontDoorLines = 450

// TestREADMEFrontDoor: README.md stays short, keeps the two commands
// exactly as CI runs them, and links the README of every area.
func TestREADMEFrontDoor(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	if n := strings.Count(readme, "\n"); n > maxFrontDoorLines {
		t.Errorf("README.md has %d lines, at most %d: move the details into the areas' READMEs", n, maxFrontDoorLines)
	}
	if !strings.Contains(readme, "```sh\ngo run . ring\ngo test -race ./...\n```") {
		t.Error("README.md no longer shows the two commands `go run . ring` and `go test -race ./...` in one sh block")
	}
	ci, err := os.ReadFile(filepath.Join(".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^go test -race -timeout \d+m \./\.\.\.$`).Match(ci) {
		t.Error(".ci/run no longer runs the README's test command (go test -race ./..., with a timeout)")
	}
	for _, area := range []string{"ring", "mutex", "election", "exercises", "engine", "engine/serve", "examples"} {
		if !strings.Contains(readme, "]("+area+"/README.md") {
			t.Errorf("README.md links no %s/README.md", area)
		}
	}
}

// readmeImage is an image a README shows: ![alt](path).
var readmeImage = regexp.MustCompile(`!\[[^\]]*\]\(([^)\s]+)\)`)

// Bounds of a sane screenshot: big enough to read, small enough to keep in
// the repository.
const (
	maxPNGBytes            = 200 << 10
	minPNGSide, maxPNGSide = 400, 2000
)

// TestREADMEImages: every image a README shows exists, and every PNG among
// them is a valid PNG of a readable size that is at most 200 KB. It reads
// only the files, so it runs everywhere (the screenshots are retaken by
// TestScreenshots, with Chromium).
func TestREADMEImages(t *testing.T) {
	pngs := 0
	for _, file := range allREADMEs(t) {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range readmeImage.FindAllStringSubmatch(string(b), -1) {
			if strings.Contains(m[1], "://") {
				continue
			}
			p := filepath.Join(filepath.Dir(file), filepath.FromSlash(m[1]))
			data, err := os.ReadFile(p)
			if err != nil {
				t.Errorf("%s shows %s: %v", file, m[1], err)
				continue
			}
			if filepath.Ext(p) != ".png" {
				continue
			}
			pngs++
			cfg, err := png.DecodeConfig(bytes.NewReader(data))
			if err == nil {
				err = pngChunks(data)
			}
			if err != nil {
				t.Errorf("%s shows %s, not a valid PNG: %v", file, m[1], err)
				continue
			}
			w, h := cfg.Width, cfg.Height
			if len(data) > maxPNGBytes {
				t.Errorf("%s shows %s: %d KB, at most %d KB", file, m[1], len(data)>>10, maxPNGBytes>>10)
			}
			if min(w, h) < minPNGSide || max(w, h) > maxPNGSide {
				t.Errorf("%s shows %s: %dx%d pixels, want sides between %d and %d", file, m[1], w, h, minPNGSide, maxPNGSide)
			}
		}
	}
	if pngs < 5 {
		t.Errorf("found only %d PNG images in the READMEs; is the extraction broken?", pngs)
	}
}

// pngChunks walks a PNG's chunks after its signature and checks each one's
// CRC and that the last is IEND: a cut or damaged file fails, at a small
// part of the cost of decoding it (which the race detector makes slow).
func pngChunks(data []byte) error {
	const signature = 8
	if len(data) < signature {
		return errors.New("shorter than a PNG signature")
	}
	for rest := data[signature:]; ; {
		if len(rest) < 12 {
			return errors.New("cut: no IEND chunk at the end")
		}
		n := int(endian.BigEndian.Uint32(rest))
		if n > len(rest)-12 {
			return fmt.Errorf("cut: a %q chunk of %d bytes runs past the end", rest[4:8], n)
		}
		typ, body := rest[4:8], rest[4:8+n]
		if crc32.ChecksumIEEE(body) != endian.BigEndian.Uint32(rest[8+n:]) {
			return fmt.Errorf("damaged: the %q chunk's CRC differs", typ)
		}
		if string(typ) == "IEND" {
			if len(rest) != 12+n {
				return errors.New("bytes after the IEND chunk")
			}
			return nil
		}
		rest = rest[12+n:]
	}
}
