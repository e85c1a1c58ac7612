#include "TallyBuildInfo.h"
#include <stddef.h>

const char *_Nullable tally_build_commit(void) {
#ifdef TALLY_BUILD_COMMIT
    return TALLY_BUILD_COMMIT;
#else
    return NULL;
#endif
}
