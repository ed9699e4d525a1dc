/* The library's ident strings: "$GASNetKey: value $" texts that ident(1)
 * and strings(1) find in any program linked with the library. Clients and
 * launchers read them (a runtime's launcher refuses a program without
 * "$GASNetConduitName: MPI $"); the keys are those a real install embeds.
 * core.c refers to gasneti_idents, so every program that links the core
 * carries them. Build-specific values (host, tuple, git hash, flavour)
 * come from the make rule for this file. */
#include "gasnet_internal.h"

#ifndef GASNETI_IDENT_SYSTEM
#define GASNETI_IDENT_SYSTEM "unknown"
#endif
#ifndef GASNETI_IDENT_TUPLE
#define GASNETI_IDENT_TUPLE "unknown"
#endif
#ifndef GASNETI_IDENT_GITHASH
#define GASNETI_IDENT_GITHASH "unknown"
#endif
#ifndef GASNETI_IDENT_FLAVOR
#define GASNETI_IDENT_FLAVOR "unknown"
#endif

#define IDENT(key, value) "$GASNet" key ": " value " $"
#define S GASNETI_STRINGIFY

#if defined(__clang__)
#define COMPILER_FAMILY "CLANG|COMPILER_VERSION:" S(__clang_major__) "." S(__clang_minor__) "." S(__clang_patchlevel__) "|COMPILER_FAMILYID:16"
#elif defined(__GNUC__)
#define COMPILER_FAMILY "GNU|COMPILER_VERSION:" S(__GNUC__) "." S(__GNUC_MINOR__) "." S(__GNUC_PATCHLEVEL__) "|COMPILER_FAMILYID:1"
#else
#define COMPILER_FAMILY "UNKNOWN|COMPILER_VERSION:0|COMPILER_FAMILYID:0"
#endif

__attribute__((used)) const char *const gasneti_idents[] = {
    "$GASNetConfig: " GASNET_CONFIG_STRING " $",
    IDENT("APIVersion", S(GASNET_SPEC_VERSION_MAJOR)),
    IDENT("EXAPIVersion", S(GEX_SPEC_VERSION_MAJOR) "." S(GEX_SPEC_VERSION_MINOR)),
    IDENT("ConduitName", "MPI"),
    IDENT("CoreLibraryName", "MPI"),
    IDENT("CoreLibraryVersion", "2.0"),
    IDENT("ExtendedLibraryName", "REFERENCE"),
    IDENT("ExtendedLibraryVersion", S(GASNET_RELEASE_VERSION_MAJOR) "." S(GASNET_RELEASE_VERSION_MINOR)),
    IDENT("ThreadModel", "GASNET_" GASNETI_THREADMODEL_STR),
    IDENT("Segment", "GASNET_SEGMENT_FAST"),
    IDENT("DefaultMaxSegsizeStr", "0.85/H"),
    IDENT("CompilerID", "|COMPILER_FAMILY:" COMPILER_FAMILY "|STD:__STDC__,__STDC_VERSION__=" S(__STDC_VERSION__) "|misc:" __VERSION__ "|"),
    IDENT("BuildTimestamp", __DATE__ " " __TIME__),
    IDENT("BuildId", GASNETI_IDENT_SYSTEM " " __DATE__ " " __TIME__),
    IDENT("ConfigureArgs", "make FLAVOR=" GASNETI_IDENT_FLAVOR),
    IDENT("GitHash", GASNETI_IDENT_GITHASH),
    IDENT("SystemName", GASNETI_IDENT_SYSTEM),
    IDENT("SystemTuple", GASNETI_IDENT_TUPLE),
    IDENT("Diagnostics", "(libgasnet) INCLUDES extended/diagnostics.o"),
    /* VIS: strided transfers of any number of dimensions go through one
     * general loop; pieces are packed into AMs of up to 65000 bytes. */
    IDENT("StridedVersion", "2.0"),
    IDENT("StridedDirectDims", "0"),
    IDENT("StridedLoopingDims", "any"),
    IDENT("VISMinPackBuffer", "65000"),
    IDENT("VISNPAM", "0"),
    NULL};
