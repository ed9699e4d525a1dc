/* gasnet_portable_platform.h: which compiler, operating system and CPU
 * architecture is compiling this file, as preprocessor macros (C and C++).
 * Needs nothing else: clients include it alone, gasnet_tools.h (so also
 * gasnetex.h and gasnet.h) includes it.
 *
 * Each fact is a macro defined to 1 or left undefined:
 *   PLATFORM_COMPILER_<FAMILY> and PLATFORM_COMPILER_<FAMILY>_C or _CXX
 *     (GNU, CLANG; UNKNOWN for any other), PLATFORM_OS_<OS> (LINUX,
 *     DARWIN, FREEBSD, UNKNOWN), PLATFORM_ARCH_<ARCH> (X86_64, X86,
 *     AARCH64, POWERPC, UNKNOWN), PLATFORM_ARCH_32 or _64,
 *     PLATFORM_ARCH_LITTLE_ENDIAN or _BIG_ENDIAN;
 * and descriptions:
 *   PLATFORM_{COMPILER,OS,ARCH}_FAMILYNAME  a bare word (GNU, LINUX, X86_64);
 *     PLATFORM_STRINGIFY() makes it a string
 *   PLATFORM_COMPILER_FAMILYID  an integer per family (GNU 1, CLANG 2,
 *     UNKNOWN 0); PLATFORM_COMPILER_ID one per family and language
 *   PLATFORM_COMPILER_VERSION   PLATFORM_COMPILER_VERSION_INT(major, minor,
 *     patch) of this compiler, compared by _VERSION_{GT,GE,LT,LE,EQ}(maj,
 *     min, pat); _VERSION_STR is "major.minor.patch"
 *   PLATFORM_COMPILER_C_LANGLVL (C: __STDC_VERSION__) or
 *     PLATFORM_COMPILER_CXX_LANGLVL (C++: __cplusplus)
 *   PLATFORM_COMPILER_IDSTR     one string with all of the above, e.g.
 *     "|COMPILER_FAMILY:GNU|COMPILER_VERSION:12.2.0|COMPILER_FAMILYID:1|
 *      STD:__STDC__,__STDC_VERSION__=201710L|misc:12.2.0"
 * Only the GNU family id (1) is the same number in every GASNet release;
 * compare the others by name.
 */
#ifndef _GASNET_PORTABLE_PLATFORM_H
#define _GASNET_PORTABLE_PLATFORM_H

#define PLATFORM_HEADER_VERSION 12

#define PLATFORMI_STRINGIFY_(x) #x
#define PLATFORM_STRINGIFY(x) PLATFORMI_STRINGIFY_(x)

/* ---- compiler (clang first: it also defines __GNUC__) */
#define PLATFORM_COMPILER_VERSION_INT(maj, min, pat) (((maj) << 16) | ((min) << 8) | (pat))
#if defined(__clang__)
#define PLATFORM_COMPILER_CLANG 1
#define PLATFORM_COMPILER_FAMILYNAME CLANG
#define PLATFORM_COMPILER_FAMILYID 2
#define PLATFORMI_FAMILY_STR "CLANG"
#define PLATFORMI_MAJOR __clang_major__
#define PLATFORMI_MINOR __clang_minor__
#define PLATFORMI_PATCH __clang_patchlevel__
#ifdef __cplusplus
#define PLATFORM_COMPILER_CLANG_CXX 1
#else
#define PLATFORM_COMPILER_CLANG_C 1
#endif
#elif defined(__GNUC__)
#define PLATFORM_COMPILER_GNU 1
#define PLATFORM_COMPILER_FAMILYNAME GNU
#define PLATFORM_COMPILER_FAMILYID 1
#define PLATFORMI_FAMILY_STR "GNU"
#define PLATFORMI_MAJOR __GNUC__
#define PLATFORMI_MINOR __GNUC_MINOR__
#define PLATFORMI_PATCH __GNUC_PATCHLEVEL__
#ifdef __cplusplus
#define PLATFORM_COMPILER_GNU_CXX 1
#else
#define PLATFORM_COMPILER_GNU_C 1
#endif
#else
#define PLATFORM_COMPILER_UNKNOWN 1
#define PLATFORM_COMPILER_FAMILYNAME UNKNOWN
#define PLATFORM_COMPILER_FAMILYID 0
#define PLATFORMI_FAMILY_STR "UNKNOWN"
#define PLATFORMI_MAJOR 0
#define PLATFORMI_MINOR 0
#define PLATFORMI_PATCH 0
#endif

