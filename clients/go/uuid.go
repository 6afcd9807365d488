package bloomtype

import (
	"encoding/hex"
	"fmt"
)

// UUID is a uuid key: its 16 bytes, as Postgres stores and hashes them.
type UUID [16]byte

// ParseUUID reads a uuid in the forms Postgres' uuid input accepts: 32 hex
// digits of either case, optionally in braces, with a hyphen allowed after
// any group of four digits (so "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
// "{a0eebc999c0b4ef8bb6d6bb9bd380a11}" and "a0ee-bc99-9c0b-4ef8-bb6d-6bb9-bd38-0a11"
// are one uuid). Nothing else: no spaces, no hyphen at the end.
func ParseUUID(s string) (UUID, error) {
	var u UUID
	src := s
	braces := false
	if len(src) > 0 && src[0] == '{' {
		src = src[1:]
		braces = true
	}
	for i := 0; i < 16; i++ {
		if len(src) < 2 {
			return UUID{}, uuidSyntax(s)
		}
		hi, ok1 := hexDigit(src[0])
		lo, ok2 := hexDigit(src[1])
		if !ok1 || !ok2 {
			return UUID{}, uuidSyntax(s)
		}
		u[i] = hi<<4 | lo
		src = src[2:]
		// as string_to_uuid in Postgres' src/backend/utils/adt/uuid.c
		if len(src) > 0 && src[0] == '-' && i%2 == 1 && i < 15 {
			src = src[1:]
		}
	}
	if braces {
		if len(src) == 0 || src[0] != '}' {
			return UUID{}, uuidSyntax(s)
		}
		src = src[1:]
	}
	if len(src) != 0 {
		return UUID{}, uuidSyntax(s)
	}
	return u, nil
}

func uuidSyntax(s string) error {
	return fmt.Errorf("bloomtype: invalid input syntax for type uuid: %q", s)
}

func hexDigit(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// String is the canonical text form, as Postgres prints a uuid.
func (u UUID) String() string {
	var b [36]byte
	hex.Encode(b[0:8], u[0:4])
	b[8] = '-'
	hex.Encode(b[9:13], u[4:6])
	b[13] = '-'
	hex.Encode(b[14:18], u[6:8])
	b[18] = '-'
	hex.Encode(b[19:23], u[8:10])
	b[23] = '-'
	hex.Encode(b[24:], u[10:])
	return string(b[:])
}
