/*
 * A stand-in for xxHash 0.7.3's header, its version macros only: the
 * builds of the library (src/core/hash.h) and of the Go reader must refuse
 * it (scripts/test.sh, clients/go/run-tests.sh unit)
 */
#define XXH_VERSION_MAJOR 0
#define XXH_VERSION_MINOR 7
#define XXH_VERSION_RELEASE 3
#define XXH_VERSION_NUMBER (XXH_VERSION_MAJOR * 100 * 100 + XXH_VERSION_MINOR * 100 + XXH_VERSION_RELEASE)