#ifdef __cplusplus
#define PLATFORM_COMPILER_ID (2 * PLATFORM_COMPILER_FAMILYID + 1)
#define PLATFORM_COMPILER_CXX_LANGLVL __cplusplus
#define PLATFORMI_STD_STR "__STDC__,__cplusplus=" PLATFORM_STRINGIFY(__cplusplus)
#else
#define PLATFORM_COMPILER_ID (2 * PLATFORM_COMPILER_FAMILYID)
#ifdef __STDC_VERSION__
#define PLATFORM_COMPILER_C_LANGLVL __STDC_VERSION__
#define PLATFORMI_STD_STR "__STDC__,__STDC_VERSION__=" PLATFORM_STRINGIFY(__STDC_VERSION__)
#else /* C89/C90 */
#define PLATFORM_COMPILER_C_LANGLVL 199000L
#define PLATFORMI_STD_STR "__STDC__"
#endif
#endif

#define PLATFORM_COMPILER_VERSION PLATFORM_COMPILER_VERSION_INT(PLATFORMI_MAJOR, PLATFORMI_MINOR, PLATFORMI_PATCH)
#define PLATFORM_COMPILER_VERSION_STR \
    PLATFORM_STRINGIFY(PLATFORMI_MAJOR) "." PLATFORM_STRINGIFY(PLATFORMI_MINOR) "." PLATFORM_STRINGIFY(PLATFORMI_PATCH)
#define PLATFORM_COMPILER_VERSION_GT(maj, min, pat) \
    (PLATFORM_COMPILER_VERSION > PLATFORM_COMPILER_VERSION_INT(maj, min, pat))
#define PLATFORM_COMPILER_VERSION_GE(maj, min, pat) \
    (PLATFORM_COMPILER_VERSION >= PLATFORM_COMPILER_VERSION_INT(maj, min, pat))
#define PLATFORM_COMPILER_VERSION_LT(maj, min, pat) \
    (PLATFORM_COMPILER_VERSION < PLATFORM_COMPILER_VERSION_INT(maj, min, pat))
#define PLATFORM_COMPILER_VERSION_LE(maj, min, pat) \
    (PLATFORM_COMPILER_VERSION <= PLATFORM_COMPILER_VERSION_INT(maj, min, pat))
#define PLATFORM_COMPILER_VERSION_EQ(maj, min, pat) \
    (PLATFORM_COMPILER_VERSION == PLATFORM_COMPILER_VERSION_INT(maj, min, pat))

#ifdef __VERSION__
#define PLATFORMI_MISC_STR __VERSION__
#else
#define PLATFORMI_MISC_STR ""
#endif
#define PLATFORM_COMPILER_IDSTR                                                          \
    "|COMPILER_FAMILY:" PLATFORMI_FAMILY_STR "|COMPILER_VERSION:" PLATFORM_COMPILER_VERSION_STR \
    "|COMPILER_FAMILYID:" PLATFORM_STRINGIFY(PLATFORM_COMPILER_FAMILYID) "|STD:" PLATFORMI_STD_STR \
    "|misc:" PLATFORMI_MISC_STR

/* ---- operating system */
#if defined(__linux__)
#define PLATFORM_OS_LINUX 1
#define PLATFORM_OS_FAMILYNAME LINUX
#elif defined(__APPLE__) && defined(__MACH__)
#define PLATFORM_OS_DARWIN 1
#define PLATFORM_OS_FAMILYNAME DARWIN
#elif defined(__FreeBSD__)
#define PLATFORM_OS_FREEBSD 1
#define PLATFORM_OS_FAMILYNAME FREEBSD
#else
#define PLATFORM_OS_UNKNOWN 1
#define PLATFORM_OS_FAMILYNAME UNKNOWN
#endif

/* ---- architecture */
#if defined(__x86_64__)
#define PLATFORM_ARCH_X86_64 1
#define PLATFORM_ARCH_FAMILYNAME X86_64
#elif defined(__i386__)
#define PLATFORM_ARCH_X86 1
#define PLATFORM_ARCH_FAMILYNAME X86
#elif defined(__aarch64__)
#define PLATFORM_ARCH_AARCH64 1
#define PLATFORM_ARCH_FAMILYNAME AARCH64
#elif defined(__powerpc__) || defined(__powerpc64__)
#define PLATFORM_ARCH_POWERPC 1
#define PLATFORM_ARCH_FAMILYNAME POWERPC
#else
#define PLATFORM_ARCH_UNKNOWN 1
#define PLATFORM_ARCH_FAMILYNAME UNKNOWN
#endif
#if defined(__LP64__) || defined(_LP64) || (defined(__SIZEOF_POINTER__) && __SIZEOF_POINTER__ == 8)
#define PLATFORM_ARCH_64 1
#else
#define PLATFORM_ARCH_32 1
#endif
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define PLATFORM_ARCH_BIG_ENDIAN 1
#else
#define PLATFORM_ARCH_LITTLE_ENDIAN 1
#endif

#endif /* _GASNET_PORTABLE_PLATFORM_H */
