#ifndef TALLY_BUILD_INFO_H
#define TALLY_BUILD_INFO_H

/// The git commit this binary was built from, as `scripts/release` passes it in
/// (TALLY_BUILD_COMMIT in the environment of `swift build`, read by Package.swift);
/// NULL in a build from source that was not given one.
const char *_Nullable tally_build_commit(void);

#endif
