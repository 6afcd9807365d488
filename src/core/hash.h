/*-------------------------------------------------------------------------
 *
 * hash.h
 *		Byte order and hashing helpers of the core: little-endian loads and
 *		stores, XXH3 over the canonical bytes of a key, and the 64x64->128
 *		multiply that maps a hash onto a range.
 *
 * Plain C, no PostgreSQL.  Everything here is inline: a key's hash costs
 * about as much as a call through the shared library would.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_CORE_HASH_H
#define BLOOM_CORE_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

/*
 * XXH3's output is fixed only from xxHash 0.8.0 on (its release notes: the
 * XXH3 and XXH128 formats are stable from 0.8.0; 0.7.x hashed otherwise).
 * Built against an older xxHash, this library would hash keys differently
 * from every filter, index and reader made with a newer one: silent false
 * negatives.  So the build stops.
 */
#if !defined(XXH_VERSION_NUMBER) || XXH_VERSION_NUMBER < 800
#error "bloomtype needs xxHash 0.8.0 or later (Debian: libxxhash-dev >= 0.8.0): XXH3's output is stable only from 0.8.0, and an older one would hash keys differently from stored filters"
#endif

/*
 * Little-endian helpers.  On little-endian machines they are plain 8-byte
 * copies: byte-by-byte stores followed by an 8-byte load (as when a key is
 * encoded and then hashed) defeat store forwarding and cost ten times the
 * hash itself.
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define BLOOM_LITTLE_ENDIAN 1
#endif

static inline uint64_t
bloom_get_le64(const uint8_t *p)
{
#ifdef BLOOM_LITTLE_ENDIAN
	uint64_t	v;

	memcpy(&v, p, 8);
	return v;
#else
	return (uint64_t) p[0] | ((uint64_t) p[1] << 8) | ((uint64_t) p[2] << 16) |
		((uint64_t) p[3] << 24) | ((uint64_t) p[4] << 32) |
		((uint64_t) p[5] << 40) | ((uint64_t) p[6] << 48) |
		((uint64_t) p[7] << 56);
#endif
}

static inline void
bloom_put_le64(uint8_t *p, uint64_t v)
{
#ifdef BLOOM_LITTLE_ENDIAN
	memcpy(p, &v, 8);
#else
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t) (v >> (8 * i));
#endif
}

/*
 * Hashing: XXH3-64 with the filter's seed over the canonical bytes of a key
 * (docs/FORMAT.md has the table of encodings).
 */
static inline uint64_t
bloom_hash_bytes(uint64_t seed, const void *data, size_t len)
{
	return XXH3_64bits_withSeed(data, len, seed);
}

/* Integers of every width are one 8-byte little-endian key */
static inline uint64_t
bloom_hash_int64(uint64_t seed, int64_t v)
{
	uint8_t		buf[8];

	bloom_put_le64(buf, (uint64_t) v);
	return XXH3_64bits_withSeed(buf, 8, seed);
}

/* Floats are float8, with -0 and every NaN normalised to one key each */
static inline uint64_t
bloom_hash_float8(uint64_t seed, double v)
{
	uint64_t	bits;
	uint8_t		buf[8];

	if (v == 0.0)
		v = 0.0;				/* -0 and +0 are one key */
	if (v != v)
		bits = UINT64_C(0x7FF8000000000000);	/* every NaN is one key */
	else
		memcpy(&bits, &v, 8);
	bloom_put_le64(buf, bits);
	return XXH3_64bits_withSeed(buf, 8, seed);
}

/*
 * The high 64 bits of a * b: maps a hash onto [0, b) by multiply-shift
 * (Lemire's "fastrange"), without a division.
 */
static inline uint64_t
bloom_mulhi64(uint64_t a, uint64_t b)
{
#ifdef __SIZEOF_INT128__
	return (uint64_t) (((unsigned __int128) a * b) >> 64);
#else
	uint64_t	a_lo = (uint32_t) a,
				a_hi = a >> 32,
				b_lo = (uint32_t) b,
				b_hi = b >> 32;
	uint64_t	lo_lo = a_lo * b_lo,
				hi_lo = a_hi * b_lo,
				lo_hi = a_lo * b_hi,
				hi_hi = a_hi * b_hi;
	uint64_t	cross = (lo_lo >> 32) + (uint32_t) hi_lo + lo_hi;

	return hi_hi + (hi_lo >> 32) + (cross >> 32);
#endif
}

#endif							/* BLOOM_CORE_HASH_H */
