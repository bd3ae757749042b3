package packages

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// ErrIntegrity is a tarball whose digest is not the one the registry
// published.
var ErrIntegrity = errors.New("integrity check failed")

// digest is the strongest hash an integrity string (or a legacy sha1
// shasum) names, and the value the tarball must have.
type digest struct {
	algo string
	h    hash.Hash
	want string // base64 for SRI, hex for a shasum
	hex  bool
}

// newDigest reads an SRI "integrity" value (space-separated
// "sha512-<base64>" entries; the strongest supported wins) or, without
// one, the sha1 "shasum".
func newDigest(integrity, shasum string) (*digest, error) {
	rank := map[string]int{"sha1": 1, "sha256": 2, "sha384": 3, "sha512": 4}
	var best *digest
	for _, e := range strings.Fields(integrity) {
		algo, val, ok := strings.Cut(e, "-")
		if !ok || rank[algo] == 0 {
			continue
		}
		if best != nil && rank[algo] <= rank[best.algo] {
			continue
		}
		if i := strings.IndexByte(val, '?'); i >= 0 {
			val = val[:i]
		}
		var h hash.Hash
		switch algo {
		case "sha1":
			h = sha1.New()
		case "sha256":
			h = sha256.New()
		case "sha384":
			h = sha512.New384()
		default:
			h = sha512.New()
		}
		best = &digest{algo: algo, h: h, want: val}
	}
	if best == nil && shasum != "" {
		best = &digest{algo: "sha1", h: sha1.New(), want: strings.ToLower(shasum), hex: true}
	}
	if best == nil {
		return nil, errors.New("the registry published no integrity or shasum")
	}
	return best, nil
}

func (d *digest) check() error {
	sum := d.h.Sum(nil)
	got := base64.StdEncoding.EncodeToString(sum)
	if d.hex {
		got = hex.EncodeToString(sum)
	}
	if got != d.want {
		return fmt.Errorf("%w: %s wanted %s, got %s", ErrIntegrity, d.algo, d.want, got)
	}
	return nil
}

// Download fetches a version's tarball, checks it against the published
// integrity and extracts it into dir (which must not exist yet). The
// tarball is kept in a temporary file until its digest checks out, so
// nothing from a corrupt or tampered download is ever extracted.
func (r *Registry) Download(ctx context.Context, v *PackageVersion, dir string) error {
	d, err := newDigest(v.Dist.Integrity, v.Dist.Shasum)
	if err != nil {
		return fmt.Errorf("%s@%s: %w", v.Name, v.Version, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(dir), ".tarball-*")
	if err != nil {
		return fmt.Errorf("download %s@%s: %w", v.Name, v.Version, err)
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	if err := r.fetch(ctx, v.Dist.Tarball, io.MultiWriter(tmp, d.h)); err != nil {
		return err
	}
	if err := d.check(); err != nil {
		return fmt.Errorf("%s@%s (%s): %w", v.Name, v.Version, v.Dist.Tarball, err)
	}
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("extract %s@%s: %w", v.Name, v.Version, err)
	}
	if err := extractTarball(tmp, dir); err != nil {
		return fmt.Errorf("extract %s@%s: %w", v.Name, v.Version, err)
	}
	return nil
}

// extractTarball unpacks a gzipped npm tarball into dir, dropping the
// first path component ("package/" by convention, but any name) as npm
// does. Only directories and regular files are written (npm drops links
// and devices); an entry that would land outside dir is an error.
func extractTarball(r io.Reader, dir string) error {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return err
	}
	defer gz.Close()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		name := strings.TrimPrefix(path.Clean("/"+strings.ReplaceAll(h.Name, "\\", "/")), "/")
		_, rest, ok := strings.Cut(name, "/")
		if !ok || rest == "" {
			continue
		}
		target := filepath.Join(dir, filepath.FromSlash(rest))
		if !strings.HasPrefix(target, dir+string(filepath.Separator)) {
			return fmt.Errorf("entry %q is outside the package", h.Name)
		}
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(target, 0o755); err != nil {
				return err
			}
		case tar.TypeReg, tar.TypeRegA:
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				return err
			}
			mode := os.FileMode(0o644)
			if h.Mode&0o111 != 0 {
				mode = 0o755
			}
			f, err := os.OpenFile(target, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, mode)
			if err != nil {
				return err
			}
			_, err = io.Copy(f, tr)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
		}
	}
}
